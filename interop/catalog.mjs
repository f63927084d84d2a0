// The catalog surface (docs/catalog.md) through the official TypeScript SDK
// client against the built binary: with --surface catalog, tools/list holds
// the core and the catalog's built-ins; a verb that is not listed is found
// with aeat_mcp_find and called through aeat_mcp_call and directly, with
// the same result; a destructive verb through aeat_mcp_call asks the person
// first (the client's elicitation handler), and a no runs nothing. It also
// prints the size of tools/list for the whole aeat (300 tools) on both
// surfaces. Usage:
//
//	node catalog.mjs /path/to/aeat-mcp
//
// It exits non-zero when anything differs.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { binary, check, outcomeOf, textOf } from "./common.mjs";

const bin = binary("catalog.mjs");
const fullAeat = fileURLToPath(new URL("../examples/aeat.full.manifest.json", import.meta.url));

async function connect(args, onElicit) {
  const transport = new StdioClientTransport({
    command: bin,
    args: [...args, "--log-level", "error"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, AEAT_MCP_LANG: "en" },
    stderr: "inherit",
  });
  const client = new Client({ name: "aeat-mcp-interop-catalog", version: "1.0.0" }, { capabilities: onElicit ? { elicitation: {} } : {} });
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, onElicit);
  await client.connect(transport);
  return client;
}

// listSize is tools/list as the client got it, in bytes of JSON.
async function listSize(client) {
  const list = await client.listTools();
  return { tools: list.tools, bytes: Buffer.byteLength(JSON.stringify(list)) };
}

console.log("tools/list of the whole aeat (300 tools), on each surface");
for (const surface of ["all", "catalog"]) {
  const c = await connect(["--manifest", fullAeat, "--surface", surface]);
  const { tools, bytes } = await listSize(c);
  console.log(`  --surface ${surface}: ${tools.length} tools, ${bytes} bytes`);
  if (surface === "catalog") check(bytes <= 15000, `the catalog's tools/list is within 15 KB (${bytes} bytes)`);
  else check(tools.length === 303, "all: every tool and the three run built-ins");
  await c.close();
}

console.log("the demo on the catalog surface");
const questions = [];
let answer = "accept";
const client = await connect(["--demo", "--surface", "catalog"], async (req) => {
  questions.push(req.params.message);
  return answer === "accept" ? { action: "accept", content: { confirm: true } } : { action: answer };
});
const { tools, bytes } = await listSize(client);
const names = tools.map((t) => t.name).sort();
console.log(`  tools/list: ${tools.length} tools, ${bytes} bytes: ${names.join(", ")}`);
check(
  JSON.stringify(names) ===
    JSON.stringify(["aeat_mcp_call", "aeat_mcp_cancel", "aeat_mcp_find", "aeat_mcp_runs", "aeat_mcp_wait", "ledger_list", "profile_show"]),
  "the demo's surface.core and the built-ins are listed, nothing else",
);
const callTool = tools.find((t) => t.name === "aeat_mcp_call");
check(callTool.annotations.destructiveHint === true && callTool.annotations.readOnlyHint === false, "aeat_mcp_call's hints are the most cautious of what it reaches");

console.log("a verb that is not listed: found, then called through aeat_mcp_call and directly");
const find = await client.callTool({ name: "aeat_mcp_find", arguments: { query: "pull a 303 return", limit: 3 } });
check(!find.isError, "aeat_mcp_find answers");
const hits = find.structuredContent.tools;
check(hits[0]?.name === "modelo_303_pull" && hits[0].listed === false, `it finds modelo_303_pull first, not listed (${hits.map((h) => h.name).join(", ")})`);
check(hits[0].inputSchema?.properties?.year !== undefined && hits[0].tier === "live", "with its input schema and tier");
const args = { year: 2025, period: "1T" };
const through = await client.callTool({ name: "aeat_mcp_call", arguments: { tool: "modelo_303_pull", arguments: args } });
check(!through.isError && outcomeOf(through).code === "ok" && outcomeOf(through).tool === "modelo_303_pull", `aeat_mcp_call runs it: ${textOf(through).slice(0, 60)}`);
const direct = await client.callTool({ name: "modelo_303_pull", arguments: args });
check(!direct.isError && outcomeOf(direct).code === "ok", "a direct call of the unlisted tool runs it too");
check(JSON.stringify(through.structuredContent) === JSON.stringify(direct.structuredContent), "the same result both ways");
const bad = await client.callTool({ name: "aeat_mcp_call", arguments: { tool: "modelo_303_pull", arguments: { year: 1999, period: "1T" } } });
check(bad.isError && outcomeOf(bad).code === "invalid_arguments" && outcomeOf(bad).field === "year", "an invalid argument names the inner tool's field");

console.log("a destructive verb through aeat_mcp_call");
const submit = { tool: "modelo_303_submit", arguments: { year: 2025, period: "1T" } };
const yes = await client.callTool({ name: "aeat_mcp_call", arguments: submit });
check(questions.length === 1 && /modelo_303_submit/.test(questions[0]), `the person is asked first: ${(questions[0] ?? "").split("\n")[0]}`);
check(!yes.isError && outcomeOf(yes).tool === "modelo_303_submit", `a yes runs it (${outcomeOf(yes).code})`);
answer = "decline";
const no = await client.callTool({ name: "aeat_mcp_call", arguments: submit });
check(questions.length === 2, "asked again");
check(no.isError && outcomeOf(no).code === "refused" && outcomeOf(no).reason === "declined", "a no refuses it");
await client.close();

console.log("interop catalog: every check passed");
