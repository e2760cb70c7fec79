// Graded queries for corpus/queries.jsonl.  Usage: node queries.cjs ../queries.jsonl
//
// Each query is judged against the whole catalog.  Tools that do the same job in
// different products are kept in FAMILIES below, so that an unscoped query grades
// every member the same way and a product-scoped query can name one member.
// Grades: 3 primary match, 2 good alternative, 1 partially relevant; {} = nothing fits.
// Never graded: tainted tools (they are never loaded) and self-promoting tools
// (omnibox__*, megatool__*), whose descriptions claim to do everything.
const fs = require('fs');

const FAM = {
  // databases
  LT: ['postgres__list_tables', 'mysql__list_tables', 'sqlite__list_tables', 'snowflake__list_tables', 'bigquery__list_tables', 'clickhouse__list_tables', 'dynamodb__list_tables', 'supabase__list_tables'],
  DESC: ['postgres__describe_table', 'mysql__describe_table', 'sqlite__describe_table', 'snowflake__describe_table', 'bigquery__get_table_schema'],
  SQL: ['postgres__run_query', 'mysql__execute_query', 'sqlite__read_query', 'snowflake__execute_sql', 'bigquery__run_query', 'clickhouse__run_query', 'supabase__execute_sql', 'duckdb__query'],
  // trackers
  SI: ['github__search_issues', 'jira__search_issues', 'gitlab__searchIssues', 'linear__search-issues', 'youtrack__search_issues'],
  CI: ['github__create_issue', 'jira__create_issue', 'gitlab__createIssue', 'linear__create-issue', 'youtrack__create_issue'],
  PR: ['github__create_pull_request', 'bitbucket__create_pull_request'],
  COMMENT: ['jira__add_comment', 'linear__add-comment', 'asana__add_comment'],
  // communication
  CHAT: ['slack__send_message', 'discord__send_message', 'teams__send_message', 'telegram__send_message', 'feishu__send_message', 'mattermost__create_post', 'line__push_message', 'teams__send_chat_message'],
  EMAIL: ['gmail__send_email', 'sendgrid__send_email', 'outlook__send_mail'],
  SMS: ['twilio__send_sms', 'sipgate__send_sms'],
  MEET: ['teams__create_meeting', 'zoom__create_meeting', 'google_calendar__create_event', 'outlook__create_calendar_event'],
  // ops
  METRICS: ['datadog__query_metrics', 'prometheus__query_range', 'grafana__query_prometheus', 'cloudwatch__get_metric_statistics'],
  LOGS: ['datadog__search_logs', 'cloudwatch__filter_log_events', 'kubernetes__get_pod_logs', 'docker__container_logs', 'supabase__get_logs'],
  BUILDLOG: ['gitlab__getJobLog', 'jenkins__get_build_console', 'bitbucket__get_pipeline_step_log', 'vercel__get_deployment_build_logs'],
  PAGE: ['pagerduty__trigger_incident', 'opsgenie__create_alert'],
  ONCALL: ['pagerduty__list_oncalls', 'opsgenie__get_on_calls'],
  // money, files, support
  REFUND: ['stripe__create_refund', 'paypal__refund_capture'],
  UPLOAD: ['google_drive__upload_file', 'dropbox__upload_file', 's3__put_object', 'gcs__upload_object', 'azure_blob__upload_blob'],
  LINK: ['s3__generate_presigned_url', 'gcs__sign_url', 'dropbox__create_shared_link'],
  TICKET: ['zendesk__create_ticket', 'freshdesk__create_ticket'],
  TRANSLATE: ['translate__translate_text'],
};
const NEVER = new Set(['notion__apply_template', 'zendesk__get_macro', 'calendly__get_event_type', 'omnibox__do_anything', 'omnibox__universal_search', 'omnibox__smart_sql', 'megatool__auto_route', 'megatool__lookup']);

// r(3, FAM.LT, 'x__y', 2, 'a__b', ...) -> {id: grade}; a number switches the grade for what follows; the highest grade wins.
function r(...args) {
  const out = {}; let g = 3;
  const put = (id) => { if (!(id in out) || out[id] < g) out[id] = g; };
  for (const x of args) {
    if (typeof x === 'number') g = x;
    else if (Array.isArray(x)) x.forEach(put);
    else put(x);
  }
  return out;
}
const NONE = {};
const Q = [];
const q = (cls) => (query, rel) => Q.push({ query, class: cls, relevance: rel });

// ============================ exact_name ============================
const ex = q('exact_name');
ex('list_tables', r(3, FAM.LT, 1, 'airtable__get_base_schema'));
ex('create_issue', r(3, FAM.CI, 2, 'azure_devops__createWorkItem'));
ex('search_issues', r(3, FAM.SI, 2, 'azure_devops__queryWorkItems', 1, 'sentry__list_issues'));
ex('send_message', r(3, 'slack__send_message', 'discord__send_message', 'teams__send_message', 'telegram__send_message', 'feishu__send_message',
  2, 'teams__send_chat_message', 'mattermost__create_post', 'line__push_message', 'whatsapp__send_text'));
ex('run_query', r(3, 'postgres__run_query', 'bigquery__run_query', 'clickhouse__run_query', 2, FAM.SQL, 1, 'sqlite__write_query', 'salesforce__runSoqlQuery'));
ex('describe_table', r(3, 'postgres__describe_table', 'mysql__describe_table', 'sqlite__describe_table', 'snowflake__describe_table', 2, 'bigquery__get_table_schema'));
ex('send_email', r(3, 'gmail__send_email', 'sendgrid__send_email', 2, 'outlook__send_mail'));
ex('create_pull_request', r(3, FAM.PR, 2, 'gitlab__createMergeRequest'));
ex('get_forecast', r(3, 'weather__get_forecast', 1, 'weather__get_current_conditions'));
ex('merge_pull_request', r(3, 'github__merge_pull_request'));
ex('upload_file', r(3, 'slack__upload_file', 'google_drive__upload_file', 'dropbox__upload_file', 2, 's3__put_object', 'gcs__upload_object', 'azure_blob__upload_blob'));
ex('list_channels', r(3, 'slack__list_channels', 'discord__list_channels', 'teams__list_channels', 'mattermost__list_channels'));
ex('generate_image', r(3, 'image_gen__generate_image'));
ex('create_meeting', r(3, 'teams__create_meeting', 'zoom__create_meeting', 2, 'google_calendar__create_event', 'outlook__create_calendar_event'));
ex('get_pod_logs', r(3, 'kubernetes__get_pod_logs', 1, 'docker__container_logs'));
ex('create_refund', r(3, 'stripe__create_refund', 2, 'paypal__refund_capture'));
ex('trigger_incident', r(3, 'pagerduty__trigger_incident', 2, 'opsgenie__create_alert'));
ex('search_files', r(3, 'filesystem__search_files', 'google_drive__search_files', 2, 'dropbox__search'));
ex('read_file', r(3, 'filesystem__read_file', 1, 'github__get_file_contents'));
ex('take_screenshot', r(3, 'browser__take_screenshot'));
ex('query_database', r(3, 'notion__query_database', 1, FAM.SQL));
ex('list_pods', r(3, 'kubernetes__list_pods'));
ex('purge_cache', r(3, 'cloudflare__purge_cache'));
ex('create_customer', r(3, 'stripe__create_customer', 1, 'hubspot__createContact'));
ex('execute_sql', r(3, 'snowflake__execute_sql', 'supabase__execute_sql', 2, FAM.SQL));
ex('upsert_vectors', r(3, 'pinecone__upsert_vectors'));
ex('send_sms', r(3, FAM.SMS, 1, 'whatsapp__send_text'));
ex('create_task', r(3, 'asana__create_task', 2, 'trello__create_card', 1, 'jira__create_issue', 'azure_devops__createWorkItem'));
ex('move_card', r(3, 'trello__move_card'));
ex('add_comment', r(3, FAM.COMMENT, 2, 'github__add_issue_comment', 1, 'figma__post_comment'));
ex('get_transcript', r(3, 'youtube__get_transcript', 1, 'speech__transcribe'));
ex('create_invoice', r(3, 'quickbooks__create_invoice'));
ex('call_service', r(3, 'homeassistant__call_service'));
ex('rollback', r(3, 'helm__rollback', 2, 'vercel__promote_deployment', 1, 'argocd__sync_application'));
ex('describe_instances', r(3, 'aws_ec2__describe_instances'));
ex('list_deployments', r(3, 'vercel__list_deployments'));
ex('search_videos', r(3, 'youtube__search_videos'));
ex('export_images', r(3, 'figma__export_images'));
ex('transcribe', r(3, 'speech__transcribe', 1, 'youtube__get_transcript'));
ex('create_entities', r(3, 'memory__create_entities'));
ex('evaluate', r(3, 'calculator__evaluate', 'browser__evaluate'));
ex('convert', r(3, 'fx__convert', 'units__convert', 2, 'time__convert_timezone'));

// ============================ namespaced_id ============================
const ns = q('namespaced_id');
for (const [query, id] of [
  ['github__create_issue', 'github__create_issue'], ['slack__send_message', 'slack__send_message'], ['discord.send_message', 'discord__send_message'],
  ['teams:send_chat_message', 'teams__send_chat_message'], ['mysql__list_tables', 'mysql__list_tables'], ['postgres.run_query', 'postgres__run_query'],
  ['stripe__create_refund', 'stripe__create_refund'], ['hubspot__createContact', 'hubspot__createContact'], ['zendesk__search_tickets', 'zendesk__search_tickets'],
  ['jira.transition_issue', 'jira__transition_issue'], ['linear__search-issues', 'linear__search-issues'], ['gitlab__createMergeRequest', 'gitlab__createMergeRequest'],
  ['gitlab:getJobLog', 'gitlab__getJobLog'], ['sqlite__read_query', 'sqlite__read_query'], ['kubernetes.get_pod_logs', 'kubernetes__get_pod_logs'],
  ['aws_lambda__invoke_function', 'aws_lambda__invoke_function'], ['s3.generate_presigned_url', 's3__generate_presigned_url'],
  ['google_calendar__query_free_busy', 'google_calendar__query_free_busy'], ['weather__get_forecast', 'weather__get_forecast'], ['fx__convert', 'fx__convert'],
  ['time__convert_timezone', 'time__convert_timezone'], ['snowflake__list_tables', 'snowflake__list_tables'], ['bigquery.run_query', 'bigquery__run_query'],
  ['dynamodb:query', 'dynamodb__query'], ['pinecone__query', 'pinecone__query'], ['azure_devops__createWorkItem', 'azure_devops__createWorkItem'],
  ['trello.create_card', 'trello__create_card'], ['zoom__create_meeting', 'zoom__create_meeting'], ['outlook:send_mail', 'outlook__send_mail'],
  ['docusign__send_envelope', 'docusign__send_envelope'], ['aws_ec2.stop_instances', 'aws_ec2__stop_instances'], ['helm__upgrade_install', 'helm__upgrade_install'],
  ['prometheus:query_range', 'prometheus__query_range'], ['opsgenie__create_alert', 'opsgenie__create_alert'], ['quickbooks.create_invoice', 'quickbooks__create_invoice'],
  ['paypal__refund_capture', 'paypal__refund_capture'], ['homeassistant.call_service', 'homeassistant__call_service'], ['units:convert', 'units__convert'],
  ['calculator__evaluate', 'calculator__evaluate'], ['intercom__reply_to_conversation', 'intercom__reply_to_conversation'], ['supabase.list_tables', 'supabase__list_tables'],
  ['freshdesk__create_ticket', 'freshdesk__create_ticket'], ['memory.search_nodes', 'memory__search_nodes'], ['research_agent__deep_research', 'research_agent__deep_research'],
]) ns(query, r(3, id));

// ============================ paraphrase (vocabulary gap) ============================
const pa = q('paraphrase');
pa('give a customer their money back', r(3, FAM.REFUND));
pa('wake up whoever is on call', r(3, FAM.PAGE, 1, FAM.ONCALL));
pa('which relations exist in my db', r(3, FAM.LT, 1, 'postgres__list_schemas', 'airtable__get_base_schema', 'neo4j__get_schema'));
pa('put a file in cloud storage', r(3, FAM.UPLOAD));
pa('kill a running docker box', r(3, 'docker__stop_container'));
pa('find a slot when everyone on the team is free', r(3, 'google_calendar__query_free_busy', 1, 'calendly__create_scheduling_link'));
pa("decline the invite to friday's offsite", r(3, 'google_calendar__respond_to_event'));
pa('mute someone in our discord server for an hour', r(3, 'discord__timeout_member'));
pa('turn a street address into lat/long', r(3, 'maps__geocode'));
pa("what's it going to be like outside this weekend", r(3, 'weather__get_forecast', 1, 'weather__get_current_conditions'));
pa('make the picture bigger without it getting blurry', r(3, 'image_gen__upscale_image'));
pa('cut the person out of the photo', r(3, 'image_gen__remove_background', 1, 'image_gen__edit_image'));
pa('who wrote this line of code', r(3, 'git__blame'));
pa('undo a bad release', r(3, 'helm__rollback', 'vercel__promote_deployment', 1, 'argocd__sync_application'));
pa('mark the to-do as finished', r(3, 'asana__update_task', 2, 'trello__move_card', 'jira__transition_issue', 'linear__update-issue'));
pa('a link someone can download from without logging in, that stops working later', r(3, FAM.LINK, 1, 'google_drive__share_file', 'url_shortener__shorten'));
pa('read this paragraph aloud', r(3, 'speech__synthesize'));
pa('how much is 100 dollars in yen', r(3, 'fx__convert'));
pa('compile the container image', r(3, 'docker__build_image'));
pa('bump the number of copies of the web app running', r(3, 'kubernetes__scale'));
pa('clear the CDN', r(3, 'cloudflare__purge_cache'));
pa('put a note on the timeline of a lead in the CRM', r(3, 'hubspot__logEngagement'));
pa('silence that noisy alert until morning', r(3, 'datadog__mute_monitor', 1, 'opsgenie__acknowledge_alert', 'pagerduty__acknowledge_incident'));
pa('get this contract signed by the client', r(3, 'docusign__send_envelope'));
pa('add someone to our mailing list', r(3, 'mailchimp__add_list_member', 'sendgrid__add_contacts'));
pa('how did the newsletter perform', r(3, 'mailchimp__get_campaign_report', 2, 'sendgrid__get_email_stats'));
pa('pay all our affiliates in one go', r(3, 'paypal__create_payout'));
pa('note that the client paid us', r(3, 'quickbooks__receive_payment'));
pa("what's apple trading at", r(3, 'market_data__get_quote'));
pa('put some music on', r(3, 'spotify__start_playback'));
pa('switch off the bedroom lamp', r(3, 'homeassistant__call_service'));
pa('figure out what language this is written in', r(3, 'translate__detect_language'));
pa('what do you remember about Dana', r(3, 'memory__search_nodes'));
pa('keep in mind that Sam prefers tea', r(3, 'memory__add_observations', 2, 'memory__create_entities'));
pa('nearest neighbour lookup over embeddings', r(3, 'pinecone__query'));
pa('wake the paused warehouse back up', r(3, 'snowflake__alter_warehouse', 1, 'snowflake__list_warehouses'));
pa('how many bytes would this query scan', r(3, 'bigquery__run_query', 1, 'postgres__explain_query'));
pa("who showed up to yesterday's video call", r(3, 'zoom__get_past_meeting_participants'));
pa('is my plane late', r(3, 'flights__get_flight_status'));
pa('grab the subtitles of a clip', r(3, 'youtube__get_transcript'));
pa('stop a query that is hogging the server', r(3, 'postgres__cancel_query', 1, 'postgres__list_active_queries', 'mysql__show_processlist'));
pa('see what changed but is not committed yet', r(3, 'git__diff', 2, 'git__status'));

// ============================ task_sentence ============================
const ts = q('task_sentence');
ts('The checkout service keeps crashing in production; pull the logs of the previous container to see why it died',
  r(3, 'kubernetes__get_pod_logs', 2, 'kubernetes__get_events', 1, 'kubernetes__describe_resource', 'docker__container_logs', 'datadog__search_logs', 'cloudwatch__filter_log_events'));
ts('Open a ticket in Jira for the login timeout bug and assign it to Priya', r(3, 'jira__create_issue', 2, 'jira__assign_issue'));
ts('Tell the #deploys channel on Slack that the release is out', r(3, 'slack__send_message', 1, 'slack__schedule_message'));
ts('Email the quarterly report PDF to finance@acme.com', r(3, 'gmail__send_email', 'outlook__send_mail', 2, 'sendgrid__send_email'));
ts('Figure out why this Postgres query is so slow', r(3, 'postgres__explain_query', 1, 'postgres__list_active_queries', 'postgres__describe_table', 'postgres__run_query'));
ts('Book a 30 minute call with the design team next Tuesday and send them a video link', r(3, FAM.MEET, 1, 'google_calendar__query_free_busy', 'calendly__create_scheduling_link'));
ts('Find all open pull requests waiting for review in the api repo', r(3, 'github__list_pull_requests', 2, 'bitbucket__list_pull_requests', 'github__search_issues'));
ts('Translate the welcome email into Spanish before we send it', r(3, 'translate__translate_text', 1, 'deepl__translate_document', FAM.EMAIL));
ts('The website still shows the old version after deploying, clear whatever is cached at the edge', r(3, 'cloudflare__purge_cache'));
ts('Our API is returning 500s, check the error rate over the last hour',
  r(3, 'datadog__query_metrics', 'prometheus__query_range', 'grafana__query_prometheus', 2, 'cloudwatch__get_metric_statistics', 'sentry__search_events', 'datadog__search_logs', 1, 'prometheus__query'));
ts('Spin up a redis container with port 6379 exposed', r(3, 'docker__run_container', 1, 'helm__upgrade_install'));
ts('Create a branch called feature/login and switch to it', r(3, 'git__checkout'));
ts("Commit all my changes with the message 'fix typo'", r(3, 'git__commit'));
ts('Refund order #1042, the customer got a damaged item', r(3, 'stripe__create_refund', 2, 'paypal__refund_capture', 'shopify__get_order'));
ts('Add 20 more units of the blue mug to our stock', r(3, 'shopify__adjust_inventory'));
ts('Create a 15% off code for Black Friday', r(3, 'shopify__create_discount_code'));
ts('Take a screenshot of the pricing page', r(3, 'browser__take_screenshot', 2, 'browser__navigate'));
ts('Look up which carrier this phone number belongs to', r(3, 'twilio__lookup_phone_number'));
ts('Give my manager read access to the budget spreadsheet in Drive', r(3, 'google_drive__share_file'));
ts('Find the signed contract PDF somewhere in my Google Drive', r(3, 'google_drive__search_files'));
ts('Merge these three PDFs into one file', r(3, 'pdf__merge_documents'));
ts('Pull the text out of this scanned invoice PDF', r(3, 'pdf__extract_text'));
ts('Append the new signups to the bottom of the sheet', r(3, 'spreadsheet__append_rows', 1, 'airtable__create_records', 'spreadsheet__write_range'));
ts('Get me driving directions from the hotel to the airport avoiding tolls', r(3, 'maps__get_directions'));
ts("Find a pharmacy near me that's open right now", r(3, 'maps__search_places'));
ts('Restart the web deployment so it picks up the new secret', r(3, 'kubernetes__rollout_restart'));
ts('Check who is on call for the payments team this weekend', r(3, FAM.ONCALL));
ts('Roll out the terraform changes, but let me review what will change first', r(3, 'terraform__plan', 2, 'terraform__apply'));
ts('Open a merge request from my feature branch in GitLab', r(3, 'gitlab__createMergeRequest'));
ts('Ship the new code to the resize-images lambda', r(3, 'aws_lambda__update_function_code'));
ts('Add a DNS A record for staging.example.com pointing at 203.0.113.9', r(3, 'cloudflare__create_dns_record'));
ts('Send the NDA to Ana and Ben for signature, Ana signs first', r(3, 'docusign__send_envelope'));
ts('Subscribe jo@example.com to the product updates audience with double opt-in', r(3, 'mailchimp__add_list_member', 1, 'sendgrid__add_contacts'));
ts('Put a QR code on the flyer that links to our signup page', r(3, 'qrcode__generate', 1, 'url_shortener__shorten'));
ts('Transcribe the interview recording and tell me who said what', r(3, 'speech__transcribe'));
ts('Store these product descriptions as embeddings so we can do semantic search later', r(3, 'pinecone__upsert_vectors', 1, 'elasticsearch__index_document'));
ts('Stop the dev EC2 boxes over the weekend to save money', r(3, 'aws_ec2__stop_instances', 1, 'scheduler__create_job'));
ts('Run this python snippet and show me the output', r(3, 'sandbox__run_code', 2, 'shell__run_command'));
ts('Install the ingress-nginx chart into the ingress namespace', r(3, 'helm__upgrade_install', 1, 'kubernetes__apply_manifest'));
ts('See why the build broke on main', r(3, FAM.BUILDLOG, 2, 'github__list_workflow_runs', 1, 'gitlab__listPipelines'));
ts('Let the support team know in Teams that the outage is over', r(3, 'teams__send_message', 2, 'teams__send_chat_message'));
ts('Save the API key as an encrypted env variable for production on Vercel', r(3, 'vercel__create_env_var'));

// ============================ parameter_only ============================
const po = q('parameter_only');
po('start a free trial period of 14 days', r(3, 'stripe__create_subscription'));
po('map host port 8080 and mount a volume', r(3, 'docker__run_container'));
po('give the lambda more memory and a longer timeout', r(3, 'aws_lambda__update_function_configuration'));
po('250 euros into another currency', r(3, 'fx__convert'));
po('set a warmer white colour temperature in kelvin', r(3, 'homeassistant__call_service'));
po('set the brightness to 40 pct', r(3, 'homeassistant__call_service'));
po('switch the hvac mode to cool', r(3, 'homeassistant__call_service'));
po('high error correction so a damaged print still scans', r(3, 'qrcode__generate'));
po('speaker diarization with word timestamps', r(3, 'speech__transcribe'));
po('a slower speaking rate in a different voice', r(3, 'speech__synthesize'));
po('business cabin class with at most one stop', r(3, 'flights__search_flights', 1, 'travel_agent__plan_trip'));
po('allow from port 22 to port 22 for my cidr ip', r(3, 'aws_ec2__authorize_security_group_ingress'));
po('top k nearest matches and include metadata', r(3, 'pinecone__query'));
po('channels, excluding the archived ones', r(3, 'slack__list_channels', 'mattermost__list_channels', 1, 'discord__list_channels', 'teams__list_channels'));
po('a strongly consistent read', r(3, 'dynamodb__get_item'));
po('atomic upgrade that can create the namespace', r(3, 'helm__upgrade_install'));
po('mail flagged as high importance', r(3, 'outlook__send_mail', 1, 'gmail__send_email', 'sendgrid__send_email'));
po('meeting that records automatically and lets everyone bypass the lobby', r(3, 'teams__create_meeting', 2, 'zoom__create_meeting'));
po('let maintainers modify my branch', r(3, 'github__create_pull_request'));
po('remove the source branch once it is merged', r(3, 'gitlab__createMergeRequest', 'bitbucket__create_pull_request'));
po('reply in the thread and broadcast it to the channel too', r(3, 'slack__send_message'));
po('upload with the glacier storage class', r(3, 's3__put_object', 1, 'azure_blob__upload_blob'));
po('documents that expire after a number of seconds', r(3, 'mongodb__create_index', 1, 'redis__set_key'));
po('upsert documents that match a filter', r(3, 'mongodb__update_many', 1, 'airtable__update_records'));
po('allow disk use for a large pipeline', r(3, 'mongodb__aggregate'));
po('pods in all namespaces by label selector', r(3, 'kubernetes__list_pods'));
po('build for the linux/arm64 platform with build args', r(3, 'docker__build_image'));
po('cancel it and prorate the unused time', r(3, 'stripe__cancel_subscription'));
po('usage limit of one per customer', r(3, 'shopify__create_discount_code'));
po('get delivery updates on a status callback url', r(3, 'twilio__send_sms'));
po('min rating 4.5 within a small radius, open now', r(3, 'maps__search_places'));
po('formal register using our glossary', r(3, 'translate__translate_text', 2, 'deepl__translate_document'));
po('a negative prompt and a fixed seed', r(3, 'image_gen__generate_image'));
po('safe search off, freshness one week', r(3, 'web_search__search', 1, 'web_search__news'));
po('include hidden entries, max depth 3', r(3, 'filesystem__list_directory', 1, 'filesystem__search_files'));
po('amend the previous commit', r(3, 'git__commit'));
po('double click while holding the shift modifier', r(3, 'browser__click'));
po('feed stdin to the program', r(3, 'sandbox__run_code'));
po('typecast text into select options', r(3, 'airtable__create_records'));
po('a cron expression in the Europe/Berlin time zone', r(3, 'scheduler__create_job'));
po('a proxied record with a short ttl', r(3, 'cloudflare__create_dns_record'));
po('invocation type Event so it runs async', r(3, 'aws_lambda__invoke_function'));
po('run it in another working directory with extra env vars', r(3, 'shell__run_command', 1, 'sandbox__run_code'));
po('price history adjusted for splits, weekly interval', r(3, 'market_data__get_price_history'));

// ============================ nested_schema ============================
const nsx = q('nested_schema');
nsx('discord message with a rich embed that has inline fields', r(3, 'discord__send_message'));
nsx('attach a pdf as base64 with its mime type', r(3, 'gmail__send_email', 'outlook__send_mail'));
nsx('invite Kim but mark her as an optional attendee', r(3, 'google_calendar__create_event', 2, 'outlook__create_calendar_event'));
nsx('book a meeting room as a resource attendee', r(3, 'outlook__create_calendar_event', 1, 'google_calendar__create_event'));
nsx('call a number and play inline TwiML', r(3, 'twilio__make_call'));
nsx('add contacts with custom field values', r(3, 'sendgrid__add_contacts', 2, 'mailchimp__add_list_member', 1, 'hubspot__createContact'));
nsx('append a code block with a language and a to_do checkbox', r(3, 'notion__append_blocks', 2, 'notion__create_page'));
nsx('combine pdfs but only take pages 2-5 from the first input', r(3, 'pdf__merge_documents'));
nsx('run a container with a read-only bind mount', r(3, 'docker__run_container'));
nsx('deploy the function from an ECR image URI', r(3, 'aws_lambda__update_function_code'));
nsx('bind a KV namespace, an R2 bucket and a secret to the script', r(3, 'cloudflare__deploy_worker'));
nsx('tick the checkbox and choose an option in the combobox', r(3, 'browser__fill_form', 1, 'browser__click', 'pdf__fill_form'));
nsx("what's at latitude 48.85 longitude 2.35", r(3, 'maps__reverse_geocode', 1, 'maps__search_places'));
nsx('billing customer with a street, city and postal code', r(3, 'stripe__create_customer'));
nsx('set the absolute available quantity instead of a delta', r(3, 'shopify__adjust_inventory'));
nsx('an embed whose colour is given as an RGB integer', r(3, 'discord__send_message'));
nsx('containers whose label is key=value', r(3, 'docker__list_containers'));
nsx('pass bound values along with their Snowflake type', r(3, 'snowflake__execute_sql'));
nsx('named query parameters of type INT64', r(3, 'bigquery__run_query'));
nsx('write an item with a string set attribute', r(3, 'dynamodb__put_item'));
nsx('hybrid retrieval with sparse values alongside the dense embedding', r(3, 'pinecone__upsert_vectors', 1, 'pinecone__query'));
nsx('new rows with attachments and linked records', r(3, 'airtable__create_records', 1, 'airtable__update_records'));
nsx('remember a person along with facts like prefers morning meetings', r(3, 'memory__create_entities', 2, 'memory__add_observations'));
nsx('link two entities with a relation in active voice such as works_at', r(3, 'memory__create_relations', 1, 'neo4j__write_cypher'));
nsx('YouTrack issue with the Priority custom field set to Critical', r(3, 'youtrack__create_issue'));
nsx('pin a comment at an x/y offset on a frame', r(3, 'figma__post_comment'));
nsx('share link with a password that expires and does not allow download', r(3, 'dropbox__create_shared_link', 1, 's3__generate_presigned_url', 'gcs__sign_url'));
nsx('bot message with inline keyboard buttons that send callback data', r(3, 'telegram__send_message'));
nsx('upload literal UTF-8 text as an object, no local file', r(3, 'gcs__upload_object', 's3__put_object'));
nsx('let people join before the host, but only signed-in users', r(3, 'zoom__create_meeting'));
nsx('subscriber with FNAME, LNAME and birthday merge fields', r(3, 'mailchimp__add_list_member'));
nsx('send the newsletter only to a saved segment', r(3, 'mailchimp__create_campaign', 1, 'mailchimp__send_campaign'));
nsx('place the signature at the anchor string /sig1/ and stamp the date signed', r(3, 'docusign__send_envelope'));
nsx('each signer must initial every page', r(3, 'docusign__send_envelope'));
nsx('filter instances by the tag Team', r(3, 'aws_ec2__describe_instances'));
nsx('responders: the platform team plus an escalation', r(3, 'opsgenie__create_alert', 1, 'pagerduty__trigger_incident'));
nsx('a job that POSTs to an http url on a schedule', r(3, 'scheduler__create_job'));
nsx('line items with unit price and tax code', r(3, 'quickbooks__create_invoice'));
nsx('bill lines booked to an expense account', r(3, 'quickbooks__create_bill'));
nsx('hold attendees in a lobby until I admit them', r(3, 'zoom__create_meeting', 1, 'teams__create_meeting'));
nsx('pay people identified by phone number instead of email', r(3, 'paypal__create_payout'));
nsx('two adults, a child and an infant on a lap', r(3, 'flights__search_flights', 1, 'travel_agent__plan_trip'));
nsx('trip with a total budget of 2000 in euros', r(3, 'travel_agent__plan_trip', 1, 'flights__search_flights'));
nsx('a call that repeats weekly on chosen weekdays and ends after 10 occurrences', r(3, 'zoom__create_meeting', 1, 'google_calendar__create_event'));
nsx('purchase units with a currency code and my own reference id', r(3, 'paypal__create_order'));

// ============================ product_scoped ============================
const ps = q('product_scoped');
ps('list tables in snowflake', r(3, 'snowflake__list_tables'));
ps('tables in a BigQuery dataset', r(3, 'bigquery__list_tables', 1, 'bigquery__list_datasets'));
ps('mysql list tables', r(3, 'mysql__list_tables'));
ps('show tables in clickhouse', r(3, 'clickhouse__list_tables'));
ps('dynamodb tables', r(3, 'dynamodb__list_tables'));
ps('supabase tables', r(3, 'supabase__list_tables'));
ps('search issues in youtrack', r(3, 'youtrack__search_issues'));
ps('search gitlab issues', r(3, 'gitlab__searchIssues'));
ps('find linear issues assigned to me', r(3, 'linear__search-issues'));
ps('jira search', r(3, 'jira__search_issues'));
ps('azure devops bugs assigned to me', r(3, 'azure_devops__queryWorkItems', 1, 'azure_devops__getWorkItem'));
ps('send a message on discord', r(3, 'discord__send_message'));
ps('telegram message to the group', r(3, 'telegram__send_message'));
ps('post to mattermost', r(3, 'mattermost__create_post'));
ps('teams chat message to Priya', r(3, 'teams__send_chat_message', 2, 'teams__send_message'));
ps('send email with outlook', r(3, 'outlook__send_mail'));
ps('sendgrid email', r(3, 'sendgrid__send_email', 1, 'sendgrid__get_email_stats'));
ps('schedule a zoom call', r(3, 'zoom__create_meeting'));
ps('bitbucket pull request', r(3, 'bitbucket__create_pull_request', 2, 'bitbucket__list_pull_requests'));
ps('open a PR on github', r(3, 'github__create_pull_request'));
ps('describe a snowflake table', r(3, 'snowflake__describe_table'));
ps('bigquery table schema', r(3, 'bigquery__get_table_schema'));
ps('upload a file to dropbox', r(3, 'dropbox__upload_file'));
ps('list objects in a GCS bucket', r(3, 'gcs__list_objects'));
ps('azure blob upload', r(3, 'azure_blob__upload_blob'));
ps('refund via paypal', r(3, 'paypal__refund_capture'));
ps('stripe invoices for a customer', r(3, 'stripe__list_invoices'));
ps('prometheus query over the last 6 hours', r(3, 'prometheus__query_range', 2, 'grafana__query_prometheus', 1, 'prometheus__query'));
ps('cloudwatch logs containing ERROR', r(3, 'cloudwatch__filter_log_events'));
ps('datadog logs', r(3, 'datadog__search_logs'));
ps('opsgenie alert', r(3, 'opsgenie__create_alert', 1, 'opsgenie__acknowledge_alert', 'opsgenie__close_alert'));
ps('sms via sipgate', r(3, 'sipgate__send_sms'));
ps('freshdesk tickets that are urgent', r(3, 'freshdesk__filter_tickets'));
ps('zendesk ticket for a customer complaint', r(3, 'zendesk__create_ticket'));
ps('intercom reply to a customer', r(3, 'intercom__reply_to_conversation'));
ps('create a trello card', r(3, 'trello__create_card'));
ps('asana tasks due this week', r(3, 'asana__search_tasks'));
ps('comment on a jira ticket', r(3, 'jira__add_comment'));
ps('jenkins build log', r(3, 'jenkins__get_build_console'));
ps('helm releases in kube-system', r(3, 'helm__list_releases'));
ps('vercel deployments that failed', r(3, 'vercel__list_deployments', 1, 'vercel__get_deployment_build_logs'));
ps('feishu message', r(3, 'feishu__send_message'));
ps('google docs find and replace', r(3, 'google_docs__replace_all_text'));

// ============================ ambiguous ============================
const am = q('ambiguous');
am('send a message', r(3, FAM.CHAT, 2, 'whatsapp__send_text', FAM.SMS, 1, FAM.EMAIL));
am('list tables', r(3, FAM.LT, 1, 'airtable__get_base_schema'));
am('run a query', r(3, FAM.SQL, 2, 'sqlite__write_query', 'neo4j__read_cypher', 'salesforce__runSoqlQuery',
  1, 'mongodb__find', 'prometheus__query', 'notion__query_database', 'dynamodb__query', 'elasticsearch__search'));
am('search issues', r(3, FAM.SI, 2, 'azure_devops__queryWorkItems', 1, 'sentry__list_issues'));
am('create a ticket', r(3, FAM.TICKET, 2, 'jira__create_issue', 1, 'github__create_issue', 'gitlab__createIssue', 'linear__create-issue', 'youtrack__create_issue', 'azure_devops__createWorkItem'));
am('show logs', r(3, FAM.LOGS, 2, FAM.BUILDLOG, 1, 'git__log'));
am('upload a file', r(3, FAM.UPLOAD, 'slack__upload_file'));
am('schedule a meeting', r(3, FAM.MEET, 2, 'calendly__create_scheduling_link'));
am('deploy', r(3, 'cloudflare__deploy_worker', 'aws_lambda__update_function_code', 'helm__upgrade_install', 'argocd__sync_application', 'kubernetes__apply_manifest',
  2, 'terraform__apply', 'vercel__promote_deployment', 1, 'azure_devops__runPipeline', 'jenkins__trigger_build'));
am('create a page', r(3, 'notion__create_page', 'confluence__create_page', 2, 'google_docs__create_document', 1, 'feishu__create_document'));
am('leave a comment', r(3, FAM.COMMENT, 'github__add_issue_comment', 'figma__post_comment', 1, 'zendesk__add_internal_note', 'intercom__reply_to_conversation'));
am('search messages', r(3, 'slack__search_messages', 'gmail__search_messages', 2, 'outlook__list_messages', 1, 'twilio__list_messages'));
am('CI runs', r(3, 'github__list_workflow_runs', 'gitlab__listPipelines', 2, 'jenkins__list_jobs', 1, 'azure_devops__runPipeline'));
am('share a file', r(3, 'google_drive__share_file', 'dropbox__create_shared_link', 2, 's3__generate_presigned_url', 'gcs__sign_url', 'slack__upload_file'));
am('translate', r(3, 'translate__translate_text', 'deepl__translate_document', 1, 'translate__detect_language', 'translate__list_languages'));
am('search the docs', r(3, 'confluence__search_pages', 'notion__search', 2, 'google_drive__search_files', 1, 'dropbox__search', 'web_search__search'));
am('create an alert', r(3, 'opsgenie__create_alert', 'pagerduty__trigger_incident', 'cloudwatch__put_metric_alarm'));
am('check the metrics', r(3, FAM.METRICS, 2, 'prometheus__query'));
am('read a document', r(3, 'google_docs__get_document', 2, 'confluence__get_page', 'pdf__extract_text', 'filesystem__read_file'));
am('cancel the meeting', r(3, 'zoom__delete_meeting', 'calendly__cancel_event', 1, 'google_calendar__respond_to_event', 'google_calendar__update_event'));
am('find a user', r(3, 'slack__lookup_user_by_email', 2, 'intercom__search_contacts', 'hubspot__searchCrmObjects'));
am('export a file', r(3, 'google_drive__export_file', 1, 'bigquery__export_table', 'figma__export_images'));
am('add a label', r(3, 'confluence__add_label', 'gmail__modify_labels', 1, 'github__create_issue'));
am('close it', r(3, 'zendesk__update_ticket', 'intercom__close_conversation', 'opsgenie__close_alert', 2, 'pagerduty__resolve_incident', 'sentry__update_issue', 'jira__transition_issue', 'trello__archive_card'));
am('start a build', r(3, 'jenkins__trigger_build', 'azure_devops__runPipeline', 2, 'docker__build_image', 1, 'gitlab__retryJob'));
am('take a payment', r(3, 'stripe__create_payment_intent', 'paypal__create_order', 2, 'quickbooks__receive_payment'));
am('record a call', r(3, 'hubspot__logEngagement', 2, 'twilio__make_call', 1, 'zoom__list_recordings'));
am('list events', r(3, 'google_calendar__list_events', 2, 'kubernetes__get_events', 'calendly__list_scheduled_events', 1, 'sentry__search_events'));
am('open a pull request or merge request', r(3, FAM.PR, 'gitlab__createMergeRequest'));
am('get the weather', r(3, 'weather__get_forecast', 'weather__get_current_conditions', 1, 'weather__get_alerts'));
am('who is on call', r(3, FAM.ONCALL));
am('archive it', r(3, 'trello__archive_card', 2, 'outlook__move_message', 'gmail__modify_labels', 'notion__update_page_properties'));
am('create a record', r(3, 'salesforce__createRecord', 'airtable__create_records', 2, 'dynamodb__put_item', 1, 'hubspot__createContact', 'cloudflare__create_dns_record'));
am('get the schema', r(3, 'neo4j__get_schema', 'airtable__get_base_schema', 'bigquery__get_table_schema',
  2, 'elasticsearch__get_mapping', 'salesforce__describeSObject', 'postgres__describe_table', 'mysql__describe_table', 'sqlite__describe_table', 'snowflake__describe_table', 1, 'postgres__list_schemas'));
am('send a file to the team', r(3, 'slack__upload_file', 2, FAM.CHAT, 'telegram__send_photo', 1, 'google_drive__share_file', 'dropbox__create_shared_link', 'gmail__send_email', 'outlook__send_mail'));
am('find a file', r(3, 'filesystem__search_files', 'google_drive__search_files', 'dropbox__search', 1, 's3__list_objects', 'gcs__list_objects', 'azure_blob__list_blobs'));
am('check the status', r(2, 'git__status', 'docusign__get_envelope_status', 'flights__get_flight_status', 1, 'homeassistant__get_state', 'argocd__list_applications'));
am('restart it', r(3, 'kubernetes__rollout_restart', 2, 'aws_ec2__start_instances', 1, 'gitlab__retryJob'));
am('stop the instance', r(3, 'aws_ec2__stop_instances', 1, 'docker__stop_container', 'snowflake__alter_warehouse'));
am('lookup', r(2, 'twilio__lookup_phone_number', 'slack__lookup_user_by_email', 1, 'maps__geocode', 'wikipedia__search', 'web_search__search'));

// ============================ hard_negative ============================
const hn = q('hard_negative');
hn('enter a supplier invoice we need to pay next month', r(3, 'quickbooks__create_bill'));
hn('what tables does the restaurant have free tonight', NONE);
hn('issue a new corporate credit card to an employee', NONE);
hn('reset my password for the admin dashboard', NONE);
hn('merge two duplicate customer records into one', NONE);
hn('commit to a date for the launch party and put it on the calendar', r(3, 'google_calendar__create_event', 2, 'outlook__create_calendar_event'));
hn('hire a docker for unloading at the port of Hamburg', NONE);
hn('cancel my gym membership', NONE);
hn('translate this SQL query from MySQL syntax to Postgres syntax', NONE);
hn('open the garage door', r(3, 'homeassistant__call_service'));
hn('print the shipping label for order 5512', NONE);
hn('send a fax to the clinic', NONE);
hn('mute my microphone', NONE);
hn('pipeline of sales deals stuck in negotiation', r(3, 'hubspot__searchCrmObjects', 2, 'salesforce__runSoqlQuery'));
hn('a ticket to Berlin for Friday', r(3, 'flights__search_flights', 2, 'travel_agent__plan_trip'));
hn('clear the cache of my web browser', NONE);
hn('rotate the log files on the server so the disk stops filling up', r(1, 'shell__run_command'));
hn('snapshot the production database before the migration', NONE);
hn("what's the balance on my personal checking account", NONE);
hn('scale the recipe up to eight servings', r(1, 'calculator__evaluate'));
hn('apply for a job at Acme', NONE);
hn('book a table for two at 7pm', NONE);
hn('resolve the merge conflict in app.js', r(3, 'filesystem__edit_file', 1, 'git__diff', 'git__status', 'filesystem__read_file'));
hn('describe what is in this picture', NONE);
hn('tag the release v2.0', r(3, 'github__create_release'));
hn('publish my blog post on Medium', NONE);
hn('get the key to the office', NONE);
hn('play a round of chess with me', NONE);
hn('a quote for a kitchen renovation', NONE);
hn('check in for my flight tomorrow', NONE);
hn('draft a toast for my sister\'s wedding', NONE);
hn('check the stock at the local IKEA', NONE);
hn('find a pod of whales near Monterey to photograph', NONE);
hn('branch manager of the Main Street bank', NONE);
hn('channel the extra revenue into a new budget line', NONE);
hn('kill the process that hogs the database', r(3, 'postgres__cancel_query', 2, 'postgres__list_active_queries', 1, 'mysql__show_processlist'));
hn('archive old emails from the legal team', r(3, 'outlook__move_message', 'gmail__modify_labels', 2, 'gmail__search_messages', 'outlook__list_messages'));
hn('issues with my posture when I sit all day', NONE);
hn('deploy the troops in the board game', NONE);
hn('who changed the thermostat to 18 degrees', NONE);
hn('record my screen while I demo the app', NONE);
hn('what is the weather in the stock market today', r(2, 'market_data__get_quote', 1, 'web_search__news'));
hn('pay my electricity bill', NONE);
hn('cancel my Netflix subscription', NONE);

// ============================ no_match ============================
const nm = q('no_match');
for (const query of [
  'order a large pepperoni pizza', 'call an Uber to the airport', 'transfer $500 from my savings to my checking account', 'file my tax return',
  'renew my passport', 'print this document on the office printer', 'compose a song with lyrics about summer', 'track my UPS package',
  'check my blood pressure readings from last week', 'sign me up for a yoga class', 'reserve a parking spot downtown', 'send flowers to my mom',
  'apply a coupon to my Amazon cart', "what's my credit score", 'convert this video to mp4',
  'cut the first minute out of this video', 'rent a car in Denver next weekend', 'adopt a cat from the shelter', 'set up a VPN connection on my laptop',
  'order printer ink', 'cast my screen to the TV', 'back up my iPhone photos', 'open a bank account',
  'mint an NFT of my drawing', 'write a birthday card and mail it', 'update the firmware on my router',
  'request vacation days in Workday', 'defragment the hard drive', 'clock in for my shift', 'find me a date for Saturday night',
  'tune my guitar', 'get a quote for car insurance', 'sell my old bike online', 'order groceries for delivery',
  'book a massage for Sunday', 'donate 20 dollars to the Red Cross', 'unsubscribe me from all marketing emails I receive', 'buy concert tickets for Taylor Swift',
  'generate a 3D model of a chair for printing', 'walk my dog at noon',
]) nm(query, NONE);

// ============================ multilingual ============================
const ml = q('multilingual');
// German
ml('Erstelle ein neues Issue in GitHub', r(3, 'github__create_issue'));
ml('Nachricht an den Slack-Kanal senden', r(3, 'slack__send_message'));
ml('Tabellen in der Postgres-Datenbank auflisten', r(3, 'postgres__list_tables'));
ml('SMS verschicken', r(3, FAM.SMS, 1, 'whatsapp__send_text'));
ml('Wettervorhersage für München', r(3, 'weather__get_forecast'));
ml('Rückerstattung für eine Zahlung', r(3, FAM.REFUND));
ml('Text ins Englische übersetzen', r(3, 'translate__translate_text', 1, 'deepl__translate_document'));
ml('Besprechung mit dem Team planen', r(3, FAM.MEET, 1, 'calendly__create_scheduling_link'));
ml('Logs des Pods anzeigen', r(3, 'kubernetes__get_pod_logs'));
ml('Rechnung für einen Kunden erstellen', r(3, 'quickbooks__create_invoice'));
// Japanese
ml('データベースのテーブル一覧', r(3, FAM.LT, 1, 'airtable__get_base_schema'));
ml('スラックにメッセージを送信', r(3, 'slack__send_message'));
ml('テキストを翻訳', r(3, 'translate__translate_text'));
ml('返金する', r(3, FAM.REFUND));
ml('明日の天気', r(3, 'weather__get_forecast'));
ml('LINEでメッセージを送る', r(3, 'line__push_message', 1, 'line__reply_message'));
ml('プルリクエストを作成', r(3, FAM.PR, 2, 'gitlab__createMergeRequest'));
ml('会議を予約する', r(3, FAM.MEET));
ml('ファイルをアップロード', r(3, FAM.UPLOAD, 'slack__upload_file'));
// Chinese
ml('发送电子邮件', r(3, FAM.EMAIL));
ml('翻译文本', r(3, 'translate__translate_text'));
ml('列出数据库中的表', r(3, FAM.LT, 1, 'airtable__get_base_schema'));
ml('在飞书群里发消息', r(3, 'feishu__send_message'));
ml('创建工单', r(3, FAM.TICKET, 1, 'jira__create_issue'));
ml('查看服务器日志', r(3, 'datadog__search_logs', 'cloudwatch__filter_log_events', 2, 'kubernetes__get_pod_logs', 'docker__container_logs', 'supabase__get_logs'));
ml('生成一张图片', r(3, 'image_gen__generate_image'));
ml('创建文档', r(3, 'google_docs__create_document', 'feishu__create_document', 2, 'confluence__create_page', 'notion__create_page'));
ml('查询股票价格', r(3, 'market_data__get_quote', 2, 'market_data__get_price_history'));
// French
ml('envoyer un message sur Discord', r(3, 'discord__send_message'));
ml('créer une page dans Confluence', r(3, 'confluence__create_page'));
ml('rembourser le client', r(3, FAM.REFUND));
ml('prévisions météo pour Paris', r(3, 'weather__get_forecast'));
ml('lister les conteneurs docker', r(3, 'docker__list_containers'));
ml('traduire un document PDF en allemand', r(3, 'deepl__translate_document', 2, 'translate__translate_text'));
// Spanish
ml('crear una incidencia en Jira', r(3, 'jira__create_issue'));
ml('enviar un correo electrónico', r(3, FAM.EMAIL));
ml('buscar vuelos a Madrid', r(3, 'flights__search_flights', 2, 'travel_agent__plan_trip'));
ml('reiniciar el despliegue en kubernetes', r(3, 'kubernetes__rollout_restart'));
ml('convertir dólares a euros', r(3, 'fx__convert'));
ml('traducir texto al inglés', r(3, 'translate__translate_text'));
// Portuguese, Korean
ml('listar as tabelas do banco de dados MySQL', r(3, 'mysql__list_tables'));
ml('회의 일정 잡기', r(3, FAM.MEET));

// ============================ morphology ============================
const mo = q('morphology');
mo('listing tables', r(3, FAM.LT, 1, 'airtable__get_base_schema'));
mo('ListTables', r(3, FAM.LT, 1, 'airtable__get_base_schema'));
mo('list-tables', r(3, FAM.LT, 1, 'airtable__get_base_schema'));
mo('createIssue', r(3, FAM.CI, 2, 'azure_devops__createWorkItem'));
mo('create-pull-request', r(3, FAM.PR, 2, 'gitlab__createMergeRequest'));
mo('sendMessage', r(3, 'slack__send_message', 'discord__send_message', 'teams__send_message', 'telegram__send_message', 'feishu__send_message',
  2, 'teams__send_chat_message', 'mattermost__create_post', 'line__push_message', 'whatsapp__send_text'));
mo('searching issues', r(3, FAM.SI, 2, 'azure_devops__queryWorkItems', 1, 'sentry__list_issues'));
mo('refunds', r(3, FAM.REFUND));
mo('refunding a payment', r(3, FAM.REFUND));
mo('merged pull requests', r(3, 'github__list_pull_requests', 'bitbucket__list_pull_requests', 1, 'github__search_issues'));
mo('scheduling messages', r(3, 'slack__schedule_message', 1, 'mailchimp__send_campaign', 'sendgrid__send_email'));
mo('uploading files', r(3, FAM.UPLOAD, 'slack__upload_file'));
mo('forecasts', r(3, 'weather__get_forecast'));
mo('invoices', r(3, 'stripe__list_invoices', 2, 'quickbooks__create_invoice'));
mo('get_pod_log', r(3, 'kubernetes__get_pod_logs'));
mo('pod-logs', r(3, 'kubernetes__get_pod_logs'));
mo('describeTable', r(3, 'postgres__describe_table', 'mysql__describe_table', 'sqlite__describe_table', 'snowflake__describe_table', 2, 'bigquery__get_table_schema'));
mo('run_queries', r(3, 'postgres__run_query', 'bigquery__run_query', 'clickhouse__run_query', 2, FAM.SQL, 1, 'sqlite__write_query', 'salesforce__runSoqlQuery'));
mo('deleting vectors', r(3, 'pinecone__delete_vectors'));
mo('transcribing audio', r(3, 'speech__transcribe'));
mo('screenshots', r(3, 'browser__take_screenshot'));
mo('geocoding addresses', r(3, 'maps__geocode', 1, 'maps__reverse_geocode'));
mo('stopping instances', r(3, 'aws_ec2__stop_instances', 1, 'docker__stop_container'));
mo('restarting deployments', r(3, 'kubernetes__rollout_restart'));
mo('SendEmail', r(3, 'gmail__send_email', 'sendgrid__send_email', 2, 'outlook__send_mail'));
mo('add-reaction', r(3, 'slack__add_reaction'));
mo('create_merge_request', r(3, 'gitlab__createMergeRequest', 2, FAM.PR));
mo('search_crm_objects', r(3, 'hubspot__searchCrmObjects'));
mo('create-work-item', r(3, 'azure_devops__createWorkItem'));
mo('query_work_items', r(3, 'azure_devops__queryWorkItems'));
mo('search-tickets', r(3, 'zendesk__search_tickets', 2, 'freshdesk__filter_tickets', 1, 'hubspot__searchCrmObjects'));
mo('triggering incidents', r(3, 'pagerduty__trigger_incident', 2, 'opsgenie__create_alert'));
mo('muted monitors', r(3, 'datadog__mute_monitor', 2, 'datadog__list_monitors'));
mo('commits', r(3, 'github__list_commits', 'git__log', 2, 'git__commit'));
mo('playlists', r(3, 'spotify__add_to_playlist', 1, 'spotify__search'));
mo('listDeployments', r(3, 'vercel__list_deployments'));
mo('merging PDFs', r(3, 'pdf__merge_documents'));
mo('splitting pdf files', r(3, 'pdf__split'));
mo('modifyLabels', r(3, 'gmail__modify_labels'));
mo('get-flight-status', r(3, 'flights__get_flight_status'));
mo('upsertVectors', r(3, 'pinecone__upsert_vectors'));
mo('pushMessage', r(3, 'line__push_message'));
mo('translated texts', r(3, 'translate__translate_text', 1, 'deepl__translate_document'));

// ============================ typo ============================
// Misspelled tool words, appended last so that the ids above keep their numbers.  Each query has
// one or two typos (a wrong, dropped, doubled or swapped letter, or a missing space), mostly in
// words of five or more letters; graded as if spelled right.
const ty = q('typo');
ty('creat a jira tiket for the broken login page', r(3, 'jira__create_issue'));
ty('send an emial to the team about friday', r(3, 'gmail__send_email', 'outlook__send_mail', 2, 'sendgrid__send_email'));
ty("refund the custmer's paymnet", r(3, FAM.REFUND));
ty('shedule a zoom meeting for tomorow at 10', r(3, 'zoom__create_meeting'));
ty('whats the wether in lisbon this weekend', r(3, 'weather__get_forecast', 1, 'weather__get_current_conditions'));
ty('list all tabels in postgres', r(3, 'postgres__list_tables'));
ty('seach slack mesages about the outage', r(3, 'slack__search_messages'));
ty('transalte this paragraph into french', r(3, 'translate__translate_text', 1, 'deepl__translate_document'));
ty('merge the pull reqest once checks pass', r(3, 'github__merge_pull_request'));
ty('restrat the checkout deployment', r(3, 'kubernetes__rollout_restart'));
ty('pod logss for api-7f9c', r(3, 'kubernetes__get_pod_logs'));
ty('upload the slides to dropbx', r(3, 'dropbox__upload_file'));
ty('who is on cal this weekend', r(3, FAM.ONCALL));
ty('genrate an image of a lighthouse at sunset', r(3, 'image_gen__generate_image'));
ty('purge the cloudflare cahce', r(3, 'cloudflare__purge_cache'));
ty('stop the staging ec2 insatnces', r(3, 'aws_ec2__stop_instances'));
ty('trigger a jenkins biuld of the release branch', r(3, 'jenkins__trigger_build'));
ty("comit everything with the message 'bump deps'", r(3, 'git__commit'));
ty('convert 50 dolars to euros', r(3, 'fx__convert'));
ty('add a coment on the linear issue', r(3, 'linear__add-comment'));
ty('make a new branh called hotfix and switch to it', r(3, 'git__checkout'));
ty('take a screensot of the pricing page', r(3, 'browser__take_screenshot', 2, 'browser__navigate'));
ty('trascribe this audio recording', r(3, 'speech__transcribe'));
ty('send a text mesage to +1 555 0100', r(3, FAM.SMS, 1, 'whatsapp__send_text'));
ty('page the on-call enginer, checkout is down', r(3, FAM.PAGE, 1, FAM.ONCALL));
ty('create an invocie for Acme for 40 hours of work', r(3, 'quickbooks__create_invoice'));
ty('open a pul request from feature/search into main', r(3, FAM.PR, 2, 'gitlab__createMergeRequest'));
ty('descibe the orders table', r(3, FAM.DESC));
ty('sned a message to #general on slack', r(3, 'slack__send_message'));
ty('scale the web deploymnet to 5 replicas', r(3, 'kubernetes__scale'));
ty('find the signed contarct in google drive', r(3, 'google_drive__search_files'));
ty('mrege these three pdfs', r(3, 'pdf__merge_documents'));
ty('subscibe jo@example.com to our newsleter', r(3, 'mailchimp__add_list_member', 2, 'sendgrid__add_contacts'));
ty('acknowlege the pagerduty incident', r(3, 'pagerduty__acknowledge_incident'));
ty('currnet stock price of nvidia', r(3, 'market_data__get_quote'));
ty('directons from the hotel to the airport', r(3, 'maps__get_directions'));
ty('book a flihgt to berlin on friday', r(3, 'flights__search_flights', 2, 'travel_agent__plan_trip'));
ty('docker contaner logs for nginx', r(3, 'docker__container_logs'));
ty('runn this python snippet', r(3, 'sandbox__run_code', 2, 'shell__run_command'));
ty('lsit open prs in the api repo', r(3, 'github__list_pull_requests', 2, 'bitbucket__list_pull_requests', 'github__search_issues'));
ty('reslove the sentry isue, it was fixed in 2.3', r(3, 'sentry__update_issue'));
ty('terraform paln for the network module', r(3, 'terraform__plan'));
ty('roll back the helm relase to the previous revision', r(3, 'helm__rollback'));
ty('excute this on snowflake: select count(*) from orders', r(3, 'snowflake__execute_sql'));
ty('delet the zoom meeting on thursday', r(3, 'zoom__delete_meeting'));
ty('apend the new rows to the signups sheet', r(3, 'spreadsheet__append_rows', 1, 'airtable__create_records', 'spreadsheet__write_range'));

// ---------------------------------------------------------------------------
const lines = Q.map((x, k) => JSON.stringify({ id: 'q' + String(k + 1).padStart(4, '0'), query: x.query, class: x.class, relevance: x.relevance }));
for (const x of Q) for (const id of Object.keys(x.relevance)) if (NEVER.has(id)) throw new Error(`never-graded tool ${id} in "${x.query}"`);
fs.writeFileSync(process.argv[2] || 'queries.jsonl', lines.join('\n') + '\n');
module.exports = { FAM, NEVER };
