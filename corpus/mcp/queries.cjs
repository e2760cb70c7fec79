// Graded development queries over the real MCP catalog ../../../shared/catalogs/all.json
// (2,032 tools, ids `server__tool`).  Usage: node queries.cjs [out.jsonl]   (default: queries.jsonl here)
//
// Every query was written by hand and graded by reading the tool definitions (name, description,
// schema) in all.json; see README.md.  Grades: 3 does exactly what was asked, 2 does it with extra
// steps or is a close variant, 1 partial help (one step of the task, a read-only view next to it);
// {} = nothing in the catalog does it.  Tools that do the same job on different servers are kept in
// FAMILIES below so that unscoped queries grade them alike; a query that names a product grades only
// that product's tools (archived and current servers of the same product both count).
const fs = require('fs');
const path = require('path');

const FAM = {
  // ---- databases
  SQL: ['aws-postgres__run_query', 'aws-mysql__run_query', 'aws-mssql__run_query', 'aws-oracle__run_query', 'aws-redshift__execute_query',
    'aws-aurora-dsql__readonly_query', 'mcp-archived-postgres__query', 'docker-sqlite__read_query', 'mcp-archived-sqlite__read_query',
    'docker-database-server__execute_sql', 'supabase__execute_sql', 'cloudflare__d1_database_query', 'docker-keboola__query_data',
    'grafana__query_clickhouse', 'grafana__query_snowflake', 'grafana__query_athena'],
  SQL_NEAR: ['aws-aurora-dsql__transact', 'docker-sqlite__write_query', 'mcp-archived-sqlite__write_query', 'aws-amazon-keyspaces__executeQuery',
    'docker-database-server__query_database'],
  TABLES: ['aws-redshift__list_tables', 'docker-sqlite__list_tables', 'mcp-archived-sqlite__list_tables', 'docker-database-server__list_tables',
    'supabase__list_tables', 'aws-amazon-keyspaces__listTables', 'docker-keboola__list_tables', 'grafana__list_athena_tables',
    'grafana__list_clickhouse_tables', 'grafana__list_snowflake_tables'],
  DESCRIBE: ['aws-postgres__get_table_schema', 'aws-mysql__get_table_schema', 'aws-mssql__get_table_schema', 'aws-oracle__get_table_schema',
    'aws-redshift__list_columns', 'aws-aurora-dsql__get_schema', 'docker-sqlite__describe_table', 'mcp-archived-sqlite__describe_table',
    'docker-database-server__describe_table', 'aws-amazon-keyspaces__describeTable', 'grafana__describe_athena_table',
    'grafana__describe_clickhouse_table', 'grafana__describe_snowflake_table'],
  SQLITE_TABLES: ['docker-sqlite__list_tables', 'mcp-archived-sqlite__list_tables'],
  // ---- web
  WEB_SEARCH: ['exa__web_search_exa', 'exa__web_search_advanced_exa', 'firecrawl__firecrawl_search', 'tavily__tavily_search',
    'mcp-archived-brave-search__brave_web_search', 'docker-explorium__web-search'],
  FETCH: ['mcp-fetch__fetch', 'exa__web_fetch_exa', 'firecrawl__firecrawl_scrape', 'tavily__tavily_extract', 'cloudflare__get_url_markdown',
    'docker-ref__ref_read_url'],
  SCREENSHOT: ['playwright__browser_take_screenshot', 'mcp-archived-puppeteer__puppeteer_screenshot', 'cloudflare__get_url_screenshot'],
  CRAWL: ['firecrawl__firecrawl_crawl', 'tavily__tavily_crawl', 'cloudflare__start_crawl'],
  RESEARCH: ['exa__deep_researcher_start', 'tavily__tavily_research', 'firecrawl__firecrawl_agent', 'exa__agent_run'],
  // ---- code hosting (current GitHub server + the archived reference server)
  GH_ISSUE: ['github__create_issue', 'github__issue_write', 'mcp-archived-github-legacy__create_issue'],
  GH_PR: ['github__create_pull_request', 'mcp-archived-github-legacy__create_pull_request'],
  GH_MERGE: ['github__merge_pull_request', 'mcp-archived-github-legacy__merge_pull_request'],
  GH_REVIEW: ['github__pull_request_review_write', 'github__create_pull_request_review', 'mcp-archived-github-legacy__create_pull_request_review'],
  GH_COMMITS: ['github__list_commits', 'mcp-archived-github-legacy__list_commits'],
  GH_BRANCH: ['github__create_branch', 'mcp-archived-github-legacy__create_branch'],
  GH_FORK: ['github__fork_repository', 'mcp-archived-github-legacy__fork_repository'],
  GH_CODE: ['github__search_code', 'mcp-archived-github-legacy__search_code'],
  GH_FILE: ['github__get_file_contents', 'mcp-archived-github-legacy__get_file_contents'],
  GH_PUSH: ['github__push_files', 'mcp-archived-github-legacy__push_files'],
  GH_LIST_PRS: ['github__list_pull_requests', 'mcp-archived-github-legacy__list_pull_requests'],
  // ---- maps
  GEOCODE: ['mcp-archived-google-maps__maps_geocode', 'aws-location__geocode'],
  REVGEO: ['mcp-archived-google-maps__maps_reverse_geocode', 'aws-location__reverse_geocode'],
  PLACES: ['mcp-archived-google-maps__maps_search_places', 'aws-location__search_places', 'mcp-archived-brave-search__brave_local_search'],
  PLACES_NEAR: ['aws-location__search_nearby', 'aws-location__search_places_open_now'],   // need coordinates / only open places
  // ---- caches
  KV_SET: ['mcp-archived-redis__set', 'aws-valkey__valkey_write', 'aws-memcached__cache_set'],
  // ---- metrics, logs
  PROMQL: ['grafana__query_prometheus', 'aws-prometheus__ExecuteQuery', 'aws-prometheus__ExecuteRangeQuery'],
  // ---- pairs of servers of one product
  STRIPE_REFUND: ['stripe__create_refund', 'docker-stripe-remote__create_refund'],
  NOTION_SEARCH: ['notion__API-post-search', 'docker-notion-remote__search_pages'],
  NOTION_APPEND: ['notion__API-patch-block-children', 'docker-notion-remote__notion_append_block_children'],
  NOTION_PAGE: ['notion__API-post-page', 'docker-notion-remote__create_page'],
  MEM_REMEMBER: ['mcp-memory__create_entities', 'mcp-memory__add_observations'],
};

// r(3, FAM.X, 'id', 2, 'id2', ...) -> {id: grade}; a number switches the grade for what follows; the highest grade wins.
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

// ================================ task ================================
const t = q('task');
// errors and monitoring
t("which new errors showed up after we shipped release 4.2.0? check sentry", r(3, 'sentry__search_issues', 2, 'sentry__get_release_details', 1, 'sentry__find_releases', 'sentry__search_events', 'docker-sentry-remote__search_issues'));
t('get me the full stack trace for sentry issue BACKEND-3F2', r(3, 'sentry__get_issue_details', 'mcp-archived-sentry-legacy__get_sentry_issue', 2, 'sentry__get_event_stacktrace', 'sentry__get_sentry_resource'));
t('mark that sentry issue as resolved, the fix went out this morning', r(3, 'sentry__update_issue'));
t('ping https://status.acme.io every minute and alert us if it stops answering', r(3, 'sentry__create_uptime_monitor'));
t('query prometheus for the p95 request latency of the checkout service over the last hour',
  r(3, 'grafana__query_prometheus_histogram', 'grafana__query_prometheus', 'aws-prometheus__ExecuteRangeQuery', 2, 'aws-prometheus__ExecuteQuery'));
t("pull the loki logs containing 'timeout' from the api service for the last 30 minutes", r(3, 'grafana__query_loki_logs', 1, 'grafana__find_error_pattern_logs'));
t("who's on call for the platform team right now", r(3, 'grafana__get_current_oncall_users', 2, 'grafana__list_oncall_schedules', 1, 'grafana__list_oncall_teams', 'grafana__get_oncall_shift'));
t('declare an incident for the checkout outage with critical severity', r(3, 'grafana__create_incident'));
t('silence the disk-full alert on db-3 for the next two hours', r(3, 'grafana__alerting_manage_silences'));
t('find our grafana dashboard for kafka consumer lag', r(3, 'grafana__search_dashboards'));
// code hosting and CI
t('open a PR from feature/checkout-v2 into main in acme/shop', r(3, FAM.GH_PR, 2, 'mcp-archived-gitlab__create_merge_request'));
t('show me the last ten commits on main in acme/api', r(3, FAM.GH_COMMITS, 2, 'mcp-git__git_log'));
t('where in our org do we still call the deprecated getUserV1 function', r(3, FAM.GH_CODE));
t('why did the latest CI run on main fail? show me the failing job output', r(3, 'github__get_job_logs', 'docker-buildkite__get_job_logs', 2, 'github__actions_list', 'docker-buildkite__list_builds', 1, 'github__actions_get', 'docker-buildkite__get_build', 'docker-buildkite__get_jobs', 'cloudflare__workers_builds_get_build_logs'));
t('re-run the failed jobs of workflow run 98765', r(3, 'github__actions_run_trigger'));
t('list the critical dependabot alerts that are still open in acme/web', r(3, 'github__list_dependabot_alerts'));
t('ask maria-k to review pull request 42', r(3, 'github__request_pull_request_reviewers'));
t('squash and merge PR 57', r(3, FAM.GH_MERGE));
t("approve pull request 311 with the comment 'LGTM, ship it'", r(3, FAM.GH_REVIEW, 2, 'github__submit_pending_pull_request_review'));
t('file a bug in acme/api: the rate limiter lets bursts through after a restart', r(3, FAM.GH_ISSUE, 2, 'mcp-archived-gitlab__create_issue', 'atlassian__jira_create_issue'));
t('close issue 204 as a duplicate of 198', r(3, 'github__update_issue_state', 'github__issue_write', 2, 'mcp-archived-github-legacy__update_issue'));
t('trigger a new buildkite build of the web-app pipeline on the release branch', r(3, 'docker-buildkite__create_build'));
// local git and files
t("stage everything and commit it with the message 'fix null check in parser'", r(3, 'mcp-git__git_add', 'mcp-git__git_commit'));
t("what have I changed in my working copy that isn't staged yet", r(3, 'mcp-git__git_diff_unstaged', 2, 'mcp-git__git_status', 1, 'mcp-git__git_diff'));
t('rename notes/draft.md to notes/final.md', r(3, 'mcp-filesystem__move_file'));
t('find every .env file under ~/projects', r(3, 'mcp-filesystem__search_files', 1, 'mcp-filesystem__directory_tree'));
t('show me what is in the src folder and how big each file is', r(3, 'mcp-filesystem__list_directory_with_sizes', 2, 'mcp-filesystem__list_directory', 'mcp-filesystem__directory_tree', 1, 'github__get_repository_tree'));
t('read the contract PDF in my Downloads folder and summarize it', r(3, 'aws-document-loader__read_document', 'firecrawl__firecrawl_parse', 1, 'mcp-filesystem__read_media_file'));
// project tracking and wiki
t('create a jira ticket in MOB for the flaky login test and assign it to me', r(3, 'atlassian__jira_create_issue', 1, 'atlassian__jira_assign_issue'));
t('move PROJ-123 to In Progress', r(3, 'atlassian__jira_transition_issue', 2, 'atlassian__jira_update_issue', 1, 'atlassian__jira_get_transitions'));
t('log 2 hours of code review on PROJ-88', r(3, 'atlassian__jira_add_worklog', 2, 'atlassian__jira_update_issue'));
t("what's left in the active sprint on the mobile board",
  r(3, 'atlassian__jira_get_sprint_issues', 2, 'atlassian__jira_get_sprints_from_board', 'atlassian__jira_get_board_issues', 1, 'atlassian__jira_get_agile_boards'));
t('write the postmortem as a new page in the ENG confluence space', r(3, 'atlassian__confluence_create_page', 1, 'atlassian__confluence_create_page_from_template'));
t("leave a comment on the onboarding checklist page saying step 4 is outdated", r(3, 'atlassian__confluence_add_comment', 'notion__API-create-a-comment', 'docker-notion-remote__add_comment', 2, 'atlassian__confluence_add_inline_comment', 1, 'atlassian__confluence_search'));
t('add a paragraph with the action items to the bottom of my notion meeting notes', r(3, FAM.NOTION_APPEND, 2, 'notion__API-update-page-markdown'));
// communication
t("post 'deploy finished' in the #releases slack channel", r(3, 'mcp-archived-slack__slack_post_message', 1, 'mcp-archived-slack__slack_list_channels'));
t('what did people say in #incidents today', r(3, 'mcp-archived-slack__slack_get_channel_history', 1, 'mcp-archived-slack__slack_list_channels'));
t('email the weekly metrics summary to jane@acme.com', r(3, 'docker-gmail__sendMessage'));
t('find the email from our accountant about the Q2 invoice', r(3, 'docker-gmail__findMessage', 1, 'docker-gmail__listMessages'));
// payments
t('refund the last payment of customer cus_8812', r(3, FAM.STRIPE_REFUND, 1, 'stripe__list_payment_intents', 'docker-stripe-remote__list_payment_intents'));
t('make a coupon for 20% off that lasts three months', r(3, 'stripe__create_coupon', 'docker-stripe-remote__create_coupon'));
t('send the customer a payment link for the Pro plan price', r(3, 'stripe__create_payment_link', 'docker-stripe-remote__create_payment_link', 1, 'stripe__list_prices', 'docker-stripe-remote__list_prices'));
t('which charges are customers disputing right now', r(3, 'stripe__list_disputes', 'docker-stripe-remote__list_disputes'));
t('cancel subscription sub_1Nx7 today, not at period end', r(3, 'stripe__cancel_subscription', 'docker-stripe-remote__cancel_subscription'));
// time, memory, maps, language
t("what time is it in Tokyo right now", r(3, 'mcp-time__get_current_time'));
t("if it's 3pm in New York, what time is it in Berlin", r(3, 'mcp-time__convert_time'));
t('remember that my manager is Priya and she prefers async updates', r(3, FAM.MEM_REMEMBER, 1, 'mcp-memory__create_relations'));
t('what do you remember about project falcon', r(3, 'mcp-memory__search_nodes', 2, 'mcp-memory__open_nodes', 'mcp-memory__read_graph'));
t('get me transit directions from the Ferry Building to SFO', r(3, 'mcp-archived-google-maps__maps_directions', 1, 'aws-location__calculate_route'));
t('find coffee shops near the Eiffel Tower', r(3, FAM.PLACES, 2, FAM.PLACES_NEAR, 1, FAM.GEOCODE));
t('translate this paragraph into Japanese', r(3, 'aws-amazon-translate__translate_text', 2, 'aws-amazon-translate__smart_translate_workflow'));
// infrastructure
t('how much would three m5.large instances cost per month in us-east-1', r(3, 'aws-pricing__get_pricing', 1, 'aws-pricing__generate_cost_report', 'aws-pricing__get_pricing_attribute_values'));
t('what pods are crashlooping in the payments namespace', r(3, 'docker-kubectl__get_pods', 2, 'docker-kubectl__check_pod_health', 1, 'docker-kubectl__get_events', 'docker-kubectl__get_pod_events'));
t('tail the logs of pod checkout-7d9f in prod', r(3, 'docker-kubectl__get_logs'));
t('scale the web deployment to 6 replicas', r(3, 'docker-kubectl__scale_deployment'));
t('forward local port 5432 to the postgres-0 pod', r(3, 'docker-kubectl__port_forward'));
t("what's the status of the latest terraform run in the prod workspace", r(3, 'terraform__list_runs', 2, 'terraform__get_run_details', 1, 'terraform__get_workspace_details'));
t('approve and apply the pending terraform run run-Gx81', r(3, 'terraform__action_run'));
t("what's the newest version of the hashicorp/aws provider", r(3, 'terraform__get_latest_provider_version', 1, 'terraform__get_provider_capabilities'));
t('add a sensitive variable DB_PASSWORD to the prod terraform workspace', r(3, 'terraform__create_workspace_variable', 1, 'terraform__create_variable_in_variable_set'));
t('create an IAM user for the CI bot and attach the AmazonS3ReadOnlyAccess policy', r(3, 'aws-iam__create_user', 'aws-iam__attach_user_policy', 1, 'aws-iam__list_policies'));
t('rotate the access key of the deploy-bot user', r(3, 'aws-iam__create_access_key', 'aws-iam__delete_access_key'));
t('open an AWS support case: our RDS instance has been unreachable since 9am', r(3, 'aws-support__create_support_case', 1, 'aws-support__describe_services', 'aws-support__describe_severity_levels'));
t('how much did our elasticache clusters cost last month', r(3, 'aws-elasticache__get-cost-and-usage'));
t("search the cloudwatch logs of /aws/lambda/resize for 'OutOfMemory' since yesterday", r(3, 'aws-elasticache__filter-log-events', 2, 'aws-elasticache__get-log-events', 1, 'aws-elasticache__describe-log-streams'));
t('graph the CPU of our elasticache nodes over the past day', r(3, 'aws-elasticache__get-metric-statistics', 'grafana__query_cloudwatch', 1, 'aws-elasticache__describe-cache-clusters'));
t('build a container image from the Dockerfile in ./service and tag it api:dev', r(3, 'aws-finch__finch_build_container_image'));
t('does nginx:1.25 have an arm64 build', r(3, 'docker-arm__check_image', 2, 'docker-arm__skopeo'));
// data platforms
t('how many orders are still pending in the mongo shop database', r(3, 'mongodb__count', 2, 'mongodb__aggregate', 1, 'mongodb__find'));
t('create a unique index on email in the users collection', r(3, 'mongodb__create-index'));
t('allow my current IP address to connect to our Atlas cluster', r(3, 'mongodb__atlas-create-access-list', 1, 'mongodb__atlas-inspect-access-list'));
t('ship the new version of the send-welcome edge function', r(3, 'supabase__deploy_edge_function'));
t('query the D1 database for users who signed up this week', r(3, 'cloudflare__d1_database_query', 1, 'cloudflare__d1_databases_list'));
t('show me the source of the image-resizer worker', r(3, 'cloudflare__workers_get_worker_code', 1, 'cloudflare__workers_get_worker'));
t('run a cypher query that finds everyone who works at Acme', r(3, 'docker-neo4j__read-cypher', 'aws-amazon-neptune__run_opencypher_query', 1, 'docker-neo4j__write-cypher'));
// web research
t('search the web for the latest news on the EU AI Act', r(3, FAM.WEB_SEARCH, 2, 'exa__deep_search_exa'));
t('grab https://example.com/pricing as markdown', r(3, FAM.FETCH, 2, 'cloudflare__get_url_html_content', 'playwright__browser_navigate'));
t('take a screenshot of our staging homepage', r(3, FAM.SCREENSHOT, 2, 'cloudflare__get_url_snapshot', 'playwright__browser_navigate', 'mcp-archived-puppeteer__puppeteer_navigate', 1, 'cloudflare__get_url_scan_screenshot'));
t("crawl docs.example.com and pull the text of every page", r(3, FAM.CRAWL, 1, 'firecrawl__firecrawl_map', 'tavily__tavily_map'));
t('research the vector database market and write me a report with sources', r(3, FAM.RESEARCH, 2, 'exa__deep_search_exa', 1, FAM.WEB_SEARCH, 'exa__deep_researcher_check', 'firecrawl__firecrawl_agent_status'));
// markets
t("what's INFY trading at on the NSE", r(3, 'docker-zerodha-kite__get_quote', 'docker-zerodha-kite__get_ltp'));
t('buy 10 shares of TCS at market price', r(3, 'docker-zerodha-kite__place_order'));
t("what's the bitcoin balance of bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", r(3, 'docker-maestro__get_address_balance', 2, 'docker-maestro__get_mempool_address_balance', 'docker-maestro__get_address_statistics'));
// code quality
t('run this snippet through sonarqube and tell me what it flags', r(3, 'docker-sonarqube__analyze_code_snippet'));
t('is the quality gate green for the web-frontend project', r(3, 'docker-sonarqube__get_project_quality_gate_status'));

// ================================ paraphrase ================================
// The need in other words: little or no vocabulary shared with the tool's name and description.
const p = q('paraphrase');
p('whose github account are you acting as', r(3, 'github__get_me', 1, 'mcp-archived-github-legacy__validate_token'));
p('give the customer their money back', r(3, FAM.STRIPE_REFUND));
p('make my own copy of the vite repo under my account', r(3, FAM.GH_FORK, 2, 'mcp-archived-gitlab__fork_repository'));
p('bookmark the bun repo on github so I can find it again', r(3, 'github__star_repository'));
p('take everything back out of the staging area', r(3, 'mcp-git__git_reset'));
p('who last touched line 40 of server.go', r(3, 'github__get_file_blame', 2, 'docker-sonarqube__get_scm_info'));
p('is anybody following PROJ-77 besides me', r(3, 'atlassian__jira_get_issue_watchers'));
p('forget everything you know about Bob', r(3, 'mcp-memory__delete_entities', 1, 'mcp-memory__delete_observations'));
p('how high above sea level is Denver', r(3, 'mcp-archived-google-maps__maps_elevation'));
p('how long does the drive take between each pair of our four offices', r(3, 'mcp-archived-google-maps__maps_distance_matrix', 1, 'aws-location__calculate_route', 'mcp-archived-google-maps__maps_directions'));
p("what's the smartest order to visit these five customer sites", r(3, 'aws-location__optimize_waypoints'));
p('what street is at 48.8584, 2.2945', r(3, FAM.REVGEO));
p('make the page look like it would on a phone screen', r(3, 'playwright__browser_resize'));
p('press the back button', r(3, 'playwright__browser_navigate_back'));
p("click OK on the 'are you sure?' popup", r(3, 'playwright__browser_handle_dialog', 2, 'playwright__browser_click', 'mcp-archived-puppeteer__puppeteer_click'));
p('pretend the browser lost its internet connection', r(3, 'playwright__browser_network_state_set', 1, 'playwright__browser_route'));
p('save this page so I can print it', r(3, 'playwright__browser_pdf_save', 'cloudflare__get_url_pdf'));
p('point at the menu so the dropdown opens', r(3, 'playwright__browser_hover', 'mcp-archived-puppeteer__puppeteer_hover'));
p('who is allowed to edit the pricing page in the wiki', r(3, 'atlassian__confluence_get_page_restrictions', 2, 'atlassian__confluence_check_content_permissions'));
p('how many people have actually read the onboarding guide in confluence', r(3, 'atlassian__confluence_get_page_views'));
p('are there other tickets describing the same bug as #812', r(3, 'github__find_duplicate', 1, 'github__search_issues', 'mcp-archived-github-legacy__search_issues'));
p('which functions are burning the most CPU in the checkout service', r(3, 'grafana__query_pyroscope', 2, 'sentry__get_profile'));
p('have the AI dig into this crash and suggest a fix', r(3, 'sentry__analyze_issue_with_seer'));
p('is the internet down in Iran right now', r(3, 'cloudflare__get_outages', 'cloudflare__get_traffic_anomalies', 2, 'cloudflare__get_outages_by_location', 'cloudflare__get_annotations', 'cloudflare__get_traffic_anomalies_by_location', 1, 'cloudflare__get_http_data'));
p('how popular is chatgpt.com compared with other sites', r(3, 'cloudflare__get_domain_rank_details', 2, 'cloudflare__get_domains_ranking', 'cloudflare__get_domains_ranking_timeseries'));
p('which network does 8.8.8.8 belong to', r(3, 'cloudflare__get_ip_details', 2, 'cloudflare__get_bgp_pfx2as'));
p('which language is this customer review in', r(3, 'aws-amazon-translate__detect_language'));
p('put the dev cluster to sleep over the weekend so we stop paying for it', r(3, 'mongodb__atlas-pause-resume-cluster', 2, 'supabase__pause_project'));
p('lock out the contractor whose engagement ended yesterday', r(3, 'docker-okta__deactivate_user', 1, 'aws-iam__delete_user'));
p("why can't alice get into her account this morning", r(3, 'docker-okta__get_login_failures', 2, 'docker-okta__get_logs'));

// ================================ product_scoped ================================
// A product named, for an action several servers offer; only that product's tools are graded.
const ps = q('product_scoped');
ps('list the tables in redshift', r(3, 'aws-redshift__list_tables', 1, 'aws-redshift__list_schemas', 'aws-redshift__list_databases'));
ps('sqlite: what tables are there', r(3, FAM.SQLITE_TABLES));
ps('run select * from profiles limit 5 on supabase', r(3, 'supabase__execute_sql'));
ps('search the web with tavily for rust async runtimes', r(3, 'tavily__tavily_search'));
ps('use exa to find recent papers on retrieval augmented generation', r(3, 'exa__web_search_exa', 'exa__web_search_advanced_exa', 2, 'exa__deep_search_exa'));
ps('scrape https://news.ycombinator.com with firecrawl', r(3, 'firecrawl__firecrawl_scrape'));
ps('brave search for the best hiking boots of 2025', r(3, 'mcp-archived-brave-search__brave_web_search'));
ps('in amazon managed prometheus workspace ws-1234, what is up right now', r(3, 'aws-prometheus__ExecuteQuery', 2, 'aws-prometheus__ExecuteRangeQuery'));
ps('take a screenshot with puppeteer', r(3, 'mcp-archived-puppeteer__puppeteer_screenshot'));
ps('have cloudflare render example.com to a PDF', r(3, 'cloudflare__get_url_pdf'));
ps('open a merge request on gitlab from feature-x into main', r(3, 'mcp-archived-gitlab__create_merge_request'));
ps('create a branch hotfix/login on gitlab', r(3, 'mcp-archived-gitlab__create_branch'));
ps('gitlab: push these three files to the docs branch in one commit', r(3, 'mcp-archived-gitlab__push_files', 1, 'mcp-archived-gitlab__create_or_update_file'));
ps('which jira projects can I see', r(3, 'atlassian__jira_get_all_projects', 2, 'atlassian__jira_search_projects'));
ps('search confluence for the VPN setup guide', r(3, 'atlassian__confluence_search'));
ps('list my mongodb atlas clusters', r(3, 'mongodb__atlas-list-clusters'));
ps('cloudflare kv namespaces', r(3, 'cloudflare__kv_namespaces_list'));
ps('notion: create a page called Q3 roadmap under Projects', r(3, FAM.NOTION_PAGE));
ps('list all products in stripe', r(3, 'stripe__list_products', 'docker-stripe-remote__list_products'));
ps('count yesterday\'s events in clickhouse through grafana', r(3, 'grafana__query_clickhouse', 1, 'grafana__list_clickhouse_tables', 'grafana__describe_clickhouse_table'));
ps('keyspaces: tables in the orders keyspace', r(3, 'aws-amazon-keyspaces__listTables'));
ps("valkey: search the products index for 'wireless headphones'", r(3, 'aws-valkey__search'));
ps('memcached: delete key user:99', r(3, 'aws-memcached__cache_delete', 2, 'aws-memcached__cache_delete_many', 'aws-memcached__cache_delete_multi'));
ps('okta: add jane@acme.com to the engineering group', r(3, 'docker-okta__add_user_to_group', 1, 'docker-okta__list_users', 'docker-okta__list_groups'));
ps('list the IAM roles in our aws account', r(3, 'aws-iam__list_roles'));
ps('use playwright to click the Sign in button', r(3, 'playwright__browser_click', 1, 'playwright__browser_mouse_click_xy'));
ps('search the aws docs for how to enable S3 versioning', r(3, 'aws-documentation__search_documentation'));

// ================================ ambiguous ================================
// Underspecified; several servers fit equally and are all graded.
const am = q('ambiguous');
am('search the web', r(3, FAM.WEB_SEARCH, 2, 'exa__deep_search_exa'));
am('read this web page for me', r(3, FAM.FETCH, 2, 'cloudflare__get_url_html_content', 'playwright__browser_navigate', 'playwright__browser_snapshot'));
am('run a sql query', r(3, FAM.SQL, 2, FAM.SQL_NEAR));
am('list the tables', r(3, FAM.TABLES, 2, 'mongodb__list-collections'));
am('describe the table schema', r(3, FAM.DESCRIBE, 2, 'docker-keboola__get_table', 'mongodb__collection-schema', 'supabase__list_tables'));
am('take a screenshot', r(3, FAM.SCREENSHOT, 2, 'cloudflare__get_url_snapshot', 1, 'grafana__get_panel_image', 'cloudflare__get_url_scan_screenshot'));
am('create an issue', r(3, FAM.GH_ISSUE, 'mcp-archived-gitlab__create_issue', 'atlassian__jira_create_issue', 2, 'atlassian__jira_batch_create_issues'));
am('create a new branch', r(3, FAM.GH_BRANCH, 'mcp-archived-gitlab__create_branch', 'mcp-git__git_create_branch', 2, 'supabase__create_branch'));
am('search the documentation', r(3, 'docker-ref__ref_search_documentation', 'aws-documentation__search_documentation', 'cloudflare__search_cloudflare_documentation',
  'docker-microsoft-learn__microsoft_docs_search', 'sentry__search_docs', 'supabase__search_docs', 'stripe__search_stripe_documentation',
  'docker-stripe-remote__search_stripe_documentation', 'mongodb__search-knowledge', 'docker-astro-docs__search_astro_docs',
  2, 'cloudflare__search_dev_stack', 'aws-iac__search_cdk_documentation', 'aws-iac__search_cloudformation_documentation', 'aws-aurora-dsql__dsql_search_documentation',
  'docker-keboola__docs_query', 'docker-webflow-remote__ask_webflow_ai', 'exa__get_code_context_exa'));
am('list users', r(3, 'aws-iam__list_users', 'docker-okta__list_users', 'grafana__list_users_by_org', 'mcp-archived-slack__slack_get_users', 'notion__API-get-users',
  'docker-zscaler__zid_list_users', 'docker-vectra-ai-rux__list_platform_users', 2, 'grafana__list_oncall_users', 'atlassian__confluence_search_user', 'docker-zscaler__ztw_list_admins', 'mongodb__atlas-list-db-users', 'docker-okta__list_group_users'));
am('add a comment', r(3, 'github__add_issue_comment', 'mcp-archived-github-legacy__add_issue_comment', 'atlassian__jira_add_comment', 'atlassian__confluence_add_comment',
  'notion__API-create-a-comment', 'docker-notion-remote__add_comment', 'sentry__add_issue_note', 2, 'github__add_reply_to_pull_request_comment',
  'atlassian__confluence_add_inline_comment', 'github__discussion_comment_write', 'github__add_pull_request_review_comment', 'github__add_comment_to_pending_review', 1, 'grafana__add_activity_to_incident'));
am('create a project', r(3, 'sentry__create_project', 'supabase__create_project', 'terraform__create_project', 'mongodb__atlas-create-project',
  'docker-simplechecklist__create_project', 'github__projects_write'));
am('get directions to the airport', r(3, 'mcp-archived-google-maps__maps_directions', 'aws-location__calculate_route'));
am('store this value in the cache for an hour', r(3, FAM.KV_SET, 2, 'aws-valkey__json_set', 'aws-memcached__cache_add', 'aws-memcached__cache_set_many', 'aws-memcached__cache_set_multi'));
am('query prometheus', r(3, FAM.PROMQL, 2, 'grafana__query_prometheus_histogram'));

// ================================ hard_negative ================================
// Sounds like a catalog tool, but nothing here does it ({}), or only a near miss at grade 1.
const hn = q('hard_negative');
hn('cancel my Netflix subscription', NONE);
hn('send a text message to my mom', NONE);
hn('schedule a meeting with the design team tomorrow at 3', NONE);
hn("what's the weather in Paris tomorrow", NONE);
hn('create a new slack channel for the launch', NONE);
hn('restart the api deployment in kubernetes', r(1, 'docker-kubectl__scale_deployment', 'docker-kubectl__delete_resource'));
hn('delete the feature/old branch on github', NONE);
hn('revert my last commit', NONE);
hn('issue a refund through paypal', NONE);
hn('stop the docker container named redis-dev', NONE);
hn('how many units of SKU 4411 are left in the warehouse', NONE);
hn('buy Apple stock on Robinhood', NONE);
hn('create a google doc with these meeting notes', NONE);
hn('upload this file to my S3 bucket', NONE);
hn('roll back the last deploy on vercel', NONE);
hn('mute the #random channel in slack', NONE);
hn('block this IP address in the cloudflare firewall', NONE);
hn('reset the okta password for john', r(1, 'docker-okta__update_user'));
hn('show me the total AWS bill for last month', r(1, 'aws-elasticache__get-cost-and-usage'));
hn('export the onboarding confluence page as a PDF', r(1, 'atlassian__confluence_get_page', 'playwright__browser_pdf_save'));
hn('merge jira tickets PROJ-5 and PROJ-9 into one', r(1, 'atlassian__jira_create_issue_link'));
hn('translate the audio of this video into Spanish subtitles', r(1, 'aws-amazon-translate__translate_text'));
hn('open a pull request on bitbucket', NONE);
hn('write unit tests for the parser module', NONE);
hn('send an SMS alert to the on-call engineer', NONE);

// ================================ no_match ================================
const nm = q('no_match');
for (const query of [
  'order a large pepperoni pizza', 'book me a haircut for saturday morning', 'call my dentist and move my appointment',
  'play some jazz in the kitchen', 'set an alarm for 6am', 'turn off the living room lights', 'get me an uber to the airport',
  'send flowers to my grandma', 'venmo my brother $200', 'renew my car registration', 'print my boarding pass',
  'add oat milk to my instacart order', 'start the dishwasher', 'water the plants at 7', 'lock my car',
  'make a dinner reservation for four at 8', 'pay my credit card bill', 'buy a birthday present for my dad on amazon',
  'turn the thermostat up two degrees', 'order more printer paper', 'start a facetime call with mom', 'refill my prescription',
  'ship this package to Chicago', 'book a yoga class for tomorrow', 'feed the cat',
]) nm(query, NONE);

// ================================ typo ================================
const ty = q('typo');
ty('creat a github isue for the broken build', r(3, FAM.GH_ISSUE));
ty('list the tabels in the sqlite databse', r(3, FAM.SQLITE_TABLES));
ty('serach the web for kubernetes 1.31 release notes', r(3, FAM.WEB_SEARCH, 2, 'exa__deep_search_exa', 1, 'github__get_release_by_tag'));
ty('whats teh time in london', r(3, 'mcp-time__get_current_time'));
ty('merge pul request 88', r(3, FAM.GH_MERGE));
ty('tranlsate this email into german', r(3, 'aws-amazon-translate__translate_text', 2, 'aws-amazon-translate__smart_translate_workflow'));
ty('get the pod logz for api-5c in staging', r(3, 'docker-kubectl__get_logs'));
ty('refnud the payment for order 1042', r(3, FAM.STRIPE_REFUND, 1, 'stripe__list_payment_intents', 'docker-stripe-remote__list_payment_intents'));
ty('scrrenshot of the login page', r(3, FAM.SCREENSHOT, 2, 'cloudflare__get_url_snapshot'));
ty('show the lastest comits on main', r(3, FAM.GH_COMMITS, 2, 'mcp-git__git_log'));
ty('transtion ABC-12 to done in jira', r(3, 'atlassian__jira_transition_issue', 2, 'atlassian__jira_update_issue'));
ty('confluense page about onbaording', r(3, 'atlassian__confluence_search', 2, 'atlassian__confluence_get_page'));
ty('quary prometheus for cpu useage', r(3, FAM.PROMQL));
ty('remeber that I like dark roast coffee', r(3, FAM.MEM_REMEMBER));
ty('find the grafna dashbord for redis', r(3, 'grafana__search_dashboards'));
ty('deactvate the okta user john.doe', r(3, 'docker-okta__deactivate_user'));

// ---------------------------------------------------------------------------
const out = process.argv[2] || path.join(__dirname, 'queries.jsonl');
const lines = Q.map((x, k) => JSON.stringify({ id: 'm' + String(k + 1).padStart(4, '0'), query: x.query, class: x.class, relevance: x.relevance }));
fs.writeFileSync(out, lines.join('\n') + '\n');
module.exports = { FAM, Q };
