// Second wave (data): warehouses, key-value and graph stores, vector index, spreadsheet-like bases, agent memory.
const { s, i, n, b, e, a, o, T, OAI, ANT } = require('./h.cjs');
const out = [];

// ---------------- snowflake ----------------
const sfCtx = { database: s('Database name; the session default when omitted.'), schema: s('Schema name, e.g. "PUBLIC".') };
out.push(
T('snowflake', 'list_tables', 'List tables and views in a Snowflake schema, with row counts, bytes and the last time each was altered.',
  { ...sfCtx, like: s('Case-insensitive name pattern with % wildcards, e.g. "ORDERS%".'), include_views: b('Also list views.', false) }),
T('snowflake', 'describe_table', 'Columns of a Snowflake table or view: name, data type, nullability, default and comment.',
  { table: s('Table name, optionally qualified as DB.SCHEMA.TABLE.'), ...sfCtx }, ['table']),
T('snowflake', 'execute_sql',
  ['Execute one SQL statement in Snowflake and return the result set.',
   'The statement runs on the warehouse given (or the session default); a suspended warehouse resumes automatically and bills credits while it runs. Results larger than `max_rows` are cut off and the response says so. A `query_tag` makes the statement easy to find later in query history.'],
  { statement: s('SQL text. One statement only.'), warehouse: s('Virtual warehouse to run on.'), ...sfCtx, role: s('Role to assume for this statement.'),
    bindings: o({}, null, 'Bind variables keyed by position ("1", "2", …).', { additionalProperties: o({ type: e(['TEXT', 'FIXED', 'REAL', 'BOOLEAN', 'DATE', 'TIMESTAMP_NTZ'], 'Snowflake type of the bound value.'), value: s('Value as text.') }, ['type', 'value']) }),
    max_rows: i('Row cap for the returned result.', { default: 1000 }), query_tag: s('Label recorded in query history.'), timeout_seconds: i('Abort after this long.', { default: 300 }) },
  ['statement']),
T('snowflake', 'list_warehouses', 'Show virtual warehouses with size, state (started, suspended, resizing) and auto-suspend setting.',
  { like: s('Name pattern.') }),
T('snowflake', 'alter_warehouse', 'Resume, suspend or resize a virtual warehouse.',
  { name: s('Warehouse name.'), action: e(['resume', 'suspend', 'resize'], 'What to do.'),
    size: e(['XSMALL', 'SMALL', 'MEDIUM', 'LARGE', 'XLARGE', '2XLARGE'], 'New size when action is resize.'), auto_suspend_seconds: i('Idle seconds before it suspends itself.') },
  ['name', 'action']),
);

// ---------------- bigquery ----------------
out.push(
T('bigquery', 'list_datasets', 'List datasets in a Google Cloud project.', { project_id: s('Project; defaults to the configured one.'), filter: s('Label filter, e.g. "labels.team:growth".') }),
T('bigquery', 'list_tables', 'List the tables, views and materialized views of a BigQuery dataset.',
  { project_id: s('Project id.'), dataset_id: s('Dataset to list.'), max_results: i('Page size.', { default: 100 }) }, ['dataset_id']),
T('bigquery', 'get_table_schema',
  'Return the schema of a BigQuery table, including nested RECORD and REPEATED fields, plus partitioning and clustering columns.',
  { table: s('Fully qualified id "project.dataset.table".') }, ['table']),
T('bigquery', 'run_query',
  ['Run a GoogleSQL query in BigQuery and return the rows.',
   'Set `dry_run` to validate the query and learn how many bytes it would scan without being billed. `maximum_bytes_billed` makes the job fail instead of running past a cost limit. Named parameters (@name) keep user input out of the SQL text.'],
  { query: s('GoogleSQL text.'), dry_run: b('Validate and estimate bytes processed only.', false), maximum_bytes_billed: i('Fail the job if it would bill more than this many bytes.'),
    use_legacy_sql: b('Use the old SQL dialect.', false), location: s('Processing location, e.g. "EU" or "us-central1".'),
    query_parameters: a(o({ name: s('Parameter name without the @.'), type: e(['STRING', 'INT64', 'FLOAT64', 'BOOL', 'DATE', 'TIMESTAMP'], 'Parameter type.'), value: s('Value as text.') }, ['name', 'type', 'value']), 'Named parameters.'),
    max_results: i('Rows to return.', { default: 500 }) },
  ['query']),
T('bigquery', 'export_table', 'Export a table to Cloud Storage files.',
  { table: s('Source "project.dataset.table".'), destination_uri: s('gs:// URI, may contain a * wildcard for sharding.'), format: e(['CSV', 'NEWLINE_DELIMITED_JSON', 'AVRO', 'PARQUET'], 'File format.', 'CSV'),
    compression: e(['NONE', 'GZIP', 'SNAPPY', 'ZSTD'], 'Compression codec.', 'NONE'), print_header: b('Write a header row (CSV only).', true) },
  ['table', 'destination_uri']),
);

// ---------------- clickhouse ----------------
out.push(
T('clickhouse', 'list_databases', 'Databases on the ClickHouse server.', null, null, { rawSchema: { type: 'object', properties: {} } }),
T('clickhouse', 'list_tables', 'Tables in a ClickHouse database with engine, total rows and compressed size.', { database: s('Database name.', { default: 'default' }) }),
T('clickhouse', 'run_query', 'Run a read-only SELECT on ClickHouse. Results stream back as JSON rows; settings such as max_execution_time can be passed per query.',
  { query: s('SELECT statement.'), settings: o({}, null, 'Per-query settings.', { additionalProperties: { type: ['string', 'number'] } }), format: e(['JSONEachRow', 'CSVWithNames', 'TabSeparated'], 'Output format.', 'JSONEachRow') },
  ['query']),
);

// ---------------- dynamodb ----------------
const attrValue = {
  description: 'A typed DynamoDB attribute value.',
  anyOf: [
    o({ S: s('String value.') }, ['S']),
    o({ N: s('Number, sent as a string to keep precision.') }, ['N']),
    o({ BOOL: b('Boolean value.') }, ['BOOL']),
    o({ SS: a(s('Member.'), 'String set.') }, ['SS']),
  ],
};
out.push(
T('dynamodb', 'list_tables', 'List DynamoDB tables in the current region.', { limit: i('Page size.', { maximum: 100 }), exclusive_start_table_name: s('Continue after this table name.') }),
T('dynamodb', 'get_item', 'Read a single item by its full primary key.',
  { table_name: s('Table.'), key: o({}, null, 'Partition key, and sort key if the table has one.', { additionalProperties: attrValue }), consistent_read: b('Strongly consistent read instead of eventually consistent.', false),
    projection_expression: s('Attributes to return, comma separated.') },
  ['table_name', 'key']),
T('dynamodb', 'put_item', 'Create an item or replace it entirely.',
  { table_name: s('Table.'), item: o({}, null, 'Attribute name to typed value.', { additionalProperties: attrValue }),
    condition_expression: s('Write only if this holds, e.g. "attribute_not_exists(pk)" to avoid overwriting.'), return_values: e(['NONE', 'ALL_OLD'], 'Return the replaced item.', 'NONE') },
  ['table_name', 'item']),
T('dynamodb', 'query',
  ['Fetch the items that share one partition key, optionally narrowed by a sort-key condition, from a table or a secondary index.',
   'Cheaper and faster than a scan. Results come back in sort-key order; set `scan_index_forward` to false for newest-first when the sort key is a timestamp.'],
  { table_name: s('Table.'), index_name: s('Global or local secondary index to query instead of the base table.'),
    key_condition_expression: s('e.g. "pk = :p AND begins_with(sk, :prefix)".'), filter_expression: s('Applied after reading; does not reduce read cost.'),
    expression_attribute_values: o({}, null, 'Placeholder values such as ":p".', { additionalProperties: attrValue }),
    scan_index_forward: b('Ascending sort-key order.', true), limit: i('Items to evaluate.'), exclusive_start_key: o({}, null, 'Pagination token from the previous page.') },
  ['table_name', 'key_condition_expression']),
T('dynamodb', 'scan', 'Read every item in a table, page by page. Expensive on large tables; prefer query when the partition key is known.',
  { table_name: s('Table.'), filter_expression: s('Filter applied after reading.'), limit: i('Items per page.'), segment: i('Segment number for a parallel scan.'), total_segments: i('Number of parallel segments.') },
  ['table_name']),
);

// ---------------- duckdb (Anthropic shape) ----------------
out.push(
ANT('duckdb', 'query',
  'Run SQL with DuckDB directly over local or remote files: Parquet, CSV and JSON can be selected from by path (e.g. SELECT * FROM \'data/*.parquet\') without loading them first.',
  { sql: s('DuckDB SQL. File paths and globs may appear in FROM.'), max_rows: i('Rows to return.', { default: 200 }) }, ['sql']),
ANT('duckdb', 'summarize',
  'Profile a file or table: for each column the type, min, max, approximate distinct count, null percentage, average and quartiles.',
  { source: s('Table name or file path such as "sales.csv".') }, ['source']),
);

// ---------------- neo4j ----------------
out.push(
T('neo4j', 'get_schema', 'Node labels, relationship types and the properties seen on each, sampled from the graph.', null, null, { rawSchema: { type: 'object', properties: {} } }),
T('neo4j', 'read_cypher', 'Run a read-only Cypher query against the graph database and return records as JSON.',
  { query: s('Cypher, e.g. "MATCH (p:Person)-[:KNOWS]->(f) RETURN f.name".'), params: o({}, null, 'Query parameters referenced as $name.', { additionalProperties: true }) }, ['query']),
T('neo4j', 'write_cypher', 'Run a Cypher statement that creates, merges or deletes nodes and relationships; returns update counters.',
  { query: s('Cypher with CREATE, MERGE, SET or DELETE.'), params: o({}, null, 'Query parameters.', { additionalProperties: true }) }, ['query']),
);

// ---------------- pinecone (vector index) ----------------
const metaFilter = o({}, null, 'Metadata filter using $eq, $in, $gte and friends, e.g. {"genre": {"$eq": "drama"}}.', { additionalProperties: true });
out.push(
T('pinecone', 'upsert_vectors', 'Insert or overwrite embedding vectors, each with an id and optional metadata.',
  { index: s('Index name.'), namespace: s('Partition inside the index.'),
    vectors: a(o({ id: s('Unique vector id.'), values: a(n('Component.'), 'Dense embedding; its length must equal the index dimension.'),
      sparse_values: o({ indices: a(i('Position.')), values: a(n('Weight.')) }, ['indices', 'values'], 'Optional sparse part for hybrid (keyword plus semantic) retrieval.'),
      metadata: o({}, null, 'Arbitrary key/value pairs stored with the vector.', { additionalProperties: true }) }, ['id', 'values']), 'Up to 1000 vectors.', { maxItems: 1000 }) },
  ['index', 'vectors']),
T('pinecone', 'query', 'Similarity search in a vector index.',
  { index: s('Index name.'), namespace: s('Namespace.'),
    vector: a(n('Component.'), 'Query embedding.'), id: s('Use the stored vector with this id as the query instead.'),
    top_k: i('Neighbours to return.', { default: 10, maximum: 1000 }), filter: metaFilter,
    include_metadata: b('Return metadata with each match.', true), include_values: b('Return the stored vectors too.', false) },
  ['index']),
T('pinecone', 'delete_vectors', 'Delete vectors by id, by metadata filter, or clear a whole namespace.',
  { index: s('Index name.'), namespace: s('Namespace.'), ids: a(s('Vector id.')), filter: metaFilter, delete_all: b('Remove every vector in the namespace.', false) }, ['index']),
T('pinecone', 'describe_index_stats', 'Vector count per namespace, dimension and fullness of an index.', { index: s('Index name.') }, ['index']),
);

// ---------------- airtable ----------------
const base = s('Base id, "app…".');
const table = s('Table name or id.');
out.push(
T('airtable', 'list_records',
  'List records from an Airtable table, optionally narrowed by a formula and a view.',
  { base_id: base, table, view: s('Return records in this view\'s order and filter.'),
    filter_by_formula: s('Airtable formula that must evaluate true, e.g. "AND({Status}=\'Open\', {Owner}=\'Ana\')".'),
    fields: a(s('Field name.'), 'Only these fields.'), sort: a(o({ field: s('Field name.'), direction: e(['asc', 'desc']) }, ['field'])), page_size: i('Page size.', { maximum: 100, default: 100 }), offset: s('Pagination cursor.') },
  ['base_id', 'table']),
T('airtable', 'create_records', 'Add up to ten records to a table.',
  { base_id: base, table, records: a(o({ fields: o({}, null, 'Cell values keyed by field name. Linked records take an array of record ids; attachments take an array of {url}.', { additionalProperties: true }) }, ['fields']), 'New rows.', { maxItems: 10 }),
    typecast: b('Let Airtable convert strings into select options, dates and links, creating missing select choices.', false) },
  ['base_id', 'table', 'records']),
T('airtable', 'update_records', 'Change fields of existing records; untouched fields keep their values unless `destructive` is set.',
  { base_id: base, table, records: a(o({ id: s('Record id, "rec…".'), fields: o({}, null, 'Fields to change.', { additionalProperties: true }) }, ['id', 'fields']), 'At most ten.', { maxItems: 10 }),
    destructive: b('Clear every field not given (PUT semantics).', false),
    upsert_on: a(s('Field name.'), 'Match existing records on these fields and create the rest.') },
  ['base_id', 'table', 'records']),
T('airtable', 'get_base_schema', 'Tables of a base with their fields, field types and views.', { base_id: base }, ['base_id']),
);

// ---------------- memory (knowledge-graph memory for an agent) ----------------
out.push(
T('memory', 'create_entities', 'Add entities to the knowledge graph the assistant keeps between conversations.',
  { entities: a(o({ name: s('Unique name, e.g. "Dana Whitfield".'), entityType: s('Kind of thing: person, project, organisation, place…'),
      observations: a(s('One atomic fact, e.g. "prefers morning meetings".'), 'Facts known about the entity.') }, ['name', 'entityType', 'observations']), 'Entities to add; existing names are skipped.') },
  ['entities']),
T('memory', 'add_observations', 'Attach new facts to entities that already exist.',
  { observations: a(o({ entityName: s('Entity to extend.'), contents: a(s('Fact.'), 'Facts to add.') }, ['entityName', 'contents'])) }, ['observations']),
T('memory', 'create_relations', 'Connect entities with directed, named relations.',
  { relations: a(o({ from: s('Source entity.'), to: s('Target entity.'), relationType: s('Verb phrase in active voice, e.g. "works_at", "manages".') }, ['from', 'to', 'relationType'])) }, ['relations']),
T('memory', 'search_nodes', 'Find remembered entities whose name, type or observations contain the query.', { query: s('Words to look for.') }, ['query']),
);

module.exports = out;
