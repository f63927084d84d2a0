// A stdio server's wire, recorded: runs a server command with its stdin and
// stdout passed through untouched, and appends each line either way to a log
// as {t, dir, line} (t: milliseconds since the server was spawned; dir: "in"
// from the host, "out" from the server), and how the connection ended as
// {t, event}: the host closed stdin, sent a signal, the server exited. connect.mjs puts it in front of
// both servers alike, to see what a host that spawns servers itself
// (Claude Code, the Inspector) sent and when it was answered. Usage:
//
//	node tee.mjs LOG command [arg...]
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const [log, command, ...args] = process.argv.slice(2);
if (!log || !command) {
  console.error("usage: node tee.mjs LOG command [arg...]");
  process.exit(2);
}

const spawned = performance.now();
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });

// record splits a stream's chunks into lines and logs each as it
// completes; the bytes themselves pass on at once.
function record(dir) {
  let partial = "";
  return (chunk) => {
    const t = performance.now() - spawned;
    const lines = (partial + chunk.toString("utf8")).split("\n");
    partial = lines.pop();
    for (const line of lines) if (line.trim() !== "") appendFileSync(log, JSON.stringify({ t, dir, line }) + "\n");
  };
}

const fromHost = record("in");
process.stdin.on("data", (chunk) => {
  fromHost(chunk);
  child.stdin.write(chunk);
});
const event = (what) => appendFileSync(log, JSON.stringify({ t: performance.now() - spawned, event: what }) + "\n");
process.stdin.on("end", () => {
  event("stdin ended");
  child.stdin.end();
});
child.stdin.on("error", () => {}); // the server went first

const fromServer = record("out");
child.stdout.on("data", (chunk) => {
  fromServer(chunk);
  process.stdout.write(chunk);
});

for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"])
  process.on(sig, () => {
    event(sig);
    child.kill(sig);
  });
child.on("exit", (code, signal) => {
  event(`exited ${signal ?? code}`);
  process.exit(code ?? (signal ? 1 : 0));
});
