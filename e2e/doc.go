// Package e2e holds the end-to-end tests of aeat-mcp: the built binary,
// started as a host starts it and spoken to over real stdio — by the Go
// SDK's client or by raw JSON-RPC lines — against the fake CLIs
// (testdata/fakecli, testdata/fakeaeat, the Click test CLI
// testdata/warmcli). The tests use what a user has: the binary, its flags
// and environment, the wire; never the server's Go API. The wire's words
// (outcome codes, _meta keys, tool names) are spelled out here
// (wire_test.go) on purpose: a renamed code fails these tests as it would
// fail a host. Tests that need the server's internals stay in
// internal/server, in-process.
//
// Run them with
//
//	go test -race ./e2e
//
// The package builds aeat-mcp and the fakes once per run
// (internal/proctest.Build). What needs Linux (the parent-death signal,
// /proc, cgroups, the warm template) or Unix signals is in files built
// for it; the rest builds for every OS (CI compiles it for darwin and
// windows; the workflow runs it there). The warm-start tests need
// Python 3 with click, and skip without it unless
// AEAT_MCP_TEST_REQUIRE_PYTHON=1 (CI) makes them fail.
package e2e
