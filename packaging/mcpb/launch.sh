#!/bin/sh
# Starts aeat-mcp from its MCP Bundle, on macOS and Linux. The bundle's
# manifest runs it as "/bin/sh launch.sh": Claude Desktop on macOS unpacks
# bundle files with mode 0600, execute bit lost
# (modelcontextprotocol/mcpb#294), so no bundled program can be started
# directly. This script gives the binary its execute bit back, then
# replaces itself with it (the host then talks to aeat-mcp itself: its
# stdin, stdout and signals). Windows starts aeat-mcp.exe directly.
set -eu
dir=$(cd "$(dirname "$0")" && pwd -P)
case "$(uname -s)" in
Darwin) bin="$dir/darwin/aeat-mcp" ;; # universal: Intel and Apple silicon
Linux)
  case "$(uname -m)" in
  x86_64 | amd64) bin="$dir/linux-amd64/aeat-mcp" ;;
  *)
    echo "aeat-mcp bundle: no binary for Linux on $(uname -m) in this bundle; use a release archive (github.com/aeat-mcp/aeat-mcp/releases)" >&2
    exit 1
    ;;
  esac
  ;;
*)
  echo "aeat-mcp bundle: $(uname -s) is not a system this bundle runs on" >&2
  exit 1
  ;;
esac
if [ ! -x "$bin" ]; then
  chmod u+x "$bin" 2>/dev/null || true
fi
if [ ! -x "$bin" ]; then
  echo "aeat-mcp bundle: cannot make $bin executable (is the extension folder read-only?); run: chmod u+x '$bin'" >&2
  exit 1
fi
exec "$bin" "$@"
