const { s, i, n, b, e, a, o, T } = require('./h.cjs');
const out = [];
const channel = s('Channel id (C…), private group id, or a DM id. A "#name" is resolved to its id.');

// ---------------- slack ----------------
out.push(
T('slack', 'send_message',
  ['Send a message to a Slack channel or direct conversation as the bot user.',
   'Plain `text` supports Slack mrkdwn (*bold*, _italic_, <url|label>, <@U123> mentions). For rich layouts pass Block Kit `blocks`; `text` is then used as the notification fallback. Set `thread_ts` to answer inside a thread.'],
  { channel, text: s('Message text (mrkdwn).'),
    blocks: a(o({ type: s('Block type, e.g. "section", "divider", "actions".') }, ['type'], null, { additionalProperties: true }), 'Block Kit layout blocks.'),
    thread_ts: s('Timestamp of the parent message to reply in its thread.'), reply_broadcast: b('Also show a thread reply in the channel.', false),
    unfurl_links: b('Expand link previews.', true) },
  ['channel', 'text'], { annotations: { title: 'Send Slack message' } }),
T('slack', 'schedule_message', 'Queue a message to be posted in a channel at a later time.',
  { channel, text: s('Message text.'), post_at: i('Unix timestamp (seconds) when it should be posted; up to 120 days ahead.'), thread_ts: s('Thread to post into.') },
  ['channel', 'text', 'post_at']),
T('slack', 'list_channels', 'List channels in the workspace.',
  { types: a(e(['public_channel', 'private_channel', 'mpim', 'im'], 'Conversation type.'), 'Kinds of conversations to include.', { default: ['public_channel'] }),
    exclude_archived: b('Skip archived channels.', true), limit: i('Page size.', { default: 100, maximum: 1000 }), cursor: s('Pagination cursor from a previous call.') }),
T('slack', 'search_messages', 'Search message history across the workspace. Supports modifiers like in:#channel, from:@user, before:2024-05-01, has:link.',
  { query: s('Search terms and modifiers.'), sort: e(['score', 'timestamp'], 'Ordering.', 'score'), count: i('Results per page.', { default: 20, maximum: 100 }) },
  ['query']),
T('slack', 'get_thread_replies', 'Read every reply in a message thread.',
  { channel, thread_ts: s('Timestamp of the thread\'s parent message.'), limit: i('Maximum replies.', { default: 200 }) }, ['channel', 'thread_ts']),
T('slack', 'add_reaction', 'React to a message with an emoji.',
  { channel, timestamp: s('Timestamp of the message.'), name: s('Emoji name without colons, e.g. "white_check_mark".') }, ['channel', 'timestamp', 'name']),
T('slack', 'upload_file', 'Share a file or text snippet into one or more channels.',
  { channels: a(s('Channel id.'), 'Where to share it.'), filename: s('Name shown in Slack.'), content: s('Text content, for snippets.'),
    path: s('Local path of a binary file to upload instead of `content`.'), initial_comment: s('Message posted with the file.'), thread_ts: s('Upload into a thread.') },
  ['channels', 'filename']),
T('slack', 'lookup_user_by_email', 'Find a workspace member from an email address and return their user id, display name and time zone.',
  { email: s('Email address.', { format: 'email' }) }, ['email']),
);

// ---------------- discord ----------------
out.push(
T('discord', 'send_message', 'Send a message to a Discord channel, optionally with embeds or as a reply.',
  { channel_id: s('Snowflake id of the channel.'), content: s('Message text, up to 2000 characters.', { maxLength: 2000 }),
    embeds: a(o({ title: s('Embed title.'), description: s('Embed body.'), url: s('Link for the title.'), color: i('RGB colour as an integer.'),
      fields: a(o({ name: s('Field name.'), value: s('Field value.'), inline: b('Show side by side.') }, ['name', 'value']), 'Up to 25 fields.') }), 'Rich embeds, at most 10.', { maxItems: 10 }),
    reply_to_message_id: s('Message to reply to.'), tts: b('Read aloud with text-to-speech.', false) },
  ['channel_id']),
T('discord', 'create_thread', 'Start a thread in a channel, either from an existing message or standalone.',
  { channel_id: s('Parent channel.'), name: s('Thread name.'), message_id: s('Message to start the thread from.'),
    auto_archive_minutes: { type: 'integer', enum: [60, 1440, 4320, 10080], description: 'Inactivity before auto-archive.', default: 1440 } },
  ['channel_id', 'name']),
T('discord', 'list_channels', 'List the channels of a guild (server) with their type and category.', { guild_id: s('Guild id.') }, ['guild_id']),
T('discord', 'add_role', 'Give a guild member a role.',
  { guild_id: s('Guild id.'), user_id: s('Member id.'), role_id: s('Role id.'), reason: s('Audit log reason.') }, ['guild_id', 'user_id', 'role_id']),
T('discord', 'timeout_member', 'Temporarily stop a member from chatting, reacting or joining voice.',
  { guild_id: s('Guild id.'), user_id: s('Member id.'), duration_minutes: i('Length of the timeout; 0 lifts it.', { minimum: 0, maximum: 40320 }), reason: s('Audit log reason.') },
  ['guild_id', 'user_id', 'duration_minutes']),
);

// ---------------- teams ----------------
out.push(
T('teams', 'send_message', 'Post a message to a channel in Microsoft Teams.',
  { team_id: s('Team id.'), channel_id: s('Channel id.'), content: s('Message body.'), content_type: e(['text', 'html'], 'Body format.', 'text'),
    importance: e(['normal', 'high', 'urgent'], 'Message importance.', 'normal'), reply_to_id: s('Parent message id to reply in its thread.') },
  ['team_id', 'channel_id', 'content']),
T('teams', 'send_chat_message', 'Send a message in a one-on-one or group chat.', { chat_id: s('Chat id.'), content: s('Message body (HTML allowed).') }, ['chat_id', 'content']),
T('teams', 'create_meeting', 'Schedule an online Teams meeting and return its join link.',
  { subject: s('Meeting subject.'), start: s('Start time.', { format: 'date-time' }), end: s('End time.', { format: 'date-time' }),
    participants: a(s('Attendee email.', { format: 'email' }), 'People to invite.'),
    lobby_bypass: e(['organization', 'everyone', 'organizer'], 'Who skips the lobby.', 'organization'), record_automatically: b('Start recording when the meeting begins.', false) },
  ['subject', 'start', 'end']),
T('teams', 'list_channels', 'List the channels in a team.', { team_id: s('Team id.') }, ['team_id']),
);

// ---------------- gmail ----------------
const address = s('Email address.', { format: 'email' });
out.push(
T('gmail', 'send_email', 'Send an email from the connected Gmail account. Can reply within an existing thread and carry attachments.',
  { to: a(address, 'Recipients.', { minItems: 1 }), cc: a(address, 'Carbon-copy recipients.'), bcc: a(address, 'Blind-copy recipients.'),
    subject: s('Subject line.'), body: s('Message body.'), body_type: e(['plain', 'html'], 'Body format.', 'plain'),
    attachments: a(o({ filename: s('File name.'), mime_type: s('MIME type, e.g. "application/pdf".'), content_base64: s('File bytes, base64-encoded.') }, ['filename', 'content_base64']), 'Files to attach (25 MB total).'),
    in_reply_to: s('Message id to reply to; keeps the thread together.') },
  ['to', 'subject', 'body'], { title: 'Send email (Gmail)' }),
T('gmail', 'search_messages',
  'Search the mailbox with Gmail query operators, e.g. "from:alice@example.com has:attachment newer_than:7d" or "is:unread label:invoices". Returns ids, senders, subjects and snippets.',
  { query: s('Gmail search query.'), max_results: i('Maximum messages.', { default: 20, maximum: 500 }), include_spam_trash: b('Also look in Spam and Trash.', false) },
  ['query']),
T('gmail', 'get_thread', 'Read a whole conversation thread, with each message\'s headers and plain-text body.',
  { thread_id: s('Thread id.'), format: e(['full', 'metadata', 'minimal'], 'Amount of detail.', 'full') }, ['thread_id']),
T('gmail', 'create_draft', 'Save a message without sending it.',
  { to: a(address, 'Recipients.'), subject: s('Subject line.'), body: s('Body text.'), thread_id: s('Attach the draft to this thread as a reply.') }, ['subject', 'body']),
T('gmail', 'modify_labels', 'Add or remove labels on messages.',
  { message_ids: a(s('Message id.'), 'Messages to change.', { minItems: 1 }),
    add_label_ids: a(s('Label id.'), 'Labels to add, e.g. "STARRED" or "IMPORTANT".'),
    remove_label_ids: a(s('Label id.'), 'Labels to remove. Removing "UNREAD" marks mail as read; removing "INBOX" archives it.') },
  ['message_ids']),
);

// ---------------- google_calendar ----------------
const when = o({ dateTime: s('RFC 3339 timestamp for timed events.', { format: 'date-time' }), date: s('YYYY-MM-DD for all-day events.', { format: 'date' }), timeZone: s('IANA zone, e.g. "Europe/Berlin".') }, null, 'Either dateTime or date.');
const calId = s('Calendar id; "primary" is the user\'s main calendar.', { default: 'primary' });
out.push(
T('google_calendar', 'create_event',
  ['Create a calendar event and optionally invite attendees.',
   'Timed events use `start.dateTime`/`end.dateTime`; all-day events use `date`. Recurring events take RRULE lines such as "RRULE:FREQ=WEEKLY;BYDAY=MO,WE". Set `conference` to "google_meet" to attach a video link.'],
  { calendar_id: calId, summary: s('Event title.'), start: when, end: when, location: s('Place or address.'), description: s('Notes shown in the event.'),
    attendees: a(o({ email: address, optional: b('Attendance is optional.', false) }, ['email']), 'Guests to invite.'),
    recurrence: a(s('RRULE, EXRULE, RDATE or EXDATE line.'), 'Recurrence rules.'),
    conference: e(['none', 'google_meet'], 'Video conferencing to add.', 'none'),
    send_updates: e(['all', 'externalOnly', 'none'], 'Who receives invitation emails.', 'all') },
  ['summary', 'start', 'end']),
T('google_calendar', 'list_events', 'List events in a time window, expanded into single occurrences and ordered by start time.',
  { calendar_id: calId, time_min: s('Window start (inclusive).', { format: 'date-time' }), time_max: s('Window end (exclusive).', { format: 'date-time' }),
    q: s('Free-text filter on title, description, location and attendees.'), max_results: i('Maximum events.', { default: 50, maximum: 2500 }) },
  ['time_min', 'time_max']),
T('google_calendar', 'query_free_busy', 'Return busy intervals for a set of calendars over a time range.',
  { calendars: a(s('Calendar id or a person\'s email.'), 'Whose availability to check.', { minItems: 1 }),
    time_min: s('Range start.', { format: 'date-time' }), time_max: s('Range end.', { format: 'date-time' }),
    slot_minutes: i('If set, also return open slots of at least this length that suit everyone (meeting finder).') },
  ['calendars', 'time_min', 'time_max']),
T('google_calendar', 'update_event', 'Change fields of an existing event; fields left out are kept.',
  { calendar_id: calId, event_id: s('Event id.'), summary: s('New title.'), start: when, end: when, location: s('New location.'),
    scope: e(['this', 'following', 'all'], 'For recurring events: which occurrences to change.', 'this') },
  ['event_id']),
T('google_calendar', 'respond_to_event', 'Accept, decline or tentatively accept an invitation (RSVP).',
  { calendar_id: calId, event_id: s('Event id.'), response: e(['accepted', 'declined', 'tentative'], 'Your answer.'), comment: s('Note for the organiser.') },
  ['event_id', 'response']),
);

// ---------------- google_drive ----------------
out.push(
T('google_drive', 'search_files', 'Find files in Google Drive by name, content or type.',
  { query: s('Words to search in names and full text, or a raw Drive query such as "mimeType=\'application/pdf\' and modifiedTime > \'2024-01-01\'".'),
    mime_type: e(['document', 'spreadsheet', 'presentation', 'pdf', 'folder', 'image', 'any'], 'Restrict to a kind of file.', 'any'),
    folder_id: s('Only inside this folder.'), include_trashed: b('Include files in the bin.', false), page_size: i('Results per page.', { default: 25, maximum: 100 }) },
  ['query']),
T('google_drive', 'upload_file', 'Upload a local file to Drive, optionally converting it to a Google Docs format.',
  { path: s('Local file path.'), name: s('Name in Drive; defaults to the local file name.'), parent_folder_id: s('Destination folder.'), convert: b('Convert Office/CSV files to Docs, Sheets or Slides.', false) },
  ['path']),
T('google_drive', 'share_file', 'Grant someone access to a file or folder.',
  { file_id: s('File or folder id.'), role: e(['reader', 'commenter', 'writer', 'owner'], 'Permission level.'),
    type: e(['user', 'group', 'domain', 'anyone'], 'Who the permission is for.'), email: s('Email for user or group permissions.'), domain: s('Domain for domain-wide sharing.'),
    notify: b('Send a notification email.', true), message: s('Text included in the notification.') },
  ['file_id', 'role', 'type']),
T('google_drive', 'export_file', 'Download a Google Docs, Sheets or Slides file converted to another format.',
  { file_id: s('File id.'), format: e(['pdf', 'docx', 'xlsx', 'pptx', 'csv', 'txt', 'md', 'html'], 'Target format.'), save_to: s('Local path to write the result.') },
  ['file_id', 'format']),
T('google_drive', 'create_folder', 'Create a folder.', { name: s('Folder name.'), parent_folder_id: s('Parent folder; root when omitted.') }, ['name']),
);

// ---------------- twilio ----------------
const e164 = s('Phone number in E.164 format, e.g. "+14155550100".', { pattern: '^\\+[1-9]\\d{6,14}$' });
out.push(
T('twilio', 'send_sms', 'Send a text message. Adding media URLs turns it into an MMS.',
  { to: e164, from: { ...e164, description: 'Your Twilio number or a messaging service SID (MG…).' }, body: s('Message text, up to 1600 characters.'),
    media_urls: a(s('Public URL of an image or file.', { format: 'uri' }), 'Media for MMS.', { maxItems: 10 }), status_callback: s('Webhook for delivery status updates.', { format: 'uri' }) },
  ['to', 'from', 'body']),
T('twilio', 'make_call', 'Place an outbound phone call that runs TwiML instructions or fetches them from a URL.',
  { to: e164, from: e164,
    instructions: { anyOf: [o({ twiml: s('Inline TwiML, e.g. "<Response><Say>Hello</Say></Response>".') }, ['twiml']), o({ url: s('URL returning TwiML.', { format: 'uri' }) }, ['url'])] },
    record: b('Record the call.', false), timeout_seconds: i('How long to let it ring.', { default: 60 }) },
  ['to', 'from', 'instructions']),
T('twilio', 'lookup_phone_number', 'Validate a phone number and look up carrier, line type or caller name.',
  { phone_number: s('Number in any format; a country code helps parse national formats.'), country_code: s('ISO country for national numbers.'),
    fields: a(e(['line_type_intelligence', 'caller_name', 'sim_swap', 'validation'], 'Data package.'), 'Extra data to fetch.') },
  ['phone_number']),
T('twilio', 'list_messages', 'List sent and received SMS/MMS messages.',
  { to: s('Filter by recipient.'), from: s('Filter by sender.'), date_sent_after: s('Only messages sent after this date.', { format: 'date' }), page_size: i('Page size.', { default: 50 }) }),
);

// ---------------- sendgrid ----------------
out.push(
T('sendgrid', 'send_email',
  ['Send transactional email through SendGrid.',
   'Either give `html`/`text` content or a dynamic `template_id` with `dynamic_template_data` for the Handlebars variables. `send_at` schedules delivery up to 72 hours ahead. Categories show up in delivery statistics.'],
  { to: a(o({ email: address, name: s('Display name.') }, ['email']), 'Recipients.', { minItems: 1 }), from: o({ email: address, name: s('Sender name.') }, ['email'], 'Verified sender.'),
    subject: s('Subject; ignored when the template defines one.'), html: s('HTML body.'), text: s('Plain-text body.'),
    template_id: s('Dynamic template id (d-…).'), dynamic_template_data: o({}, null, 'Values for template variables.', { additionalProperties: true }),
    send_at: i('Unix time to send at.'), categories: a(s('Category.'), 'Up to 10 categories.', { maxItems: 10 }) },
  ['to', 'from']),
T('sendgrid', 'add_contacts', 'Add or update marketing contacts and put them on lists.',
  { list_ids: a(s('List id.'), 'Lists to add the contacts to.'),
    contacts: a(o({ email: address, first_name: s('First name.'), last_name: s('Last name.'), custom_fields: o({}, null, 'Custom field id to value.', { additionalProperties: true }) }, ['email']), 'Contacts to upsert.', { minItems: 1 }) },
  ['contacts']),
T('sendgrid', 'get_email_stats', 'Delivery, open, click and bounce statistics over a date range.',
  { start_date: s('First day.', { format: 'date' }), end_date: s('Last day.', { format: 'date' }), aggregated_by: e(['day', 'week', 'month'], 'Bucket size.', 'day'),
    categories: a(s('Category.'), 'Only these categories.') },
  ['start_date']),
);
module.exports = out;
