package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Ask before the kill (docs/ARCHITECTURE.md, "A call"): a run
// that reaches its ceiling while a person can be asked gets one question —
// it ran N s of its M s ceiling: give it M s more? Only an explicit yes
// extends it, once. A no, a cancel, an error, a host that cannot ask, or no
// answer within askWait: the tree is killed exactly as it would have been.
// The tree keeps running while the question is open, and the question
// never delays the kill by more than askWait.

// defaultAskWait bounds the wait for an answer to the extension question.
const defaultAskWait = 60 * time.Second

// extendID is the id of the extension question's field.
const extendID = "extend"

// extension records what happened at a run's ceiling, for the refusal.
type extension struct {
	mu       sync.Mutex
	end      extendEnd // how the question went, when it did not extend
	extended time.Duration
}

func (e *extension) get() (end extendEnd, extended time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.end, e.extended
}

// said is what the refusal says of the question at the ceiling: the time
// given, or how the question went (nothing when nobody could be asked).
func (e *extension) said(p *i18n.Printer, askWait time.Duration) string {
	end, extended := e.get()
	switch key, ok := refusalKeys[end]; {
	case extended > 0:
		return p.Sprintf(i18n.TimeoutExtended, int(extended.Seconds()))
	case end == noAnswer:
		return p.Sprintf(key, int(askWait.Seconds()))
	case ok:
		return p.Sprintf(key)
	}
	return ""
}

// extendEnd is how the question at the ceiling ended; the refusal says it
// (the model was not asked: a person was, or was not).
type extendEnd int

const (
	notAsked  extendEnd = iota // nobody could be asked: nothing is said
	extendYes                  // a yes: the run was extended
	declined                   // the person said no (or unticked it)
	dismissed                  // the person closed the question without an answer
	noAnswer                   // no answer within askWait
	askFailed                  // the host refused or failed the question
)

// refusalKeys say in the refusal how the question went.
var refusalKeys = map[extendEnd]i18n.Key{
	declined:  i18n.TimeoutExtendDeclined,
	dismissed: i18n.TimeoutExtendDismissed,
	noAnswer:  i18n.TimeoutExtendNoAnswer,
	askFailed: i18n.TimeoutExtendNotAsked,
}

// enforceCeiling arms the run's ceiling: when it passes, the run ends with
// callruntime.ErrTimeout through stop — after asking, where a person can be
// asked. A timer, not a goroutine: nothing waits for the ceiling of a call
// that ends before it, which is nearly every call. The returned function
// disarms it.
func (w *work) enforceCeiling(ctx context.Context, stop context.CancelCauseFunc) (disarm func()) {
	r, ext := w.r, &w.ext
	var (
		mu    sync.Mutex
		timer *time.Timer
		asked bool
	)
	var atCeiling func()
	atCeiling = func() {
		if ctx.Err() != nil {
			return
		}
		if w.s.cfg.AskToExtend && !asked {
			asked = true
			if o := askable(r); o != nil {
				end := w.askToExtend(ctx, o)
				if end == extendYes {
					base := r.Ceiling()
					r.Extend(base)
					ext.mu.Lock()
					ext.extended = base
					ext.mu.Unlock()
					w.s.cfg.Logger.Info("ceiling extended", "tool", r.Tool, "run_id", r.ID, "by_s", int(base.Seconds()))
					mu.Lock()
					timer = time.AfterFunc(time.Until(r.Started.Add(r.Ceiling())), atCeiling)
					mu.Unlock()
					return
				}
				ext.mu.Lock()
				ext.end = end
				ext.mu.Unlock()
			}
		}
		stop(callruntime.ErrTimeout)
	}
	mu.Lock()
	timer = time.AfterFunc(time.Until(r.Started.Add(r.Ceiling())), atCeiling)
	mu.Unlock()
	return func() {
		mu.Lock()
		timer.Stop()
		mu.Unlock()
	}
}

// askable returns an observer of r whose host can be asked while the run
// goes on — a task asks as its generation does, any other request only
// where a question goes through the session (2026-07-28 asks inside an
// answer, which a request waiting for its run cannot give) — or nil. A
// detached run that nobody waits for has none.
func askable(r *run) *observer {
	for _, v := range r.Observers() {
		if o, ok := v.(*observer); ok && o.sess.canAsk && (o.task != nil || !o.sess.gen.AsksInResult()) {
			return o
		}
	}
	return nil
}

// askToExtend asks the question and reports how it went: only an explicit
// yes is extendYes. It gives up after askWait (noAnswer) or when ctx ends
// (the run ended meanwhile).
func (w *work) askToExtend(ctx context.Context, o *observer) extendEnd {
	r, p := w.r, w.s.cfg.Printer
	ctx, cancel := context.WithTimeoutCause(ctx, w.s.askWait, errNoAnswer)
	defer cancel()
	ceiling := int(r.Ceiling().Seconds())
	res, err := o.elicit(ctx, &mcp.ElicitParams{
		Mode:    "form",
		Message: p.Sprintf(i18n.ExtendPrompt, w.t.Title, r.Tool, int(time.Since(r.Started).Seconds()), ceiling),
		RequestedSchema: &jsonschema.Schema{
			Type:       "object",
			Properties: map[string]*jsonschema.Schema{extendID: {Type: "boolean", Title: p.Sprintf(i18n.ExtendField)}},
			Required:   []string{extendID},
		},
	})
	switch {
	case err != nil && errors.Is(context.Cause(ctx), errNoAnswer):
		return noAnswer
	case err != nil:
		w.s.cfg.Logger.Warn("extension question failed", "tool", r.Tool, "run_id", r.ID, "error", err)
		return askFailed
	case res == nil:
		return askFailed
	case res.Action == "accept" && res.Content[extendID] == true:
		return extendYes
	case res.Action == "cancel":
		return dismissed
	}
	return declined // "decline", or "accept" without the box ticked
}

// errNoAnswer is the cause of the question's end when askWait passed.
var errNoAnswer = errors.New("server: no answer in time")
