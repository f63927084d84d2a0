// Package warm starts the calls of a Python CLI from a template process that
// has already imported it (cli.warm, docs/warm-start.md): a call costs a fork and
// the verb's own work, not an interpreter's start-up and the CLI's imports.
// It never runs a call outside callruntime: every warm call is supervised by
// the same [callruntime.Runner] as a cold one. It knows nothing of MCP.
//
// # The template
//
// [Start] runs the CLI's interpreter (the one on its script's #! line) with
// the environment and working directory a call gets (on Linux, plus glibc's
// huge-page advice for its allocator, which the CLI never sees: templateEnv),
// and a small Python program embedded in this package (template.py, run
// with python -c). It
// imports the entry point, walks the Click or Typer command tree (preload
// "click"; Typer groups are recognised by what they do, not by class, since
// Typer ships its own copy of Click), runs the declared warm-up argvs with
// their output discarded, imports cli.warm.preload's modules and calls its
// set-up hooks ("module:function": one-time set-up a verb does, such as
// loading a registry), reads the installed distributions' entry points once
// where the preload imported importlib.metadata (a call answers from them
// while sys.path's directories are unchanged: _keep_entry_points), and
// reports ready with its thread count, the
// descriptors the CLI left open, the fork canary's verdict and the files it
// loaded from the CLI's package. It then serves fork requests over a Unix
// socket pair (its fd 3), and nothing else. aeat-mcp warm record finds the
// modules from the CLI itself ([Pool.Record]: what a call loaded that its
// template had not).
//
// # One call
//
// The server makes a socket pair for the call and passes one end to the
// template with SCM_RIGHTS, carrying the call's stdin, stdout and stderr and
// the read end of a go pipe — descriptors only. The template refuses if it
// has more than one thread (forking a threaded process is unsafe): the call
// starts cold and warm start is off. Otherwise it freezes its objects
// (gc.freeze: the child's collections never walk them) and forks. The child
// makes itself a session leader (so a process group of its own), reports its
// pid, closes the template's descriptors and blocks on the go pipe. It does
// not die with the template: once it runs, the call's tree holds it, and a
// template that dies (killed, OOM-killed) takes no call with it.
//
// On Linux the template keeps a spare (template.py, _Spares): a child
// forked ahead of the next call, while no call runs, that dies with the
// template (PR_SET_PDEATHSIG) until it is handed one. It reseeds its
// generators and copies, once, the template's pages that earlier calls'
// children wrote (they report the pages they hold alone, from
// /proc/self/pagemap, after their output is out; up to 64 MiB), so a call
// does not pay the fork nor those copy-on-write faults. A call takes the
// spare when it is ready (or waits for one being made) and is handed the
// call's descriptors exactly as a forked child gets them; from there it is
// that child. It is born in its berth (berth.go): the cgroup of the call it
// will be handed, made before that call and sent with the fork request
// before it, so that no call waits for a move into its cgroup; without a
// berth it is moved there. A spare that died is replaced, never used.
//
// Meanwhile callruntime ([callruntime.Spec.Adopt]) checks that the pid's
// parent is the template and that it has not exited, moves it into the call's
// cgroup (cgroup.procs: where the template could not fork it straight into it
// with clone3 CLONE_INTO_CGROUP, given the cgroup's directory) or registers
// it as the call's leader with the /proc walk and the lifeline, and only
// then writes the call's request on the go
// pipe: its argv, working directory and whole environment. Not a line of the
// CLI runs outside the call's tree, and the template never sees the request:
// a secret loaded at call time (cli.env.keychain) reaches the child alone.
// The child then takes the call's descriptors as 0, 1 and 2, its directory
// and environment — plus what importing the CLI did to the template's
// environment (awscli sets AWS_DATA_PATH at import), for each variable the
// call starts with as the template did (one the call set otherwise keeps the
// call's value, as a setdefault at import would) — resets tempfile's cached
// directory, reseeds every random number generator the template holds (as
// multiprocessing does: one made at import would give every call the same
// numbers), runs the reset hooks (a settings cache built in the template
// would otherwise serve the template's environment), and runs the console
// script as __main__, as a cold call does (compiled once in the template;
// its imports are the template's, its own top-level lines run per call).
// A script that is not Python source has its entry point called instead:
// sys.exit(main()).
//
// It ends as the interpreter ends a program — non-daemon threads joined,
// atexit functions run, stdout and stderr flushed (status 120 when stdout
// cannot be), the exit status of SystemExit, an uncaught exception's
// traceback, death by SIGINT for an unhandled KeyboardInterrupt — and
// finalizes the objects the call made (an unclosed file is flushed and
// closed, a NamedTemporaryFile removed), then calls _exit. It skips the
// teardown of the template's modules and objects: that teardown touches every
// object the fork shared (copying each page), which made it most of a warm
// call's cost, and the finalizers of what the template holds belong to the
// template. A traceback is the same as a cold call's: it starts at the
// console script's line.
//
// The template reports the child's exit status on the call socket and keeps
// it a zombie (waitid WNOWAIT) until the server closes the socket, so its pid
// and process group are not reused while the rest of its tree is stopped;
// then it reaps it (killing it first if it still runs). The server also
// follows the child itself (a pidfd on Linux, kqueue on macOS): a template
// that died or stopped answering keeps no call from learning that its child
// ended. When the template died, the server — its child subreaper, the
// child's parent now — reads the status itself; a call whose status cannot
// be learnt, or that a signal ended once its template was gone, is lost to
// warm start, not the CLI's doing ([LostError]): the server runs a READ
// again, cold, and answers any other as its own fault, retryable.
//
// # Death
//
// Timeout, cancellation, the memory ceiling, caps, filters, progress and
// tree_dead are callruntime's, unchanged: the tree is the call's cgroup or
// walk set. The template is started with [callruntime.Runner.StartHelper]:
// Pdeathsig from the runner's spawner thread (which lives as long as the
// server), its own process group, known to the lifeline — so a SIGKILLed
// server takes it along, and the lifeline kills the calls' cgroups (setsid
// descendants included) or, on the /proc walk, their leaders' groups.
// When the server closes its end of the control socket (stdin EOF, SIGTERM,
// [Pool.Close]), the template kills its children and exits.
//
// # Safety nets
//
// A template that dies is replaced (three deaths in five minutes turn warm
// start off); so is one whose CLI changed on disk (the script and the
// package files it loaded: size and mtime, looked at no more than once a
// second, by the call that notices — which starts cold), and one that served
// cli.warm.max_calls calls (it serves until its replacement is ready). At
// every template start the verify argvs run cold and warm, and their stdout
// must be byte-identical, else warm start is off with the reason in
// [Pool.Status] (doctor prints it). Each time a Pool turns on or off it
// leaves a [Verdict] in Config.VerdictDir, so that a command that must not
// start a template (tools) can say it too, and whether the CLI changed
// since. A verify run that times out says the machine is loaded, not that
// warm start is wrong: the runs are made again with back-off and a ceiling
// twice as long each time (up to 8 times the first), never the verdict
// off. Any failure to fork a call ([*callruntime.AdoptError]) is logged and
// the call starts cold: a call never fails because warm start did. While
// no template is ready, a call waits for the one being started when it is
// foreseen to serve before a cold run would end (from the last start here,
// kept in the verdict, then from its progress), else starts cold.
//
// Warm start's own preparation yields to the calls (yield.go): while a
// call runs through the Pool (or beside it: [Pool.Yield]), a template still starting has its process
// group stopped (SIGSTOP, then SIGCONT once no call runs), and no verify
// run goes on — one in progress is cancelled and made again later with its
// whole ceiling (held time never counts toward it). A template that serves
// is never held, so nothing of the hold reaches the calls it forks.
//
// A template that does not answer — a fork request, or a child's end —
// within answerWait (10 s; SIGSTOP, a swap storm) is killed and replaced;
// every wait for it is also bounded by the call's own ceiling.
//
// A template is not served from when it has more than one thread, when the
// CLI left a descriptor open in it (at import, preload or warm-up: every
// call would share it with the template and the others, a file's offset
// included; a file opened for appending alone, a log, is let through), or
// when the fork canary fails: at every template start a forked child
// touches what Apple's runtimes kill a forked child for (the system proxy
// settings; on macOS the keychain backend too) and must exit 0 (a canary
// that does not end within Config.CanaryWait is no verdict: its template is
// replaced, as one that died).
//
// # Platforms
//
// Linux: all of the above. macOS: compiled, never run, and off unless turned
// on (DefaultOn); its tests build there. Fork and SCM_RIGHTS exist, the
// child becomes the call's leader as a cold call's program does there (the
// process-table walks' membership, the ledger, kqueue), the template is
// watched by the lifeline as a helper, and clone3 does not exist: the child
// is plain-forked. The thread check is pthread_is_threaded_np() (the
// Objective-C runtime's own criterion), the fork canary touches the
// keychain too, and a warm call a signal ended turns warm start off for
// good — a sticky verdict, until the CLI changes — and is lost, not the
// CLI's crash ([crashTurnsOff]). There is no child subreaper: a child whose
// template died goes to launchd, and its call is lost. Each of these is a
// function of Config.GOOS, so Linux's tests run macOS's branches. Windows
// has no fork: warm start is off, every call starts cold.
//
// # Costs
//
// The template's resident memory for the life of the server (the CLI's
// imports: for aeat 240–420 MiB), and one interpreter start-up plus the
// verify calls, cold and warm, whenever a template starts.
package warm
