// Package callruntime runs one CLI invocation as a supervised process tree
// that always dies on time. It never invokes a shell and knows nothing of MCP.
//
// A [Spec] names an absolute program path, its arguments, its whole
// environment, a working directory, a timeout, a kill grace, output caps, an
// output [Filter], a line observer and a memory ceiling. [Runner.Run] starts
// the program and returns a [Result] that tells apart a normal exit, a crash,
// a timeout, a cancellation and a memory ceiling, with the captured output.
// Only a program that could not start is an error ([*StartError]).
//
// # Guarantees
//
//  1. When Run returns, every process the call started is gone — after a
//     timeout, after the caller's ctx is cancelled, and after a normal exit
//     that left a daemon behind — including descendants that left the
//     process group (a browser started with setsid, as Playwright does) and
//     double-forked daemons. [Result.TreeDead] says the supervisor confirmed
//     it; orphans the kernel re-parented to the server are reaped, so their
//     pids answer ESRCH.
//  2. Timeout and cancellation both send SIGTERM to every process of the
//     tree, wait up to [Spec.KillGrace], then SIGKILL. A tree that honours
//     SIGTERM is gone in milliseconds; one that ignores it ends at timeout +
//     grace.
//  3. stdin is the null device (the server's stdin is its JSON-RPC pipe);
//     the environment is exactly [Spec.Env] (on Windows plus SYSTEMROOT,
//     which os/exec adds when it is missing), nothing is inherited; the
//     working directory is [Spec.Dir].
//  4. stdout and stderr are read concurrently, each by one goroutine, into a
//     bounded head+tail capture: memory stays flat whatever the program
//     writes (1 GiB on each stream peaks under 32 MiB of RSS for the whole
//     supervising process). Invalid UTF-8 is replaced, never dropped.
//  5. The [Spec.OnLine] observer sees lines while the program runs, on a
//     goroutine of its own. It cannot block the readers (lines are dropped
//     and counted when it falls behind), change the result, or crash the
//     run (a panic is contained). It is never called after Run returns.
//  6. A [Spec.Filter] with per-stream state rewrites each stream before the
//     capture and the observer see it; [RedactPrivateKeys] removes armored
//     private-key blocks (however their markers are mangled), PuTTY private
//     lines and JWK private members, also when split across reads.
//     [Spec.Secrets] —
//     what the program was given on stdin, a keychain value — are replaced
//     with [RedactedSecret] before any filter, in every spelling a
//     program's libraries print them in ([RedactSecrets]), also when split
//     across reads or broken across lines by a wrapper.
//  7. [Spec.MemoryLimit] bounds the whole tree: on Linux its resident
//     memory, which the kernel enforces through cgroup v2 memory.max where
//     the controller is delegated, otherwise a watchdog sums the tree's RSS
//     every 100 ms; on Windows its committed memory (the Job Object's
//     notification limit). Exceeding it kills the tree: [ResourceExceeded].
//  8. If the server process dies while calls run — even by SIGKILL — their
//     trees die with it where the platform allows (see below); where the
//     lifeline died with it, the next Runner to start kills what is left.
//
// # Mechanisms
//
// [NewRunner] probes the machine once and uses the best it offers, with
// fallbacks; [Runner.Mechanisms] reports them (a doctor command prints it)
// and [Options.Disable] forces a fallback.
//
// Linux: each call leads its own process group; its leader gets Pdeathsig
// (SIGKILL). Every leader is forked from one spawner thread, locked for the
// life of the process, because Linux fires Pdeathsig when the forking
// thread exits, not the process. Where the cgroup v2
// hierarchy is writable, each call runs in a cgroup of its own, entered at
// clone time (CLONE_INTO_CGROUP); where clone3 is refused (a container's
// seccomp profile, an older kernel), the program is held — this binary
// re-executed, waiting on a pipe — until it has been moved into the cgroup,
// then executed in place, so nothing it forks starts outside. cgroup.kill
// ends the cgroup atomically and cgroup.events tells when it is empty. Elsewhere, a /proc walk finds the tree by process group, session and
// parent pid, with the server as child subreaper so orphans are re-parented
// to it rather than to init. Membership is sticky: a process once seen as a
// member stays one while it is the same process (pid and start time), so
// walks follow the call while it runs (20 ms after the start, then twice as
// late each time, up to 1 s). Before any signal the whole set is stopped
// (SIGSTOP) until a walk finds nothing new, so a forking tree cannot outrun
// it and a parent cannot exit before its children are signalled. The
// leader is left a zombie (waitid WNOWAIT) until the rest of the tree is
// gone, so neither its pid nor its process group can be reused meanwhile.
// What the walks saw is recorded in a ledger in a private state directory
// ([Options.StateDir]). A lifeline process — this binary re-executed once
// per Runner — holds a pipe from the server and, when the server dies,
// kills the cgroup subtree, or the leaders' process groups and everything
// the ledger lists; when the lifeline died with the server, the next Runner
// to start kills what the dead server's ledger lists (or removes its
// cgroups). PID namespaces are probed and reported but not used: the CLI
// would be PID 1 (deaf to SIGTERM without a handler), and an init shim in
// front of it costs a re-exec per call.
//
// macOS (compiled and reasoned from XNU's sources; not run here): process
// group, plus the same sticky walks of the process table (sysctl
// kern.proc.all) — XNU re-parents a process's children to launchd the
// moment it exits, so only a walk that saw them before can find them —
// woken at once by kqueue when a member forks or exits, the same freeze
// before signals, the leader waited for with kqueue NOTE_EXIT, and the same
// lifeline and ledger. A walk reads only the processes the server may
// signal (its user's) and asks each one's session once (XNU leaves
// e_sess empty, so that is a getsid per process); during the grace a stop
// waits for the members' NOTE_EXIT rather than walking back to back.
// Without the process table only the group is asked, and its EPERM —
// XNU's answer for a group that holds only its leader's zombie — counts as
// gone unless a read of the group finds a live member. A double-forked
// daemon orphaned before any walk saw it cannot be attributed; the memory
// ceiling is not enforced.
//
// Windows (compiled and reasoned from Microsoft's documentation; not run
// here): a Job Object per call with KILL_ON_JOB_CLOSE; the program starts
// suspended and is resumed once inside the job, so nothing escapes, and the
// kernel kills the tree when the server dies however it dies. The mechanism
// is probed at start, because a host may run the server in a job of its own
// that forbids nesting (UI restrictions): then calls break away from it
// where it allows, or fall back to a walk (Toolhelp, by parent pid and
// creation time) and TerminateProcess, with [Result.TreeDead] false. Where
// the server has a console, a stop sends CTRL_BREAK to the call's process
// group and terminates the job after the grace; without one, calls start
// with CREATE_NO_WINDOW and are terminated at once. The memory ceiling is a
// notification limit on the job's committed memory. A job nested in the
// call's (pip's and uv's launchers nest one) sends its messages to the
// call's port too: its emptying only wakes a stop to ask the call's own
// job, and a memory message counts only when the call set a limit and its
// own job is over it. A crash is reported as
// its NTSTATUS ([Result.Signal] "STATUS_ACCESS_VIOLATION").
//
// Every OS: [CheckRunnable] is applied before each start — on Windows only
// .exe and .com programs run, never a batch file, which cmd.exe would run
// with its own parsing of the arguments.
//
// # Helper processes
//
// Because the lifeline — and, where clone3 is refused, the trampoline that
// holds a call's program until it is in its cgroup — is this binary
// re-executed, the package's init functions turn a process started with
// AEAT_MCP_CALLRUNTIME_HELPER in its environment into that helper before
// main runs. Nothing else is done at init.
package callruntime
