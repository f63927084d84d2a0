// Connect time: what a person waits from a host spawning a server to that
// server's tools/list answered, for every real client the interop runs —
// Claude Code's CLI (claude mcp list), the TypeScript SDK client on both
// protocol generations, the Inspector CLI, the go-sdk client — against
// aeat-mcp and against the reference server
// (@modelcontextprotocol/server-everything, pinned), alternately, in the
// same run. A benchmark that prints both: it fails only on a stall, ours
// more than 3× the reference (medians), the shape of Claude Code's 28 s
// wait for an acknowledgement that named an id it never sent. With Claude
// Code's own subscriptions/listen, it also checks that the
// acknowledgement names Claude's id exactly. Usage:
//
//	node connect.mjs /path/to/aeat-mcp /path/to/goclient
//
// CONNECT_ROUNDS (default 3) sets the rounds; each round runs every client
// against both servers, ours first in odd rounds, the reference first in
// even ones.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { check } from "./common.mjs";

// must stops the run when cond is false; it says nothing when it holds
// (check, for the findings worth a line).
function must(cond, what) {
  if (!cond) check(false, what);
}

const [bin, goclient] = process.argv.slice(2);
if (!bin || !goclient) {
  console.error("usage: node connect.mjs /path/to/aeat-mcp /path/to/goclient");
  process.exit(2);
}
const rounds = Number(process.env.CONNECT_ROUNDS ?? 3);
const stall = 3; // ours over the reference's median that fails the run
const here = new URL(".", import.meta.url).pathname;
const modules = join(here, "node_modules");
const pkg = (name) => JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")).version;
const work = mkdtempSync(join(tmpdir(), "aeat-mcp-connect-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

// The two servers, as a host's entry names them.
const servers = {
  ours: { name: "aeat", command: bin, args: ["--demo", "--log-level", "warn"] },
  reference: {
    name: "everything",
    command: process.execPath,
    args: [join(modules, "@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
  },
};
const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME };

// run starts a command and resolves with its exit code, output and wall
// time; it never rejects.
function run(command, args, opts = {}) {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(command, args, { ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out, ms: performance.now() - start });
    });
  });
}

// wire reads a tee log: when tools/list was answered (ms since the
// server was spawned), and the subscriptions/listen requests with the
// acknowledgements the server sent.
function wire(log) {
  const lines = readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const msgs = lines.filter((l) => l.line !== undefined).map((l) => ({ ...l, msg: JSON.parse(l.line) }));
  const list = msgs.find((m) => m.dir === "in" && m.msg.method === "tools/list");
  const answered = list && msgs.find((m) => m.dir === "out" && m.msg.id === list.msg.id && m.msg.result !== undefined);
  return {
    ms: answered?.t,
    listens: msgs.filter((m) => m.dir === "in" && m.msg.method === "subscriptions/listen").map((m) => m.msg),
    acks: msgs.filter((m) => m.dir === "out" && m.msg.method === "notifications/subscriptions/acknowledged").map((m) => m.msg),
  };
}

// teed is a server's entry with its wire recorded to log.
const teed = (server, log) => ({ ...server, command: process.execPath, args: [join(here, "tee.mjs"), log, server.command, ...server.args] });

let logs = 0;
const newLog = () => join(work, `wire-${++logs}.jsonl`);

// Every client: once(server, side) connects, lists tools, and resolves
// with {ms} — spawn to tools/list answered — and, for a client that is a
// process of its own, its wall time too.
const clients = [
  {
    name: `TypeScript SDK ${pkg("@modelcontextprotocol/sdk")} client (2025-11-25)`,
    async once(server) {
      const transport = new StdioV1({ command: server.command, args: server.args, env: baseEnv, stderr: "ignore" });
      const client = new ClientV1({ name: "aeat-mcp-interop-connect", version: "1.0.0" });
      const start = performance.now();
      await client.connect(transport);
      await client.listTools();
      const ms = performance.now() - start;
      await client.close();
      return { ms };
    },
  },
  {
    name: `TypeScript SDK ${pkg("@modelcontextprotocol/client")} client (2026-07-28, else 2025-11-25)`,
    async once(server) {
      const transport = new StdioV2({ command: server.command, args: server.args, env: baseEnv, stderr: "ignore" });
      // "auto": server/discover first, the initialize handshake where the
      // server does not speak 2026-07-28 (the client's default is legacy).
      const client = new ClientV2({ name: "aeat-mcp-interop-connect", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
      const start = performance.now();
      await client.connect(transport);
      await client.listTools();
      const ms = performance.now() - start;
      const protocol = client.getNegotiatedProtocolVersion();
      await client.close();
      return { ms, protocol };
    },
  },
  ...["", "2025-11-25"].map((protocol) => ({
    name: `go-sdk ${goSDKVersion()} client (${protocol || "2026-07-28, else 2025-11-25"})`,
    async once(server) {
      const r = await run(goclient, [...(protocol ? ["-protocol", protocol] : []), "--", server.command, ...server.args], { env: baseEnv });
      must(r.code === 0, `the go-sdk client connected to ${server.name}: ${r.out.slice(-300)}`);
      const line = JSON.parse(r.out.trim().split("\n").filter((l) => l.startsWith("{")).pop());
      return { ms: line.ms, protocol: line.protocol };
    },
  })),
  {
    name: `Inspector CLI ${pkg("@modelcontextprotocol/inspector")} (--cli --method tools/list)`,
    async once(server) {
      const log = newLog();
      const s = teed(server, log);
      const home = mkdtempSync(join(work, "inspector-home-"));
      const launcher = join(modules, "@modelcontextprotocol/inspector/clients/launcher/build/index.js");
      const r = await run(process.execPath, [launcher, "--cli", "--method", "tools/list", "--", s.command, ...s.args], { env: { ...baseEnv, HOME: home } });
      must(r.code === 0 && r.out.includes('"tools"'), `the Inspector CLI listed ${server.name}'s tools: ${r.out.slice(-300)}`);
      return { ms: wire(log).ms, wall: r.ms };
    },
  },
  {
    name: `Claude Code ${pkg("@anthropic-ai/claude-code")} (claude mcp list)`,
    claude: true,
    async once(server, side) {
      const log = newLog();
      const r = await claudeList(teed(server, log));
      const w = wire(log);
      if (side === "ours") listens.push(w);
      return { ms: w.ms, wall: r.ms };
    },
    // Claude Code waits for the acknowledgement of its listen before it
    // lists tools: it must name the listen by Claude's own id, exactly.
    after() {
      must(listens.length > 0 && listens.every((w) => w.listens.length > 0), "Claude Code opened a subscriptions/listen in every round (the request whose acknowledgement it waits for)");
      const ids = [];
      for (const w of listens) {
        const named = w.acks.map((a) => a.params?._meta?.["io.modelcontextprotocol/subscriptionId"]);
        for (const listen of w.listens) {
          must(named.some((id) => id === listen.id), `the acknowledgement names Claude Code's listen ${JSON.stringify(listen.id)} exactly (it named ${JSON.stringify(named)})`);
          ids.push(JSON.stringify(listen.id));
        }
      }
      check(true, `every acknowledgement named Claude Code's own listen id (${[...new Set(ids)].join(", ")}; ${ids.length} listens)`);
    },
  },
];

// listens are the wire records of Claude Code's rounds against aeat-mcp.
const listens = [];

// claudeList runs `claude mcp list` with server as the only entry of a
// fresh user scope, and resolves with its wall time.
async function claudeList(server) {
  const home = mkdtempSync(join(work, "claude-home-"));
  const entry = { type: "stdio", command: server.command, args: server.args, env: { LANG: "C.UTF-8" } };
  writeFileSync(join(home, ".claude.json"), JSON.stringify({ mcpServers: { [server.name]: entry } }));
  const wrapper = join(modules, "@anthropic-ai/claude-code/cli-wrapper.cjs");
  const env = { ...process.env, HOME: home, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1" };
  delete env.CLAUDE_CONFIG_DIR;
  const r = await run(process.execPath, [wrapper, "mcp", "list"], { cwd: home, env });
  must(r.code === 0 && new RegExp(`^${server.name}: .*Connected`, "m").test(r.out), `Claude Code connected to ${server.name}: ${r.out.slice(-300)}`);
  return r;
}

function goSDKVersion() {
  const mod = readFileSync(join(here, "..", "go.mod"), "utf8");
  return mod.match(/github\.com\/modelcontextprotocol\/go-sdk (\S+)/)?.[1] ?? "?";
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms) => (ms === undefined ? "—" : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

const loadBefore = loadavg()[0];
console.log(`connect: spawn → tools/list answered, ${rounds} alternate rounds per client; aeat-mcp --demo vs @modelcontextprotocol/server-everything ${pkg("@modelcontextprotocol/server-everything")}`);
const results = [];
for (const client of clients) {
  const got = { ours: [], reference: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ["ours", "reference"] : ["reference", "ours"];
    for (const side of order) got[side].push(await client.once(servers[side], side));
  }
  // Claude Code's plain rounds: no tee in front of either server, the
  // wall time a person sees.
  if (client.claude) {
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ["ours", "reference"] : ["reference", "ours"];
      for (const side of order) {
        const r = await claudeList(servers[side]);
        got[side][round].plain = r.ms;
      }
    }
  }
  const row = { client: client.name };
  for (const side of ["ours", "reference"]) {
    const ms = got[side].map((g) => g.ms);
    must(ms.every((m) => typeof m === "number"), `${client.name}: tools/list was answered by ${side} in every round`);
    row[side] = { ms: median(ms), all: ms, protocol: got[side][0].protocol };
    if (got[side][0].wall !== undefined) row[side].wall = median(got[side].map((g) => g.wall));
    if (got[side][0].plain !== undefined) row[side].plain = median(got[side].map((g) => g.plain));
  }
  results.push(row);
  const ratio = row.ours.ms / row.reference.ms;
  const line = (side) =>
    `${fmt(row[side].ms)} [${row[side].all.map(fmt).join(", ")}]` +
    (row[side].protocol ? ` ${row[side].protocol}` : "") +
    (row[side].wall !== undefined ? `; whole command ${fmt(row[side].wall)}` : "") +
    (row[side].plain !== undefined ? `; claude mcp list without the tee ${fmt(row[side].plain)}` : "");
  console.log(`  ${client.name}\n    aeat-mcp  ${line("ours")}\n    reference ${line("reference")}\n    ratio     ${ratio.toFixed(2)}` +
    (row.ours.plain !== undefined ? ` (claude mcp list: ${(row.ours.plain / row.reference.plain).toFixed(2)})` : ""));
  check(ratio <= stall, `${client.name}: no stall (aeat-mcp ${fmt(row.ours.ms)} within ${stall}× the reference's ${fmt(row.reference.ms)})`);
  client.after?.();
}
console.log(`connect: load average ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`);
