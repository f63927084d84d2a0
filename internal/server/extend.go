package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Ask before the kill (seed 003's budget-expiry hook, DESIGN.md §9): a run
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

// observer is a request waiting for a run, or following it as a task: a
// person may be asked through its session or its task.
type observer struct {
	req  *mcp.CallToolRequest
	task *tasks.Task // set when the request made the run a task
}

// extension records what happened at a run's ceiling, for the refusal.
type extension struct {
	mu       sync.Mutex
	answer   extendAnswer // how the question went, when it did not extend
	extended time.Duration
}

func (e *extension) get() (answer extendAnswer, extended time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.answer, e.extended
}

// extendAnswer is how the question at the ceiling went; the refusal says it
// (the model was not asked: a person was, or was not).
type extendAnswer int

const (
	notAsked  extendAnswer = iota // nobody could be asked: nothing is said
	extendYes                     // a yes: the run was extended
	declined                      // the person said no (or unticked it)
	dismissed                     // the person closed the question without an answer
	noAnswer                      // no answer within askWait
	askFailed                     // the host refused or failed the question
)

// refusalKeys say in the refusal how the question went.
var refusalKeys = map[extendAnswer]i18n.Key{
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
func (c *call) enforceCeiling(ctx context.Context, r *run, stop context.CancelCauseFunc, ext *extension) (disarm func()) {
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
		if c.s.cfg.AskToExtend && !asked {
			asked = true
			if o := askable(r); o != nil {
				answer := c.askToExtend(ctx, o, r)
				if answer == extendYes {
					base := r.Ceiling()
					r.Extend(base)
					ext.mu.Lock()
					ext.extended = base
					ext.mu.Unlock()
					c.s.cfg.Logger.Info("ceiling extended", "tool", r.Tool, "run_id", r.ID, "by_s", int(base.Seconds()))
					mu.Lock()
					timer = time.AfterFunc(time.Until(r.Started.Add(r.Ceiling())), atCeiling)
					mu.Unlock()
					return
				}
				ext.mu.Lock()
				ext.answer = answer
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

// askable returns an observer of r whose host can be asked — through its
// session (elicitation on a protocol before 2026-07-28), or as a
// 2026-07-28 task's input request — or nil. A detached run that nobody
// waits for has none.
func askable(r *run) *observer {
	for _, v := range r.Observers() {
		o, ok := v.(*observer)
		if !ok {
			continue
		}
		version, canAsk := negotiated(o.req)
		if canAsk && (version < multiRoundTripVersion || o.task != nil && o.task.Gen == tasks.V2) {
			return o
		}
	}
	return nil
}

// askToExtend asks the question and reports how it went: only an explicit
// yes is extendYes. It gives up after askWait (noAnswer) or when ctx ends
// (the run ended meanwhile).
func (c *call) askToExtend(ctx context.Context, o *observer, r *run) extendAnswer {
	ctx, cancel := context.WithTimeoutCause(ctx, c.s.askWait, errNoAnswer)
	defer cancel()
	ceiling := int(r.Ceiling().Seconds())
	res, err := o.elicit(ctx, &mcp.ElicitParams{
		Mode:    "form",
		Message: c.p.Sprintf(i18n.ExtendPrompt, c.t.Title, r.Tool, int(time.Since(r.Started).Seconds()), ceiling),
		RequestedSchema: &jsonschema.Schema{
			Type:       "object",
			Properties: map[string]*jsonschema.Schema{extendID: {Type: "boolean", Title: c.p.Sprintf(i18n.ExtendField)}},
			Required:   []string{extendID},
		},
	})
	switch {
	case err != nil && errors.Is(context.Cause(ctx), errNoAnswer):
		return noAnswer
	case err != nil:
		c.s.cfg.Logger.Warn("extension question failed", "tool", r.Tool, "run_id", r.ID, "error", err)
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
var errNoAnswer = errors.New("no answer in time")
