// MCP Tasks through the official requester, @modelcontextprotocol/ext-tasks
// (on the TypeScript SDK v2 client), against the built binary, in both
// generations: 2025-11-25 (the initialize handshake; tasks are the core
// experimental ones) and 2026-07-28 (server/discover; the
// io.modelcontextprotocol/tasks extension, through the requester's raw
// dispatch). In each: a LIVE demo call through createTaskSessionFromClient
// settles with the result the ordinary call gives, and a cancelled task's
// process is gone. Every message the server sends is checked against the
// requester's own wire schemas (core/v1, core/v2). Usage:
//
//	node tasks.mjs /path/to/aeat-mcp
//
// It exits non-zero on any difference.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import * as v1 from "@modelcontextprotocol/ext-tasks/core/v1";
import * as v2 from "@modelcontextprotocol/ext-tasks/core/v2";
import { binary, check, demoCLIs as demoProcesses, outcomeOf, waitFor } from "./common.mjs";

const bin = binary("tasks.mjs");
const demoCLIs = () => demoProcesses(bin);
const args303 = { year: 2025, period: "1T" };

// The wire checker: it sees every message on the transport, remembers each
// request's method, and validates each answer and notification with the
// schema the requester itself uses for that message.
class Wire {
  constructor(generation) {
    this.generation = generation;
    this.requests = new Map(); // id -> request
    this.checked = new Map(); // what -> count
    this.failures = [];
    this.raw = new Map(); // raw dispatch id -> resolve
    this.rawSeq = 0;
  }

  expect(schema, value, what) {
    const r = schema.safeParse(value);
    if (!r.success) this.failures.push(`${what}: ${JSON.stringify(r.error.issues ?? r.error).slice(0, 500)} in ${JSON.stringify(value).slice(0, 500)}`);
    this.checked.set(what, (this.checked.get(what) ?? 0) + 1);
  }

  sent(msg) {
    if (msg.method !== undefined && msg.id !== undefined) this.requests.set(msg.id, msg);
  }

  received(msg) {
    if (msg.method === "notifications/tasks/status") this.expect(v1.TaskStatusNotificationV1Schema, msg, "notifications/tasks/status");
    if (msg.method === "notifications/tasks") this.expect(v2.TaskStatusNotificationV2Schema, msg, "notifications/tasks");
    if (msg.method !== undefined || msg.id === undefined) return;
    const req = this.requests.get(msg.id);
    if (req === undefined || msg.error !== undefined) return;
    (this.generation === "v1" ? this.v1 : this.v2).call(this, req, msg.result);
  }

  v1(req, result) {
    switch (req.method) {
      case "initialize":
        return this.expect(v1.ServerCapabilitiesV1Schema, result.capabilities, "initialize capabilities");
      case "tools/list":
        for (const tool of result.tools) this.expect(v1.ToolV1Schema, tool, "tools/list tool");
        return;
      case "tools/call":
        if (req.params?.task !== undefined) return this.expect(v1.CreateTaskResultV1Schema, result, "tools/call as a task");
        return this.expect(v1.CallToolResultV1Schema, result, "tools/call");
      case "tasks/get":
        return this.expect(v1.GetTaskResultV1Schema, result, "tasks/get");
      case "tasks/result":
        if (result?._meta?.["io.modelcontextprotocol/related-task"]?.taskId !== req.params.taskId)
          this.failures.push(`tasks/result without its related-task key: ${JSON.stringify(result._meta)}`);
        return this.expect(v1.CallToolResultV1Schema, result, "tasks/result");
      case "tasks/list":
        return this.expect(v1.ListTasksResultV1Schema, result, "tasks/list");
      case "tasks/cancel":
        return this.expect(v1.CancelTaskResultV1Schema, result, "tasks/cancel");
    }
  }

  v2(req, result) {
    switch (req.method) {
      case "server/discover":
        if (!v2.hasTaskServerCapabilityV2(result.capabilities)) this.failures.push("server/discover: no tasks extension");
        return this.expect(v2.ServerTaskCapabilityEnvelopeV2Schema, result.capabilities, "server/discover capabilities");
      case "tools/list":
        for (const tool of result.tools) this.expect(v2.ToolV2Schema, tool, "tools/list tool");
        return;
      case "tools/call":
        if (result.resultType === "task") return this.expect(v2.CreateTaskResultV2Schema, result, "tools/call as a task");
        return this.expect(v2.CallToolResultV2Schema, result, "tools/call");
      case "tasks/get":
        return this.expect(v2.GetTaskResultV2Schema, result, "tasks/get");
      case "tasks/update":
        return this.expect(v2.UpdateTaskResultV2Schema, result, "tasks/update");
      case "tasks/cancel":
        return this.expect(v2.CancelTaskResultV2Schema, result, "tasks/cancel");
    }
  }

  // attach taps a transport before the client connects: every message
  // sent passes here, and every line the server writes is read here too
  // (a second reader of its stdout, so the client's own handling is left
  // as it is).
  attach(transport) {
    const send = transport.send.bind(transport);
    transport.send = (msg, opts) => {
      this.sent(msg);
      return send(msg, opts);
    };
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      let buf = "";
      transport._process.stdout.on("data", (chunk) => {
        buf += chunk.toString("utf8");
        let nl;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) this.received(JSON.parse(line));
        }
      });
    };
    // The requester's raw dispatch: a 2026-07-28 task request, framed by the
    // requester, written as it is (the SDK's codecs reject task wire
    // shapes); its answer is taken off before the client sees it.
    this.dispatch = (request) => {
      const id = `raw-${++this.rawSeq}`;
      const msg = { ...request, jsonrpc: "2.0", id };
      return new Promise((resolve, reject) => {
        this.raw.set(id, resolve);
        this.sent(msg);
        send(msg).catch(reject);
      });
    };
    this.takeRawAnswers = () => {
      const deliver = transport.onmessage;
      transport.onmessage = (msg, extra) => {
        const resolve = typeof msg.id === "string" && msg.method === undefined ? this.raw.get(msg.id) : undefined;
        if (resolve === undefined) return deliver?.(msg, extra);
        this.raw.delete(msg.id);
        resolve(msg.error !== undefined ? { kind: "error", error: msg.error } : { kind: "result", result: msg.result });
      };
    };
  }

  report() {
    for (const [what, n] of [...this.checked].sort()) console.log(`  checked against ext-tasks ${this.generation} schemas: ${what} ×${n}`);
    check(this.failures.length === 0, `every message matches the ext-tasks ${this.generation} schemas${this.failures.length ? ":\n    " + this.failures.join("\n    ") : ""}`);
  }
}

async function connect(generation) {
  const wire = new Wire(generation);
  const transport = new StdioClientTransport({
    command: bin,
    args: ["--demo", "--log-level", "warn"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, AEAT_MCP_LANG: "en" },
    stderr: "inherit",
  });
  wire.attach(transport);
  const clientInfo = { name: "aeat-mcp-interop-tasks", version: "1.0.0" };
  const client = new Client(clientInfo, {
    capabilities: { elicitation: { form: {} } },
    ...(generation === "v2" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
  });
  await client.connect(transport, generation === "v1" ? { prior: { kind: "legacy" } } : undefined);
  wire.takeRawAnswers();
  return { client, wire, clientInfo };
}

// sameResult: the task's result is what the ordinary call returns.
function sameResult(sync, viaTask) {
  check(JSON.stringify(viaTask.content) === JSON.stringify(sync.content), "the task's result has the ordinary call's content");
  check(JSON.stringify(viaTask.structuredContent) === JSON.stringify(sync.structuredContent), "and its structured content");
  check(outcomeOf(viaTask).code === "ok" && outcomeOf(sync).code === "ok", "both ok");
}

// cancelled: a task of the 75 s LIVE pull, cancelled through the requester
// once its process runs, ends cancelled with its process gone.
async function cancelled(session) {
  const execution = await session.callTool("modelo_390_pull", { year: 2025 }, { task: { preference: "require" } });
  const running = await waitFor(() => (demoCLIs() ?? ["skip"]).length > 0, 10000);
  check(running, "the cancelled task's process runs");
  await execution.cancel();
  const { outcome } = await execution.settle();
  check(outcome.status === "cancelled", `the task settles cancelled (${outcome.status})`);
  const left = demoCLIs();
  if (left) check(await waitFor(() => demoCLIs().length === 0, 5000), "its process is gone");
}

// askBeforeTheKill: a task that reaches its ceiling (the demo's stuck pull,
// 5 s) asks whether it may go on — through the session on 2025-11-25, as
// the task's input request on 2026-07-28 — and the requester routes the
// question to the application as the task's; a no stops it with the
// timeout refusal as its result.
async function askBeforeTheKill(session, asked, generation) {
  const execution = await session.callTool("modelo_303_pull_stuck", {}, { task: { preference: "require" } });
  const { outcome } = await execution.settle();
  check(asked.length === 1, `the requester got one question (${asked.length})`);
  const { request, context } = asked[0];
  check(request.kind === "elicitation" && /modelo_303_pull_stuck/.test(request.params.message), "an elicitation that names the tool");
  check(context.scope === "task" && typeof context.taskId === "string" && context.taskId.length > 0, `routed to its task (${context.scope}, ${context.delivery}, ${context.taskId})`);
  check(context.delivery === (generation === "v1" ? "peer-request" : "task-update"), `delivered as ${generation === "v1" ? "a request tied to the task" : "an input request answered by tasks/update"}`);
  // 2025-11-25 calls a result with isError "failed" and hands it out by
  // tasks/result; 2026-07-28 completes the task with it.
  const result = outcome.status === "completed" ? outcome.result : undefined;
  if (generation === "v2") {
    check(outcome.status === "completed" && result.isError === true, `the task completes with the refusal (${outcome.status})`);
    check(outcomeOf(result).code === "timeout" && outcomeOf(result).tree_dead === true, "a timeout, its tree dead");
  } else {
    check(outcome.status === "failed", `the task fails (${outcome.status}): ${outcome.error?.message ?? ""}`);
  }
}

for (const generation of ["v1", "v2"]) {
  console.log(`${generation === "v1" ? "2025-11-25 core tasks" : "2026-07-28 io.modelcontextprotocol/tasks"} through @modelcontextprotocol/ext-tasks`);
  const { client, wire, clientInfo } = await connect(generation);
  check(client.getProtocolEra() === (generation === "v1" ? "legacy" : "modern"), `the session speaks ${client.getNegotiatedProtocolVersion()}`);
  if (generation === "v2") {
    // The probe ran on a sibling process the tap does not see: its answer
    // is checked here.
    const caps = client.getDiscoverResult()?.capabilities;
    check(v2.hasTaskServerCapabilityV2(caps), "server/discover advertises io.modelcontextprotocol/tasks");
    wire.expect(v2.ServerTaskCapabilityEnvelopeV2Schema, caps, "server/discover capabilities");
  }
  const asked = [];
  const session = createTaskSessionFromClient(client, {
    endpointId: `aeat-mcp-demo-${generation}`,
    ...(generation === "v2"
      ? {
          rawDispatch: (request) => wire.dispatch(request),
          v2RequestFraming: { protocolVersion: "2026-07-28", clientInfo, clientCapabilities: { elicitation: { form: {} } } },
        }
      : {}),
    // A person asked whether a run at its ceiling may go on says no.
    onInputRequest: async (request, context) => {
      asked.push({ request, context });
      return { action: "accept", content: { extend: false } };
    },
  });
  try {
    const execution = await session.callTool("modelo_303_pull", args303, { task: { preference: "require" } });
    const { outcome } = await execution.settle();
    check(outcome.status === "completed", `a LIVE call as a task settles completed (${outcome.status})`);
    const viaTask = resultFromTaskOutcome(outcome);
    const sync = await client.callTool({ name: "modelo_303_pull", arguments: args303 });
    sameResult(sync, viaTask);
    const taskCalls = [...wire.requests.values()].filter((r) => r.method === "tools/call" && (r.params?.task !== undefined || r.params?._meta?.["io.modelcontextprotocol/clientCapabilities"]));
    check(taskCalls.length > 0, "the call went out as a task request");
    const polls = [...wire.requests.values()].filter((r) => r.method.startsWith("tasks/"));
    check(polls.length > 0, `the requester followed it with ${[...new Set(polls.map((r) => r.method))].join(", ")}`);
    await cancelled(session);
    await askBeforeTheKill(session, asked, generation);
    if (generation === "v1") {
      const list = await wire.dispatch({ method: "tasks/list", params: {} });
      check(list.kind === "result" && list.result.tasks.length === 3, `tasks/list lists the session's tasks (${list.result?.tasks?.length})`);
    }
  } finally {
    await session.close();
    await client.close();
  }
  wire.report();
}
console.log("interop tasks: every check passed");
