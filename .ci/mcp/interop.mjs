// Interoperability check of the MCP endpoint with the official TypeScript
// SDK client: list the tools without a key, call analyze_sentiment without
// a key (a 401 tool result), with the key in X-API-Key and with the key in
// the path, and check that the allowance went down by exactly two.
//
//   node interop.mjs BASE_URL KEY
//
// Prints one line per check and a JSON summary; exits 0 when every check
// passed, 1 otherwise.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const TOOLS = [
  "get_text", "get_text_post", "analyze_ner", "analyze_ner_post", "display_ner", "display_ner_post",
  "analyze_sentiment", "analyze_sentiment_post", "qa", "qa_post",
];

const [base, key] = process.argv.slice(2);
if (!base || !key) {
  console.error("usage: node interop.mjs BASE_URL KEY");
  process.exit(2);
}

const report = { checks: [], ok: true };
function check(name, cond, detail) {
  // Details only for a failure: the report of a good run stays short.
  report.checks.push({ name, ok: Boolean(cond), ...(cond || detail === undefined ? {} : { detail }) });
  if (!cond) report.ok = false;
}

// httpStatuses remembers the status of every POST to the endpoint: the
// endpoint must never answer HTTP 401 (clients would start OAuth).
const httpStatuses = [];
async function recordingFetch(url, init) {
  const res = await fetch(url, init);
  if ((init?.method ?? "GET") === "POST") httpStatuses.push(res.status);
  return res;
}

async function session(url, headers) {
  const client = new Client({ name: "go-textanalysis-interop", version: "0.1.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: headers ?? {} },
    fetch: recordingFetch,
  });
  await client.connect(transport);
  return client;
}

// peek reads the key's allowance from a response that is not metered.
async function peek() {
  const res = await fetch(new URL("/healthz", base), { headers: { "X-API-Key": key } });
  await res.arrayBuffer();
  return Number.parseInt(res.headers.get("x-gw-remaining") ?? "", 10);
}

// result checks the shape of a tool result and returns it parsed.
function result(name, res) {
  const text = res.content?.find((c) => c.type === "text")?.text;
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    check(`${name}: text content is JSON`, false, text);
    return {};
  }
  check(`${name}: result has status, body and gateway`,
    Number.isInteger(parsed.status) && "body" in parsed && parsed.gateway && "remaining" in parsed.gateway && "reset" in parsed.gateway, parsed);
  check(`${name}: structured content equals the text`, JSON.stringify(res.structuredContent) === JSON.stringify(parsed));
  check(`${name}: isError iff status >= 400`, Boolean(res.isError) === parsed.status >= 400, { isError: res.isError, status: parsed.status });
  return parsed;
}

async function main() {
  const mcpURL = new URL("/mcp", base).href;
  const before = await peek();
  check("allowance readable before", Number.isInteger(before), before);

  const anon = await session(mcpURL);
  const { tools } = await anon.listTools();
  const names = tools.map((t) => t.name).sort();
  report.tools = names;
  check("ten tools named as the operations", JSON.stringify(names) === JSON.stringify([...TOOLS].sort()), names);
  check("every tool has an object input schema", tools.every((t) => t.inputSchema?.type === "object"));
  check("every tool has a description", tools.every((t) => (t.description ?? "").length > 20));
  const denied = result("no key", await anon.callTool({ name: "analyze_sentiment", arguments: { text: "What a wonderful day!" } }));
  check("no key: status 401 with null gateway", denied.status === 401 && denied.gateway?.remaining === null && denied.gateway?.reset === null, denied);
  await anon.close();

  const viaHeader = await session(mcpURL, { "X-API-Key": key });
  const r1 = result("key in X-API-Key", await viaHeader.callTool({ name: "analyze_sentiment", arguments: { text: "What a wonderful day!" } }));
  check("key in X-API-Key: status 200, positive", r1.status === 200 && r1.body?.label === "positive", r1);
  check("key in X-API-Key: remaining down by one", r1.gateway?.remaining === before - 1, { before, after: r1.gateway?.remaining });
  await viaHeader.close();

  const viaPath = await session(new URL(`/mcp/k/${encodeURIComponent(key)}`, base).href);
  const r2 = result("key in the path", await viaPath.callTool({ name: "analyze_sentiment", arguments: { text: "What a terrible day." } }));
  check("key in the path: status 200 with a label", r2.status === 200 && typeof r2.body?.label === "string", r2);
  check("key in the path: remaining down by two", r2.gateway?.remaining === before - 2, { before, after: r2.gateway?.remaining });
  await viaPath.close();

  const after = await peek();
  check("X-Gw-Remaining went down by exactly two", after === before - 2, { before, after });
  check("no HTTP 401 from the endpoint", !httpStatuses.includes(401), httpStatuses);
  report.remaining = { before, after };
  report.httpStatuses = httpStatuses;
}

try {
  await main();
} catch (err) {
  check("no exception", false, String(err?.stack ?? err));
}
for (const c of report.checks) {
  console.log(c.ok ? `ok   ${c.name}` : `FAIL ${c.name}: ${JSON.stringify(c.detail)}`);
}
console.log(JSON.stringify({ ok: report.ok, tools: report.tools, remaining: report.remaining, httpStatuses: report.httpStatuses }));
process.exit(report.ok ? 0 : 1);
