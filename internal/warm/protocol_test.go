//go:build unix

package warm

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// python3 is the interpreter the protocol tests run template.py with.
func python3(t *testing.T) string { return proctest.Python(t) }

// writeTemplate writes the embedded template.py into a folder of its own.
func writeTemplate(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "template.py")
	require.NoError(t, os.WriteFile(path, []byte(templateSource), 0o600))
	return path
}

// TestTemplateCompiles: the embedded Python is valid for the interpreter,
// warnings counted as errors (an invalid escape sequence is a
// SyntaxWarning today and an error tomorrow).
func TestTemplateCompiles(t *testing.T) {
	out, err := exec.Command(python3(t), "-W", "error", "-m", "py_compile", writeTemplate(t)).CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// protocolHarness loads template.py under a name of its own (so it does
// not serve), has its encoders write one message of every kind on a socket
// pair, reads the go pipe's request from stdin with its decoder, and
// prints what came through the socket, then the request as JSON.
const protocolHarness = `
import json, socket, sys
path = sys.argv[1]
sys.argv = ["template.py", sys.argv[2]]
ns = {"__name__": "warm_protocol_test"}
exec(compile(open(path).read(), "template.py", "exec"), ns)
a, b = socket.socketpair()
ns["_send"](a, ns["_ready_msg"](4242, 1, "/proc/self/task", 7, ["gone.mod"], "json", 0.25, 0.125))
try:
    raise ImportError("no module named warmdemo")
except ImportError as e:
    ns["_send"](a, ns["_error_msg"](e))
for line in [ns["_line_forked"](11, 4242, True), ns["_line_forked"](12, 4242, False), ns["_line_forked"](13, 4242, False, True),
             ns["_line_exited"](3), ns["_line_signaled"](9),
             ns["_line_exited"](0, (2930, 1, 69300, 36700)), ns["_line_signaled"](15, (12, 0, 5, 0)),
             ns["_line_threads"](4),
             ns["_line_refused"]("expected C with 4 or 5 descriptors")]:
    ns["_send_line"](a, line)
a.close()
sys.stdout.buffer.write(b.makefile("rb").read())
print(json.dumps({"request": ns["_read_request"](0), "config": ns["_CFG"]}))
`

// TestProtocol_TemplateEncodesWhatGoDecodes runs template.py's own
// encoders through python3 and decodes each message kind with the Go side
// of the protocol: the ready and error lines strictly (a key Python writes
// that readyMsg lacks fails), each call-socket line by parseCallMsg, the
// go pipe's request (Go's goPipeFrame, Python's _read_request) and the
// configuration (Go's templateConfig, Python's _CFG) both ways round.
func TestProtocol_TemplateEncodesWhatGoDecodes(t *testing.T) {
	cfg := templateConfig{Script: "/opt/cli/bin/aeat", Entry: "aeat.cli:main", Preload: "click", Modules: []string{"aeat.live"},
		Reset: []string{"aeat.state:reset"}, Warmup: [][]string{{"--help"}}, OS: "linux", Canary: []string{"proxies"}, CanarySeconds: 12.5, Unset: []string{"GLIBC_TUNABLES"},
		Spare: &spareConfig{LearnFirst: 8, LearnEvery: 16, MaxPages: 16384, ReportOver: 1024}}
	conf, err := json.Marshal(cfg)
	require.NoError(t, err)
	req := forkRequest{Argv: []string{"ledger", "list", "--year=2025"}, Cwd: "/tmp/é", Env: []string{"A=1", "SECRET=s3 cr\"t"}, Record: "/tmp/rec.json"}
	cmd := exec.Command(python3(t), "-c", protocolHarness, writeTemplate(t), string(conf))
	cmd.Stdin = bytes.NewReader(goPipeFrame(req))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s", stderr.String())
	lines := bufio.NewScanner(bytes.NewReader(out))
	next := func() string {
		require.True(t, lines.Scan(), "fewer lines than messages: %s", out)
		return lines.Text()
	}

	var ready readyMsg
	strict(t, next(), &ready)
	assert.Equal(t, readyMsg{Ready: true, Pid: 4242, Threads: 1, ThreadCount: "/proc/self/task", Open: ready.Open,
		Commands: 7, Modules: ready.Modules, PreloadFailed: []string{"gone.mod"}, ImportMS: 250, PreloadMS: 125,
		Files: ready.Files, Runs: "entry"}, ready)
	assert.NotZero(t, ready.Modules)
	assert.Equal(t, cfg.Script, ready.Files[0], "the script is the first file watched")
	var failed readyMsg
	strict(t, next(), &failed)
	assert.Equal(t, "ImportError: no module named warmdemo", failed.Error)
	assert.Contains(t, failed.Trace, "ImportError")

	for _, want := range []callMsg{
		{kind: lineForked, pid: 11, inCgroup: true},
		{kind: lineForked, pid: 12},
		{kind: lineForked, pid: 13, spare: true},
		{kind: lineExited, code: 3},
		{kind: lineExited, signaled: true, signum: 9},
		{kind: lineExited, usage: childUsage{Reported: true, MinFlt: 2930, MajFlt: 1, User: 69300 * time.Microsecond, Sys: 36700 * time.Microsecond}},
		{kind: lineExited, signaled: true, signum: 15, usage: childUsage{Reported: true, MinFlt: 12, User: 5 * time.Microsecond}},
		{kind: lineThreads, threads: 4},
		{kind: lineRefused, why: "expected C with 4 or 5 descriptors"},
	} {
		line := next()
		assert.Equal(t, want, parseCallMsg(line), "%q", line)
	}

	var echo struct {
		Request forkRequest    `json:"request"`
		Config  templateConfig `json:"config"`
	}
	strict(t, next(), &echo)
	assert.Equal(t, req, echo.Request)
	assert.Equal(t, cfg, echo.Config)
	assert.False(t, lines.Scan(), "a line no message accounts for: %q", lines.Text())
}

// TestProtocol_EveryKeyHasItsReader: every key template.py reads from its
// configuration is one templateConfig writes, and every key of readyMsg is
// one template.py writes.
func TestProtocol_EveryKeyHasItsReader(t *testing.T) {
	written := jsonKeys(reflect.TypeFor[templateConfig]())
	for _, m := range regexp.MustCompile(`_CFG(?:\["|\.get\(")(\w+)"`).FindAllStringSubmatch(templateSource, -1) {
		assert.Contains(t, written, m[1], "template.py reads _CFG[%q], which the server never writes", m[1])
	}
	for _, key := range jsonKeys(reflect.TypeFor[readyMsg]()) {
		assert.True(t, strings.Contains(templateSource, `"`+key+`"`), "readyMsg reads %q, which template.py never writes", key)
	}
}

// strict decodes line into v, refusing a key v has no field for.
func strict(t *testing.T, line string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(v), "%s", line)
}

// jsonKeys are the JSON names of a struct's fields.
func jsonKeys(typ reflect.Type) []string {
	var keys []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}

// TestParseCallMsg: what no template writes is a line of no kind, read as
// the template's other lines are (skipped); a field missing reads as zero.
func TestParseCallMsg(t *testing.T) {
	for line, want := range map[string]callMsg{
		"":                {},
		"Q 1":             {},
		"PP 1":            {},
		"X k 9":           {},
		"X":               {kind: lineExited},
		"X e 0 r 1 2":     {kind: lineExited},
		"X e 0 q 1 2 3 4": {kind: lineExited},
		"X e 0 r x 2 3 4": {kind: lineExited, usage: childUsage{Reported: true, MajFlt: 2, User: 3 * time.Microsecond, Sys: 4 * time.Microsecond}},
		"P":               {kind: lineForked},
		"P 7 1 f":         {kind: lineForked, pid: 7},
		"P 7 1 f s":       {kind: lineForked, pid: 7, spare: true},
		"P 7 1 c x":       {kind: lineForked, pid: 7, inCgroup: true},
		"T":               {kind: lineThreads},
		"E":               {kind: lineRefused},
		"E  two  words ":  {kind: lineRefused, why: "two words"},
	} {
		assert.Equal(t, want, parseCallMsg(line), "%q", line)
	}
}
