// Command fakecli is the fake CLI the tests drive instead of the real aeat.
//
// It runs a sequence of steps given as arguments, separated by "+":
//
//	fakecli ignore-term + tree setsid,daemon + sleep 10s
//
// A "--" argument is dropped, so a manifest's positionals (rendered after
// "--") become arguments of the last step; steps ignore arguments they do
// not use, so rendered flags may trail a step too.
//
// Every step is deterministic and driven only by its arguments, so a test
// can build any fault it needs: a slow call, a crash, a flood, a process
// tree that escapes its process group. Processes it starts report their pid
// on stdout as "pid ROLE N" lines so a test can prove they are gone.
//
// Steps:
//
//	ok                      print "ok" and go on
//	argv                    print the argv (after the program name) as a JSON array
//	env                     print the environment as a sorted JSON object
//	cwd                     print the working directory
//	echo TEXT               print TEXT
//	json                    print a small JSON document
//	bigjson BYTES           print a JSON object of about BYTES bytes on one line
//	stderr TEXT             write TEXT and a newline to stderr
//	sleep DURATION          sleep (a Go duration)
//	hang                    sleep forever
//	await [...] PATH        wait until PATH (the step's last argument: a
//	                        manifest's flags may come before it) exists: a
//	                        test's go-ahead, given once what the program
//	                        must wait for has happened (tests wait on
//	                        events, not on a sleep a loaded machine may
//	                        outlast)
//	exit N                  exit with code N
//	lines N INTERVAL        print N numbered lines, INTERVAL apart
//	flood STREAM BYTES [nonl]
//	                        write BYTES bytes to stdout, stderr or both,
//	                        in 80-byte lines, or without any newline with nonl
//	badutf8                 print bytes that are not valid UTF-8
//	stdin                   read stdin to EOF and print how many bytes came
//	leak                    read stdin to EOF and print it back, as a careless CLI
//	                        echoes the secret it was given: on stderr as progress
//	                        lines (three, 500 ms apart), on stdout in a JSON
//	                        object (the value JSON-escaped, ASCII-escaped as
//	                        Python does, base64), and last on stderr in a JSON
//	                        error whose message quotes the input and, as
//	                        pydantic does, each string value of a JSON object
//	                        input (input_value='…'); every write is split in
//	                        the middle of what it echoes
//	ignore-term             ignore SIGTERM from now on (this process only)
//	pid                     print "pid self N"
//	forge PID               write into process PID's own pipes, as a hostile CLI
//	                        would reach its server's (Linux: /proc/PID/fd/N): a
//	                        JSON-RPC answer with id 999 into its stdout, a ping
//	                        request with id "forged-in" into its stdin, a log
//	                        line into its stderr; print, per descriptor, "fdN:
//	                        wrote" or why not
//	pem                     print a text with a PEM private key in the middle
//	alloc BYTES             allocate and touch BYTES of memory, then go on
//	tree KINDS              start descendants, each of which reports its pid and
//	                        sleeps forever; KINDS is a comma list of:
//	                          plain     an ordinary child
//	                          setsid    a child in a new session (as Playwright
//	                                    starts a browser)
//	                          daemon    a double-forked daemon (its parent exits)
//	                          holder    a child that keeps stdout open
//	                          stubborn  a child that ignores SIGTERM
//	                          stubborn-setsid
//	                                    a child in a new session that ignores
//	                                    SIGTERM (a browser that outlives a
//	                                    parent honouring SIGTERM)
//	                          forkloop  a child in a new session that starts a
//	                                    new session child every 2 ms, 100 times
//	                                    ("fork1" … "fork100")
//	                          launcher  a child that starts "python" and waits
//	                                    for it, as pip's console-script
//	                                    launchers do (Windows: in a job of its
//	                                    own with KILL_ON_JOB_CLOSE, as
//	                                    distlib's launcher does)
//	                          breakaway a child that starts a grandchild
//	                                    outside the job (Windows:
//	                                    CREATE_BREAKAWAY_FROM_JOB; it prints
//	                                    "breakaway refused" when the job says
//	                                    no); elsewhere a new session
//	                          hog:BYTES a child that allocates BYTES
//	crash SIGNAL            kill itself with SIGNAL (e.g. SEGV, KILL); on Windows
//	                        exit with the NTSTATUS that crash gives there
//	nestedlimit BYTES       Windows: run a child in a job of this process's own
//	                        (nested in the call's, as pip's launcher nests one)
//	                        with a notification limit of BYTES on committed
//	                        memory, have the child commit twice that, wait for
//	                        the limit's message on this job's own completion
//	                        port, print "nested limit reached" and go on (the
//	                        child dies with the job). Elsewhere it prints
//	                        "nested limit: no jobs here"
//	fds                     print "fds none", or "fds N M…": the descriptors above
//	                        stderr it was started with (Unix; "none" on Windows)
//	console                 print "console window yes" or "console window no"
//	                        (Windows: whether it has a console window; always
//	                        "no" elsewhere)
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "child" {
		child(args[1:])
		return
	}
	if len(args) > 0 && args[0] == "daemonize" {
		// The middle process of a double fork: start the daemon and leave,
		// so the daemon is orphaned.
		c := exec.Command(self(), "child", "daemon")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		c.SysProcAttr = newSession()
		must(startAnnounced(c))
		return
	}
	for _, step := range splitSteps(args) {
		run(step)
	}
}

func splitSteps(args []string) [][]string {
	var steps [][]string
	var cur []string
	for _, a := range args {
		if a == "--" {
			// The end-of-options marker a manifest renders before
			// positionals: the values after it join the current step.
			continue
		}
		if a == "+" {
			steps = append(steps, cur)
			cur = nil
			continue
		}
		cur = append(cur, a)
	}
	if len(cur) > 0 {
		steps = append(steps, cur)
	}
	return steps
}

func run(step []string) {
	if len(step) == 0 {
		return
	}
	arg := func(i int) string {
		if i >= len(step) {
			fail("step %q needs %d arguments", step[0], i)
		}
		return step[i]
	}
	out := os.Stdout
	switch step[0] {
	case "ok":
		fmt.Fprintln(out, "ok")
	case "argv":
		b, _ := json.Marshal(os.Args[1:])
		fmt.Fprintln(out, string(b))
	case "env":
		env := map[string]string{}
		for _, kv := range os.Environ() {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
		b, _ := json.Marshal(env)
		fmt.Fprintln(out, string(b))
	case "cwd":
		wd, err := os.Getwd()
		must(err)
		fmt.Fprintln(out, wd)
	case "echo":
		fmt.Fprintln(out, arg(1))
	case "json":
		fmt.Fprintln(out, `{"modelo":"303","periodo":"1T","resultado":123.45}`)
	case "bigjson":
		n, err := strconv.Atoi(arg(1))
		must(err)
		items := make([]string, 0, n/24+1)
		for i := 0; len(items)*24 < n; i++ {
			items = append(items, fmt.Sprintf(`"k%06d":"v%012d"`, i, i))
		}
		fmt.Fprintln(out, "{"+strings.Join(items, ",")+"}")
	case "stderr":
		fmt.Fprintln(os.Stderr, arg(1))
	case "sleep":
		d, err := time.ParseDuration(arg(1))
		must(err)
		time.Sleep(d)
	case "hang":
		forever()
	case "await":
		path := arg(max(1, len(step)-1))
		for {
			if _, err := os.Stat(path); err == nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	case "exit":
		n, err := strconv.Atoi(arg(1))
		must(err)
		os.Exit(n)
	case "lines":
		n, err := strconv.Atoi(arg(1))
		must(err)
		d, err := time.ParseDuration(arg(2))
		must(err)
		for i := 1; i <= n; i++ {
			fmt.Fprintf(out, "line %d\n", i)
			if i < n {
				time.Sleep(d)
			}
		}
	case "flood":
		n, err := strconv.ParseInt(arg(2), 10, 64)
		must(err)
		nonl := len(step) > 3 && step[3] == "nonl"
		switch arg(1) {
		case "stdout":
			flood(os.Stdout, n, nonl)
		case "stderr":
			flood(os.Stderr, n, nonl)
		case "both":
			done := make(chan struct{})
			go func() { flood(os.Stderr, n, nonl); close(done) }()
			flood(os.Stdout, n, nonl)
			<-done
		default:
			fail("flood: unknown stream %q", step[1])
		}
	case "badutf8":
		_, _ = out.Write([]byte("valid \xff\xfe invalid \xc3\x28 end\n"))
	case "stdin":
		n, err := io.Copy(io.Discard, os.Stdin)
		must(err)
		fmt.Fprintf(out, "stdin %d bytes\n", n)
	case "leak":
		leak()
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
	case "pid":
		fmt.Fprintf(out, "pid self %d\n", os.Getpid())
	case "forge":
		forge(arg(1))
	case "pem":
		fmt.Fprint(out, "before\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nsecretsecret\n-----END RSA PRIVATE KEY-----\nafter\n")
	case "alloc":
		n, err := strconv.ParseInt(arg(1), 10, 64)
		must(err)
		hold = touch(n)
	case "tree":
		for _, kind := range strings.Split(arg(1), ",") {
			spawn(kind)
		}
	case "crash":
		crash(arg(1))
	case "console":
		fmt.Fprintf(out, "console window %s\n", consoleWindow())
	case "nestedlimit":
		n, err := strconv.ParseInt(arg(1), 10, 64)
		must(err)
		fmt.Fprintln(out, nestedLimit(n))
	case "fds":
		fds := inheritedFDs()
		if fds == "" {
			fds = "none"
		}
		fmt.Fprintf(out, "fds %s\n", fds)
	default:
		fail("unknown step %q", step[0])
	}
}

// leak echoes stdin back in the ways a CLI does (the step "leak"), each
// write cut in two in the middle, 50 ms apart.
func leak() {
	data, err := io.ReadAll(os.Stdin)
	must(err)
	split := func(w io.Writer, s string) {
		_, _ = io.WriteString(w, s[:len(s)/2])
		time.Sleep(50 * time.Millisecond)
		_, _ = io.WriteString(w, s[len(s)/2:])
	}
	for i := 1; i <= 3; i++ {
		split(os.Stderr, fmt.Sprintf("step %d: reading %s\n", i, data))
		time.Sleep(500 * time.Millisecond)
	}
	jsonString := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	ascii := strconv.QuoteToASCII(string(data)) // \u00XX, as Python's json.dumps
	ascii = strings.ReplaceAll(ascii[1:len(ascii)-1], `\x`, `\u00`)
	split(os.Stdout, fmt.Sprintf(`{"input":%s,"input_ascii":"%s","input_b64":%q}`+"\n",
		jsonString(string(data)), ascii, base64.StdEncoding.EncodeToString(data)))
	msg := "could not parse " + string(data)
	var obj map[string]any
	if json.Unmarshal(data, &obj) == nil {
		for k, v := range obj {
			if s, ok := v.(string); ok {
				msg += fmt.Sprintf(" %s: input_value='%s'", k, s)
			}
		}
	}
	split(os.Stderr, `{"error":{"code":"BAD_SECRETS","message":`+jsonString(msg)+"}}\n")
}

// forge writes into process pid's stdin, stdout and stderr through
// /proc/PID/fd (the step "forge").
func forge(pid string) {
	lines := []string{
		`{"jsonrpc":"2.0","id":"forged-in","method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":999,"result":{"content":[{"type":"text","text":"forged"}]}}` + "\n",
		"level=ERROR msg=\"forged log line\"\n",
	}
	for fd, line := range lines {
		f, err := os.OpenFile(fmt.Sprintf("/proc/%s/fd/%d", pid, fd), os.O_WRONLY, 0)
		if err == nil {
			_, err = f.WriteString(line)
			f.Close()
		}
		if err != nil {
			fmt.Printf("fd%d: %v\n", fd, err)
		} else {
			fmt.Printf("fd%d: wrote\n", fd)
		}
	}
}

// hold keeps allocated memory reachable.
var hold []byte

func touch(n int64) []byte {
	b := make([]byte, n)
	for i := int64(0); i < n; i += 4096 {
		b[i] = 1
	}
	return b
}

func flood(w io.Writer, n int64, nonl bool) {
	bw := bufio.NewWriterSize(w, 64<<10)
	line := []byte(strings.Repeat("x", 79) + "\n")
	if nonl {
		line = []byte(strings.Repeat("y", 80))
	}
	for n > 0 {
		chunk := line
		if int64(len(chunk)) > n {
			chunk = chunk[:n]
		}
		if _, err := bw.Write(chunk); err != nil {
			os.Exit(3)
		}
		n -= int64(len(chunk))
	}
	_ = bw.Flush()
}

// announceEnv tells a spawned descendant which inherited descriptor to
// close once its pid line is out (startAnnounced, announced). The tree
// step returns only then, so a test reads the pid of everything it
// spawned however loaded the machine: a child still starting when its
// call ended used to be killed unreported, and the test saw one pid short.
const announceEnv = "FAKECLI_ANNOUNCE_FD"

func spawn(kind string) {
	var c *exec.Cmd
	switch {
	case kind == "daemon":
		c = exec.Command(self(), "daemonize")
	case kind == "setsid", kind == "stubborn-setsid", kind == "forkloop":
		c = exec.Command(self(), "child", kind)
		c.SysProcAttr = newSession()
	case kind == "breakaway":
		c = exec.Command(self(), "child", kind)
	case kind == "launcher":
		c = exec.Command(self(), "child", kind)
	case kind == "plain", kind == "holder", kind == "stubborn", strings.HasPrefix(kind, "hog:"):
		c = exec.Command(self(), "child", kind)
	default:
		fail("tree: unknown kind %q", kind)
	}
	// Every descendant shares stdout so its pid line reaches the capture;
	// the holder's whole point is that it keeps that pipe open.
	c.Stdout, c.Stderr = os.Stdout, os.Stderr
	must(startAnnounced(c))
	if kind == "daemon" {
		must(c.Wait())
	}
}

func child(args []string) {
	role := "child"
	if len(args) > 0 {
		role = args[0]
	}
	if role == "stubborn" || role == "stubborn-setsid" {
		signal.Ignore(syscall.SIGTERM)
	}
	if n, ok := strings.CutPrefix(role, "hog:"); ok {
		size, err := strconv.ParseInt(n, 10, 64)
		must(err)
		hold = touch(size)
	}
	if n, ok := strings.CutPrefix(role, "hogwait:"); ok {
		// A hog that commits its memory once told to (a byte on stdin):
		// after it was placed in a job.
		size, err := strconv.ParseInt(n, 10, 64)
		must(err)
		_, _ = os.Stdin.Read(make([]byte, 1))
		hold = touch(size)
	}
	fmt.Fprintf(os.Stdout, "pid %s %d\n", role, os.Getpid())
	announced()
	switch role {
	case "forkloop":
		for i := 1; i <= 100; i++ {
			c := exec.Command(self(), "child", "fork"+strconv.Itoa(i))
			c.Stdout, c.Stderr = os.Stdout, os.Stderr
			c.SysProcAttr = newSession()
			must(c.Start())
			time.Sleep(2 * time.Millisecond)
		}
	case "launcher":
		// The launcher waits for the program it launched and exits
		// with it, as pip's aeat.exe does for python.exe.
		c := exec.Command(self(), "child", "python")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		must(launch(c))
		_ = c.Wait()
		os.Exit(0)
	case "breakaway":
		c := exec.Command(self(), "child", "escaped")
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		c.SysProcAttr = breakawayAttr()
		if err := c.Start(); err != nil {
			fmt.Fprintf(os.Stdout, "breakaway refused: %v\n", err)
		}
	}
	if role != "holder" {
		// Everyone but the holder lets go of the pipes, so only the
		// holder is keeping the caller's reader waiting.
		devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		must(err)
		redirect(devnull)
	}
	forever()
}

// forever sleeps for good. (A bare select{} would be reported by the Go
// runtime as a deadlock and crash.)
func forever() {
	for {
		time.Sleep(time.Hour)
	}
}

func self() string {
	p, err := os.Executable()
	must(err)
	return p
}

func must(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "fakecli: "+format+"\n", a...)
	os.Exit(99)
}
