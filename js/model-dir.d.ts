// Types of js/model-dir.js: a static model's files by name ("glove") or
// folder (model2vec, or sentence-transformers' 0_StaticEmbedding/), read
// within their bounds. Node only. docs/semantic.md, "Model folders".
import type { StaticModel, Toolsift } from './toolsift.js';

/** The largest file of each kind, in bytes. */
export declare const MODEL_FILE_LIMITS: Readonly<{ safetensors: number; tokenizer: number; config: number }>;
/** "glove": the project's real model (npm run model). */
export declare const GLOVE: 'glove';
export declare const STATIC_EMBEDDING_DIR: '0_StaticEmbedding';

/** Where "glove" points: env TOOLSIFT_GLOVE_DIR, else build/models/glove in this package. */
export declare function gloveDir(): string;

export interface ModelPaths {
  /** The folder given, or glove's. */
  dir: string;
  name: 'glove' | null;
  layout: 'model2vec' | 'sentence-transformers';
  safetensors: string;
  tokenizer: string;
  /** config.json beside model.safetensors, whether or not it exists. */
  config: string;
}

/** The files of a model without reading them. Throws ToolsiftError 'io' (glove not built) or 'arg'. */
export declare function resolveModelDir(nameOrDir: string): ModelPaths;

export interface ModelBytes {
  safetensors: Uint8Array;
  tokenizer: Uint8Array;
  /** config.json's bytes, or null when there is none. */
  config: Uint8Array | null;
}

/** One model file, whole, within the bound of its kind. Throws ToolsiftError 'io' or 'limit' naming the file. */
export declare function readModelFile(file: string, kind: keyof typeof MODEL_FILE_LIMITS): Uint8Array;
/** The files at these paths, in this order; config null when its path is null or absent. */
export declare function readModelFiles(paths: { safetensors: string; tokenizer: string; config?: string | null }): ModelBytes;
/** resolveModelDir, then its files read. */
export declare function readModelDir(nameOrDir: string): ModelPaths & { bytes: ModelBytes };
/** A StaticModel in `toolsift` (load()'s value) from a name or folder: options.model of the SDK adapters. The caller frees it. */
export declare function loadStaticModelDir(toolsift: Toolsift, nameOrDir: string): StaticModel;
