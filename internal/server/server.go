// Package server is where the manifest and the runtime meet MCP: it
// advertises one tool per manifest verb over the official Go SDK and runs
// each call through the supervised runtime. On the catalog surface it lists
// only the manifest's core and reaches the other tools through
// aeat_mcp_find and aeat_mcp_call, by the same path (catalog.go).
//
// A call (newRequest, request.go) goes: arguments validated
// against the tool's schema (nothing is spawned on failure) → an identical
// MUTATE or LIVE run in progress joined → argv rendered → its secrets
// gathered (the OS keychain's, its stdin: secrets.go; a missing one
// refuses) → a place among its tier's runs (or a busy refusal) → the gate
// (destructive verbs ask a person, or fail closed: gate.go) → its run
// (work.go): a slot of the tier (the wait counts toward the ceiling), then
// [callruntime.Runner.Run] under the ceiling, with the CLI's environment
// built per OS from an allowlist (env.go) → a result with a language-free
// outcome in _meta["aeat-mcp/outcome"] and a localized text, saying what
// the CLI's exit and error document mean (exit.go, outcome.go). Every
// failure of the CLI is a tool result with isError, never a protocol
// error; a panic becomes an "internal" result. The run outlives its
// request (internal/runs): the answer step (answer.go) waits for it,
// answers that it goes on once --detach-after has passed, or, for a host
// that speaks MCP Tasks and a MUTATE or LIVE tool, makes it a task —
// served by the [tasks.Transport] decorator that [Server.Connect] composes
// over every transport. docs/ARCHITECTURE.md draws both paths.
//
// The package does not parse flags or own the process: cmd/aeat-mcp builds
// a [Config] and calls [Serve]. It does not run processes itself either:
// callruntime does.
package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/keychain"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Confirmation policies for destructive tools.
const (
	// ConfirmAsk asks the user through the host (elicitation); a host that
	// cannot ask gets a refusal.
	ConfirmAsk = "ask"
	// ConfirmNever runs destructive tools without asking.
	ConfirmNever = "never"
)

// Defaults of a [Config].
const (
	DefaultMaxResultBytes = 64 << 10
	DefaultHeartbeat      = 5 * time.Second
	// DefaultDetachAfter is --detach-after's default: under the ≈60 s
	// after which the TypeScript SDK and Claude Desktop drop a call.
	DefaultDetachAfter = 50 * time.Second
	// DefaultMaxQueued is --max-queued's default: the calls of one tier
	// that may wait for a slot (each waiting run costs about 37 KB).
	DefaultMaxQueued = 64
	// DefaultKeptResultBytes bounds the finished results kept for
	// aeat_mcp_wait and for tasks, each (at least one --max-result-bytes
	// result is always kept).
	DefaultKeptResultBytes = 32 << 20
)

// defaultSlots are the per-tier concurrency caps: local mutations one at a
// time so they never race; a few browsers at once; reads freely.
var defaultSlots = map[annotations.Tier]int{annotations.Read: 8, annotations.Mutate: 1, annotations.Live: 2}

// Config is everything a server needs; cmd/aeat-mcp fills it from flags.
type Config struct {
	Manifest *annotations.Manifest
	// CLIPath is the resolved, absolute path of the CLI. When empty,
	// CLIError says why, and every call explains it.
	CLIPath  string
	CLIError error
	Runner   *callruntime.Runner
	// Warm, if set, starts the calls of the tiers it serves warm (cli.warm);
	// nil starts every call cold.
	Warm Starter

	Ceilings  annotations.Ceilings
	KillGrace time.Duration
	// MaxResultBytes bounds all the text of one result. If zero,
	// DefaultMaxResultBytes.
	MaxResultBytes int
	// MemoryLimit, if positive, bounds each call's tree (bytes).
	MemoryLimit int64
	// PassEnv names more variables of the server's environment the CLI may
	// see (--pass-env), on top of the manifest's cli.env.pass.
	PassEnv []string
	// Environ is the server's environment ("NAME=value"), taken once when
	// the process started: every call's and every probe's environment is
	// built from it, and the keychain is reached as it says — never from
	// the live process environment, which a library may change (godbus
	// writes the session bus it found into it). If nil, os.Environ() when
	// New (or Inspect) runs.
	Environ []string
	// Keychain holds the secrets the manifest reads from the OS keychain
	// (cli.env.keychain, stdin keychain). If nil, the OS keychain.
	Keychain keychain.Store
	ReadOnly bool
	// Select chooses the tools advertised (--tools); the zero value keeps
	// them all. The built-in aeat_mcp_* tools are never filtered out.
	Select annotations.Selection
	// Surface is SurfaceAll ("" too: every served tool listed) or
	// SurfaceCatalog (catalog.go).
	Surface string
	// Confirm is ConfirmAsk (default) or ConfirmNever.
	Confirm string
	// Slots caps concurrent calls per tier. Missing tiers use 8 (read), 1 (mutate), 2 (live).
	Slots map[annotations.Tier]int
	// MaxQueued bounds the calls of one tier that wait for a slot: a call
	// beyond is refused (reason busy) before anything starts, as is a task
	// a host asks for then. A call that joins a run in progress needs no
	// place. If zero, DefaultMaxQueued.
	MaxQueued int
	// Heartbeat is the progress interval. If zero, DefaultHeartbeat.
	Heartbeat time.Duration
	// DetachAfter is how long a request waits for its run before it returns
	// a "running" result (the run goes on; aeat_mcp_wait collects it). If
	// zero, requests wait for their runs to end.
	DetachAfter time.Duration
	// KeepResults is how long a finished run's result is kept for
	// aeat_mcp_wait. If zero, 15 minutes.
	KeepResults time.Duration
	// AskToExtend asks a person, where the host can (elicitation), whether a
	// run that reaches its ceiling may have as long again, once. If false,
	// runs are stopped at their ceiling without asking.
	AskToExtend bool
	// NoDedupe turns off joining: by default a MUTATE or LIVE call with the
	// same tool and arguments as a run in progress joins that run.
	NoDedupe bool
	// NoTasks turns off MCP Tasks: by default a host that speaks them gets
	// its MUTATE and LIVE calls as tasks (docs/ARCHITECTURE.md, "A task"); with NoTasks every
	// host gets ordinary calls, detached after DetachAfter.
	NoTasks bool
	// Drain is how long requests read before the host closed our stdin may
	// still run before they are stopped and answered "cancelled". If zero,
	// DefaultDrain.
	Drain time.Duration
	// Parent is the pid of the process that started the server, read first
	// thing in main: the host may die, and this process be re-parented,
	// before Serve runs. If zero, os.Getppid() when Serve starts.
	Parent int
	// Prepare, if set, is more start-up work a host need not wait for (the
	// warm template, start-up logs): the server runs it once it is past
	// initialize, before any call's process starts ([Server] "Start-up").
	Prepare func()
	// Initialized, if set, is called once the host has the answer it
	// waited for: over stdio (Serve) when the answer to initialize has
	// been written, else at the first message after initialize; before
	// Prepare starts, so before any call's process does. cmd writes the
	// start-up log and wires the stop signals then (logqueue.go,
	// notifyStop).
	Initialized func()
	// FirstCall, if set, is called once, when the first tools/call
	// arrives, before it runs: the host's connect (initialize, the lists)
	// is over. cmd returns the garbage collector to its pace then
	// (gcpace.go).
	FirstCall func()
	Printer   *i18n.Printer
	Logger    *slog.Logger
	Version   string
}

// Server is an MCP server for one manifest.
type Server struct {
	cfg   Config
	mcp   *mcp.Server
	env   []string
	slots map[annotations.Tier]chan struct{}
	// admitted holds a place per run of each tier, running or waiting for
	// a slot: its capacity is the tier's slots plus MaxQueued.
	admitted map[annotations.Tier]chan struct{}
	// tools are the manifest's tools this server serves, by name.
	tools map[string]*annotations.Tool
	// table is every tool it serves, built-ins included, built at its
	// first use (buildTable). Each listed tool is registered with the SDK
	// at its first call (registerTool), which registered records.
	table    func() *toolTable
	listOnce sync.Once
	list     []*mcp.Tool
	// listings and listedBytes: tools/list as bytes made once
	// (listing.go).
	listings    listings
	listedBytes listedJSON
	regMu       sync.Mutex
	registered  map[string]bool
	// outputs keeps what results cut, for resources/read (resources.go).
	outputs outputs
	// hidden are the manifest's tools --read-only or --tools do not
	// advertise: a call of one is refused with the reason, not answered
	// "unknown tool".
	hidden map[string]*annotations.Tool
	// missingEnv names, per tool, the variables its CLI needs and this
	// server's environment lacks (cli.env.require, a stdin env).
	missingEnv map[string][]string
	// stdinEnv holds the values of the variables tools read on stdin.
	stdinEnv map[string]string
	// goos is the OS whose environment rules apply ([hostOS]).
	goos string
	// environ is the server's environment (Config.Environ).
	environ []string
	// keychain holds the secrets of cli.env.keychain and stdin keychain;
	// keychainWait bounds one read of it (if zero, keychain.DefaultWait).
	keychain     keychain.Store
	keychainWait time.Duration
	// kcRestUntil: optional secrets skip the keychain until then, after
	// it failed (keychainRest).
	kcMu        sync.Mutex
	kcRestUntil time.Time

	// runs are the calls' work, kept beyond the requests that started them.
	runs *runs.Registry[*mcp.CallToolResult]
	// tasks are the runs hosts follow as MCP Tasks; nil with NoTasks.
	tasks *tasks.Table
	// requests are what the tasks transport learned of each tools/call in
	// flight (its session's generation, whether it may become a task),
	// for the handlers.
	requests *tasks.Requests

	// questions are the open confirmation questions (multi round-trip).
	questions   *questions
	confirmWait time.Duration
	askWait     time.Duration // for an answer to the extension question
	// catalog is the catalog surface's state; nil on SurfaceAll.
	catalog *catalog
	// beforeRun, set by tests, runs just before the CLI starts.
	beforeRun func(tool string)
	// detachNow, set by tests, stands for --detach-after's timer.
	detachNow <-chan time.Time

	// prepareOnce starts the start-up work a host need not wait for;
	// prepared is closed once it is done (prepare).
	prepareOnce sync.Once
	prepared    chan struct{}
	// initializedOnce calls Config.Initialized and closes answered, once:
	// the host has its answer to initialize (Serve's parent watch waits
	// for it).
	initializedOnce sync.Once
	answered        chan struct{}
	// firstCallOnce calls Config.FirstCall once.
	firstCallOnce sync.Once

	// lifetime ends when the server is told to stop; every call's context
	// is tied to it, because the SDK does not cancel handlers on shutdown.
	lifetime context.Context
	stop     context.CancelCauseFunc
}

// ErrShuttingDown is the cause of calls stopped because the server is
// going away.
var ErrShuttingDown = errors.New("server: shutting down")

// New builds the server and its tools.
func New(cfg Config) (*Server, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, tools: map[string]*annotations.Tool{}, hidden: map[string]*annotations.Tool{},
		registered: map[string]bool{}, slots: map[annotations.Tier]chan struct{}{}, admitted: map[annotations.Tier]chan struct{}{},
		requests: &tasks.Requests{}, confirmWait: defaultConfirmWait, askWait: defaultAskWait, prepared: make(chan struct{}), answered: make(chan struct{})}
	s.questions = newQuestions(s.confirmWait)
	s.table = sync.OnceValue(s.buildTable)
	kept := int64(max(DefaultKeptResultBytes, cfg.MaxResultBytes))
	s.runs = &runs.Registry[*mcp.CallToolResult]{Keep: cfg.KeepResults, MaxBytes: kept, Size: tasks.ResultSize}
	// What the SDK advertises by default, kept as it was: hosts already
	// see the logging capability.
	//lint:ignore SA1019 deprecated only from 2026-07-28 on; dropping it would change what older hosts see
	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}
	// Runs' outputs (resources.go): the template never changes.
	caps.Resources = &mcp.ResourceCapabilities{}
	// What the SDK advertises for a server with tools, said here: none is
	// registered with it before its first call (serveTools). No
	// list_changed is ever sent (fixedTools).
	caps.Tools = &mcp.ToolCapabilities{ListChanged: true}
	if !cfg.NoTasks {
		s.tasks = tasks.NewTable(tasks.Options{Keep: cfg.KeepResults, Grace: killGrace(cfg) + time.Second,
			Describe: func(r *run) string { return statusText(cfg.Printer, r) }, MaxResultBytes: kept})
		caps.AddExtension(tasks.ExtensionID, nil)
	}
	s.lifetime, s.stop = context.WithCancelCause(context.Background())
	s.goos = hostOS
	s.environ = cfg.environ()
	s.keychain = cfg.Keychain
	if s.keychain == nil {
		s.keychain = keychain.OS(s.environ)
	}
	s.env = BuildEnv(s.goos, cfg.Manifest.CLI, cfg.PassEnv, s.snapshot)
	s.missingEnv, s.stdinEnv = checkEnv(s.goos, cfg.Manifest, s.env, s.snapshot)
	for _, tier := range []annotations.Tier{annotations.Read, annotations.Mutate, annotations.Live} {
		n := cfg.Slots[tier]
		if n <= 0 {
			n = defaultSlots[tier]
		}
		s.slots[tier] = make(chan struct{}, n)
		s.admitted[tier] = make(chan struct{}, n+cfg.MaxQueued)
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "aeat-mcp", Title: "aeat-mcp", Version: cfg.Version},
		&mcp.ServerOptions{Instructions: s.instructions(), Logger: cfg.Logger, Capabilities: caps})
	s.catalog = newCatalog(cfg)
	s.addTools()
	s.addResources()
	s.mcp.AddReceivingMiddleware(s.afterInitialize)
	return s, nil
}

// # Start-up
//
// A host waits for the answer to initialize, and nothing it needs for that
// answer is work a call needs: the runner's mechanisms (its lifeline, the
// sweeps of what dead servers left, the host's job), the sweep of dead
// servers' scratch directories, and Config.Prepare (the warm template, the
// start-up log). So New does none of it; once the host is past initialize,
// prepare starts it, and start —
// the seam every call's process goes through — waits for it, so that every
// call, the first one issued right after initialize too, gets every
// guarantee.

// prepare starts, once and on a goroutine of its own, the start-up work
// nothing before a call needs; prepared is closed when it is done.
func (s *Server) prepare() {
	s.prepareOnce.Do(func() {
		s.initialized()
		go func() {
			defer close(s.prepared)
			s.cfg.Runner.Start()
			// Scratch directories — calls' (@scratch) and kept outputs'
			// (resources.go) — of servers that were killed.
			s.sweepScratch()
			if s.cfg.Manifest.WorkDir() != annotations.ScratchDir {
				if _, _, _, err := s.workDir(); err != nil {
					s.cfg.Logger.Warn("every call will fail until this is fixed", "error", err)
				}
			}
			if s.cfg.Prepare != nil {
				s.cfg.Prepare()
			}
		}()
	})
}

// initialized calls Config.Initialized, once.
func (s *Server) initialized() {
	s.initializedOnce.Do(func() {
		if s.cfg.Initialized != nil {
			s.cfg.Initialized()
		}
		close(s.answered)
	})
}

// afterInitialize starts the start-up work (prepare) at the first message
// after initialize: a host that has our answer says so
// (notifications/initialized), and a client that never initializes
// (2026-07-28) sends its first request. At the first tools/call it tells
// Config.FirstCall.
func (s *Server) afterInitialize(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "initialize" {
			s.prepare()
		}
		if method == "tools/call" && s.cfg.FirstCall != nil {
			s.firstCallOnce.Do(s.cfg.FirstCall)
		}
		return next(ctx, method, req)
	}
}

// addTool registers a tool with the SDK without the SDK's round
// trips of its input schema. go-sdk v1.8.0's Server.AddTool checks a schema
// that is not a *jsonschema.Schema by marshalling it and decoding it into a
// map (remarshal), then once more, whatever its type, for x-mcp-header
// annotations (validateParamHeaderAnnotations); each decode makes a fresh
// decoder with a 32 KiB buffer (internal/json.Unmarshal). At 300 tools that
// was more than the rest of New, and no API takes an encoded schema as it
// is. The SDK keeps the *mcp.Tool it is given and reads InputSchema only to
// list it, so the tool is added with the smallest *jsonschema.Schema (no
// type round trip; one small header check) and then given its own, before
// any request can list it (registerTool). What the SDK checks holds by construction
// (annotations.Tool.InputSchemaJSON: an object, no x-mcp-header); a schema
// that does not start as one is added the SDK's way.
// TestAddTool_ListsTheManifestSchemas holds the SDK to listing ours.
func (s *Server) addTool(t *mcp.Tool, h mcp.ToolHandler) {
	schema, ok := t.InputSchema.(json.RawMessage)
	if !ok || !bytes.HasPrefix(schema, []byte(`{"type":"object",`)) {
		s.mcp.AddTool(t, h)
		return
	}
	t.InputSchema = &jsonschema.Schema{Type: "object"}
	s.mcp.AddTool(t, h)
	t.InputSchema = schema
}

// environ is cfg.Environ, or the process's environment now.
func (cfg Config) environ() []string {
	if cfg.Environ != nil {
		return cfg.Environ
	}
	return os.Environ()
}

// snapshot is the server's environment as it started (Config.Environ).
func (s *Server) snapshot() []string { return s.environ }

// withDefaults is cfg checked, with every knob left zero at its default.
func (cfg Config) withDefaults() (Config, error) {
	switch {
	case cfg.Manifest == nil:
		return cfg, errors.New("server: no manifest")
	case cfg.Runner == nil:
		return cfg, errors.New("server: no runner")
	case cfg.Confirm == "":
		cfg.Confirm = ConfirmAsk
	case cfg.Confirm != ConfirmAsk && cfg.Confirm != ConfirmNever:
		return cfg, fmt.Errorf("server: confirm must be %q or %q, not %q", ConfirmAsk, ConfirmNever, cfg.Confirm)
	}
	if err := CheckSurface(cfg.Surface); err != nil {
		return cfg, fmt.Errorf("server: %w", err)
	}
	if cfg.Ceilings == (annotations.Ceilings{}) {
		cfg.Ceilings = annotations.DefaultCeilings
	}
	if cfg.MaxResultBytes <= 0 {
		cfg.MaxResultBytes = DefaultMaxResultBytes
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = DefaultHeartbeat
	}
	if cfg.Printer == nil {
		cfg.Printer = i18n.FromEnvironment()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.MaxQueued <= 0 {
		cfg.MaxQueued = DefaultMaxQueued
	}
	return cfg, nil
}

// bigResults is the --max-result-bytes from which SoftMemoryLimit sets a
// limit.
const bigResults = 8 << 20

// SoftMemoryLimit is the soft memory limit (runtime/debug.SetMemoryLimit)
// a process serving cfg should run with, or 0 for the runtime's default
// (none). Answering one result of --max-result-bytes costs a live heap of
// about four times its size at its peak — the text, and the copies the
// SDK's JSON encoding makes of it (each of its three nested encoders holds
// one, and a buffer of up to twice that) — and the garbage collector lets
// the heap grow to twice what is live before it collects: 9.3 times the
// result, measured. With results of 8 MiB or more allowed, the limit is
// 64 MiB plus four times --max-result-bytes, so that the peak stays a
// small multiple of the cap (BENCHMARKS.md). It is a soft limit: a heap
// that must be larger is not refused, it is collected more often.
func SoftMemoryLimit(cfg Config) int64 {
	if cfg.MaxResultBytes < bigResults {
		return 0
	}
	return 64<<20 + 4*int64(cfg.MaxResultBytes)
}

// Tools are the manifest's tools this server advertises: all of them, or
// the read-only ones under --read-only.
func (s *Server) Tools() []*annotations.Tool {
	var out []*annotations.Tool
	for _, t := range s.cfg.Manifest.Tools {
		if s.hiddenBecause(t) == "" {
			out = append(out, t)
		}
	}
	return out
}

// hiddenBecause is why the server does not advertise t: ReasonReadOnly,
// ReasonNotSelected, or "" when it does.
func (s *Server) hiddenBecause(t *annotations.Tool) string { return hiddenBecause(&s.cfg, t) }

// hiddenRefusal is the answer to a call of t, a tool --read-only or --tools
// hides (directly, or through aeat_mcp_call).
func (s *Server) hiddenRefusal(t *annotations.Tool, req *mcp.CallToolRequest) *mcp.CallToolResult {
	rq := s.newRequest(t, req)
	if s.hiddenBecause(t) == ReasonReadOnly {
		return rq.refuse(ReasonReadOnly, i18n.RefusedReadOnly)
	}
	return rq.refuse(ReasonNotSelected, i18n.RefusedNotSelected)
}

// killGrace is the SIGTERM-to-SIGKILL grace calls run with.
func killGrace(cfg Config) time.Duration {
	if cfg.KillGrace > 0 {
		return cfg.KillGrace
	}
	return callruntime.DefaultKillGrace
}

// Connect serves one session over t, with MCP Tasks composed over it
// ([tasks.Transport]): every way the server is reached — [Serve]'s stdio,
// aeat-mcp call's in-memory session, the tests' — goes through here, so
// each sees tasks, and each call knows its session's generation, the same
// way.
func (s *Server) Connect(ctx context.Context, t mcp.Transport) (*mcp.ServerSession, error) {
	return s.mcp.Connect(ctx, s.transport(t), nil)
}

// transport is t with MCP Tasks composed over it, on which the tool list
// never changes (fixedTools), and whose tools/list answers get the tools
// as bytes made once (listedTools, under the tasks decorator: its marks
// are told, not made on the whole list).
func (s *Server) transport(t mcp.Transport) mcp.Transport {
	return fixedTools{&tasks.Transport{Inner: listedTools{t, s}, Requests: s.requests, Table: s.tasks, Tools: s.taskTool, Logger: s.cfg.Logger}}
}

// Shutdown stops every call in flight (their trees are killed as on
// cancellation) and refuses new ones, and deletes the outputs kept
// (resources.go) there and then: the process may end right after. It does
// not wait for the calls.
func (s *Server) Shutdown() { s.stop(ErrShuttingDown); s.outputs.close() }

// shutdownNow is Shutdown on a signal or the host's death, when the host's
// SIGKILL is about to follow (hosts close stdin, wait 2 s, send SIGTERM,
// wait 2 s, send SIGKILL): the calls' kill grace is cut to shutdownGrace.
func (s *Server) shutdownNow() { s.stop(shutdownCause()); s.outputs.close() }

// shutdownGrace bounds the kill grace of the calls stopped on a shutdown
// signal or the host's death, on every OS: a call is answered ("cancelled")
// only once its tree is dead, and the answer must be written before the
// host's SIGKILL, 2 s after its SIGTERM — a tree that ignores SIGTERM must
// not hold it past that. On macOS it also keeps our SIGKILL well before the
// host's (its lifeline is new, and has never run on a Mac).
const shutdownGrace = time.Second

// shutdownCause is the cause that stops the calls on a shutdown signal.
func shutdownCause() error {
	return &callruntime.GraceCap{Cause: ErrShuttingDown, Max: shutdownGrace}
}

// mcpTool is the tool as hosts see it: the manifest's name, title,
// description and schema, and all four hints explicit.
func mcpTool(t *annotations.Tool) *mcp.Tool {
	destructive, openWorld := t.Hints.Destructive, t.Hints.OpenWorld
	return &mcp.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: t.InputSchemaJSON(), // encoded at load: a 300-tool manifest builds no schema structs
		Annotations: &mcp.ToolAnnotations{
			Title:           t.Title,
			ReadOnlyHint:    t.Hints.ReadOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  t.Hints.Idempotent,
			OpenWorldHint:   &openWorld,
		},
	}
}

// instructions tell the model, briefly, what the tools are and how calls
// behave.
func (s *Server) instructions() string {
	tiers := map[annotations.Tier][]*annotations.Tool{}
	for _, t := range Listed(s.cfg) {
		tiers[t.Tier()] = append(tiers[t.Tier()], t)
	}
	var b strings.Builder
	b.WriteString("These tools run a command-line program (")
	b.WriteString(s.cfg.Manifest.CLI.Command)
	b.WriteString(") one verb per tool; arguments are passed as declared in each tool's schema, never through a shell. ")
	b.WriteString("Each call has a time ceiling, set by its tier unless the tool has its own: ")
	var parts []string
	for _, tier := range []annotations.Tier{annotations.Live, annotations.Mutate, annotations.Read} {
		// Group the tier's tools by their real ceiling: a tool with its own
		// timeout is listed with it, not under the tier's.
		byCeiling := map[time.Duration][]string{}
		for _, t := range tiers[tier] {
			d := t.Ceiling(s.cfg.Ceilings)
			byCeiling[d] = append(byCeiling[d], t.Name)
		}
		ceilings := make([]time.Duration, 0, len(byCeiling))
		for d := range byCeiling {
			ceilings = append(ceilings, d)
		}
		sort.Slice(ceilings, func(i, j int) bool { return ceilings[i] > ceilings[j] })
		for _, d := range ceilings {
			names := byCeiling[d]
			sort.Strings(names)
			parts = append(parts, fmt.Sprintf("%s %ss (%s)", tier, formatSeconds(d.Seconds()), strings.Join(names, ", ")))
		}
	}
	b.WriteString(strings.Join(parts, "; "))
	b.WriteString(". Live tools reach the AEAT portal through a browser and are slow: expect progress updates, and do not call the same live tool twice in parallel. ")
	b.WriteString("A call that runs out of time is stopped with everything it started, and the result says so: retry once, then ask the user. ")
	b.WriteString("Destructive tools may ask the user to confirm. Every result carries a language-free outcome in _meta[\"aeat-mcp/outcome\"].")
	b.WriteString(s.catalogInstructions())
	return b.String()
}
