package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A page is one Markdown file of the documentation.
type page struct {
	name   string // as the repository names it: README.md, docs/install.md
	fences []fence
	prose  string // the text outside fences, fences replaced by blank lines
}

// A fence is one fenced code block.
type fence struct {
	page  string
	line  int    // of its opening ```
	lang  string // the info string's first word
	mark  string // the rest of the info string
	lines []string
}

func (f fence) String() string { return f.page + ":" + strconv.Itoa(f.line) }

// shells are the languages whose fences hold commands.
var shells = []string{"sh", "bash", "shell", "console", "powershell", "pwsh", "bat", "cmd"}

func (f fence) isShell() bool { return slices.Contains(shells, f.lang) }

// runs says whether TestDocsCommands runs the fence: a shell fence, not
// marked.
func (f fence) runs() bool { return f.isShell() && f.mark == "" }

// notRun is the reason a shell fence is not run, or "".
func (f fence) notRun() string {
	reason, ok := strings.CutPrefix(f.mark, "not-run:")
	if !ok {
		return ""
	}
	return strings.TrimSpace(reason)
}

// runBy is the script that runs the fence's lines instead of the docs test.
func (f fence) runBy() string {
	script, _ := strings.CutPrefix(f.mark, "run-by:")
	if script == f.mark {
		return ""
	}
	return strings.TrimSpace(script)
}

// A command is one logical line of a shell fence: continuation lines
// joined, the trailing comment split off.
type command struct {
	line    int // in the page
	text    string
	comment string
}

// commands are the fence's logical lines. A comment is what follows a " #"
// outside quotes.
func (f fence) commands() []command {
	var out []command
	var cur strings.Builder
	start := 0
	for i, l := range f.lines {
		if cur.Len() == 0 {
			start = f.line + 1 + i
		}
		if strings.HasSuffix(l, "\\") {
			cur.WriteString(strings.TrimSuffix(l, "\\"))
			continue
		}
		cur.WriteString(l)
		text, comment := splitComment(cur.String())
		cur.Reset()
		if strings.TrimSpace(text) == "" {
			continue
		}
		out = append(out, command{line: start, text: strings.TrimSpace(text), comment: strings.TrimSpace(comment)})
	}
	return out
}

// splitComment splits a shell line at its comment: a # at the start or
// after a blank, outside quotes.
func splitComment(l string) (text, comment string) {
	var quote rune
	for i, r := range l {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
			return l[:i], l[i+1:]
		}
	}
	return l, ""
}

// wantExit is the exit status a command's comment says it ends with: "exits
// N" at the start of the comment; 0 otherwise.
func (c command) wantExit() int {
	m := regexp.MustCompile(`^exits (\d+)\b`).FindStringSubmatch(c.comment)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

var fenceOpen = regexp.MustCompile("^( *)(```+|~~~+)\\s*(.*)$")

// parsePage splits a Markdown file into its fences and its prose.
func parsePage(name, text string) page {
	p := page{name: name}
	lines := strings.Split(text, "\n")
	var prose []string
	for i := 0; i < len(lines); i++ {
		m := fenceOpen.FindStringSubmatch(lines[i])
		if m == nil {
			prose = append(prose, lines[i])
			continue
		}
		indent, marker, info := m[1], m[2], strings.TrimSpace(m[3])
		f := fence{page: name, line: i + 1}
		f.lang, f.mark, _ = strings.Cut(info, " ")
		f.mark = strings.TrimSpace(f.mark)
		prose = append(prose, "")
		for i++; i < len(lines); i++ {
			prose = append(prose, "")
			if strings.TrimSpace(lines[i]) == marker {
				break
			}
			f.lines = append(f.lines, strings.TrimPrefix(lines[i], indent))
		}
		p.fences = append(p.fences, f)
	}
	p.prose = strings.Join(prose, "\n")
	return p
}

// repoRoot is the checkout this test runs in.
func repoRoot(t testing.TB) string {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	return root
}

// pages are the README and every page of docs/, in the order a reader
// meets them: the README first.
func pages(t testing.TB) []page {
	root := repoRoot(t)
	names := []string{"README.md"}
	more, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	for _, m := range more {
		names = append(names, "docs/"+filepath.Base(m))
	}
	var out []page
	for _, n := range names {
		raw, err := os.ReadFile(filepath.Join(root, n))
		require.NoError(t, err)
		out = append(out, parsePage(n, string(raw)))
	}
	return out
}

// outputPattern is what a `text output` fence matches: its lines, a line
// "…" for any number of lines, a "…" within a line for any text in it.
func outputPattern(lines []string) *regexp.Regexp {
	var re strings.Builder
	re.WriteString(`\A`)
	for _, l := range lines {
		if strings.TrimSpace(l) == "…" {
			re.WriteString(`(?:[^\n]*\n)*?`)
			continue
		}
		re.WriteString(strings.ReplaceAll(regexp.QuoteMeta(l), "…", `[^\n]*`) + `\n`)
	}
	re.WriteString(`\z`)
	return regexp.MustCompile(re.String())
}
