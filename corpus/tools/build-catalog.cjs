const fs = require('fs');
const tools = [
  ...require('./parts/p1_dev.cjs'), ...require('./parts/p2_comm.cjs'), ...require('./parts/p3_data.cjs'),
  ...require('./parts/p4_ops.cjs'), ...require('./parts/p5_web.cjs'), ...require('./parts/p6_remote.cjs'),
  // second wave
  ...require('./parts/p7_data2.cjs'), ...require('./parts/p8_work.cjs'), ...require('./parts/p9_comm2.cjs'),
  ...require('./parts/p10_ops2.cjs'), ...require('./parts/p11_misc.cjs'), ...require('./parts/p12_remote2.cjs'),
];
// tool-supplied labels on a few local tools (one deliberately messy, to exercise label normalisation)
const own = {
  docker__run_container: { tags: ['containers'] },
  terraform__plan: { tags: ['iac', 'infrastructure'] },
  kubernetes__apply_manifest: { tags: ['kubectl', 'deploy'] },
  sentry__get_issue_details: { aliases: ['  Stack   Trace ', 'stack trace', 'ＤＥＢＵＧ error'] },
  git__blame: { aliases: ['who changed this line'] },
  s3__generate_presigned_url: { aliases: ['share link', 'temporary download URL'] },
  postgres__describe_table: { tags: ['database', 'schema'] },
};
const order = ['id', 'name', 'title', 'description', 'inputSchema', 'tags', 'aliases', 'origin', 'trusted', 'tainted', 'annotations'];
for (let k = 0; k < tools.length; k++) {
  const t = tools[k];
  if (!t.id || !own[t.id]) continue;
  const m = { ...t, ...own[t.id] }; const r = {};
  for (const f of order) if (m[f] !== undefined) r[f] = m[f];
  tools[k] = r; delete own[t.id];
}
if (Object.keys(own).length) throw new Error('unknown own-label ids: ' + Object.keys(own));
const annotations = {
  jira__create_issue: { tags: ['ticketing', 'project management'], aliases: ['open ticket', 'file a bug', 'report a bug'] },
  postgres__run_query: { tags: ['database', 'sql'], aliases: ['query the database'] },
  mysql__execute_query: { tags: ['database', 'sql'] },
  sqlite__read_query: { tags: ['database', 'sql'] },
  github__create_pull_request: { aliases: ['open a PR', 'pull request'] },
  gitlab__createMergeRequest: { aliases: ['open an MR', 'pull request'] },
  slack__send_message: { tags: ['chat'], aliases: ['notify the team', 'ping a channel'] },
  gmail__send_email: { aliases: ['mail someone', 'write an email'] },
  google_calendar__query_free_busy: { aliases: ['find a meeting time', 'availability'] },
  kubernetes__get_pod_logs: { tags: ['k8s', 'debugging'], aliases: ['kubectl logs'] },
  pagerduty__trigger_incident: { aliases: ['page on-call', 'wake someone up'] },
  translate__translate_text: { tags: ['i18n'], aliases: ['翻译', '翻訳', 'übersetzen'] },
  zendesk__create_ticket: { tags: ['support'], aliases: ['open a support ticket', 'customer complaint'] },
  stripe__create_refund: { aliases: ['give money back', 'refund customer'] },
  browser__snapshot: { aliases: ['read the page', 'accessibility tree'] },
  filesystem__edit_file: { aliases: ['patch a file', 'search and replace'] },
  'weather__get_forecast': { tags: ['weather', 'forecast'] },
  research_agent__deep_research: { tags: ['research', 'report'] },
  // second wave
  snowflake__execute_sql: { tags: ['database', 'sql', 'warehouse'] },
  bigquery__run_query: { tags: ['sql', 'warehouse'] },
  asana__create_task: { aliases: ['add a to-do'] },
  opsgenie__create_alert: { aliases: ['page the team'] },
  intercom__reply_to_conversation: { tags: ['support', 'customer chat'] },
  supabase__list_tables: { tags: ['database'] },
  zoom__create_meeting: { aliases: ['video call'] },
  'calculator__evaluate': { tags: ['math'] },
  'units__convert': { aliases: ['unit conversion'] },
  feishu__send_message: { aliases: ['lark message'] },
};
// Skills (SPEC S8) ride along in the same document; the eval ignores them.
const skills = require('./parts/skills.cjs');
const doc = { tools, skills, annotations };
fs.writeFileSync(process.argv[2], JSON.stringify(doc, null, 2) + '\n');
