package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/lazyre"
)

// Where a CLI does not classify its verbs, generate gives them the cautious
// hints and says so; a person sets the real ones in the overrides.
// Suggest helps that person: it writes an overrides file with an entry for
// each tool whose hints were guessed, its annotations as a reading of the
// CLI's own words suggests them, and the evidence that reading rests on —
// the verb's name, the words of its help, the flags it takes (--dry-run,
// --yes, --force). Each entry carries a "review" key, which --overrides
// refuses: a suggestion counts only once a person checked it against the
// CLI and deleted that key. Nothing is trusted silently.

// The words that suggest what a verb does, as the last word of its
// command, or the first word of its help.
var (
	// verbWords are the three sets, built at first use.
	verbWords = sync.OnceValue(func() verbWordSets {
		return verbWordSets{
			read: words("list ls view show status get describe info version search diff logs log env explain inspect " +
				"print cat check verify history whoami current-context config-view display top lookup find query read"),
			write: words("create add new set edit update rename apply patch install upgrade sync push merge close reopen " +
				"lock unlock pin unpin comment review login logout import init build deploy run start stop restart enable " +
				"disable approve deny label annotate scale rollout expose attach exec cp copy move mv transfer fork clone " +
				"upload download checkout ready write save send publish release tag untag mark"),
			destroy: words("delete remove rm destroy prune purge reset drop uninstall clean cancel revoke kill drain " +
				"cordon taint wipe erase truncate overwrite force-push"),
		}
	})
	// destroyPhrases in a help text say a verb destroys.
	destroyPhrases = lazyre.New(`(?i)\b(permanently|irreversibl[ey]|cannot be undone|can't be undone)\b`)
)

type verbWordSets struct{ read, write, destroy map[string]bool }

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// Guesses a suggestion makes.
const (
	guessReads   = "reads"
	guessWrites  = "writes"
	guessDestroy = "destroys"
	guessUnknown = "unknown"
)

// suggestedHints are the annotations each guess suggests. A read keeps
// openWorldHint: nothing a CLI's help says tells whether it reaches the
// network.
var suggestedHints = table[annotations.Hints]{
	{guessReads, annotations.Hints{ReadOnly: true, Destructive: false, Idempotent: true, OpenWorld: true}},
	{guessWrites, annotations.Hints{ReadOnly: false, Destructive: false, Idempotent: false, OpenWorld: true}},
	{guessDestroy, cautiousHints},
	{guessUnknown, cautiousHints},
}

// Suggestion is one entry of a suggested overrides file.
type Suggestion struct {
	Name        string           `json:"name"`
	Review      SuggestionReview `json:"review"`
	Annotations map[string]bool  `json:"annotations"`
}

// SuggestionReview is what a person checks before taking a suggestion.
type SuggestionReview struct {
	// Guess is reads, writes, destroys or unknown.
	Guess    string   `json:"guess"`
	Evidence []string `json:"evidence"`
	// Unread is what the walk could not read of the verb.
	Unread []string `json:"could_not_read,omitempty"`
	Then   string   `json:"then"`
}

// reviewThen is what every suggestion asks of the person.
const reviewThen = "Check the guess against the CLI (run it, read its source). Keep or change annotations " +
	"(readOnlyHint: it changes nothing; destructiveHint: a person confirms each call; openWorldHint: it reaches the network), " +
	"then delete this review key: --overrides refuses an entry that still has one."

// Suggest makes the suggestions for every tool of res whose hints were
// guessed, sorted by name, and the overrides file that holds them.
func Suggest(res *Result) ([]Suggestion, []byte) {
	var out []Suggestion
	for _, t := range res.Loaded.Tools {
		if len(t.HintsGuessed) == 0 {
			continue
		}
		guess, evidence := read(t)
		h := suggestedHints.must(guess)
		out = append(out, Suggestion{Name: t.Name, Annotations: map[string]bool{hintReadOnly: h.ReadOnly,
			hintDestructive: h.Destructive, hintIdempotent: h.Idempotent, hintOpenWorld: h.OpenWorld},
			Review: SuggestionReview{Guess: guess, Evidence: evidence, Unread: res.Unread[t.Name], Then: reviewThen}})
	}
	slices.SortFunc(out, func(a, b Suggestion) int { return strings.Compare(a.Name, b.Name) })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct {
		Version int          `json:"version"`
		Tools   []Suggestion `json:"tools"`
	}{1, out})
	return out, buf.Bytes()
}

// read reads what a tool's name, help and flags say it does: the most
// harmful reading any of them supports.
func read(t *annotations.Tool) (guess string, evidence []string) {
	says := map[string]bool{}
	vw := verbWords()
	kind := func(w string) string {
		switch {
		case vw.destroy[w]:
			return guessDestroy
		case vw.write[w]:
			return guessWrites
		case vw.read[w]:
			return guessReads
		}
		return ""
	}
	if len(t.Command) > 0 {
		last := t.Command[len(t.Command)-1]
		if k := kind(last); k != "" {
			says[k] = true
			evidence = append(evidence, fmt.Sprintf("name: %q, a word of verbs that %s", last, strings.TrimSuffix(k, "s")))
		} else {
			evidence = append(evidence, fmt.Sprintf("name: %q says nothing either way", last))
		}
	}
	first, _, _ := strings.Cut(strings.ToLower(t.Title), " ")
	first = strings.Trim(first, ".,:;")
	k := kind(first)
	if k == "" {
		k = kind(strings.TrimSuffix(first, "s")) // "Lists", "Deletes"
	}
	if k != "" {
		says[k] = true
		evidence = append(evidence, fmt.Sprintf("help: %q", t.Title))
	}
	if m := destroyPhrases.Get().FindString(t.Description); m != "" && !says[guessDestroy] {
		says[guessDestroy] = true
		evidence = append(evidence, fmt.Sprintf("help says %q", m))
	}
	var flags []string
	if t.Confirm.Flag != "" {
		says[guessDestroy] = true
		flags = append(flags, t.Confirm.Flag+" (the CLI asks for a yes)")
	}
	for _, p := range t.Params() {
		switch p.Flag {
		case "--force":
			says[guessWrites] = true
			flags = append(flags, p.Flag+" (it can be forced)")
		case "--dry-run":
			says[guessWrites] = true
			flags = append(flags, p.Flag+" (it has a dry run: it changes something)")
		case "--yes", "--confirm", "--assume-yes":
			says[guessDestroy] = true
			flags = append(flags, p.Flag+" (the CLI asks for a yes)")
		}
	}
	if len(flags) > 0 {
		evidence = append(evidence, "flags: "+strings.Join(flags, ", "))
	} else {
		evidence = append(evidence, "flags: none of --dry-run, --yes, --force")
	}
	for _, g := range []string{guessDestroy, guessWrites, guessReads} {
		if says[g] {
			return g, evidence
		}
	}
	return guessUnknown, evidence
}
