// Package i18n holds the operator-facing messages of aeat-mcp in the
// languages of the AEAT sede — English, Spanish, Catalan, Galician and Basque
// — and picks one from a language tag or the POSIX locale variables.
//
// Every message has a stable [Key] and an English text. Placeholders are
// indexed (%[1]s, %[2]d) so a translation may reorder them; a test checks that
// every key exists in every catalog with the same placeholders. Tool names,
// descriptions and schemas are not translated: they are the manifest's.
// This package is a leaf: it imports nothing of the project.
package i18n

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"golang.org/x/text/language"
)

// Key names one message.
type Key string

// The messages. Placeholders are documented by the English text.
const (
	TierLive   Key = "tier.live"
	TierMutate Key = "tier.mutate"
	TierRead   Key = "tier.read"

	Timeout            Key = "call.timeout"
	TimeoutOwnCeiling  Key = "call.timeout.own_ceiling"
	TimeoutMayBeHalf   Key = "call.timeout.partial"
	ExitCode           Key = "call.exit"
	ExitSignal         Key = "call.signal"
	Stderr             Key = "call.stderr"
	Stdout             Key = "call.stdout"
	NoOutput           Key = "call.no_output"
	Cancelled          Key = "call.cancelled"
	ResourceExceeded   Key = "call.resource_exceeded"
	InvalidArguments   Key = "call.invalid_arguments"
	InvalidArgsNoField Key = "call.invalid_arguments.no_field"
	CLIUnavailable     Key = "call.cli_unavailable"
	// CLIUnavailableGiven: the CLI was given with --cli (or AEAT_MCP_CLI).
	CLIUnavailableGiven Key = "call.cli_unavailable_given"
	Internal            Key = "call.internal"
	WarmLost            Key = "call.warm_lost"
	Truncated           Key = "output.truncated"
	// OutputKept, OutputNarrow, OutputNarrowNone: what a cut result says
	// of the whole output kept as a resource (aeat-mcp://runs/ID/STREAM).
	OutputKept       Key = "output.kept"
	OutputNarrow     Key = "output.narrow"
	OutputNarrowNone Key = "output.narrow_none"
	// OutputGone and OutputNoPage answer a resources/read of a run's
	// output that is not kept, or of a page it does not have.
	OutputGone   Key = "output.gone"
	OutputNoPage Key = "output.no_page"

	RefusedReadOnly      Key = "gate.read_only"
	RefusedCannotConfirm Key = "gate.cannot_confirm"
	RefusedDeclined      Key = "gate.declined"
	ConfirmPrompt        Key = "gate.confirm_prompt"
	ConfirmField         Key = "gate.confirm_field"

	ProgressRunning Key = "progress.running"
	ProgressWaiting Key = "progress.waiting"

	RunDetached    Key = "run.detached"
	RunJoined      Key = "run.joined"
	RunUnknown     Key = "run.unknown"
	RunCancelled   Key = "run.cancelled"
	RunAlreadyOver Key = "run.already_over"
	RunsNone       Key = "runs.none"
	RunsHeader     Key = "runs.header"

	ExtendPrompt    Key = "extend.prompt"
	ExtendField     Key = "extend.field"
	TimeoutExtended Key = "call.timeout.extended"
	// How the question at the ceiling went, when it did not extend the
	// run; each takes the seconds the person had to answer.
	TimeoutExtendDeclined  Key = "call.timeout.extend_declined"
	TimeoutExtendDismissed Key = "call.timeout.extend_dismissed"
	TimeoutExtendNoAnswer  Key = "call.timeout.extend_no_answer"
	TimeoutExtendNotAsked  Key = "call.timeout.extend_not_asked"

	ExitCodeMeaning    Key = "call.exit.meaning"
	ExitHint           Key = "call.exit.hint"
	CLIError           Key = "call.cli_error"
	MissingEnv         Key = "call.missing_env"
	RefusedNotSelected Key = "gate.not_selected"
	RefusedBusy        Key = "gate.busy"
	// RefusedManifestChanged: the tool's params could not be read back
	// and the manifest is no longer the one the server started with.
	RefusedManifestChanged Key = "gate.manifest_changed"
	ConfirmRuns            Key = "gate.confirm_runs"
)

// Galician and Basque, which x/text/language has no constants for.
var (
	Galician = language.MustParse("gl")
	Basque   = language.MustParse("eu")
)

// Supported lists the catalogs, English first (the fallback).
var Supported = []language.Tag{language.English, language.Spanish, language.Catalan, Galician, Basque}

// matcher picks among Supported; built at its first use, as catalogs are.
var matcher = sync.OnceValue(func() language.Matcher { return language.NewMatcher(Supported) })

// OfferedList names the supported languages as a person types them, in
// [Supported]'s order: "en, es, ca, gl, eu". Help and warnings quote it,
// so a catalog added to Supported shows there too.
func OfferedList() string {
	names := make([]string, len(Supported))
	for i, t := range Supported {
		names[i] = t.String()
	}
	return strings.Join(names, ", ")
}

// Printer formats messages in one language. Which one is worked out at
// its first use: serve makes its Printer before initialize, and its first
// message is a call's.
type Printer struct {
	asked    language.Tag
	resolved sync.Once
	tag      language.Tag
	catalog  map[Key]string
}

// For returns the Printer for the supported language closest to tag.
func For(tag language.Tag) *Printer { return &Printer{asked: tag} }

// resolve picks the supported language closest to the one asked for.
func (p *Printer) resolve() {
	p.resolved.Do(func() {
		_, i, _ := matcher().Match(p.asked)
		p.tag, p.catalog = Supported[i], catalogs()[Supported[i]]
	})
}

// Parse picks the Printer for a tag as users write it: a BCP 47 tag ("es",
// "ca-ES-valencia") or a POSIX locale ("es_ES.UTF-8", "eu_ES@euro"). "C",
// "POSIX" and anything unreadable give English.
func Parse(s string) *Printer {
	if t, ok := parseLocale(s); ok {
		return For(t)
	}
	return For(language.English)
}

// Offered reports whether s names a language with a catalog of its own
// (Parse gives English for anything else).
func Offered(s string) bool {
	t, ok := parseLocale(s)
	if !ok {
		return false
	}
	_, _, conf := matcher().Match(t)
	return conf != language.No
}

// Base is the language s names, as its bare subtag ("es" for "ES",
// "es-ES", "es_ES.UTF-8"); false when s names none ("C", "Spanish").
func Base(s string) (string, bool) {
	t, ok := parseLocale(s)
	if !ok {
		return "", false
	}
	b, conf := t.Base()
	if conf == language.No {
		return "", false
	}
	return b.String(), true
}

func parseLocale(s string) (language.Tag, bool) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	if s == "" || s == "C" || s == "POSIX" {
		return language.Und, false
	}
	t, err := language.Parse(strings.ReplaceAll(s, "_", "-"))
	if err != nil {
		return language.Und, false
	}
	return t, true
}

// FromEnvironment picks the language as aeat-mcp does when --lang is not
// given: AEAT_MCP_LANG, then LC_ALL, LC_MESSAGES, LANG; English otherwise.
func FromEnvironment() *Printer { return FromLookup(os.LookupEnv) }

// FromLookup is FromEnvironment with an injectable environment.
func FromLookup(lookup func(string) (string, bool)) *Printer {
	if _, v := Source(lookup); v != "" {
		return Parse(v)
	}
	return For(language.English)
}

// Source names the variable FromLookup takes the language from, and its
// value; both empty when none is set to a readable locale (English then).
func Source(lookup func(string) (string, bool)) (variable, value string) {
	for _, name := range []string{"AEAT_MCP_LANG", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v, ok := lookup(name); ok && v != "" {
			if _, ok := parseLocale(v); ok {
				return name, v
			}
		}
	}
	return "", ""
}

// Tag is the language of p's messages.
func (p *Printer) Tag() language.Tag {
	p.resolve()
	return p.tag
}

// Sprintf formats the message key with args.
func (p *Printer) Sprintf(key Key, args ...any) string {
	p.resolve()
	format, ok := p.catalog[key]
	if !ok {
		format = catalogs()[language.English][key]
	}
	return fmt.Sprintf(format, args...)
}

// Tier is the localized name of a tier ("live", "mutate", "read").
func (p *Printer) Tier(tier string) string {
	switch tier {
	case "live":
		return p.Sprintf(TierLive)
	case "mutate":
		return p.Sprintf(TierMutate)
	default:
		return p.Sprintf(TierRead)
	}
}
