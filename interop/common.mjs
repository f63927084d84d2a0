// What the interop scripts share: the binary from the command line, checks
// that stop at the first difference, a result's outcome and text, and the
// demo CLI's processes.
import { readdirSync, readFileSync } from "node:fs";

// binary returns the aeat-mcp binary given as the first argument.
export function binary(script) {
  const bin = process.argv[2];
  if (!bin) {
    console.error(`usage: node ${script} /path/to/aeat-mcp`);
    process.exit(2);
  }
  return bin;
}

// check stops the script with a failure when cond is false, and says so
// when it holds.
export function check(cond, what) {
  if (!cond) {
    console.error("FAIL:", what);
    process.exit(1);
  }
  console.log("  ok:", what);
}

export const outcomeOf = (res) => res?._meta?.["aeat-mcp/outcome"] ?? {};
export const textOf = (res) => (res?.content ?? []).map((c) => c.text ?? "").join("\n");
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// waitFor polls cond until it holds or ms pass; it returns the last answer.
export async function waitFor(cond, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await sleep(25);
  }
  return cond();
}

// demoCLIs lists the running processes of the demo CLI that bin plays
// (Linux: /proc); null elsewhere, where process checks are skipped.
export function demoCLIs(bin) {
  if (process.platform !== "linux") return null;
  const out = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (argv[0] === bin && argv[1] === "demo-cli") out.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
