const { s, i, n, b, e, a, o, T } = require('./h.cjs');
const out = [];

// ---------------- kubernetes ----------------
const ns = s('Namespace; the context default when omitted.');
out.push(
T('kubernetes', 'list_pods', 'List pods with their phase, readiness, restart count, node and age.',
  { namespace: ns, all_namespaces: b('List across every namespace.', false), label_selector: s('e.g. "app=web,tier!=cache".'), field_selector: s('e.g. "status.phase=Pending".') }),
T('kubernetes', 'get_pod_logs', 'Fetch logs from a container in a pod. Use `previous` to see why a crash-looping container died.',
  { pod: s('Pod name.'), namespace: ns, container: s('Container name; required when the pod has several.'), tail_lines: i('Lines from the end.', { default: 200 }),
    since_seconds: i('Only lines newer than this.'), previous: b('Logs of the previous, terminated instance.', false), timestamps: b('Prefix each line with its time.', false) },
  ['pod']),
T('kubernetes', 'describe_resource', 'Describe any resource (pod, deployment, service, node, ingress, PVC, …) with its status, conditions and recent events.',
  { kind: s('Resource kind, e.g. "deployment" or "pvc".'), name: s('Resource name.'), namespace: ns }, ['kind', 'name']),
T('kubernetes', 'apply_manifest',
  ['Create or update resources from a YAML or JSON manifest, like `kubectl apply`.',
   'Several documents separated by `---` are applied in order. Run with `dry_run: "server"` first to see what the API server would accept without changing the cluster; the response lists each object as created, configured or unchanged.',
   'Server-side apply records `field_manager` as the owner of the fields it sets. Deleting resources is not possible with this tool.'],
  { manifest: s('YAML or JSON text.'), namespace: ns, dry_run: e(['none', 'client', 'server'], 'Validate without persisting.', 'none'),
    server_side: b('Use server-side apply.', false), field_manager: s('Field manager name for server-side apply.', { default: 'toolsift-agent' }) },
  ['manifest'], { annotations: { title: 'kubectl apply', destructiveHint: true } }),
T('kubernetes', 'scale', 'Change the replica count of a deployment or statefulset.',
  { kind: e(['deployment', 'statefulset', 'replicaset'], 'Workload kind.', 'deployment'), name: s('Workload name.'), namespace: ns, replicas: i('Desired replicas.', { minimum: 0 }) },
  ['name', 'replicas']),
T('kubernetes', 'rollout_restart', 'Restart all pods of a workload with a rolling update, e.g. to pick up a changed ConfigMap or Secret.',
  { kind: e(['deployment', 'statefulset', 'daemonset'], 'Workload kind.', 'deployment'), name: s('Workload name.'), namespace: ns }, ['name']),
T('kubernetes', 'get_events', 'List cluster events, newest first: scheduling failures, image pull errors, OOM kills, probe failures.',
  { namespace: ns, involved_object: s('Only events about this object name.'), type: e(['Normal', 'Warning'], 'Event type.'), limit: i('Maximum events.', { default: 50 }) }),
);

// ---------------- docker ----------------
out.push(
T('docker', 'list_containers', 'List containers on the Docker host.',
  { all: b('Include stopped containers.', false), filters: o({ label: a(s('key=value')), status: a(e(['created', 'running', 'paused', 'restarting', 'exited', 'dead'])), name: a(s('Name substring.')) }, null, 'Filters.') }),
T('docker', 'run_container', 'Start a new container from an image.',
  { image: s('Image reference, e.g. "postgres:16".'), name: s('Container name.'), command: a(s('Argument.'), 'Override the image command.'),
    ports: a(o({ host_port: i('Port on the host.'), container_port: i('Port inside the container.'), protocol: e(['tcp', 'udp'], null, 'tcp') }, ['container_port']), 'Port mappings to publish.'),
    volumes: a(o({ source: s('Host path or named volume.'), target: s('Mount point in the container.'), read_only: b('Mount read-only.', false) }, ['source', 'target']), 'Bind mounts and volumes.'),
    env: o({}, null, 'Environment variables.', { additionalProperties: { type: 'string' } }), detach: b('Return immediately.', true),
    restart_policy: e(['no', 'on-failure', 'always', 'unless-stopped'], 'Restart behaviour.', 'no'), network: s('Network to attach to.') },
  ['image']),
T('docker', 'stop_container', 'Stop a running container, killing it after a grace period.',
  { container: s('Name or id.'), timeout_seconds: i('Grace period before SIGKILL.', { default: 10 }), remove: b('Remove the container after stopping.', false) }, ['container']),
T('docker', 'container_logs', 'Read stdout/stderr of a container.',
  { container: s('Name or id.'), tail: i('Lines from the end.', { default: 100 }), since: s('Relative ("10m") or absolute time.') }, ['container']),
T('docker', 'build_image', 'Build an image from a Dockerfile.',
  { context: s('Build context directory.'), dockerfile: s('Dockerfile path relative to the context.', { default: 'Dockerfile' }), tags: a(s('name:tag'), 'Tags for the result.'),
    build_args: o({}, null, 'ARG values.', { additionalProperties: { type: 'string' } }), target: s('Stage to build in a multi-stage Dockerfile.'), platform: s('e.g. "linux/arm64".') },
  ['context']),
);

// ---------------- terraform ----------------
const wd = s('Directory containing the Terraform configuration.');
out.push(
T('terraform', 'plan',
  ['Compute what Terraform would create, change or destroy, without touching any infrastructure, and save the result as a plan file for the apply tool.',
   'The working directory must already be initialised (providers and modules downloaded, backend configured). The plan refreshes state first, so it also reveals drift: resources that were changed by hand outside Terraform show up as updates back to the configured values.',
   'The summary lists every resource address with its action (create, update in-place, replace, destroy, read) and the attributes that differ; values marked sensitive are masked. Replacements are called out separately because they destroy the existing object, which for databases or disks means data loss.',
   'Use `targets` sparingly: a targeted plan ignores dependencies outside the target set and can leave the configuration half-applied. Passing `destroy: true` plans the removal of everything in state.'],
  { working_dir: wd, vars: o({}, null, 'Input variables.', { additionalProperties: true }), var_files: a(s('.tfvars path.'), 'Variable files.'),
    targets: a(s('Resource address.'), 'Limit the plan to these resources.'), destroy: b('Plan a full destroy.', false), out: s('Where to save the plan file.', { default: 'tfplan' }) },
  ['working_dir']),
T('terraform', 'apply', 'Apply a saved plan file. Only plans produced by plan are accepted, so nothing is applied that was not reviewed.',
  { working_dir: wd, plan_file: s('Saved plan.', { default: 'tfplan' }) }, ['working_dir'], { annotations: { title: 'Apply Terraform plan', destructiveHint: true } }),
T('terraform', 'state_show', 'Show the attributes recorded in state for resources.',
  { working_dir: wd, address: s('Resource address, e.g. "aws_instance.web[0]"; lists all addresses when omitted.') }, ['working_dir']),
T('terraform', 'validate', 'Check configuration syntax and internal consistency; also runs fmt -check.', { working_dir: wd }, ['working_dir']),
);

// ---------------- aws_lambda ----------------
const fn = s('Function name or ARN.');
out.push(
T('aws_lambda', 'invoke_function', 'Invoke a Lambda function with a JSON payload and return its response and the tail of its log.',
  { function_name: fn, payload: o({}, null, 'Event passed to the handler.', { additionalProperties: true }),
    invocation_type: e(['RequestResponse', 'Event', 'DryRun'], 'Synchronous, asynchronous, or permission check only.', 'RequestResponse'), qualifier: s('Version or alias.') },
  ['function_name']),
T('aws_lambda', 'list_functions', 'List Lambda functions in the region.', { runtime: s('Only this runtime, e.g. "python3.12".'), max_items: i('Maximum functions.', { default: 50 }) }),
T('aws_lambda', 'update_function_code', 'Deploy new code to a function from a zip, an S3 object or a container image.',
  { function_name: fn,
    source: { anyOf: [o({ zip_base64: s('Zip archive, base64.') }, ['zip_base64']), o({ s3_bucket: s('Bucket.'), s3_key: s('Key.') }, ['s3_bucket', 's3_key']), o({ image_uri: s('ECR image URI.') }, ['image_uri'])] },
    publish: b('Publish a new version.', false) },
  ['function_name', 'source']),
T('aws_lambda', 'update_function_configuration', 'Change runtime settings of a function.',
  { function_name: fn, memory_mb: i('Memory size.', { minimum: 128, maximum: 10240 }), timeout_seconds: i('Timeout.', { maximum: 900 }),
    environment: o({}, null, 'Environment variables (replaces the whole set).', { additionalProperties: { type: 'string' } }), layers: a(s('Layer version ARN.'), 'Layers.') },
  ['function_name']),
);

// ---------------- cloudflare ----------------
const zone = s('Zone id of the domain.');
out.push(
T('cloudflare', 'purge_cache', 'Remove cached content from the edge, everything or by URL, cache tag, host or prefix.',
  { zone_id: zone, purge_everything: b('Purge the whole zone.', false), files: a(s('Full URL.', { format: 'uri' }), 'URLs to purge.', { maxItems: 30 }),
    tags: a(s('Cache-Tag value.'), 'Cache tags.'), prefixes: a(s('e.g. "example.com/images/".'), 'URL prefixes.') },
  ['zone_id']),
T('cloudflare', 'list_dns_records', 'List DNS records of a zone.',
  { zone_id: zone, type: e(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'], 'Record type.'), name: s('Exact record name.') }, ['zone_id']),
T('cloudflare', 'create_dns_record', 'Add a DNS record to a zone.',
  { zone_id: zone, type: e(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'], 'Record type.'), name: s('Record name, e.g. "api.example.com".'), content: s('Value: IP, target host, text…'),
    ttl: i('Seconds; 1 means automatic.', { default: 1 }), proxied: b('Route through Cloudflare\'s proxy (orange cloud).', false), priority: i('For MX and SRV.') },
  ['zone_id', 'type', 'name', 'content']),
T('cloudflare', 'deploy_worker', 'Upload a Workers script (ES module) with its bindings.',
  { script_name: s('Worker name.'), script: s('JavaScript module source.'), compatibility_date: s('e.g. "2024-09-23".'),
    bindings: a({ anyOf: [o({ type: { const: 'kv_namespace' }, name: s('Variable name.'), namespace_id: s('KV namespace.') }, ['type', 'name', 'namespace_id']),
      o({ type: { const: 'r2_bucket' }, name: s('Variable name.'), bucket_name: s('R2 bucket.') }, ['type', 'name', 'bucket_name']),
      o({ type: { const: 'secret_text' }, name: s('Variable name.'), text: s('Secret value.') }, ['type', 'name', 'text'])] }, 'Resources the script can use.') },
  ['script_name', 'script']),
);

// ---------------- sentry ----------------
const org = s('Organization slug.');
out.push(
T('sentry', 'list_issues', 'List error groups in a project, most recent or most frequent first.',
  { organization: org, project: s('Project slug.'), query: s('Sentry search, e.g. "is:unresolved level:error release:1.4.2".', { default: 'is:unresolved' }),
    sort: e(['date', 'new', 'freq', 'user'], 'Ordering.', 'date'), stats_period: e(['24h', '14d'], 'Window for event counts.', '24h'), limit: i('Maximum issues.', { default: 25 }) },
  ['organization']),
T('sentry', 'get_issue_details',
  ['Get everything needed to debug one Sentry issue: title, culprit, first/last seen, event count, affected users, tags, and the latest event\'s stack trace with source context and breadcrumbs.',
   'Accepts the numeric id, the short id (e.g. "BACKEND-3F2") or a full issue URL.'],
  { issue: s('Issue id, short id or URL.'), organization: org, event: e(['latest', 'oldest', 'recommended'], 'Which event to show.', 'latest') }, ['issue']),
T('sentry', 'update_issue', 'Resolve, ignore, reopen or assign an issue.',
  { issue: s('Issue id or short id.'), organization: org, status: e(['resolved', 'resolvedInNextRelease', 'unresolved', 'ignored'], 'New status.'),
    assigned_to: s('"user:ID", "team:ID" or an email.'), ignore_minutes: i('When ignoring: snooze for this long.') }, ['issue']),
T('sentry', 'search_events', 'Query raw error and transaction events with Discover: pick fields, filters and aggregates.',
  { organization: org, query: s('Filter, e.g. "transaction:/checkout http.status_code:500".'), fields: a(s('Field or aggregate like "count()" or "p95(transaction.duration)".'), 'Columns.'),
    stats_period: s('e.g. "1h", "7d".', { default: '24h' }), sort: s('Field to sort by, "-" for descending.') }, ['organization', 'fields']),
);

// ---------------- datadog ----------------
out.push(
T('datadog', 'query_metrics',
  ['Query timeseries metrics over a time window and return one series per group, with the points, the unit and the applied rollup interval.',
   'Query syntax: `<space_aggregator>:<metric_name>{<tag filters>} by {<group tags>}`. The space aggregator is one of avg, sum, min or max and says how values from different sources are combined at each timestamp. Tag filters are comma-separated and AND-ed: `{env:prod,service:checkout}`; prefix a tag with `!` to exclude it and use `*` as a wildcard (`{host:web-*}`). `by {host}` splits the result into one series per host; leave it out for a single aggregated series.',
   'Functions wrap the query: `.rollup(sum, 60)` sets the time aggregation and interval in seconds, `.as_count()` and `.as_rate()` change how count and rate metrics are reported, `top(query, 10, \'mean\', \'desc\')` keeps the ten busiest series, and arithmetic between queries is allowed, e.g. `sum:trace.http.request.errors{service:api}.as_count() / sum:trace.http.request.hits{service:api}.as_count() * 100` for an error percentage. `timeshift(query, -86400)` compares with the same time yesterday; `anomalies(query, \'basic\', 2)` and `forecast(query, \'linear\', 1)` are available too.',
   'Resolution is chosen automatically from the window: about 300 points per series. Very long windows are coarse; narrow the window or add an explicit rollup for detail. Missing data is returned as null points, not zero. Metric names are case-sensitive and use dots; custom metrics usually start with the team or service prefix.',
   'Examples: `avg:system.cpu.user{env:prod} by {host}` for CPU by host; `p95:trace.http.request.duration{service:checkout}` for tail latency; `sum:aws.sqs.approximate_number_of_messages_visible{queuename:orders}` for queue depth; `max:kubernetes.memory.usage{kube_deployment:api} by {pod_name}` for memory per pod; `sum:postgresql.deadlocks{*}.as_count()` for database deadlocks.',
   'Limits: a single request may return at most 500 series and 1,500 points per series; larger results are truncated and flagged. Queries over more than 30 days of high-cardinality metrics can take several seconds. The API key behind this server needs the timeseries_query scope.'],
  { query: s('Metric query.'), from: i('Start, Unix seconds.'), to: i('End, Unix seconds.') }, ['query', 'from', 'to']),
T('datadog', 'search_logs', 'Search logs by query and time range.',
  { query: s('Log search, e.g. "service:payments status:error @http.status_code:502".'), from: s('Start: ISO time or relative like "now-15m".', { default: 'now-15m' }), to: s('End.', { default: 'now' }),
    indexes: a(s('Log index.'), 'Indexes to search.'), limit: i('Maximum log lines.', { default: 50, maximum: 1000 }), sort: e(['timestamp', '-timestamp'], 'Order.', '-timestamp') },
  ['query']),
T('datadog', 'list_monitors', 'List monitors with their current state.',
  { name: s('Substring of the monitor name.'), tags: a(s('Tag.'), 'Monitor tags.'), group_states: a(e(['alert', 'warn', 'no data', 'ok']), 'Only monitors in these states.') }),
T('datadog', 'mute_monitor', 'Silence a monitor, for all scopes or one, until a given time.',
  { monitor_id: i('Monitor id.'), scope: s('Scope to mute, e.g. "host:db-1".'), end: i('Unix time to unmute; forever when omitted.') }, ['monitor_id']),
);

// ---------------- pagerduty ----------------
out.push(
T('pagerduty', 'trigger_incident', 'Page the on-call responder by sending a trigger event to a service\'s integration.',
  { routing_key: s('Integration key of the service.'), summary: s('What is wrong, shown in the page.'), severity: e(['critical', 'error', 'warning', 'info'], 'Severity.'),
    source: s('Affected host or component.'), dedup_key: s('Events with the same key update one incident.'), custom_details: o({}, null, 'Extra context.', { additionalProperties: true }) },
  ['routing_key', 'summary', 'severity', 'source']),
T('pagerduty', 'acknowledge_incident', 'Acknowledge an incident so escalation stops.', { incident_id: s('Incident id.'), from_email: s('Email of the acknowledging user.') }, ['incident_id', 'from_email']),
T('pagerduty', 'resolve_incident', 'Mark an incident resolved, with an optional resolution note.',
  { incident_id: s('Incident id.'), from_email: s('Email of the resolving user.'), resolution: s('Note added to the incident.') }, ['incident_id', 'from_email']),
T('pagerduty', 'list_oncalls', 'Who is on call now or during a window, per schedule and escalation level.',
  { schedule_ids: a(s('Schedule id.'), 'Schedules.'), escalation_policy_ids: a(s('Policy id.'), 'Escalation policies.'),
    since: s('Window start.', { format: 'date-time' }), until: s('Window end.', { format: 'date-time' }) }),
);

// ---------------- grafana ----------------
out.push(
T('grafana', 'search_dashboards', 'Find dashboards by title, tag or folder.',
  { query: s('Title substring.'), tags: a(s('Tag.'), 'Dashboards must have all these tags.'), folder_uids: a(s('Folder uid.'), 'Folders.'), starred: b('Only starred dashboards.', false) }),
T('grafana', 'query_prometheus', 'Run a PromQL expression through a Grafana Prometheus data source, as a range or instant query.',
  { datasource_uid: s('Data source uid.'), expr: s('PromQL, e.g. "sum(rate(http_requests_total{code=~\\"5..\\"}[5m])) by (service)".'),
    start: s('Range start (RFC 3339 or "now-1h").'), end: s('Range end.', { default: 'now' }), step: s('Resolution, e.g. "30s".'), instant: b('Evaluate at a single time.', false) },
  ['datasource_uid', 'expr']),
T('grafana', 'create_annotation', 'Mark an event (deploy, incident, config change) on dashboards.',
  { dashboard_uid: s('Dashboard; organisation-wide when omitted.'), panel_id: i('Panel.'), time: i('Epoch milliseconds.'), time_end: i('For region annotations.'),
    text: s('Annotation text.'), tags: a(s('Tag.'), 'Tags.') }, ['text']),
T('grafana', 'list_alert_rules', 'List alert rules and their evaluation state.',
  { folder: s('Folder title.'), state: e(['firing', 'pending', 'normal', 'error', 'nodata'], 'State filter.') }),
);

// ---------------- filesystem ----------------
out.push(
T('filesystem', 'read_file', 'Read a text file. Large files can be read in slices by line offset.',
  { path: s('Absolute path, or relative to the first allowed directory.'), offset: i('First line to read (1-based).', { default: 1 }), limit: i('Number of lines.'),
    encoding: e(['utf-8', 'latin1', 'base64'], 'How to decode the bytes; base64 for binary files.', 'utf-8') },
  ['path'], { title: 'Read file' }),
T('filesystem', 'write_file', 'Create a file or overwrite it completely with new content.',
  { path: s('Destination path.'), content: s('Full file content.'), create_dirs: b('Create missing parent directories.', true) }, ['path', 'content']),
T('filesystem', 'edit_file',
  ['Change part of a text file by swapping exact snippets for new text, leaving the rest of the file alone.',
   'Each edit\'s `old_text` must occur exactly once in the file (include a few surrounding lines to make it unique); edits are applied in order and all-or-nothing. Indentation of the new text is kept as given.',
   'With `dry_run` the tool only returns a unified diff of what would change, which is a good way to check an edit before making it.'],
  { path: s('File to edit.'), edits: a(o({ old_text: s('Exact text to find.'), new_text: s('Replacement.') }, ['old_text', 'new_text']), 'Replacements.', { minItems: 1 }),
    dry_run: b('Preview as a diff without writing.', false) },
  ['path', 'edits']),
T('filesystem', 'list_directory', 'List entries of a directory, marking files and subdirectories.',
  { path: s('Directory.'), recursive: b('Descend into subdirectories (as a tree).', false), max_depth: i('Depth limit when recursive.', { default: 3 }), include_hidden: b('Show dotfiles.', false) },
  ['path']),
T('filesystem', 'search_files', 'Find files whose path matches a glob pattern, below a directory.',
  { path: s('Directory to start from.'), pattern: s('Glob such as "**/*.test.ts".'), exclude: a(s('Glob.'), 'Patterns to skip, e.g. "node_modules/**".') }, ['path', 'pattern']),
T('filesystem', 'move_file', 'Move or rename a file or directory. Fails if the destination exists.',
  { source: s('Current path.'), destination: s('New path.') }, ['source', 'destination']),
T('filesystem', 'get_file_info', 'Metadata of a path: size, created, modified and accessed times, permissions, and whether it is a file or directory.', { path: s('Path.') }, ['path']),
T('filesystem', 'list_allowed_directories', 'Which root folders this server is sandboxed to; paths outside them are refused.', null, null, { rawSchema: { type: 'object', properties: {}, additionalProperties: false } }),
);

// ---------------- git ----------------
const rp = s('Path to the repository working tree.', { default: '.' });
out.push(
T('git', 'status', 'Current branch plus which files are staged, modified but unstaged, or untracked.', { repo_path: rp }, null, { annotations: { title: 'git status', readOnlyHint: true } }),
T('git', 'diff', 'Show changes between the working tree, the index, or commits.',
  { repo_path: rp, target: s('Commit, branch or range such as "main...HEAD"; working tree vs index when omitted.'), staged: b('Show staged changes.', false),
    paths: a(s('Path.'), 'Limit to these paths.'), context_lines: i('Lines of context.', { default: 3 }) }),
T('git', 'commit', 'Record staged changes as a commit.',
  { repo_path: rp, message: s('Commit message.'), all: b('Stage tracked modified files first (-a).', false), paths: a(s('Path.'), 'Stage these paths before committing.'), amend: b('Rewrite the last commit.', false) },
  ['message']),
T('git', 'log', 'Show commit history.',
  { repo_path: rp, max_count: i('Number of commits.', { default: 20 }), since: s('e.g. "2 weeks ago".'), author: s('Author name or email pattern.'), path: s('Only commits touching this path.'), grep: s('Pattern in commit messages.') }),
T('git', 'checkout', 'Switch branches, optionally creating one.',
  { repo_path: rp, branch: s('Branch name.'), create: b('Create the branch first (-b).', false), start_point: s('Where a new branch starts.') }, ['branch']),
T('git', 'blame', 'Show who last changed each line of a file, and in which commit.',
  { repo_path: rp, file: s('File path.'), line_start: i('First line.'), line_end: i('Last line.') }, ['file']),
);
module.exports = out;
