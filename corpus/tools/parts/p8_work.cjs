// Second wave (work): more code hosts and trackers, design, documents and file storage, plus a few tools for existing products.
const { s, i, n, b, e, a, o, T, OAI } = require('./h.cjs');
const out = [];

// ---------------- additions to existing products ----------------
const owner = s('Account or organisation that owns the repository.');
const repo = s('Repository name without the owner prefix.');
out.push(
T('github', 'create_release', 'Publish a release for a tag, with notes. The tag is created from `target_commitish` if it does not exist yet.',
  { owner, repo, tag_name: s('Tag such as "v2.3.0".'), name: s('Release title.'), body: s('Release notes in Markdown.'), target_commitish: s('Branch or SHA to tag.'),
    draft: b('Save as an unpublished draft.', false), prerelease: b('Mark as not production-ready.', false), generate_release_notes: b('Let GitHub write notes from merged pull requests.', false) },
  ['owner', 'repo', 'tag_name']),
T('github', 'list_commits', 'Commits on a branch, newest first.',
  { owner, repo, sha: s('Branch or commit to start from.'), path: s('Only commits touching this path.'), author: s('Login or email.'), since: s('ISO 8601 lower bound.'), until: s('ISO 8601 upper bound.'), per_page: i('Page size.', { default: 30 }) },
  ['owner', 'repo']),
T('jira', 'list_sprints', 'Sprints of a Scrum board, filtered by state.',
  { board_id: i('Board id.'), state: e(['future', 'active', 'closed'], 'Sprint state.') }, ['board_id']),
T('slack', 'create_channel', 'Create a new public or private Slack channel.',
  { name: s('Lowercase, no spaces, at most 80 characters.'), is_private: b('Create a private channel.', false), invite_user_ids: a(s('Member id.'), 'People to add right away.') }, ['name']),
T('slack', 'set_channel_topic', 'Set the topic line shown at the top of a channel.', { channel: s('Channel id.'), topic: s('New topic text.') }, ['channel', 'topic']),
);

// ---------------- bitbucket ----------------
const workspace = s('Workspace slug.');
const repoSlug = s('Repository slug.');
out.push(
T('bitbucket', 'create_pull_request', 'Open a pull request in a Bitbucket Cloud repository.',
  { workspace, repo_slug: repoSlug, title: s('Title.'), source_branch: s('Branch with the changes.'), destination_branch: s('Target branch; the main branch when omitted.'),
    description: s('Markdown description.'), reviewers: a(s('Account UUID.'), 'Requested reviewers.'), close_source_branch: b('Delete the source branch after merge.', false) },
  ['workspace', 'repo_slug', 'title', 'source_branch']),
T('bitbucket', 'list_pull_requests', 'Pull requests of a Bitbucket repository.',
  { workspace, repo_slug: repoSlug, state: e(['OPEN', 'MERGED', 'DECLINED', 'SUPERSEDED'], 'State.', 'OPEN') }, ['workspace', 'repo_slug']),
T('bitbucket', 'list_repositories', 'Repositories in a Bitbucket workspace, optionally filtered by project key or name.',
  { workspace, project_key: s('Project key.'), q: s('Filter such as name ~ "api".') }, ['workspace']),
T('bitbucket', 'get_pipeline_step_log', 'Log output of one step of a Bitbucket Pipelines run.',
  { workspace, repo_slug: repoSlug, pipeline_uuid: s('Pipeline run UUID.'), step_uuid: s('Step UUID.') }, ['workspace', 'repo_slug', 'pipeline_uuid', 'step_uuid']),
);

// ---------------- azure devops (camelCase) ----------------
const adoProject = s('Project name.');
out.push(
T('azure_devops', 'createWorkItem', 'Create an Azure Boards work item such as a Bug, Task, User Story or Feature.',
  { project: adoProject, workItemType: e(['Bug', 'Task', 'User Story', 'Feature', 'Epic'], 'Work item type.'), title: s('Title.'),
    description: s('HTML description.'), assignedTo: s('User email.'), areaPath: s('Area path, e.g. "Web\\\\Checkout".'), iterationPath: s('Iteration (sprint) path.'),
    fields: o({}, null, 'Any other fields by reference name, e.g. "Microsoft.VSTS.Common.Priority": 2.', { additionalProperties: true }) },
  ['project', 'workItemType', 'title']),
T('azure_devops', 'queryWorkItems', 'Run a WIQL query and return the matching work items.',
  { project: adoProject, wiql: s('e.g. "SELECT [System.Id] FROM WorkItems WHERE [System.State] = \'Active\' AND [System.AssignedTo] = @Me".'), top: i('Maximum items.', { default: 50 }) },
  ['project', 'wiql']),
T('azure_devops', 'getWorkItem', 'Fetch a work item with its fields, relations and history.', { id: i('Work item id.'), expand: e(['none', 'relations', 'fields', 'all'], 'Extra data.', 'none') }, ['id']),
T('azure_devops', 'runPipeline', 'Queue a run of an Azure Pipelines pipeline on a branch, with runtime parameters.',
  { project: adoProject, pipelineId: i('Pipeline definition id.'), branch: s('Branch to build, e.g. "refs/heads/main".'),
    templateParameters: o({}, null, 'Runtime parameters declared in the YAML.', { additionalProperties: { type: 'string' } }) },
  ['project', 'pipelineId']),
);

// ---------------- asana ----------------
out.push(
T('asana', 'create_task', 'Add a task to an Asana project, with a due date, assignee and optional parent for subtasks.',
  { workspace_gid: s('Workspace id.'), projects: a(s('Project gid.'), 'Projects to place it in.'), name: s('Task name.'), notes: s('Plain-text description.'),
    assignee: s('User gid, email or "me".'), due_on: s('Due date, YYYY-MM-DD.'), followers: a(s('User gid or email.'), 'Collaborators to notify.'), parent: s('Make it a subtask of this task.'),
    custom_fields: o({}, null, 'Custom field gid to value.', { additionalProperties: true }) },
  ['name']),
T('asana', 'search_tasks', 'Search tasks in a workspace by text, assignee, project, completion and due date.',
  { workspace_gid: s('Workspace id.'), text: s('Words in the name or description.'), assignee_any: a(s('User gid or "me".')), projects_any: a(s('Project gid.')),
    completed: b('true for done tasks, false for open ones.'), due_on_before: s('YYYY-MM-DD.'), sort_by: e(['due_date', 'created_at', 'completed_at', 'likes', 'modified_at'], 'Sort key.', 'modified_at') },
  ['workspace_gid']),
T('asana', 'update_task', 'Mark a task complete or change its name, assignee, due date or section.',
  { task_gid: s('Task id.'), completed: b('Mark done (true) or reopen (false).'), name: s('New name.'), assignee: s('User gid or null to unassign.'), due_on: s('New due date.'), section_gid: s('Move it to this section/column.') },
  ['task_gid']),
T('asana', 'add_comment', 'Comment on a task.', { task_gid: s('Task id.'), text: s('Comment text; @-mentions by profile link.') }, ['task_gid', 'text']),
T('asana', 'list_projects', 'Projects in a workspace or team.', { workspace_gid: s('Workspace id.'), team_gid: s('Only this team.'), archived: b('Include archived projects.', false) }),
);

// ---------------- trello ----------------
out.push(
T('trello', 'list_boards', 'Boards the member can see.', { filter: e(['open', 'closed', 'starred', 'all'], 'Which boards.', 'open') }),
T('trello', 'create_card', 'Add a card to a list on a Trello board.',
  { list_id: s('List (column) id.'), name: s('Card title.'), desc: s('Card description, Markdown.'), due: s('Due date-time.', { format: 'date-time' }),
    label_ids: a(s('Label id.')), member_ids: a(s('Member id.'), 'People to put on the card.'), pos: e(['top', 'bottom'], 'Where in the list.', 'bottom') },
  ['list_id', 'name']),
T('trello', 'move_card', 'Move a card to another list or board, e.g. from "Doing" to "Done".',
  { card_id: s('Card id.'), list_id: s('Destination list.'), board_id: s('Destination board when moving across boards.'), pos: e(['top', 'bottom'], 'Position.') }, ['card_id', 'list_id']),
T('trello', 'add_checklist', 'Add a checklist with items to a card.',
  { card_id: s('Card id.'), name: s('Checklist title.', { default: 'Checklist' }), items: a(s('Item text.'), 'Items in order.') }, ['card_id', 'items']),
T('trello', 'archive_card', 'Archive (close) a card so it leaves the board but can be restored.', { card_id: s('Card id.') }, ['card_id']),
);

// ---------------- youtrack ----------------
out.push(
T('youtrack', 'search_issues', 'Find YouTrack issues with the YouTrack query language, e.g. "project: WEB #Unresolved assignee: me sort by: updated".',
  { query: s('YouTrack query.'), fields: s('Fields to return.', { default: 'idReadable,summary,customFields(name,value(name))' }), top: i('Maximum issues.', { default: 42 }) }, ['query']),
T('youtrack', 'create_issue', 'Report a new issue in a YouTrack project.',
  { project: s('Project short name, e.g. "WEB".'), summary: s('One-line summary.'), description: s('Markdown body.'),
    custom_fields: a(o({ name: s('Field, e.g. "Priority" or "Type".'), value: s('Value name, e.g. "Critical".') }, ['name', 'value']), 'Custom field values.') },
  ['project', 'summary']),
);

// ---------------- figma ----------------
out.push(
T('figma', 'get_file', 'Read a Figma design file as a node tree: pages, frames, components and styles.',
  { file_key: s('Key from the file URL.'), depth: i('How deep to walk the document tree.', { default: 2 }), node_ids: a(s('Node id like "12:34".'), 'Only these subtrees.') }, ['file_key']),
T('figma', 'export_images', 'Render frames or components of a design to image files and return download links.',
  { file_key: s('File key.'), node_ids: a(s('Node id.'), 'Nodes to render.'), format: e(['png', 'jpg', 'svg', 'pdf'], 'Output format.', 'png'),
    scale: n('Scale factor between 0.01 and 4 (2 for retina).', { default: 1 }), svg_outline_text: b('Convert text to outlines in SVG.', true) },
  ['file_key', 'node_ids']),
T('figma', 'list_comments', 'Comments on a design file, with their pins and replies.', { file_key: s('File key.') }, ['file_key']),
T('figma', 'post_comment', 'Leave a comment on a design, optionally pinned to a spot on a frame.',
  { file_key: s('File key.'), message: s('Comment text.'), client_meta: o({ node_id: s('Frame the pin belongs to.'), node_offset: o({ x: n('Horizontal offset in pixels.'), y: n('Vertical offset in pixels.') }, ['x', 'y']) }, ['node_id'], 'Where to pin it.') },
  ['file_key', 'message']),
);

// ---------------- google docs ----------------
out.push(
T('google_docs', 'create_document', 'Create a new Google Doc, optionally with initial text.', { title: s('Document title.'), content: s('Plain text to start with.'), folder_id: s('Drive folder to put it in.') }, ['title']),
T('google_docs', 'get_document', 'Read a Google Doc as plain text or Markdown, including headings, lists and tables.',
  { document_id: s('Id from the URL.'), format: e(['text', 'markdown'], 'Output form.', 'markdown'), include_suggestions: b('Include suggested edits not yet accepted.', false) }, ['document_id']),
T('google_docs', 'insert_text', 'Insert text at a position or at the end of a document.',
  { document_id: s('Document id.'), text: s('Text to insert.'), index: i('Character index; appends at the end when omitted.'), style: e(['NORMAL_TEXT', 'HEADING_1', 'HEADING_2', 'HEADING_3', 'BULLET'], 'Paragraph style.') }, ['document_id', 'text']),
T('google_docs', 'replace_all_text', 'Replace every occurrence of some text in a document.',
  { document_id: s('Document id.'), find: s('Text to find.'), replace_with: s('Replacement.'), match_case: b('Case-sensitive match.', false) }, ['document_id', 'find', 'replace_with']),
);

// ---------------- dropbox ----------------
out.push(
T('dropbox', 'upload_file', 'Upload a file to Dropbox.',
  { local_path: s('File on disk.'), dropbox_path: s('Destination such as "/Reports/q3.pdf".'), mode: e(['add', 'overwrite'], 'On conflict: keep both (add) or replace.', 'add'), autorename: b('Rename instead of failing on conflict.', true) },
  ['local_path', 'dropbox_path']),
T('dropbox', 'create_shared_link', 'Get a shareable link to a file or folder.',
  { path: s('Dropbox path.'), settings: o({ audience: e(['public', 'team', 'no_one'], 'Who can open the link.'), expires: s('Expiry time; the link stops working afterwards.', { format: 'date-time' }),
      link_password: s('Password required to open the link.'), allow_download: b('Whether viewers may download.', true) }, null, 'Link settings.') },
  ['path']),
T('dropbox', 'list_folder', 'List a Dropbox folder.', { path: s('Folder path; "" is the root.'), recursive: b('Include every subfolder.', false) }, ['path']),
T('dropbox', 'search', 'Search file names and contents in Dropbox.', { query: s('Words to find.'), path: s('Limit to this folder.'), file_extensions: a(s('Extension without dot.')) }, ['query']),
);

// ---------------- google cloud storage & azure blob ----------------
out.push(
T('gcs', 'list_objects', 'List objects in a Cloud Storage bucket by prefix.', { bucket: s('Bucket name.'), prefix: s('Object name prefix.'), delimiter: s('Group by this, usually "/".') }, ['bucket']),
T('gcs', 'upload_object', 'Upload a local file or text as an object.',
  { bucket: s('Bucket.'), object_name: s('Destination object name.'), source: { anyOf: [o({ local_path: s('File to upload.') }, ['local_path']), o({ text: s('Literal content.') }, ['text'])] },
    content_type: s('MIME type.'), cache_control: s('Cache-Control header, e.g. "public, max-age=3600".') },
  ['bucket', 'object_name', 'source']),
T('gcs', 'sign_url', 'Create a time-limited signed URL for reading or writing an object.',
  { bucket: s('Bucket.'), object_name: s('Object.'), method: e(['GET', 'PUT'], 'Allowed method.', 'GET'), expires_minutes: i('Validity.', { default: 15, maximum: 10080 }) }, ['bucket', 'object_name']),
T('azure_blob', 'list_blobs', 'List blobs in an Azure Storage container.', { container: s('Container name.'), prefix: s('Name prefix.'), include_snapshots: b('Also list snapshots.', false) }, ['container']),
T('azure_blob', 'upload_blob', 'Upload content to an Azure blob.',
  { container: s('Container.'), blob_name: s('Blob name.'), local_path: s('File to upload.'), access_tier: e(['Hot', 'Cool', 'Cold', 'Archive'], 'Storage tier.'), overwrite: b('Replace an existing blob.', false) }, ['container', 'blob_name', 'local_path']),
);

module.exports = out;
