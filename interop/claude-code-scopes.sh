#!/usr/bin/env bash
# What `aeat-mcp config claude-code` tells a person about each of Claude
# Code's scopes, held to Claude Code's own CLI (pinned in
# interop/package-lock.json):
#
#   interop/claude-code-scopes.sh path/to/aeat-mcp
#
# - project (--file DIR/.mcp.json --write): config says Claude Code shows it
#   "⏸ Pending approval" and how to approve it; `claude mcp list` in DIR
#   shows exactly that. Once the person has answered Claude Code's two
#   questions, the server connects.
# - local (the `claude mcp add --scope local …` line config prints, run as
#   printed in a folder): connected in that folder, absent elsewhere.
# - user (--write): config says "✔ Connected" without a question; so does
#   `claude mcp list`, in any folder.
# - a secret the manifest reads from the OS keychain, set in the shell
#   that runs config --write, is not in the entry Claude Code reads.
#
# Each `claude mcp get` of an approved server starts it (a health check):
# three connects. Run by scripts/interop after npm ci.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
wrapper="$here/node_modules/@anthropic-ai/claude-code/cli-wrapper.cjs"
manifest="$here/../examples/aeat.manifest.json"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
home="$scratch/home" project="$scratch/project" folder="$scratch/folder" elsewhere="$scratch/elsewhere"
mkdir -p "$home" "$project" "$folder" "$elsewhere"

claude() { # DIR ARGS…: Claude Code's CLI run in DIR, as the scratch user
  local dir=$1
  shift
  # The npm package's wrapper finds the native binary of this platform
  # (its postinstall may not have run: npm can hold install scripts back).
  (cd "$dir" && env -u CLAUDE_CONFIG_DIR HOME="$home" CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
    timeout 180 node "$wrapper" "$@" 2>&1)
}
fail() {
  echo "FAIL: $*"
  exit 1
}
says() { # TEXT WORDS: TEXT holds WORDS
  grep -qF -- "$2" <<<"$1" || {
    echo "$1"
    fail "expected: $2"
  }
}
shown() { # DIR STATUS SCOPE: claude mcp get aeat in DIR shows that status, in that scope; prints what it showed
  local out
  out=$(claude "$1" mcp get aeat) || {
    echo "$out"
    fail "claude mcp get aeat in $1"
  }
  echo "$out" | sed 's/^/    /' >&2
  grep -qF -- "Status: $2" <<<"$out" || fail "Claude Code does not show aeat as $2 in $1"
  grep -qF -- "Scope: $3" <<<"$out" || fail "Claude Code does not show aeat in the $3 in $1"
  echo "$out"
}

echo "interop claude-code scopes: project (.mcp.json)"
told=$(HOME="$home" "$bin" --demo config claude-code --file "$project/.mcp.json" --write)
says "$told" "shows \"aeat\" as \"⏸ Pending approval\""
says "$told" "\"Use this MCP server\" to \"New MCP server found in this project: aeat\""
says "$told" "$project/.claude/settings.local.json"
grep -qF "without asking" <<<"$told" && fail "config says a project's .mcp.json loads without asking"
shown "$project" "⏸ Pending approval" "Project config" >/dev/null
# The person answers Claude Code's questions in an interactive claude (not
# scriptable here): "Yes, I trust this folder", then "Use this MCP server".
# Claude Code records them as its code does (2.1.332's trust dialog and
# its "New MCP server found in this project" dialog): the folder trusted in
# ~/.claude.json, the server in the project's .claude/settings.local.json
# (enabledMcpjsonServers) — where config said.
node -e '
  const fs = require("fs");
  const [home, project] = process.argv.slice(1);
  const file = home + "/.claude.json";
  const cfg = JSON.parse(fs.readFileSync(file, "utf8"));
  cfg.projects ??= {};
  cfg.projects[project] = { ...cfg.projects[project], hasTrustDialogAccepted: true };
  fs.writeFileSync(file, JSON.stringify(cfg, null, 2));
  fs.mkdirSync(project + "/.claude", { recursive: true });
  fs.writeFileSync(project + "/.claude/settings.local.json", JSON.stringify({ enabledMcpjsonServers: ["aeat"] }) + "\n");' \
  "$home" "$project"
shown "$project" "✔ Connected" "Project config" >/dev/null

echo "interop claude-code scopes: local (claude mcp add --scope local, as config prints it)"
line=$(HOME="$home" "$bin" --demo config claude-code | grep '^  claude mcp add --scope local ') || fail "config prints no --scope local line"
eval "claude \"\$folder\" ${line#  claude }" >/dev/null || fail "the printed line failed: $line"
shown "$folder" "✔ Connected" "Local config" >/dev/null
out=$(claude "$elsewhere" mcp list)
grep -q '^aeat: ' <<<"$out" && {
  echo "$out"
  fail "a local-scope server shows in another folder"
}

echo "interop claude-code scopes: user (--write), and no keychain secret in the entry"
told=$(HOME="$home" AEAT_CERT_PASSPHRASE=cert-pass-4f1e "$bin" --manifest "$manifest" --cli /bin/true config claude-code --write)
says "$told" "Claude Code starts \"aeat\" in every project without asking — \`claude mcp list\` shows it \"✔ Connected\""
says "$told" "aeat-mcp secret set AEAT_CERT_PASSPHRASE"
out=$(shown "$elsewhere" "✔ Connected" "User config")
grep -q "cert-pass-4f1e\|AEAT_CERT_PASSPHRASE" <<<"$out" && {
  echo "$out"
  fail "the entry Claude Code reads holds the keychain secret"
}
echo "interop claude-code scopes: project pending until approved, local in its folder only, user everywhere; no secret in the entry"
