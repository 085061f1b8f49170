// iceberg-js 0.8.1 (npm, tests/peers/node_modules; 1.x needs Node 22) against an Iceberg
// REST catalog: one step per
// run, each printing one JSON object on stdout (or {"error": ...} and exit code 1), so
// test_iceberg_js.py can check what SQE reports between the steps.
//
//   node iceberg_js_client.mjs <base url> setup <namespace> <table>
//   node iceberg_js_client.mjs <base url> drop <namespace> <table>
//   node iceberg_js_client.mjs <base url> errors <namespace>
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// The pinned package in tests/peers (npm ci there), not whatever a parent directory holds.
const here = path.dirname(fileURLToPath(import.meta.url));
const entry = path.join(here, "node_modules", "iceberg-js", "dist", "index.mjs");
const { IcebergRestCatalog, IcebergError, getCurrentSchema } = await import(
  pathToFileURL(entry).href
);

const [baseUrl, step, namespace, table] = process.argv.slice(2);
const catalog = new IcebergRestCatalog({ baseUrl, auth: { type: "none" } });
const ns = { namespace: namespace ? namespace.split(".") : [] };
const id = { namespace: ns.namespace, name: table };

const SCHEMA = {
  type: "struct",
  fields: [
    { id: 1, name: "id", type: "long", required: true },
    { id: 2, name: "name", type: "string", required: false, doc: "who" },
    { id: 3, name: "ts", type: "timestamptz", required: false },
    { id: 4, name: "amount", type: "decimal(10,2)", required: false },
    {
      id: 5,
      name: "tags",
      type: { type: "list", "element-id": 6, element: "string", "element-required": false },
      required: false,
    },
  ],
  "schema-id": 0,
  "identifier-field-ids": [1],
};

async function setup() {
  const out = {};
  await catalog.createNamespace(ns, { properties: { owner: "js", stage: "dev" } });
  out.namespaces = (await catalog.listNamespaces()).map((n) => n.namespace);
  out.namespace_exists = await catalog.namespaceExists(ns);
  out.missing_namespace_exists = await catalog.namespaceExists({ namespace: ["no_such_ns"] });
  const created = await catalog.createTable(ns, {
    name: table,
    schema: SCHEMA,
    "partition-spec": {
      fields: [{ "source-id": 3, "field-id": 1000, name: "ts_day", transform: "day" }],
    },
    properties: { "created-by": "iceberg-js" },
  });
  out.created_format_version = created["format-version"];
  out.created_location = created.location;
  const loaded = await catalog.loadTable(id);
  const schema = getCurrentSchema(loaded);
  out.loaded_uuid = loaded["table-uuid"];
  out.loaded_fields = schema.fields.map((f) => [f.id, f.name, f.type, f.required]);
  out.loaded_identifier_field_ids = schema["identifier-field-ids"] ?? [];
  out.loaded_spec = loaded["partition-specs"].find((s) => s["spec-id"] === loaded["default-spec-id"]);
  out.loaded_properties = loaded.properties;
  out.tables = (await catalog.listTables(ns)).map((t) => [t.namespace, t.name]);
  out.table_exists = await catalog.tableExists(id);
  out.namespace_properties = (await catalog.loadNamespaceMetadata(ns)).properties;
  const committed = await catalog.updateTable(id, {
    requirements: [{ type: "assert-table-uuid", uuid: out.loaded_uuid }],
    updates: [{ action: "set-properties", updates: { "write.target-file-size-bytes": "1048576" } }],
  });
  out.committed_metadata_location = committed["metadata-location"];
  out.committed_properties = committed.metadata.properties;
  return out;
}

async function drop() {
  await catalog.dropTable(id, { purge: true });
  return {
    table_exists: await catalog.tableExists(id),
    tables: (await catalog.listTables(ns)).map((t) => [t.namespace, t.name]),
  };
}

async function expectError(fn) {
  try {
    await fn();
    return { thrown: false };
  } catch (e) {
    if (!(e instanceof IcebergError)) throw e;
    return { thrown: true, status: e.status, type: e.icebergType ?? null, message: e.message };
  }
}

async function errors() {
  return {
    load_missing_table: await expectError(() =>
      catalog.loadTable({ namespace: ns.namespace, name: "no_such_table" }),
    ),
    create_existing_namespace: await expectError(() => catalog.createNamespace(ns)),
    missing_namespace: await expectError(() =>
      catalog.loadNamespaceMetadata({ namespace: ["no_such_ns"] }),
    ),
    drop_non_empty_namespace: await expectError(() => catalog.dropNamespace(ns)),
    stale_commit: await expectError(() =>
      catalog.updateTable(
        { namespace: ns.namespace, name: "t" },
        {
          requirements: [{ type: "assert-table-uuid", uuid: "00000000-0000-0000-0000-000000000000" }],
          updates: [{ action: "set-properties", updates: { a: "b" } }],
        },
      ),
    ),
  };
}

const steps = { setup, drop, errors };
try {
  if (!steps[step]) throw new Error(`unknown step '${step}': use ${Object.keys(steps).join(", ")}`);
  process.stdout.write(JSON.stringify(await steps[step]()) + "\n");
} catch (e) {
  process.stdout.write(
    JSON.stringify({ error: String(e?.message ?? e), status: e?.status ?? null, type: e?.icebergType ?? null }) + "\n",
  );
  process.exitCode = 1;
}
