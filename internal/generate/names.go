package generate

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// NameMax is the longest tool name generate writes: the loader's
// [annotations.NameBudget] (40), past which it warns. Model APIs cap names
// at 64 and hosts put a prefix before them ("mcp__" + the server's name +
// "__", 11 characters for Claude Code's default "mcp__aeat__"): 40 leaves
// room for a server name of up to 17 characters.
const NameMax = annotations.NameBudget

// word is one word of a command path as a name part: lower case, runs of
// anything but letters and digits made one underscore.
func word(w string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(w) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimRight(b.String(), "_")
}

// baseName is a verb's name from its path, within max characters: the
// words joined with "_". When that is too long, words of the middle of the
// path become their initials ("review-package" is rp), from the verb's end
// back — the leading words stay whole, so a family's tools keep their
// common prefix (app_modelo_*) — then the first word; the verb's last word
// stays whole (it says what the tool does). When still too long, the name is cut and ends with a hash of
// the whole path, so two long paths stay apart.
func baseName(path []string, max int) string {
	var words []string
	for _, w := range path {
		if s := word(w); s != "" {
			words = append(words, s)
		}
	}
	name := strings.Join(words, "_")
	if name == "" {
		name = "cmd"
	}
	if strings.HasPrefix(name, annotations.ReservedPrefix) {
		name = "cli_" + name // aeat_mcp_* are the server's own tools
	}
	if len(name) <= max {
		return name
	}
	var order []int // the middle words from the verb's end back, then the first
	for i := len(words) - 2; i >= 1; i-- {
		order = append(order, i)
	}
	if len(words) > 1 {
		order = append(order, 0)
	}
	for _, i := range order {
		words[i] = initials(words[i])
		if name = strings.Join(words, "_"); len(name) <= max {
			return name
		}
	}
	h := fnv.New32a()
	h.Write([]byte(strings.Join(path, "\x00")))
	return strings.TrimRight(name[:max-9], "_") + fmt.Sprintf("_%08x", h.Sum32())
}

// initials is the first letter of each part of a word: review_package is
// rp.
func initials(w string) string {
	var b strings.Builder
	for _, part := range strings.Split(w, "_") {
		if part != "" {
			b.WriteByte(part[0])
		}
	}
	return b.String()
}

// assignNames names every candidate (left out or not, so that bringing
// one back never renames another): its base name, or — when an earlier
// path in sorted order took it — the base name with _2, _3, … Each
// renamed collision is reported.
func assignNames(cands []*candidate) (notes []string) {
	sorted := make([]*candidate, len(cands))
	copy(sorted, cands)
	sort.Slice(sorted, func(i, j int) bool {
		return strings.Join(sorted[i].path, "\x00") < strings.Join(sorted[j].path, "\x00")
	})
	used := map[string][]string{}
	for _, c := range sorted {
		name := baseName(c.path, NameMax)
		if first, taken := used[name]; taken {
			base := name
			for k := 2; ; k++ {
				suffix := "_" + strconv.Itoa(k)
				name = baseName(c.path, NameMax-len(suffix)) + suffix
				if _, taken := used[name]; !taken {
					break
				}
			}
			notes = append(notes, fmt.Sprintf("%q and %q both make the name %s: the second is %s",
				strings.Join(first, " "), strings.Join(c.path, " "), base, name))
		}
		used[name] = c.path
		c.name = name
	}
	return notes
}

// paramName is a param's name from the CLI's: a valid manifest param name
// (^[A-Za-z_][A-Za-z0-9_]{0,63}$).
func paramName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_', r >= '0' && r <= '9' && b.Len() > 0:
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			b.WriteString("_")
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	name := b.String()
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}

// optName is the param name an option's long name gives: "--dry-run" is
// dry_run. "" for a short option.
func optName(opt string) string {
	if !strings.HasPrefix(opt, "--") || len(opt) < 3 {
		return ""
	}
	return paramName(strings.TrimPrefix(opt, "--"))
}
