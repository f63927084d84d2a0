package warm

import (
	"encoding/json"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
)

// SetCheckEvery sets how often the CLI's files are looked at; tests look at
// every call.
func SetCheckEvery(d time.Duration) (restore func()) {
	old := checkEvery
	checkEvery = d
	return func() { checkEvery = old }
}

// SetAnswerWait sets how long a template is given to answer before it is
// taken for stalled, killed and replaced.
func SetAnswerWait(d time.Duration) (restore func()) {
	old := answerWait
	answerWait = d
	return func() { answerWait = old }
}

// SetVerifyRetry sets how long a launch waits before it runs verify calls
// that timed out again.
func SetVerifyRetry(d time.Duration) (restore func()) {
	old, oldMax := verifyRetry, verifyRetryMax
	verifyRetry, verifyRetryMax = d, d
	return func() { verifyRetry, verifyRetryMax = old, oldMax }
}

// OnForkAsked has f told each time a template is sent a fork request. Set
// it before the pools it watches start, and restore it after they closed.
func OnForkAsked(f func(templatePID int)) (restore func()) {
	old := forkAsked
	forkAsked = f
	return func() { forkAsked = old }
}

// OnLook has f called as each look at the CLI's files begins (serving),
// where the look runs, until restore.
func OnLook(f func()) (restore func()) {
	old := looking
	looking = f
	return func() { looking = old }
}

// ChildUsage is what one warm child used (the X line's "r" tail).
type ChildUsage = childUsage

// OnChildUsage has f told what each warm call's child used, where its
// template reported it. Set it before the pools it watches start, and
// restore it after they closed.
func OnChildUsage(f func(ChildUsage)) (restore func()) {
	old := childUsed
	childUsed = f
	return func() { childUsed = old }
}

// TemplateSource is template.py, for a harness that loads it under a name
// of its own (it then does not serve) to prepare an interpreter as the
// template does.
var TemplateSource = templateSource

// TemplateConfig is the configuration a template of w over script gets.
func TemplateConfig(w annotations.Warm, script string) string {
	conf, _ := json.Marshal(templateConfig{Script: script, Entry: w.Entry, Preload: w.Preload,
		Modules: w.PreloadList(), Reset: w.Reset, Warmup: w.Warmup})
	return string(conf)
}

// SetSpares turns templates' spares on or off (spareFor) for the pools
// started until restore.
func SetSpares(on bool) (restore func()) {
	old := sparesOn
	sparesOn = on
	return func() { sparesOn = old }
}

// SetBerths has the templates started until restore fork their spares into
// berths, or not (each is then moved at its call).
func SetBerths(on bool) (restore func()) {
	old := berthsOn
	berthsOn = on
	return func() { berthsOn = old }
}

// SetYield has the pools started until restore keep the rule that warm
// start's preparation yields to calls (yield.go), or not.
func SetYield(on bool) (restore func()) {
	old := yieldOn
	yieldOn = on
	return func() { yieldOn = old }
}
