// A LIVE call that takes longer than the TypeScript SDK's 60 s request
// timeout, made the way a host makes it (default timeout, no reset on
// progress), and collected with aeat_mcp_wait. Usage:
//
//	node long-call.mjs /path/to/aeat-mcp
//
// It exits non-zero when anything differs from what docs/long-calls.md promises.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { binary, check, outcomeOf, textOf } from "./common.mjs";

const bin = binary("long-call.mjs");

const seconds = (ms) => (ms / 1000).toFixed(1);

const transport = new StdioClientTransport({ command: bin, args: ["--demo", "--log-level", "warn"], stderr: "inherit" });
const client = new Client({ name: "aeat-mcp-interop", version: "1.0.0" });
const start = Date.now();
await client.connect(transport);
console.log(`connected in ${Date.now() - start} ms`);

const tools = await client.listTools();
const names = tools.tools.map((t) => t.name);
for (const name of ["modelo_390_pull", "aeat_mcp_wait", "aeat_mcp_cancel", "aeat_mcp_runs"]) {
  check(names.includes(name), `tools/list has ${name}`);
}

// The call, as a host makes it: the SDK's default 60 s timeout, and a
// progress handler (which makes the SDK send a progress token).
let progress = [];
const callStart = Date.now();
const first = await client.callTool({ name: "modelo_390_pull", arguments: { year: 2025 } }, undefined, {
  onprogress: (p) => progress.push(p),
});
const detachedAfter = Date.now() - callStart;
const o = outcomeOf(first);
check(!first.isError, `the first answer is not an error: ${textOf(first)}`);
check(o.code === "running", `the first answer says the call goes on (code ${o.code})`);
check(/^r-[0-9a-f]{16}$/.test(o.run_id ?? ""), `it names the run (${o.run_id})`);
check(detachedAfter < 60000, `it came before the SDK's 60 s timeout (${seconds(detachedAfter)} s)`);
check(progress.length > 0, "progress notifications arrived while the call ran");
check(progress.some((p) => /modelo_390_pull: \d+ s of \d+ s/.test(p.message ?? "")), "progress messages say how far the call is");
console.log(`call returned 'running' as ${o.run_id} after ${seconds(detachedAfter)} s, with ${progress.length} progress notifications`);
console.log(`  the model read: ${textOf(first)}`);

// Collect it.
let waits = 0;
let waitProgress = 0;
let result;
for (;;) {
  waits++;
  result = await client.callTool({ name: "aeat_mcp_wait", arguments: { run_id: o.run_id } }, undefined, {
    onprogress: () => waitProgress++,
  });
  if (outcomeOf(result).code !== "running") break;
  check(waits < 10, "the run ends");
}
const total = Date.now() - callStart;
const ro = outcomeOf(result);
check(!result.isError && ro.code === "ok", `the run's result is a success (${ro.code}): ${textOf(result)}`);
check(result.structuredContent?.modelo === "390", "the result carries the CLI's JSON as structuredContent");
check(ro.tool === "modelo_390_pull" && ro.tier === "live", "the outcome is the original call's");
console.log(`aeat_mcp_wait returned the result after ${seconds(total)} s in all (${waits} wait${waits > 1 ? "s" : ""}, ${waitProgress} progress notifications while waiting)`);

const again = await client.callTool({ name: "aeat_mcp_wait", arguments: { run_id: o.run_id } });
check(JSON.stringify(again.content) === JSON.stringify(result.content), "a second wait returns the same result");

const runs = await client.callTool({ name: "aeat_mcp_runs", arguments: {} });
check(runs.structuredContent?.runs?.some((r) => r.run_id === o.run_id && r.state === "completed"), "aeat_mcp_runs lists the run as completed");

const unknown = await client.callTool({ name: "aeat_mcp_wait", arguments: { run_id: "r-0123456789abcdef" } });
check(unknown.isError && outcomeOf(unknown).code === "invalid_arguments", "an unknown run id is a clear error result");

await client.close();
console.log("interop long-call: every check passed");
