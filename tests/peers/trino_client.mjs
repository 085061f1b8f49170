// SQE's Trino HTTP port driven by the npm `trino-client` (trinodb/trino-js-client): a typed
// query, a result paged over several nextUri pages, a cancelled long query (the client's
// cancel is DELETE /v1/query/{id}) and, with --key, an API key as Basic auth plus a wrong one.
// Prints one JSON object with what each step saw, or {"error": ...} for a step that threw.
//
// Usage: node trino_client.mjs --port PORT [--key API_KEY --user NAME]
// The client is imported from $SQE_TRINO_CLIENT_DIR (a directory holding
// node_modules/trino-client) when set, else resolved from tests/peers/node_modules.

import { createRequire } from 'node:module';
import path from 'node:path';

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  return out;
}

function loadClient() {
  const base = process.env.SQE_TRINO_CLIENT_DIR
    ? path.join(process.env.SQE_TRINO_CLIENT_DIR, 'package.json')
    : import.meta.url;
  return createRequire(base)('trino-client');
}

/** Follows a query to its end: every page's row count, the rows, the last page. */
async function drain(iterator) {
  const pages = [];
  const rows = [];
  let columns;
  let last;
  for await (const result of iterator) {
    if (result.error) throw Object.assign(new Error(result.error.message), { trino: result.error });
    if (result.columns) columns = result.columns.map((c) => `${c.name}:${c.type}`);
    const data = result.data ?? [];
    if (data.length > 0) pages.push(data.length);
    rows.push(...data);
    last = result;
  }
  return { pages, rows, columns, state: last?.stats?.state };
}

async function step(out, name, fn) {
  try {
    out[name] = await fn();
  } catch (e) {
    out[name] = { error: String(e.message ?? e), name: e.trino?.errorName, status: e.response?.status };
  }
}

const SLOW = 'WITH t(x) AS (VALUES 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) '
  + 'SELECT count(*) FROM t a, t b, t c, t d, t e, t f, t g, t h, t i';
const DIGITS = 'WITH t(x) AS (VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9) ';

const args = parseArgs(process.argv.slice(2));
const { Trino, BasicAuth } = loadClient();
const server = `http://127.0.0.1:${args.port}`;
const out = {};

if (args.key) {
  await step(out, 'api_key', async () => {
    const trino = Trino.create({ server, auth: new BasicAuth(args.user, args.key) });
    return drain(await trino.query('SELECT current_user'));
  });
  await step(out, 'wrong_key', async () => {
    const trino = Trino.create({ server, auth: new BasicAuth(args.user, 'sqe_wrong_key') });
    return drain(await trino.query('SELECT 1'));
  });
} else {
  const trino = Trino.create({ server, catalog: 'iceberg', schema: 'default', source: 'sqe-npm-test' });
  await step(out, 'types', async () => drain(await trino.query({
    user: 'dev',
    query: "SELECT 7 AS i, CAST(2.5 AS double) AS d, 'x' AS v, DATE '2024-02-29' AS dt, "
      + "CAST(1.25 AS decimal(5,2)) AS dec, true AS b, ARRAY['a', 'b'] AS arr, "
      + 'CAST(NULL AS varchar) AS n',
  })));
  await step(out, 'paged', async () => {
    const r = await drain(await trino.query({
      user: 'dev',
      query: `${DIGITS}SELECT a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x AS n `
        + 'FROM t a, t b, t c, t d, t e',
    }));
    let sum = 0;
    for (const row of r.rows) sum += row[0];
    return { pages: r.pages, count: r.rows.length, sum, distinct: new Set(r.rows.map((x) => x[0])).size, state: r.state };
  });
  await step(out, 'cancelled', async () => {
    // The client's iterator waits through empty pages, so the query runs on while its id
    // is looked up in GET /v1/query, then DELETE /v1/query/{id} (trino.cancel) stops it.
    const iterator = await trino.query({ user: 'dev', query: SLOW });
    const pages = [];
    const draining = (async () => {
      for await (const page of iterator) pages.push(page);
    })();
    let id;
    for (let tries = 0; !id && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const list = await (await fetch(`${server}/v1/query`, { headers: { 'X-Trino-User': 'dev' } })).json();
      id = list.filter((q) => q.query === SLOW && q.state === 'RUNNING').map((q) => q.queryId).pop();
    }
    if (!id) throw new Error('the slow query never showed up as RUNNING in /v1/query');
    await trino.cancel(id);
    await draining;
    const final = pages[pages.length - 1];
    const info = await trino.queryInfo(id);
    return { error: final?.error?.errorName, state: final?.stats?.state, info_state: info.state };
  });
}

console.log(JSON.stringify(out));
