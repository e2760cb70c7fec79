// record.mjs — record a gateway session with the MCP SDK client and print
// its journal: the example configuration (server-everything,
// server-filesystem, server-memory through npx), three searches, two
// forwarded calls. The journal (JSON Lines) is what the playground opens.
//
//   node examples/mcp/record.mjs [JOURNAL_DIR]     (default: a temporary folder)

import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const journalDir = path.resolve(process.argv[2] ?? mkdtempSync(path.join(tmpdir(), 'toolsift-mcp-journal-')));
const client = new Client({ name: 'toolsift-example', version: '1.0.0' });
await client.connect(new StdioClientTransport({
  command: process.execPath,
  args: [path.join(here, '../../js/mcp/cli.js'), '--config', path.join(here, 'gateway.json'), '--journal-dir', journalDir],
  stderr: 'ignore',
}));

const show = async (what) => console.log(`${what}:`, (await client.listTools()).tools.map((t) => t.name).join(', '));
// Tools that match well are loaded; weaker matches are only listed (load
// one with the query select:name); a miss says why in its note.
const search = async (query) => {
  const r = JSON.parse((await client.callTool({ name: 'search_tools', arguments: { query } })).content[0].text);
  const hits = r.tools.map((t) => (t.loaded ? t.name : `${t.name} (${t.match}, listed)`)).join(', ');
  console.log(`search_tools(${JSON.stringify(query)}) →`, hits || '(nothing)', r.note ? `— ${r.note}` : '');
};

await show('listed at start');
await search('echo a message back');
console.log('everything__echo →', (await client.callTool({ name: 'everything__echo', arguments: { message: 'hello' } })).content[0].text);
await search('cat a file');
const readme = await client.callTool({ name: 'fs__read_text_file', arguments: { path: 'README.md', head: 1 } });
console.log('fs__read_text_file →', readme.content[0].text.trim());
const refused = await client.callTool({ name: 'memory__create_entities', arguments: { entities: [] } });
console.log('memory__create_entities (not loaded) →', refused.content[0].text);
await search('get the sum of two numbers');
await show('listed at the end');
await client.close();
const [file] = readdirSync(journalDir).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(journalDir, f));
console.log(`\njournal: ${file}\nreplay:  node js/mcp/cli.js --replay ${file}`);
