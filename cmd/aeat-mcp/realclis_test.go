//go:build !windows

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// realCLI is a program no one here wrote, as the real-programs test
// wraps it: walked, validated, served, and one read-only offline verb
// called.
type realCLI struct {
	name, kind string
	// tool is the verb called, with args; direct is the same call run by
	// hand, whose output is the CLI's real answer.
	tool   string
	args   func(dir string) map[string]any
	direct func(dir string) []string
	// reviewed is the person's word on tool (an overrides entry), where a
	// suggestion said it reads; without it the tool stays guessed and the
	// call asks a person's yes (black rewrites files: not read-only).
	reviewed bool
	// reads is a tool the suggestions must guess as a read.
	reads string
	// minTools: the CLI has at least so many verbs.
	minTools int
}

var realCLIs = []realCLI{
	{name: "gh", kind: "cobra", tool: "config_get", reviewed: true, reads: "repo_list", minTools: 100,
		args:   func(string) map[string]any { return map[string]any{"key": "git_protocol"} },
		direct: func(string) []string { return []string{"config", "get", "git_protocol"} }},
	{name: "hugo", kind: "cobra", tool: "version", reviewed: true, reads: "env", minTools: 20,
		args:   func(string) map[string]any { return nil },
		direct: func(string) []string { return []string{"version"} }},
	{name: "kubectl", kind: "cobra", tool: "version", reviewed: true, reads: "config_view", minTools: 80,
		args:   func(string) map[string]any { return map[string]any{"client": true} },
		direct: func(string) []string { return []string{"version", "--client"} }},
	{name: "black", kind: "click", tool: "black", minTools: 1,
		args:   func(string) map[string]any { return map[string]any{"code": "x=1"} },
		direct: func(string) []string { return []string{"--code", "x=1"} }},
	{name: "flask", kind: "click", tool: "routes", minTools: 3,
		args:   func(dir string) map[string]any { return map[string]any{"app": filepath.Join(dir, "hello.py")} },
		direct: func(dir string) []string { return []string{"--app", filepath.Join(dir, "hello.py"), "routes"} }},
}

// TestGenerate_RealCLIs is the proof on programs no one here wrote,
// installed from Debian by .ci/run, which names them in
// AEAT_MCP_REAL_CLIS ("gh=/usr/bin/gh,kubectl=…"): each is generated,
// validated, served over stdio and called, its parameters counted against
// what its own help lists. A program the variable does not name fails.
func TestGenerate_RealCLIs(t *testing.T) {
	spec := os.Getenv("AEAT_MCP_REAL_CLIS")
	if spec == "" {
		t.Skip("AEAT_MCP_REAL_CLIS is not set: .ci/run installs gh, hugo, kubectl, black and flask from Debian and sets it")
	}
	paths := map[string]string{}
	for _, kv := range strings.Split(spec, ",") {
		name, path, _ := strings.Cut(kv, "=")
		paths[name] = path
	}
	for _, c := range realCLIs {
		t.Run(c.name, func(t *testing.T) {
			path := paths[c.name]
			require.NotEmpty(t, path, "AEAT_MCP_REAL_CLIS names no %s: it must be installed, never skipped", c.name)
			c.check(t, path)
		})
	}
	t.Run("not walkable", func(t *testing.T) {
		code, _, errOut := runLong(t, nil, "generate", "--from", "cobra:"+paths["black"])
		assert.Equal(t, exitFailure, code)
		assert.Contains(t, errOut, "black --help printed no usage (a \"Usage:\" or \"USAGE\" section): is black a Cobra CLI? For a Click or Typer CLI give --from click:")
		code, _, errOut = runLong(t, nil, "generate", "--from", "click:"+paths["gh"])
		assert.Equal(t, exitFailure, code)
		assert.Contains(t, errOut, "no #! line naming its Python (a Windows launcher .exe has none either); pass --python with the interpreter that runs it")
	})
}

func (c realCLI) check(t *testing.T, path string) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	require.NoError(t, os.MkdirAll(home, 0o755))
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	writeFile(t, filepath.Join(dir, "hello.py"), "from flask import Flask\napp = Flask(__name__)\n\n@app.route(\"/hello\")\ndef hello():\n    return \"hi\"\n")

	manifest := filepath.Join(dir, c.name+".json")
	suggested := filepath.Join(dir, c.name+".suggested.json")
	gen := []string{"generate", "--from", c.kind + ":" + path, "-o", manifest, "--suggest-overrides", suggested}
	if c.reviewed {
		// The person's review of the one tool called, as they would
		// keep it in their overrides.
		gen = append(gen, "--overrides", writeFile(t, filepath.Join(dir, "overrides.json"),
			`{"version": 1, "tools": [{"name": "`+c.tool+`", "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}}]}`))
	}
	start := time.Now()
	code, _, errOut := runLong(t, env, gen...)
	took := time.Since(start)
	require.Equal(t, exitOK, code, errOut)
	m, err := annotations.Load(manifest)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(m.Tools), c.minTools)
	var unread []string
	for _, l := range strings.Split(errOut, "\n") {
		if strings.Contains(l, "could not read") {
			unread = append(unread, strings.TrimPrefix(l, "note: "))
		}
	}
	t.Logf("%s: %d tools, generate took %v; %d things could not be read:\n  %s", c.name, len(m.Tools), took.Round(100*time.Millisecond),
		len(unread), strings.Join(unread, "\n  "))

	code, report, _ := runLong(t, env, "--manifest", manifest, "validate")
	assert.Equal(t, exitOK, code, report)

	if c.reads != "" {
		var file struct {
			Tools []struct {
				Name   string `json:"name"`
				Review struct {
					Guess string `json:"guess"`
				} `json:"review"`
			} `json:"tools"`
		}
		data, err := os.ReadFile(suggested)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &file))
		i := slices.IndexFunc(file.Tools, func(s struct {
			Name   string `json:"name"`
			Review struct {
				Guess string `json:"guess"`
			} `json:"review"`
		}) bool {
			return s.Name == c.reads
		})
		require.GreaterOrEqual(t, i, 0, "a suggestion for %s", c.reads)
		assert.Equal(t, "reads", file.Tools[i].Review.Guess)
	}

	listed, inManifest, diffs := c.countParams(t, path, env, m, errOut)
	t.Logf("%s: parameters: %d flags listed by its own help pages, %d in the manifest for them; %d differences", c.name, listed, inManifest, len(diffs))
	assert.Empty(t, diffs, "each flag a verb's help lists is a param of its tool (or a global, or its confirm flag), and no param is made up")

	want := c.answer(t, path, env, dir)
	cs, asked := serveReal(t, manifest, env)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args(dir)})
	require.NoError(t, err)
	require.False(t, res.IsError, resultText(res))
	assert.Equal(t, want, strings.TrimSpace(resultText(res)), "the CLI's real answer")
	if c.reviewed {
		assert.Empty(t, asked(), "a tool a person reviewed as read-only asks nothing")
	} else {
		require.Len(t, asked(), 1, "its hints are guessed (destructive): a person says yes")
		assert.Contains(t, asked()[0], c.direct(dir)[0], "the question shows the command line")
	}
}

// answer is what the CLI itself prints for the call.
func (c realCLI) answer(t *testing.T, path string, env []string, dir string) string {
	t.Helper()
	cmd := exec.Command(path, c.direct(dir)...)
	cmd.Env = env
	out, err := cmd.Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// helpFlagRE is a flag line of a help page, in pflag's, kubectl's or
// Click's spelling: its long name.
var helpFlagRE = regexp.MustCompile(`(?m)^ {1,8}(?:-[A-Za-z0-9], )?--([A-Za-z0-9][\w.-]*)`)

// countParams holds each tool to its verb's own help page: the flags the
// page lists, read by a plain pattern (not generate's reader), against
// the manifest's — the tool's params and confirm flag, the globals, and
// the global flags generate hides (its notes name them).
func (c realCLI) countParams(t *testing.T, path string, env []string, m *annotations.Manifest, notes string) (listed, inManifest int, diffs []string) {
	t.Helper()
	hiddenGlobals := map[string]bool{}
	if m := regexp.MustCompile(`global flags left out: ([^(]*) \(`).FindStringSubmatch(notes); m != nil {
		for _, f := range strings.Split(m[1], ", ") {
			hiddenGlobals[strings.TrimPrefix(f, "--")] = true
		}
	}
	var mu sync.Mutex
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, tl := range m.Tools {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			args := append(slices.Clone(tl.Command), "--help")
			if c.kind == "cobra" {
				args = append([]string{"help"}, tl.Command...)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, path, args...)
			cmd.Env = env
			out, err := cmd.Output()
			page := map[string]bool{}
			for _, f := range helpFlagRE.FindAllStringSubmatch(string(out), -1) {
				if f[1] != "help" && f[1] != "version" {
					page[f[1]] = true
				}
			}
			own, all := map[string]bool{}, map[string]bool{}
			for _, p := range tl.Params() {
				if p.Flag == "" {
					continue
				}
				name := strings.TrimPrefix(p.Flag, "--")
				all[name] = true
				if !p.Shared {
					own[name] = true
				}
			}
			if tl.Confirm.Flag != "" {
				own[strings.TrimPrefix(tl.Confirm.Flag, "--")], all[strings.TrimPrefix(tl.Confirm.Flag, "--")] = true, true
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				diffs = append(diffs, fmt.Sprintf("%s: %s %s: %v", tl.Name, filepath.Base(path), strings.Join(args, " "), err))
				return
			}
			listed += len(page)
			for f := range page {
				switch {
				case all[f]:
					inManifest++
				case hiddenGlobals[f]:
					inManifest++
				default:
					diffs = append(diffs, fmt.Sprintf("%s: its help lists --%s; the manifest has no such param", tl.Name, f))
				}
			}
			for f := range own {
				if !page[f] {
					diffs = append(diffs, fmt.Sprintf("%s: the manifest has --%s; its help does not list it", tl.Name, f))
				}
			}
		}()
	}
	wg.Wait()
	slices.Sort(diffs)
	return listed, inManifest, diffs
}

// serveReal starts the built aeat-mcp on manifest with env, as a host
// does, and connects a client that answers yes to every question (a
// person saying yes) and records them.
func serveReal(t *testing.T, manifest string, env []string) (cs *mcp.ClientSession, asked func() []string) {
	t.Helper()
	var mu sync.Mutex
	var questions []string
	cmd := exec.Command(binaryPath(t), "--manifest", manifest, "--log-level", "error")
	cmd.Env = env
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "real-clis-e2e", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			mu.Lock()
			questions = append(questions, req.Params.Message)
			mu.Unlock()
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
		}})
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(questions)
	}
}

// runLong runs the built aeat-mcp with env (nil: this process's) and a
// bound that holds for a walk of hundreds of steps on a loaded machine.
func runLong(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runBinaryWith(t, 20*time.Minute, env, args...)
}
