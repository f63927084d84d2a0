package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/aeat-mcp/aeat-mcp/internal/cleantext"
	"github.com/aeat-mcp/aeat-mcp/internal/i18n"
	"github.com/aeat-mcp/aeat-mcp/internal/runs"
	"github.com/aeat-mcp/aeat-mcp/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What was cut stays readable (docs/ARCHITECTURE.md, "Results"): a result
// whose stdout or stderr was cut at --max-result-bytes carries a
// resource_link per cut stream, aeat-mcp://runs/ID/STREAM, and
// resources/read serves that stream whole, in pages of at most
// --max-result-bytes, while the run is kept (--keep-results). The spec's
// resources/read has no cursor, so a page is a URI of its own
// (?page=N, from 1; the bare URI is page 1), the result's text names the
// last one, and each page's _meta names the next.
//
// A stream is spilled as it flows ([callruntime.Spec.Spill]), after the
// supervisor's filters — secrets and private keys are already redacted
// there — into memory up to its capture cap, then into a file of a private
// folder of this server's own; each page is then cleaned and redacted again
// exactly as a result's text is ([ending.finish]). Only the streams a result
// cut are kept; the others are dropped when the call ends.

// runURIPrefix starts the URI of every run's output.
const runURIPrefix = "aeat-mcp://runs/"

// runOutputTemplate is the resource template of a run's output.
const runOutputTemplate = runURIPrefix + "{id}/{stream}{?page}"

// Bounds of the outputs kept.
const (
	// maxKeptStream is the most of one stream kept; the rest is counted,
	// not kept, and the resource says so.
	maxKeptStream = 64 << 20
	// maxKeptOutputs bounds all the outputs kept on disk: the oldest kept
	// go first (the newest always stays).
	maxKeptOutputs = 256 << 20
	// spillInMemory is the most of a stream held in memory (besides the
	// capture) before it goes to a file: an ordinary result never touches
	// the disk, and a --max-result-bytes of tens of megabytes does not
	// double the memory a result at the cap costs (SoftMemoryLimit).
	spillInMemory = 1 << 20
)

// OutputPageMetaKey is the _meta key of a page of a run's output: its
// number, how many there are, and the URI of the next.
const OutputPageMetaKey = "aeat-mcp/page"

// outputs holds the cut outputs of this server's runs.
type outputs struct {
	mu    sync.Mutex
	dir   string // made at the first spill; "" until then
	kept  map[string]*keptRun
	order []string // run ids kept, oldest first
	bytes int64
	gone  bool // the server is going away: nothing is kept any more
}

// keptRun is what one run spills: both streams, the session that started
// it (the only one that may read them), and the redactor its text went
// through.
type keptRun struct {
	o       *outputs
	id      string
	tool    *annotations.Tool
	owner   *mcp.ServerSession
	secrets *callruntime.SecretRedactor
	streams [2]*spill // stdout, stderr
	// linked, note, made: what links said, said again to a second call.
	linked bool
	note   string
	made   []mcp.Content
}

// spill keeps one stream: in memory up to mem bytes, then in a file.
type spill struct {
	kr     *keptRun
	stream callruntime.Stream
	mem    int
	buf    []byte
	f      *os.File
	kept   int64 // bytes kept (buf or file)
	total  int64 // bytes the stream carried
	failed bool  // the file could not be written: the stream is not kept
	cut    bool  // a result showed less than the whole stream
	pages  []int64
}

// begin starts keeping the output of run id of tool t, which session owner
// started; mem is how much of each stream stays in memory before a file is
// made.
func (o *outputs) begin(id string, t *annotations.Tool, owner *mcp.ServerSession, memOut, memErr int) *keptRun {
	kr := &keptRun{o: o, id: id, tool: t, owner: owner}
	kr.streams[0] = &spill{kr: kr, stream: callruntime.Stdout, mem: memOut}
	kr.streams[1] = &spill{kr: kr, stream: callruntime.Stderr, mem: memErr}
	return kr
}

// writer is the [callruntime.Spec.Spill] of the run.
func (kr *keptRun) writer(s callruntime.Stream) io.Writer { return kr.of(s) }

func (kr *keptRun) of(s callruntime.Stream) *spill {
	if s == callruntime.Stderr {
		return kr.streams[1]
	}
	return kr.streams[0]
}

// Write keeps p: in memory while the stream fits mem, else in the file.
func (sp *spill) Write(p []byte) (int, error) {
	n := len(p)
	sp.total += int64(n)
	p = p[:min(int64(n), max(maxKeptStream-sp.kept, 0))] // beyond the bound: counted, not kept
	switch {
	case sp.failed || len(p) == 0:
	case sp.f == nil && len(sp.buf)+len(p) <= sp.mem:
		sp.buf = append(sp.buf, p...)
		sp.kept += int64(len(p))
	case !sp.toFile():
	default:
		if _, err := sp.f.Write(p); err != nil {
			sp.drop()
			return n, err
		}
		sp.kept += int64(len(p))
	}
	return n, nil
}

// toFile moves what is in memory into the stream's file; false when the
// file cannot be made (the stream is then not kept).
func (sp *spill) toFile() bool {
	if sp.f != nil {
		return true
	}
	dir, err := sp.kr.o.folder()
	if err == nil {
		sp.f, err = os.CreateTemp(dir, sp.kr.id+"-"+sp.stream.String()+"-*")
	}
	if err == nil {
		_, err = sp.f.Write(sp.buf)
	}
	if err != nil {
		sp.drop()
		return false
	}
	sp.buf = nil
	return true
}

// drop forgets the stream: its file goes.
func (sp *spill) drop() {
	sp.failed, sp.buf = true, nil
	if sp.f != nil {
		sp.f.Close()
		os.Remove(sp.f.Name())
		sp.f = nil
	}
}

// folder is the private folder of the files kept, made once.
func (o *outputs) folder() (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.gone {
		return "", os.ErrClosed
	}
	if o.dir == "" {
		// A scratch directory (workdir.go, 0700): named for this server,
		// so that a server started after this one was killed removes it.
		dir, err := makeScratch(scratchRoot(runtime.GOOS))
		if err != nil {
			return "", err
		}
		o.dir = dir
	}
	return o.dir, nil
}

// close removes every output kept; nothing is kept after it.
func (o *outputs) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.gone = true
	for _, id := range o.order {
		o.kept[id].remove()
	}
	o.kept, o.order, o.bytes = nil, nil, 0
	if o.dir != "" {
		os.RemoveAll(o.dir)
	}
}

// markCut records that a result showed less than the whole stream.
func (kr *keptRun) markCut(s callruntime.Stream) {
	if kr != nil {
		kr.of(s).cut = true
	}
}

// links are the resource links of the streams cut, and the text that says
// how to read them and how to narrow the call; the run is then kept, and
// whatever of it was not cut is dropped. Called once, by the result's
// constructor (finish), after the process ended.
func (kr *keptRun) links(p *i18n.Printer, pageSize int, secrets *callruntime.SecretRedactor) (text string, links []mcp.Content) {
	if kr == nil {
		return "", nil
	}
	if kr.linked {
		return kr.note, kr.made
	}
	defer func() { kr.linked, kr.note, kr.made = true, text, links }()
	kr.secrets = secrets
	var lines []string
	for _, sp := range kr.streams {
		if !sp.cut || sp.failed || sp.kept == 0 || !sp.toFile() || !sp.paginate(pageSize) {
			sp.drop()
			continue
		}
		uri := kr.uri(sp.stream)
		size := sp.kept
		links = append(links, &mcp.ResourceLink{URI: uri, Name: kr.tool.Name + " " + sp.stream.String(),
			Title: kr.tool.Name + " " + sp.stream.String() + " (" + kr.id + ")", MIMEType: sp.mimeType(), Size: &size})
		lines = append(lines, p.Sprintf(i18n.OutputKept, sp.stream.String(), sp.kept, uri, len(sp.pages)-1, pageSize))
	}
	if len(links) == 0 {
		return "", nil
	}
	if names := narrowing(kr.tool); names != "" {
		lines = append(lines, p.Sprintf(i18n.OutputNarrow, kr.tool.Name, names))
	} else {
		lines = append(lines, p.Sprintf(i18n.OutputNarrowNone, kr.tool.Name))
	}
	kr.o.keep(kr)
	return "\n\n[" + strings.Join(lines, " ") + "]", links
}

// narrowing names the tool's own arguments, which a model may narrow the
// call with: not the CLI's shared ones (a profile, a language: the same
// output again), nor what it reads on stdin or keeps secret.
func narrowing(t *annotations.Tool) string {
	names := make([]string, 0, len(t.Params()))
	for _, prm := range t.Params() {
		if !prm.Shared && !prm.Stdin && !prm.Sensitive {
			names = append(names, prm.Name)
		}
	}
	return strings.Join(names, ", ")
}

// settle drops what the run spilled that no result linked to: every
// stream, unless links kept the run. Called when the work ends.
func (kr *keptRun) settle() {
	o := kr.o
	o.mu.Lock()
	kept := o.kept[kr.id] == kr
	o.mu.Unlock()
	if kept {
		return
	}
	kr.remove()
	o.mu.Lock()
	if o.gone && o.dir != "" {
		// The server went while this run still wrote: its folder could
		// not go then where an open file pins it (Windows).
		os.Remove(o.dir)
	}
	o.mu.Unlock()
}

func (kr *keptRun) remove() {
	for _, sp := range kr.streams {
		sp.drop()
	}
}

func (kr *keptRun) uri(s callruntime.Stream) string { return runURIPrefix + kr.id + "/" + s.String() }

func (sp *spill) mimeType() string {
	if sp.stream == callruntime.Stdout && sp.kr.tool.Output == annotations.OutputJSON {
		return "application/json"
	}
	return "text/plain"
}

// keep records kr as kept, dropping the oldest kept while all weigh more
// than maxKeptOutputs.
func (o *outputs) keep(kr *keptRun) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.gone {
		kr.remove()
		return
	}
	if o.kept == nil {
		o.kept = map[string]*keptRun{}
	}
	o.kept[kr.id] = kr
	o.order = append(o.order, kr.id)
	o.bytes += kr.weight()
	for len(o.order) > 1 && o.bytes > maxKeptOutputs {
		o.forget(o.order[0])
	}
}

func (kr *keptRun) weight() int64 { return kr.streams[0].kept + kr.streams[1].kept }

// forget drops run id's outputs; o.mu is held.
func (o *outputs) forget(id string) {
	kr, ok := o.kept[id]
	if !ok {
		return
	}
	delete(o.kept, id)
	for i, v := range o.order {
		if v == id {
			o.order = append(o.order[:i], o.order[i+1:]...)
			break
		}
	}
	o.bytes -= kr.weight()
	kr.remove()
}

// paginate cuts the kept stream into pages of at most size bytes: a page
// ends after its last newline in its second half, else on a rune boundary,
// so that no line of ordinary length, no character and no control sequence
// is split between two pages (each page is cleaned on its own). pages gets
// every page's start and, last, the end.
func (sp *spill) paginate(size int) bool {
	buf := make([]byte, size+utf8.UTFMax) // a page and a look at the rune after it
	sp.pages = []int64{0}
	for start := int64(0); start < sp.kept; {
		want := int(min(int64(len(buf)), sp.kept-start))
		if m, _ := sp.f.ReadAt(buf[:want], start); m < want {
			return false
		}
		end := sp.kept
		if start+int64(size) < sp.kept {
			end = start + int64(size)
			if i := bytes.LastIndexByte(buf[size/2:size], '\n'); i >= 0 {
				end = start + int64(size/2+i+1)
			} else if c := cutBefore(buf[:want], size); c > 0 {
				end = start + int64(c)
			}
		}
		sp.pages = append(sp.pages, end)
		start = end
	}
	return true
}

// page is page n (from 1) of the stream, as a result's text would show it:
// valid UTF-8, cleaned of control sequences, secrets redacted.
func (sp *spill) page(n int) (string, error) {
	start, end := sp.pages[n-1], sp.pages[n]
	buf := make([]byte, end-start)
	if _, err := sp.f.ReadAt(buf, start); err != nil {
		return "", err
	}
	return sp.kr.secrets.RedactString(cleantext.Text(callruntime.JoinValid(buf, "", nil))), nil
}

// addResources serves the outputs of runs (resources/read, and the
// template that resources/templates/list shows).
func (s *Server) addResources() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: runOutputTemplate,
		Name:        "run-output",
		Title:       "The whole output of a run",
		Description: "The stdout or stderr of a call whose result was cut at --max-result-bytes, whole, in pages (?page=N, from 1), while the run is kept (--keep-results). A result that was cut links to it.",
		MIMEType:    "text/plain",
	}, s.readOutput)
}

// readOutput answers resources/read of aeat-mcp://runs/ID/STREAM[?page=N].
// A run not kept — expired, never started, or started by another session
// (which must not learn that it exists) — is the spec's "resource not
// found", with what to do: -32002, or -32602 from 2026-07-28 (SEP-2164;
// the generation table). The version is the request's own, which may
// only pick the spelling of this refusal.
func (s *Server) readOutput(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	p := s.cfg.Printer
	id, stream, n, ok := parseOutputURI(uri)
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: uri + " is not a run's output: aeat-mcp://runs/ID/stdout or /stderr, optionally ?page=N"}
	}
	pg, err := s.outputs.read(id, stream, req.Session, n, func(id string) bool { _, ok := s.runs.Get(id); return ok })
	switch {
	case errors.Is(err, errNotKept):
		keep := s.cfg.KeepResults
		if keep <= 0 {
			keep = runs.DefaultKeep
		}
		data, _ := json.Marshal(map[string]string{"uri": uri})
		code := tasks.GenerationOf(req.ProtocolVersion()).ResourceNotFound()
		return nil, &jsonrpc.Error{Code: code, Message: p.Sprintf(i18n.OutputGone, id, int(keep.Minutes())), Data: data}
	case errors.Is(err, errNoPage):
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: p.Sprintf(i18n.OutputNoPage, runURIPrefix+id+"/"+stream.String(), pg.pages, strconv.Itoa(n))}
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", uri, err)
	}
	meta := map[string]any{"page": n, "pages": pg.pages, "bytes": pg.kept, "stream_bytes": pg.total}
	if n < pg.pages {
		meta["next"] = runURIPrefix + id + "/" + stream.String() + "?page=" + strconv.Itoa(n+1)
	}
	// A run's output is the user's own (tax data): no intermediary may
	// cache it (2026-07-28's cacheScope, which defaults to "public").
	return &mcp.ReadResourceResult{Cacheable: mcp.Cacheable{CacheScope: "private"},
		Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: pg.mimeType, Text: pg.text, Meta: mcp.Meta{OutputPageMetaKey: meta}}}}, nil
}

var (
	errNotKept = errors.New("output not kept")
	errNoPage  = errors.New("no such page")
)

// outputPage is one page read, and what it is a page of.
type outputPage struct {
	text        string
	mimeType    string
	pages       int
	kept, total int64
}

// read is page n of stream of run id, if session started that run and the
// run is still kept (live says whether its registry keeps it: a run the
// registry forgot is forgotten here too). It reads under the lock, so that
// nothing drops the file meanwhile.
func (o *outputs) read(id string, stream callruntime.Stream, session *mcp.ServerSession, n int, live func(string) bool) (outputPage, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, old := range append([]string(nil), o.order...) {
		if !live(old) {
			o.forget(old)
		}
	}
	kr, ok := o.kept[id]
	if !ok || kr.owner != session {
		return outputPage{}, errNotKept
	}
	sp := kr.of(stream)
	if sp.f == nil {
		return outputPage{}, errNotKept
	}
	pg := outputPage{mimeType: sp.mimeType(), pages: len(sp.pages) - 1, kept: sp.kept, total: sp.total}
	if n < 1 || n > pg.pages {
		return pg, errNoPage
	}
	text, err := sp.page(n)
	pg.text = text
	return pg, err
}

// parseOutputURI reads aeat-mcp://runs/ID/STREAM[?page=N]; the page is 1
// when not given.
func parseOutputURI(uri string) (id string, stream callruntime.Stream, page int, ok bool) {
	rest, found := strings.CutPrefix(uri, runURIPrefix)
	if !found {
		return "", 0, 0, false
	}
	rest, query, _ := strings.Cut(rest, "?")
	id, name, found := strings.Cut(rest, "/")
	if !found || id == "" || strings.ContainsAny(id, `/\.`) {
		return "", 0, 0, false
	}
	switch name {
	case "stdout":
		stream = callruntime.Stdout
	case "stderr":
		stream = callruntime.Stderr
	default:
		return "", 0, 0, false
	}
	page = 1
	if query != "" {
		v, found := strings.CutPrefix(query, "page=")
		n, err := strconv.Atoi(v)
		if !found || err != nil {
			return "", 0, 0, false
		}
		page = n
	}
	return id, stream, page, true
}
