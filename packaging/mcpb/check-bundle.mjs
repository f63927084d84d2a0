// Checks a built MCP Bundle the way Claude Desktop meets it (scripts/bundle
// builds it; .ci/run runs this):
//
//	node check-bundle.mjs dist/aeat-mcp-VERSION.mcpb /path/to/aeat
//
// 1. Unpack it as Claude Desktop does on macOS: the signature block set
//    aside (as mcpb's own unpack does), every file mode 0600, the execute
//    bits lost (modelcontextprotocol/mcpb#294), into a folder whose path
//    has a space ("Claude Extensions"); its icon is there.
// 2. Resolve its command, arguments and environment with the package's own
//    resolver (getMcpConfigForManifest) and the values Claude Desktop
//    substitutes: __dirname, HOME…, the user's settings — once with only the
//    required one (the aeat program) set, once with every setting.
// 3. Start it with the official MCP TypeScript SDK client (the environment
//    the SDK gives every server, and the minimal PATH a GUI app has) and run
//    the basics: tools/list, a call.
// It exits non-zero at the first difference.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { extractSignatureBlock, getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import { unzipSync } from "fflate";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const [bundle, aeat] = process.argv.slice(2);
if (!bundle || !aeat) {
  console.error("usage: node check-bundle.mjs BUNDLE.mcpb /path/to/aeat");
  process.exit(2);
}

let serverLog = ""; // the server's stderr, shown when a check fails
function check(cond, what) {
  if (!cond) {
    console.error("FAIL:", what);
    if (serverLog) console.error("the server's stderr:\n" + serverLog);
    process.exit(1);
  }
  console.log("  ok:", what);
}

const home = mkdtempSync(join(tmpdir(), "aeat-mcp-bundle-"));
process.on("exit", () => rmSync(home, { recursive: true, force: true }));
const dir = join(home, "Library", "Application Support", "Claude", "Claude Extensions", "local.mcpb.aeat-mcp");

console.log("unpack, every file 0600");
// A signed bundle is the ZIP and then mcpb sign's block: set aside first,
// as the package's own unpack does (signature.mjs checks the signature).
const { originalContent, pkcs7Signature } = extractSignatureBlock(readFileSync(bundle));
check(pkcs7Signature !== undefined, "the bundle is signed (mcpb sign's block follows the ZIP)");
const files = unzipSync(originalContent);
for (const [name, data] of Object.entries(files)) {
  if (name.endsWith("/")) continue;
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, data, { mode: 0o600 });
}
const modes = (d) =>
  readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modes(join(d, e.name)) : [[join(d, e.name), statSync(join(d, e.name)).mode & 0o777]],
  );
check(modes(dir).every(([, m]) => m === 0o600), `all ${modes(dir).length} files are 0600, as Claude Desktop leaves them on macOS`);

const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
check(manifest.icon === "icon.png" && readFileSync(join(dir, manifest.icon)).subarray(1, 4).toString() === "PNG", "its icon is the PNG the manifest names");
const aeatManifest = JSON.parse(readFileSync(join(dir, "server", "aeat.manifest.json"), "utf8"));

async function session(what, userConfig, expect) {
  console.log(what);
  const cfg = await getMcpConfigForManifest({
    manifest,
    extensionPath: dir,
    systemDirs: { HOME: home, DESKTOP: join(home, "Desktop"), DOCUMENTS: join(home, "Documents"), DOWNLOADS: join(home, "Downloads") },
    userConfig,
    pathSeparator: "/",
  });
  check(cfg !== undefined, "the resolver gives a command (no required setting is missing)");
  const unresolved = JSON.stringify(cfg).match(/\$\{[^}]*\}/g);
  check(unresolved === null, `no placeholder reaches the server literally (${unresolved ?? "none"})`);
  check(cfg.command === "/bin/sh" && cfg.args[0] === join(dir, "server", "launch.sh"), `started through /bin/sh on the launcher: ${cfg.command} ${cfg.args.join(" ")}`);

  const transport = new StdioClientTransport({
    command: cfg.command,
    args: cfg.args,
    env: { ...cfg.env, PATH: "/usr/bin:/bin" }, // the SDK adds HOME, USER…; a GUI app's PATH
    stderr: "pipe",
  });
  serverLog = "";
  transport.stderr.on("data", (d) => (serverLog += d));
  const client = new Client({ name: "aeat-mcp-bundle-check", version: "1.0.0" });
  await client.connect(transport);
  const bin = join(dir, "server", process.platform === "darwin" ? "darwin" : "linux-amd64", "aeat-mcp");
  check((statSync(bin).mode & 0o100) !== 0, "the launcher gave the binary its execute bit back");

  const tools = (await client.listTools()).tools;
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const offered = aeatManifest.tools.filter((t) => !expect.readOnly || t.annotations.readOnlyHint);
  check(offered.every((t) => byName[t.name]), `the aeat manifest's tools are listed (${offered.length}, and ${tools.length - offered.length} built-in)`);
  if (expect.readOnly) {
    const changing = aeatManifest.tools.filter((t) => !t.annotations.readOnlyHint && byName[t.name]);
    check(changing.length === 0, `the read-only setting leaves out every tool that changes something (${changing.map((t) => t.name)})`);
  }
  const profile = byName.profile_list.inputSchema.properties.profile;
  check(profile?.default === expect.profile, `the profile setting is the --profile default: ${JSON.stringify(profile?.default)}`);

  // profile list is exempt from aeat's login gate (facts.json
  // login.exempt_prefixes): it answers a user who set nothing else.
  const res = await client.callTool({ name: "profile_list", arguments: {} });
  const outcome = res._meta?.["aeat-mcp/outcome"] ?? {};
  const missing = (aeatManifest.cli?.env?.require ?? []).filter((n) => !cfg.env[n]);
  if (missing.length > 0) {
    // The example manifest still requires a variable the bundle has no
    // setting for: the server says so, naming it, as every call would.
    check(res.isError && outcome.code === "cli_unavailable" && missing.every((n) => outcome.missing_env?.includes(n)), `a call refuses naming ${missing.join(", ")}: ${JSON.stringify(outcome)}`);
  } else if (expect.profile) {
    // The store is new: no profile of that name. The CLI itself refuses
    // it (facts.json globals: --profile unknown is REFUSED_CLI_BOUNDARY,
    // exit 2) — the setting reached the CLI as its global, before the verb.
    const text = (res.content ?? []).map((c) => c.text ?? "").join("\n");
    check(res.isError && outcome.code === "exit" && outcome.exit_code === 2 && text.includes(expect.profile),
      `the CLI was given --profile=${expect.profile} and refuses a profile its store does not have: ${JSON.stringify(outcome)}`);
  } else {
    check(!res.isError && outcome.code === "ok", `a call runs the CLI and succeeds: ${JSON.stringify(outcome)}`);
  }
  await client.close();
}

await session("start with only the required setting (the aeat program)", { aeat_cli: aeat }, { profile: undefined, readOnly: false });
await session("start with every setting", { aeat_cli: aeat, store: join(home, "store"), language: "es", profile: "work", read_only: true, passphrase: "p" }, { profile: "work", readOnly: true });
console.log("bundle: ok");
