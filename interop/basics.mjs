// The calls every host makes, through the official TypeScript SDK client
// against the built binary: list tools, a READ call, a LIVE call with a
// progress handler, a cancelled call (its process tree dies), and a
// timeout refused in Spanish, and a result cut at --max-result-bytes whose
// whole output is read back as the resource it links to (over the fake CLI
// of the Go tests, testdata/fakecli). Usage:
//
//	node basics.mjs /path/to/aeat-mcp /path/to/fakecli
//
// It exits non-zero when anything differs from the results contract (docs/commands.md, "What a call returns"; docs/ARCHITECTURE.md, "Outcomes").
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binary, check, demoCLIs as demoProcesses, outcomeOf, sleep, textOf } from "./common.mjs";

const bin = binary("basics.mjs");
const demoCLIs = () => demoProcesses(bin);

async function connect(env) {
  const transport = new StdioClientTransport({
    command: bin,
    args: ["--demo", "--log-level", "warn"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stderr: "inherit",
  });
  const client = new Client({ name: "aeat-mcp-interop", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const client = await connect({ AEAT_MCP_LANG: "en" });

console.log("tools/list");
const tools = (await client.listTools()).tools;
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
check(byName.ledger_list && byName.modelo_303_pull && byName.aeat_mcp_wait, "the demo's tools and the built-ins are listed");
check(byName.modelo_303_submit?.annotations?.destructiveHint === true, "hints are explicit (destructive)");
check(byName.ledger_list?.annotations?.openWorldHint === false, "hints are explicit (not open-world)");
check(byName.ledger_list?.inputSchema?.additionalProperties === false, "input schemas refuse unknown arguments");

console.log("a READ call");
const read = await client.callTool({ name: "ledger_list", arguments: { limit: 1 } });
check(!read.isError && outcomeOf(read).code === "ok" && outcomeOf(read).tier === "read", "it succeeds as a READ call");
check(read.structuredContent !== undefined, "JSON output comes back as structuredContent");

console.log("a LIVE call with a progress handler");
const progress = [];
const live = await client.callTool({ name: "modelo_303_pull", arguments: { year: 2025, period: "1T" } }, undefined, {
  onprogress: (p) => progress.push(p),
});
check(!live.isError && outcomeOf(live).tier === "live", `it succeeds as a LIVE call: ${textOf(live).slice(0, 80)}`);
check(progress.length > 0, `progress notifications arrived (${progress.length})`);
check(progress.every((p) => typeof p.message === "string" && p.message.length > 0), "each has a message");
check(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress), "progress values increase");

console.log("a cancelled call");
const abort = new AbortController();
let started = false;
const cancelled = client
  .callTool({ name: "modelo_390_pull", arguments: { year: 2024 } }, undefined, {
    signal: abort.signal,
    onprogress: () => (started = true),
  })
  .then(
    () => "answered",
    (e) => e,
  );
for (let i = 0; i < 100 && !started; i++) await sleep(100);
check(started, "the call is under way (progress arrived)");
const before = demoCLIs();
if (before) check(before.length > 0, `its process runs (${before.join(", ")})`);
abort.abort();
const err = await cancelled;
check(err instanceof Error, `the client sees the call cancelled (${err?.name ?? err})`);
if (before) {
  let left = demoCLIs();
  for (let i = 0; i < 50 && left.length > 0; i++) {
    await sleep(100);
    left = demoCLIs();
  }
  check(left.length === 0, "its whole process tree is gone");
} else {
  console.log("  (process check skipped: not Linux)");
}
const after = await client.callTool({ name: "ledger_list", arguments: {} });
check(!after.isError, "the server keeps serving after a cancel");
await client.close();

console.log("a timeout, in Spanish");
const es = await connect({ AEAT_MCP_LANG: "es" });
const stuck = await es.callTool({ name: "modelo_303_pull_stuck", arguments: {} });
const o = outcomeOf(stuck);
check(stuck.isError && o.code === "timeout" && o.timed_out === true, `it is a timeout (${o.code})`);
check(o.tree_dead === true, "the outcome says the tree is dead");
check(/no terminó dentro de su propio límite de 5 s/.test(textOf(stuck)), `the refusal is in Spanish: ${textOf(stuck).slice(0, 90)}…`);
check(/árbol de procesos/.test(textOf(stuck)), "and says the whole process tree was stopped");
await es.close();

console.log("a result cut at --max-result-bytes links its whole output; resources/read gives it back, page by page");
const fakecli = process.argv[3];
check(Boolean(fakecli), "the fake CLI is given (second argument)");
const dir = mkdtempSync(join(tmpdir(), "aeat-mcp-interop-"));
try {
  const manifest = join(dir, "manifest.json");
  writeFileSync(manifest, JSON.stringify({
    version: 1,
    cli: { command: fakecli },
    tools: [{
      name: "read_bigjson", title: "A big JSON document", description: "Prints a JSON object of about the given number of bytes.",
      command: ["bigjson"], output: "json",
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      params: [{ name: "bytes", type: "string", required: true, positional: true }],
    }],
  }));
  const want = execFileSync(fakecli, ["bigjson", "300000"], { encoding: "utf8" });
  const big = new Client({ name: "aeat-mcp-interop", version: "1.0.0" });
  await big.connect(new StdioClientTransport({
    command: bin, args: ["--manifest", manifest, "--log-level", "warn"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, AEAT_MCP_LANG: "en" }, stderr: "inherit",
  }));
  check(big.getServerCapabilities()?.resources !== undefined, "the server declares resources");
  const templates = (await big.listResourceTemplates()).resourceTemplates;
  check(templates.some((t) => t.uriTemplate === "aeat-mcp://runs/{id}/{stream}{?page}"), "resources/templates/list shows the runs' outputs");
  const cut = await big.callTool({ name: "read_bigjson", arguments: { bytes: "300000" } });
  check(!cut.isError && textOf(cut).length <= 65536, `the result is cut to the bound (${textOf(cut).length} characters of text)`);
  const link = cut.content.find((c) => c.type === "resource_link");
  check(link && /^aeat-mcp:\/\/runs\/r-[0-9a-f]{16}\/stdout$/.test(link.uri), `it links the whole stdout (${link?.uri})`);
  check(link.mimeType === "application/json" && link.size === Buffer.byteLength(want), `as JSON of ${link.size} bytes`);
  check(textOf(cut).includes(`${link.uri}?page=`) && /narrower arguments \(bytes\)/.test(textOf(cut)), "the text says how to read it and how to narrow the call");
  let whole = "";
  let pages = 0;
  for (let uri = link.uri; uri; pages++) {
    const page = await big.readResource({ uri });
    const c = page.contents[0];
    check(c.text.length <= 65536, `page ${pages + 1} is within a result's bound (${c.text.length} bytes)`);
    whole += c.text;
    uri = c._meta?.["aeat-mcp/page"]?.next;
  }
  check(whole === want, `the ${pages} pages joined are the CLI's output, byte for byte`);
  let code;
  try {
    await big.readResource({ uri: "aeat-mcp://runs/r-0123456789abcdef/stdout" });
  } catch (e) {
    code = e.code;
  }
  check(code === -32002, `an unknown run is "resource not found" (${code})`);
  await big.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log("interop basics: every check passed");
