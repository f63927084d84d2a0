// Package proctest is the test kit: what the tests of every package use to
// build and start the programs they run, and to tell that processes are
// gone. It is for tests only; nothing in the product imports it.
//
// # Programs and inputs
//
// [Build] builds a main package of the module (aeat-mcp, the fakes) once
// per test binary; [Python] finds a Python with the modules a test needs,
// or skips it — fails it where CI sets AEAT_MCP_TEST_REQUIRE_PYTHON=1;
// [WarmCLI] is a copy of the Click test CLI that warm start runs;
// [AeatFacts] is the pinned facts of the real aeat CLI; [PrivateCache]
// keeps a run's manifest cache out of the user's.
//
// # Waiting on events
//
// A test waits for what it cannot be told of by an event with one bound,
// [HangAfter], never a guess at how fast the machine is: [Eventually],
// [WaitRunning] and [RequireNoneRunning] (processes of a program),
// [WaitLog] (a line in a log), and gates ([NewGate], [OpenGate]) that a
// fake's await step holds a run on until the test opens them. [AeatUser]
// is the fake aeat's user: its store and environment.
//
// # Processes gone
//
// One rule ([Gone], waited on by [RequireGone]) for the Linux tests of
// every package that spawns trees (callruntime, server, warm, e2e), so
// that a zombie means the same everywhere: gone, unless this process is
// its parent and has not reaped it. The macOS and Windows ports of
// callruntime's and warm's tests still check liveness their own way
// (proc_darwin_test.go, proc_windows_test.go, warm's os_darwin_test.go).
//
// Each OS reads its own process table: Linux /proc, macOS sysctl
// (kern.proc), Windows process handles and a Toolhelp snapshot. Only the
// Linux reader has run here; the others are compiled for their OS and run
// there (the CI workflow's macOS and Windows jobs).
package proctest
