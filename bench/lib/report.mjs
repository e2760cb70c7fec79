// report.mjs — the markdown report of a results object (bench/results/latest.md).
const ms = (v) => (v == null || !Number.isFinite(v) ? '–' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 0.1 ? v.toFixed(2) : v.toFixed(3));
const mib = (b) => (b == null ? '–' : b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(1)} MiB` : `${(b / 1024).toFixed(0)} KiB`);
const kib = (b) => (b == null ? '–' : `${(b / 1024).toFixed(1)} KiB`);
const x = (v) => (v == null || !Number.isFinite(v) ? '–' : `${v >= 10 ? v.toFixed(0) : v.toFixed(1)}×`);

export function markdown(r) {
  const m = r.machine;
  const out = [];
  out.push(`# Benchmark results${r.quick ? ' (quick smoke run)' : ''}`, '');
  out.push(`${m.date} · ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB · ${m.os} · Node ${m.node} (V8 ${m.v8}) · load average (1/5/15 min) at start ${m.loadStart.join(' / ')}, at end ${(m.loadEnd ?? []).join(' / ')} · ${r.elapsedS} s`, '');
  for (const g of m.merged ?? []) out.push(`Merged from a separate run (${g.sizes.join(', ')}): ${g.date}${g.elapsedS ? `, ${g.elapsedS} s` : ''}, load average at start ${g.loadStart.join(' / ')}, at end ${(g.loadEnd ?? []).join(' / ')}.`, '');
  out.push('Times in ms. Speedup columns are peer ÷ toolsift (how many times faster toolsift is; < 1× means slower). Memory: retained = JS heap + external (incl. wasm linear memory) after build and GC, minus before; peak RSS = the process high-water mark above its RSS before the build (fresh process per engine).', '');
  for (const [key, c] of Object.entries(r.catalogs)) {
    if (c.skipped) {
      out.push(`## ${key}`, '', `skipped: ${c.skipped}`, '');
      continue;
    }
    out.push(`## ${c.label} — ${c.tools.toLocaleString('en')} tools, ${mib(c.catalogBytes)} JSON, ${c.queries} queries`, '');
    if (c.tools >= 100000) out.push('At 100k the engines run one after the other (not interleaved: all the indexes at once do not fit one V8 heap); memory is the retained heap + external in the benchmark process (no peak RSS); one build.', '');
    out.push('| engine | build | query p50 | p95 | p99 | serialised (gzip) | load | retained mem | peak RSS | build × | p50 × | load × |');
    out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    const t = c.engines.toolsift;
    for (const [name, e] of Object.entries(c.engines)) {
      if (e.skipped || !e.buildMs) {
        out.push(`| ${name} | skipped: ${e.skipped ?? 'not run'} |||||||||||`);
        continue;
      }
      const sp = (a, b) => (t?.[a] && name !== 'toolsift' ? x(e[a][b] / t[a][b]) : '');
      out.push(`| ${name === 'toolsift' ? '**toolsift**' : name} | ${ms(e.buildMs.median)} | ${ms(e.queryMs.p50)} | ${ms(e.queryMs.p95)} | ${ms(e.queryMs.p99)} | ${mib(e.serialized.bytes)} (${mib(e.serialized.gzipBytes)})${e.loadSameResults === false ? ' ⚠' : ''} | ${ms(e.loadMs.median)} | ${mib(e.memory?.retainedBytes)} | ${mib(e.memory?.peakRssAbove)} | ${sp('buildMs', 'median')} | ${sp('queryMs', 'p50')} | ${sp('loadMs', 'median')} |`);
    }
    if (c.toolsiftSearchJSON) out.push(`| toolsift searchJSON (no JSON.parse) | | ${ms(c.toolsiftSearchJSON.p50)} | ${ms(c.toolsiftSearchJSON.p95)} | ${ms(c.toolsiftSearchJSON.p99)} | | | | | | | |`);
    out.push('');
  }
  const nat = Object.entries(r.native ?? {});
  if (nat.length) {
    out.push('## toolsift: native C vs wasm through the JS binding', '');
    out.push('| catalog | native build | wasm build | native typed p50 / p99 | native JSON p50 / p99 | wasm searchJSON p50 / p99 | wasm searchJSON alone p50 (÷ native JSON) | wasm search() p50 / p99 | native load | wasm load |');
    out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [key, n] of nat) {
      const c = r.catalogs[key];
      const t = c?.engines?.toolsift;
      if (n.error) {
        out.push(`| ${key} | ${n.error} |||||||||`);
        continue;
      }
      out.push(`| ${c?.label ?? key} | ${ms(n.build_ms.p50)} | ${ms(t?.buildMs?.median)} | ${ms(n.search_typed_ms.p50)} / ${ms(n.search_typed_ms.p99)} | ${ms(n.search_json_ms.p50)} / ${ms(n.search_json_ms.p99)} | ${ms(c?.toolsiftSearchJSON?.p50)} / ${ms(c?.toolsiftSearchJSON?.p99)} | ${c?.toolsiftSearchJSONAlone ? `${ms(c.toolsiftSearchJSONAlone.p50)} (${(c.toolsiftSearchJSONAlone.p50 / n.search_json_ms.p50).toFixed(2)}×)` : '–'} | ${ms(t?.queryMs?.p50)} / ${ms(t?.queryMs?.p99)} | ${ms(n.snapshot_load_ms.p50)} | ${ms(t?.loadMs?.median)} |`);
    }
    out.push('');
  }
  const f5 = Object.entries(r.nativeFts5 ?? {});
  const f5rel = Object.entries(r.relevance ?? {}).filter(([, row]) => row.fts5Native || row.engines['sqlite-fts5']);
  if (f5.length || f5rel.length) {
    out.push('## SQLite FTS5 vs toolsift', '');
    out.push("FTS5 gets pre-extracted, pre-tokenised text (the six fields, identifier-split, stopwords out: bench/lib/fts5.mjs) and times only SQLite's work; toolsift's build parses the catalog JSON, walks the schemas and applies the trust policy inside its timed build. Natively: bench/native/fts5_bench.c on the system's libsqlite3 (in-memory build, one transaction, then 'optimize'; load = open the database file read-only + the first query) vs bench/native/toolsift_bench (load = snapshot). In wasm: @sqlite.org/sqlite-wasm through its JS API vs toolsift's module through js/toolsift.js (load = sqlite3_deserialize + one query vs indexFromSnapshot). Index size: FTS5's database (page_count × page_size) vs toolsift's snapshot. Build ×, p50 × = FTS5 ÷ toolsift (> 1: toolsift faster).", '');
    out.push('| catalog | where | toolsift build | FTS5 build | build × | toolsift p50 / p99 | FTS5 p50 / p99 | p50 × | toolsift size | FTS5 size | toolsift load | FTS5 load |');
    out.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [key, c] of Object.entries(r.catalogs ?? {})) {
      if (c.skipped) continue;
      const n = r.native?.[key], f = r.nativeFts5?.[key];
      if (n && !n.error && f && !f.error)
        out.push(`| ${c.label} | native (SQLite ${f.sqlite}) | ${ms(n.build_ms.p50)} | ${ms(f.build_ms.p50)} | ${x(f.build_ms.p50 / n.build_ms.p50)} | ${ms(n.search_typed_ms.p50)} / ${ms(n.search_typed_ms.p99)} | ${ms(f.search_ms.p50)} / ${ms(f.search_ms.p99)} | ${x(f.search_ms.p50 / n.search_typed_ms.p50)} | ${mib(n.snapshot_bytes)} | ${mib(f.db_bytes)} | ${ms(n.snapshot_load_ms.p50)} | ${ms(f.load_ms.p50)} |`);
      else if (f?.error) out.push(`| ${c.label} | native | ${f.error} |||||||||||`);
      const t = c.engines?.toolsift, w = c.engines?.['sqlite-fts5'];
      if (t?.buildMs && w?.buildMs)
        out.push(`| ${c.label} | wasm (${(r.engines['sqlite-fts5']?.version ?? '').replace(/ \(.*/, '')}) | ${ms(t.buildMs.median)} | ${ms(w.buildMs.median)} | ${x(w.buildMs.median / t.buildMs.median)} | ${ms(t.queryMs.p50)} / ${ms(t.queryMs.p99)} | ${ms(w.queryMs.p50)} / ${ms(w.queryMs.p99)} | ${x(w.queryMs.p50 / t.queryMs.p50)} | ${mib(t.serialized.bytes)} | ${mib(w.serialized.bytes)} | ${ms(t.loadMs.median)} | ${ms(w.loadMs.median)} |`);
    }
    if (f5rel.length) {
      out.push('', 'On the relevance sets (natively: build and query over every query of the set; nDCG@10 of FTS5 from the native driver and from the wasm build, which agree when the SQLite versions rank alike):', '');
      out.push('| set (tools, queries) | toolsift nDCG@10 | FTS5 nDCG@10 native / wasm | toolsift native build | FTS5 native build | build × | toolsift native p50 / p99 | FTS5 native p50 / p99 | toolsift snapshot | FTS5 db |');
      out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
      for (const [set, row] of f5rel) {
        const t = row.toolsiftNative, f = row.fts5Native;
        const tok = t && !t.error, fok = f && !f.error;
        out.push(`| ${set} (${row.tools}, ${row.queries}) | ${row.engines.toolsift?.ndcg10?.toFixed(4) ?? '–'} | ${fok ? f.ndcg10.toFixed(4) : '–'} / ${row.engines['sqlite-fts5']?.ndcg10?.toFixed(4) ?? '–'} | ${tok ? ms(t.build_ms.p50) : '–'} | ${fok ? ms(f.buildMs.p50) : f?.error ?? '–'} | ${tok && fok ? x(f.buildMs.p50 / t.build_ms.p50) : '–'} | ${tok ? `${ms(t.search_typed_ms.p50)} / ${ms(t.search_typed_ms.p99)}` : '–'} | ${fok ? `${ms(f.searchMs.p50)} / ${ms(f.searchMs.p99)}` : '–'} | ${tok ? mib(t.snapshot_bytes) : '–'} | ${fok ? mib(f.dbBytes) : '–'} |`);
      }
    }
    out.push('');
  }
  const rel = Object.entries(r.relevance ?? {});
  if (rel.length) {
    const names = Object.keys(r.engines);
    out.push('## Relevance: nDCG@10', '');
    out.push(`| set (tools, queries) | ${names.join(' | ')} | core eval (toolsift / plain BM25) |`);
    out.push(`|---|${names.map(() => '---:').join('|')}|---:|`);
    for (const [set, row] of rel) {
      const vals = names.map((n) => row.engines[n]?.ndcg10);
      const best = Math.max(...vals.filter((v) => v !== undefined));
      out.push(`| ${set} (${row.tools}, ${row.queries}) | ${names.map((n, i) => (vals[i] === undefined ? (row.engines[n]?.skipped ? 'n/a' : '–') : vals[i] === best ? `**${vals[i].toFixed(4)}**` : vals[i].toFixed(4))).join(' | ')} | ${row.coreEvalNdcg10 != null ? Number(row.coreEvalNdcg10).toFixed(4) : '–'} / ${row.plainBm25Ndcg10 != null ? Number(row.plainBm25Ndcg10).toFixed(4) : '–'} |`);
    }
    out.push('');
  }
  const bun = Object.entries(r.bundles ?? {});
  if (bun.length && !r.bundles.error) {
    out.push('## Bundle size (esbuild --minify, gzip -9)', '');
    out.push('| engine | JS min | JS gzip | wasm | wasm gzip | total gzip |');
    out.push('|---|---:|---:|---:|---:|---:|');
    for (const [n, b] of bun) out.push(`| ${n} | ${kib(b.jsBytes)} | ${kib(b.jsGzip)} | ${kib(b.wasmBytes)} | ${kib(b.wasmGzip)} | **${kib(b.totalGzip)}** |`);
    const serving = r.bundles.toolsift?.servingWasmGzip;
    if (serving) out.push('', `toolsift's serving module (toolsift-serving.wasm: no evaluation or learning, what edge deployments load): ${kib(serving)} gzip.`);
    out.push('');
  }
  if (r.floors) {
    out.push('## Floors (synthetic 10k, this run)', '');
    out.push('| floor | need | measured | met |', '|---|---|---|---|');
    for (const [k, f] of Object.entries(r.floors)) {
      const v = k === 'relevance' ? f.sets.map((s) => `${s.set}: ${s.toolsift?.toFixed(4)} vs ${s.bestPeer} ${s.bestPeerNdcg10?.toFixed(4)}`).join('; ') : k === 'wasmGzip' || k === 'servingWasmGzip' ? `${f.value?.toLocaleString('en')} bytes` : x(f.value);
      out.push(`| ${k} | ${f.need} | ${v} | ${f.met ? 'yes' : '**no**'} |`);
    }
    out.push('');
  }
  out.push('## Engine configurations', '');
  for (const [n, e] of Object.entries(r.engines)) out.push(`- **${n}** ${e.version}: ${e.config}`);
  out.push('');
  return out.join('\n');
}
