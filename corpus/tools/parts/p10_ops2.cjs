// Second wave (operations): cloud compute and monitoring, deploys, CI, alerting, job scheduling, code execution.
const { s, i, n, b, e, a, o, T, OAI } = require('./h.cjs');
const out = [];

// ---------------- aws ec2 ----------------
const region = s('AWS region, e.g. "eu-west-1".');
const instanceIds = a(s('Instance id, "i-…".'), 'Instances.', { minItems: 1 });
out.push(
T('aws_ec2', 'describe_instances', 'List EC2 instances with state, type, IPs, tags and launch time.',
  { region, instance_ids: a(s('Instance id.')), filters: a(o({ name: s('Filter name such as "instance-state-name" or "tag:Team".'), values: a(s('Accepted value.')) }, ['name', 'values'])) }),
T('aws_ec2', 'start_instances', 'Start stopped EC2 instances.', { region, instance_ids: instanceIds }, ['instance_ids']),
T('aws_ec2', 'stop_instances', 'Stop running EC2 instances. EBS-backed instances keep their disks; `hibernate` saves memory to disk first.',
  { region, instance_ids: instanceIds, hibernate: b('Hibernate instead of a plain stop.', false), force: b('Skip graceful shutdown.', false) }, ['instance_ids']),
T('aws_ec2', 'authorize_security_group_ingress', 'Add an inbound rule to a security group.',
  { region, group_id: s('Security group id, "sg-…".'), ip_protocol: e(['tcp', 'udp', 'icmp', '-1'], 'Protocol; -1 means all.'), from_port: i('First port.'), to_port: i('Last port.'),
    cidr_ip: s('Source range, e.g. "203.0.113.0/24".'), source_group_id: s('Allow traffic from members of this group instead of a CIDR.'), description: s('Rule note.') },
  ['group_id', 'ip_protocol']),
);

// ---------------- cloudwatch ----------------
out.push(
T('cloudwatch', 'get_metric_statistics', 'Fetch datapoints of an AWS CloudWatch metric, e.g. CPUUtilization of an instance, aggregated per period.',
  { namespace: s('Metric namespace, e.g. "AWS/EC2".'), metric_name: s('Metric name.'), dimensions: a(o({ name: s('Dimension name.'), value: s('Dimension value.') }, ['name', 'value'])),
    start_time: s('Start.'), end_time: s('End.'), period_seconds: i('Bucket size.', { default: 300 }), statistics: a(e(['Average', 'Sum', 'Minimum', 'Maximum', 'SampleCount'])) },
  ['namespace', 'metric_name', 'start_time', 'end_time']),
T('cloudwatch', 'filter_log_events', 'Search CloudWatch Logs in a log group for events matching a filter pattern.',
  { log_group_name: s('Log group, e.g. "/aws/lambda/checkout".'), filter_pattern: s('e.g. "ERROR" or \'{ $.status = 500 }\'.'), start_time: i('Epoch milliseconds.'), end_time: i('Epoch milliseconds.'),
    log_stream_names: a(s('Stream.')), limit: i('Events.', { default: 100 }) },
  ['log_group_name']),
T('cloudwatch', 'put_metric_alarm', 'Create or update an alarm that fires when a metric crosses a threshold.',
  { alarm_name: s('Name.'), namespace: s('Metric namespace.'), metric_name: s('Metric.'), statistic: e(['Average', 'Sum', 'Minimum', 'Maximum']), period_seconds: i('Evaluation period.'),
    evaluation_periods: i('Consecutive periods before the alarm fires.'), threshold: n('Threshold value.'),
    comparison_operator: e(['GreaterThanThreshold', 'GreaterThanOrEqualToThreshold', 'LessThanThreshold', 'LessThanOrEqualToThreshold']),
    alarm_actions: a(s('SNS topic ARN to notify.')), treat_missing_data: e(['missing', 'notBreaching', 'breaching', 'ignore']) },
  ['alarm_name', 'namespace', 'metric_name', 'threshold', 'comparison_operator', 'evaluation_periods']),
);

// ---------------- vercel ----------------
out.push(
T('vercel', 'list_deployments', 'Recent deployments of a Vercel project with their state, URL, branch and commit.',
  { project: s('Project name or id.'), target: e(['production', 'preview'], 'Environment.'), state: e(['BUILDING', 'READY', 'ERROR', 'CANCELED'], 'Deployment state.'), limit: i('Count.', { default: 20 }) }),
T('vercel', 'get_deployment_build_logs', 'Build output of a deployment, to see why a build failed.', { deployment_id: s('Deployment id or URL.'), limit: i('Lines.', { default: 500 }) }, ['deployment_id']),
T('vercel', 'promote_deployment', 'Point production at an earlier or preview deployment, e.g. to roll back a bad release instantly.',
  { project: s('Project.'), deployment_id: s('Deployment to serve in production.') }, ['project', 'deployment_id']),
T('vercel', 'create_env_var', 'Add an environment variable to a project.',
  { project: s('Project.'), key: s('Variable name.'), value: s('Value.'), target: a(e(['production', 'preview', 'development']), 'Environments that receive it.'), type: e(['plain', 'encrypted', 'sensitive'], 'Sensitive values cannot be read back.', 'encrypted'), git_branch: s('Only for previews of this branch.') },
  ['project', 'key', 'value', 'target']),
);

// ---------------- helm ----------------
out.push(
T('helm', 'upgrade_install', 'Install a Helm chart as a release, or upgrade the release if it already exists.',
  { release: s('Release name.'), chart: s('Chart reference, e.g. "bitnami/redis" or a local path.'), version: s('Chart version.'), namespace: s('Kubernetes namespace.'), create_namespace: b('Create the namespace if missing.', false),
    values: o({}, null, 'Values to override, as a nested object.', { additionalProperties: true }), set: a(s('key=value override.')), atomic: b('Roll back automatically if the upgrade fails.', false), wait: b('Wait until resources are ready.', true) },
  ['release', 'chart']),
T('helm', 'list_releases', 'Releases in a namespace with chart, app version, revision and status.', { namespace: s('Namespace.'), all_namespaces: b('Across the cluster.', false), failed_only: b('Only failed releases.', false) }),
T('helm', 'rollback', 'Roll a release back to an earlier revision.', { release: s('Release name.'), revision: i('Revision number; the previous one when omitted.'), namespace: s('Namespace.') }, ['release']),
);

// ---------------- argo cd ----------------
out.push(
T('argocd', 'list_applications', 'Argo CD applications with sync status (Synced/OutOfSync) and health.', { project: s('Argo CD project.'), selector: s('Label selector.') }),
T('argocd', 'sync_application', 'Sync an application so the cluster matches Git.',
  { name: s('Application.'), revision: s('Git revision to sync to.'), prune: b('Delete resources no longer in Git.', false), dry_run: b('Preview only.', false),
    resources: a(o({ kind: s('Kind.'), name: s('Name.'), namespace: s('Namespace.') }, ['kind', 'name']), 'Only sync these resources.') },
  ['name']),
T('argocd', 'get_application_diff', 'Show what differs between the live cluster state and the desired state in Git.', { name: s('Application.') }, ['name']),
);

// ---------------- jenkins ----------------
out.push(
T('jenkins', 'trigger_build', 'Start a Jenkins job, passing build parameters if the job takes any.',
  { job: s('Job path, e.g. "team/api/main".'), parameters: o({}, null, 'Build parameters by name.', { additionalProperties: { type: ['string', 'boolean', 'number'] } }) }, ['job']),
T('jenkins', 'get_build_console', 'Console output of a Jenkins build.', { job: s('Job path.'), build_number: i('Build number; the last build when omitted.'), start: i('Byte offset for progressive reading.', { default: 0 }) }, ['job']),
T('jenkins', 'list_jobs', 'Jobs in a Jenkins folder with their last build result.', { folder: s('Folder path; root when omitted.') }),
);

// ---------------- prometheus ----------------
out.push(
T('prometheus', 'query', 'Evaluate a PromQL expression at one instant.', { expr: s('PromQL, e.g. "up{job=\\"api\\"} == 0".'), time: s('Evaluation time; now when omitted.') }, ['expr']),
T('prometheus', 'query_range', 'Evaluate a PromQL expression over a time range and return a series per label set.',
  { expr: s('PromQL.'), start: s('Range start.'), end: s('Range end.'), step: s('Resolution, e.g. "30s".', { default: '60s' }) }, ['expr', 'start', 'end']),
T('prometheus', 'list_alerts', 'Alerts that are currently pending or firing.', { state: e(['pending', 'firing'], 'State.') }),
);

// ---------------- opsgenie ----------------
out.push(
T('opsgenie', 'create_alert', 'Raise an Opsgenie alert, which notifies the responders of a team according to its on-call rules.',
  { message: s('Alert text, up to 130 characters.'), alias: s('Deduplication key.'), priority: e(['P1', 'P2', 'P3', 'P4', 'P5'], 'P1 is the most urgent.', 'P3'),
    responders: a(o({ type: e(['team', 'user', 'escalation', 'schedule']), name: s('Name of the team, user, escalation or schedule.') }, ['type', 'name'])), details: o({}, null, 'Extra key/value context.', { additionalProperties: { type: 'string' } }) },
  ['message']),
T('opsgenie', 'acknowledge_alert', 'Acknowledge an alert.', { alert_id: s('Alert id or alias.'), note: s('Note.') }, ['alert_id']),
T('opsgenie', 'close_alert', 'Close an alert once the problem is fixed.', { alert_id: s('Alert id or alias.'), note: s('Closing note.') }, ['alert_id']),
T('opsgenie', 'get_on_calls', 'Who is on call for a schedule right now.', { schedule: s('Schedule name or id.'), flat: b('Return only the participant names.', true) }, ['schedule']),
);

// ---------------- scheduler ----------------
out.push(
T('scheduler', 'create_job', 'Register a job that runs repeatedly.',
  { name: s('Job name.'), cron_expression: s('Five-field cron, e.g. "0 2 * * *".'), time_zone: s('IANA zone the expression is read in.', { default: 'UTC' }),
    target: { anyOf: [o({ http_url: s('URL to call.'), http_method: e(['GET', 'POST'], null, 'POST'), body: s('Request body.') }, ['http_url']), o({ command: s('Shell command to run.') }, ['command'])] },
    retry_count: i('Retries on failure.', { default: 0 }) },
  ['name', 'cron_expression', 'target']),
T('scheduler', 'list_jobs', 'Registered jobs with next run time and last result.', null, null, { rawSchema: { type: 'object' } }),
T('scheduler', 'delete_job', 'Remove a job.', { name: s('Job name.') }, ['name']),
);

// ---------------- shell & sandbox ----------------
out.push(
T('shell', 'run_command', 'Run a command on the host and return exit code, stdout and stderr.',
  { command: s('Command line, run with /bin/sh -c.'), cwd: s('Working directory.'), env: o({}, null, 'Extra environment variables.', { additionalProperties: { type: 'string' } }), timeout_seconds: i('Kill after.', { default: 60 }) },
  ['command']),
T('sandbox', 'run_code', 'Execute a snippet in an isolated, network-less sandbox and return its output, any error trace and created files.',
  { language: e(['python', 'javascript', 'bash', 'r'], 'Interpreter.', 'python'), code: s('Source to execute.'), stdin: s('Text fed to standard input.'), timeout_seconds: i('Wall clock limit.', { default: 30, maximum: 300 }) },
  ['code']),
T('sandbox', 'install_packages', 'Install libraries into the sandbox before running code.', { manager: e(['pip', 'npm'], 'Package manager.', 'pip'), packages: a(s('Package spec, e.g. "pandas==2.2".')) }, ['packages']),
);

// ---------------- npm registry (OpenAI function shape) ----------------
out.push(
OAI('npm', 'search_packages', 'Search the npm registry for JavaScript packages by keyword.', { text: s('Search words.'), size: i('Results.', { default: 20 }) }, ['text']),
OAI('npm', 'get_package', 'Metadata of an npm package: latest version, versions, license, dependencies and weekly downloads.', { name: s('Package name, e.g. "left-pad".'), version: s('A specific version.') }, ['name']),
);

module.exports = out;
