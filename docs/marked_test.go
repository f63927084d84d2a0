package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// programs are the first words of the command lines the docs show: a word
// here starts a command wherever it appears.
var programs = []string{
	"aeat-mcp", "aeat-mcp.exe", "aeat", "go", "tar", "xattr", "brew", "claude", "sha256sum",
	"curl", "npm", "npx", "node", "gh", "goreleaser", "mcp-publisher", "mcpb", "git", "mkdir",
	"ln", "cp", "mv", "rm", "chmod", "printf", "echo", "pkill", "kill", "cd", "cat", "ls", "sudo",
	"sh", "bash", "python3", "pip", "uv", "Expand-Archive", "staticcheck", "gofmt",
}

// isProgram says whether w starts a command: one of programs, or a script
// of this repository.
func isProgram(w string) bool {
	return slices.Contains(programs, w) || strings.HasPrefix(w, "./scripts/") || w == ".ci/run"
}

// commandWords are a command line's words from its program on: the
// variables set before it (NAME=value) are dropped.
func commandWords(s string) []string {
	w := strings.Fields(s)
	for len(w) > 0 && regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`).MatchString(w[0]) {
		w = w[1:]
	}
	return w
}

var placeholder = regexp.MustCompile(`…|<[^>]*>|/path/to/|\b(NAME|HOST|FILE|PATH|PROGRAM|VERSION|TOOL|MANIFEST|DIST|GLOB|TAG|N|F|X\.Y\.Z|vX\.Y\.Z)\b`)

var subcommandWord = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// inlineVerdict says what an inline code span is: "" when it is no command
// line (prose, a name, a synopsis), else why it must be in a fence.
func inlineVerdict(span string) string {
	w := commandWords(span)
	if len(w) < 2 || !isProgram(w[0]) {
		return "" // a word, a name, a flag: not a command line
	}
	if placeholder.MatchString(span) {
		return "" // a synopsis: nobody runs it as written
	}
	if !slices.ContainsFunc(w[1:], func(s string) bool { return !subcommandWord.MatchString(s) }) {
		return "" // the name of a command: `aeat config login`, `go vet`
	}
	return "a command line shown inline"
}

// segments are a command's pipeline and list elements: what a reader may
// quote of it on its own.
func segments(cmd string) []string {
	out := []string{normalize(cmd)}
	for _, s := range regexp.MustCompile(`&&|\|\||;|\|`).Split(cmd, -1) {
		out = append(out, normalize(s))
	}
	return out
}

func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

var inlineCode = regexp.MustCompile("`([^`]+)`")

// TestDocsMarked holds the pages to the rules of this package's doc: every
// fence names its language; a shell fence is run, or marked with its
// reason, or run by the script it names (each of its lines is one of that
// script's); no other fence holds command lines; a command line shown
// inline is also in a fence. So no command appears untested unmarked.
func TestDocsMarked(t *testing.T) {
	all := pages(t)
	var fenced []string
	for _, p := range all {
		for _, f := range p.fences {
			if f.isShell() {
				for _, c := range f.commands() {
					fenced = append(fenced, segments(c.text)...)
				}
			}
		}
	}
	for _, p := range all {
		for _, f := range p.fences {
			checkFence(t, f)
		}
		for _, para := range strings.Split(p.prose, "\n\n") {
			for _, m := range inlineCode.FindAllStringSubmatch(para, -1) {
				span := normalize(strings.ReplaceAll(m[1], `\|`, "|"))
				if why := inlineVerdict(span); why != "" && !slices.Contains(fenced, span) {
					t.Errorf("%s: `%s`: %s, in no fence: put it in a fence (run by TestDocsCommands, or marked not-run with the reason)", p.name, span, why)
				}
			}
		}
	}
}

func checkFence(t *testing.T, f fence) {
	t.Helper()
	if f.lang == "" {
		t.Errorf("%s: a fence without a language: name it (sh for commands, text for output, json, …)", f)
		return
	}
	if !f.isShell() {
		for _, l := range f.lines {
			w := commandWords(strings.TrimPrefix(strings.TrimSpace(l), "$ "))
			if strings.HasPrefix(strings.TrimSpace(l), "$ ") || len(w) > 1 && isProgram(w[0]) {
				t.Errorf("%s: a command line in a %s fence: %q — commands go in a sh fence, where they are run", f, f.lang, l)
			}
		}
		return
	}
	switch {
	case f.mark == "":
	case strings.HasPrefix(f.mark, "not-run:"):
		if f.notRun() == "" {
			t.Errorf("%s: not-run without a reason", f)
		}
	case strings.HasPrefix(f.mark, "run-by:"):
		raw, err := os.ReadFile(filepath.Join(repoRoot(t), f.runBy()))
		if !assert.NoError(t, err, "%s: run-by names a script of the repository", f) {
			return
		}
		var lines []string
		for _, l := range strings.Split(string(raw), "\n") {
			text, _ := splitComment(l)
			lines = append(lines, normalize(text))
		}
		for _, c := range f.commands() {
			if !slices.Contains(lines, normalize(c.text)) {
				t.Errorf("%s:%d: %q is not a line of %s, which the fence says runs it", f.page, c.line, c.text, f.runBy())
			}
		}
	default:
		t.Errorf("%s: unknown mark %q: a shell fence is run, or marked `not-run: REASON` or `run-by: SCRIPT`", f, f.mark)
	}
}

// TestParsePage: the reader of the pages finds fences (indented in a list
// item too), their marks, logical lines, comments and exit statuses.
func TestParsePage(t *testing.T) {
	p := parsePage("x.md", "intro `aeat-mcp doctor`\n\n- item:\n\n  ```sh not-run: needs a Mac\n  a \\\n    b # exits 2: refused\n  c '#x' # note\n  ```\n\n```\nplain\n```\n")
	require.Len(t, p.fences, 2)
	f := p.fences[0]
	assert.Equal(t, "sh", f.lang)
	assert.Equal(t, "needs a Mac", f.notRun())
	assert.Equal(t, 5, f.line)
	c := f.commands()
	require.Len(t, c, 2)
	assert.Equal(t, command{line: 6, text: "a   b", comment: "exits 2: refused"}, c[0])
	assert.Equal(t, 2, c[0].wantExit())
	assert.Equal(t, "c '#x'", c[1].text)
	assert.Equal(t, 0, c[1].wantExit())
	assert.Equal(t, "", p.fences[1].lang)
	assert.NotContains(t, p.prose, "plain")

	for span, want := range map[string]bool{
		"aeat-mcp doctor":                               false,
		"aeat config login":                             false,
		"aeat-mcp secret set NAME":                      false,
		"aeat-mcp --manifest … doctor":                  false,
		"--manifest":                                    false,
		"aeat-mcp secret set CADRUMO_SECRET_PASSPHRASE": true,
		"tar -xzf a.tar.gz -C ~/.local/bin":             true,
		"AEAT_MCP_DIST=dist go test ./packaging":        true,
	} {
		assert.Equal(t, want, inlineVerdict(span) != "", span)
	}
	assert.Contains(t, segments("mkdir -p ~/x && tar -xzf a -C ~/x"), "tar -xzf a -C ~/x")
}

// TestOutputPattern: an output fence matches what was printed line for
// line; "…" is any lines, or any text within one.
func TestOutputPattern(t *testing.T) {
	re := outputPattern([]string{"…", "would run: …/aeat --yes -- -7", "…"})
	assert.True(t, re.MatchString("would run: /x/aeat --yes -- -7\nenv: A\n"))
	assert.True(t, re.MatchString("a\nwould run: /x/aeat --yes -- -7\n"))
	assert.False(t, re.MatchString("would run: /x/aeat --yes -- -8\n"))
	exact := outputPattern([]string{"LICENSE", "aeat-mcp"})
	assert.True(t, exact.MatchString("LICENSE\naeat-mcp\n"))
	assert.False(t, exact.MatchString("LICENSE\naeat-mcp\nexamples/x.json\n"), "a line more")
	assert.False(t, exact.MatchString("LICENSE\n"), "a line less")
}

// TestDocsLinks: every relative link of the pages leads to a file of the
// repository, and a #fragment into a Markdown file to one of its headings
// (as GitHub names them), so that moving a section cannot strand a reader.
func TestDocsLinks(t *testing.T) {
	root := repoRoot(t)
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := map[string][]string{}
	headingsOf := func(file string) []string {
		if a, ok := anchors[file]; ok {
			return a
		}
		raw, err := os.ReadFile(file)
		require.NoError(t, err)
		p := parsePage(file, string(raw))
		for _, l := range strings.Split(p.prose, "\n") {
			if h, ok := strings.CutPrefix(strings.TrimLeft(l, "#"), " "); ok && strings.HasPrefix(l, "#") {
				anchors[file] = append(anchors[file], githubAnchor(h))
			}
		}
		return anchors[file]
	}
	for _, p := range pages(t) {
		for _, m := range link.FindAllStringSubmatch(p.prose, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := filepath.Join(root, p.name)
			if file != "" {
				path = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %s: no such file", p.name, target)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".md") && !slices.Contains(headingsOf(path), frag) {
				t.Errorf("%s: link %s: no such heading in %s", p.name, target, file)
			}
		}
	}
}

// githubAnchor is the fragment GitHub gives a heading: lower case, spaces
// to hyphens, punctuation other than hyphens and underscores dropped.
func githubAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestREADMEFirstScreen: the README's first 60 lines say what aeat-mcp is,
// how to install it on each system, how to connect Claude Desktop (the
// bundle) and Claude Code (one command), a first call, and where the rest
// is — a new user reads no further before the first answer.
func TestREADMEFirstScreen(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	require.NoError(t, err)
	lines := strings.Split(string(raw), "\n")
	require.Greater(t, len(lines), 60)
	screen := strings.Join(lines[:60], "\n")
	for _, want := range []string{
		"## Install", "linux_amd64.tar.gz", "darwin_universal.tar.gz", "windows_amd64.zip",
		"## Connect", ".mcpb", "config claude-code --write",
		"## A first call", " call ",
		"(docs/install.md)", "(docs/hosts.md)", "(docs/ARCHITECTURE.md)", "(docs/troubleshooting.md)",
	} {
		assert.Contains(t, screen, want, "the README's first screen (60 lines)")
	}
	// The two commands the README promises, with only Go installed.
	assert.Contains(t, string(raw), "\ngo run ./cmd/aeat-mcp --demo call ")
	assert.Contains(t, string(raw), "\n./scripts/test ")
}
