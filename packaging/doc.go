// Package packaging holds no code: it is the home of the tests that hold
// what aeat-mcp ships to its contracts (docs/install.md and docs/releasing.md) — the MCP Bundle's
// manifest and launcher (mcpb/), the bundle scripts/bundle builds from a
// goreleaser dist/, and server.json for the MCP Registry (registry/),
// validated against the registry's own 2025-12-11 schema, vendored here
// because the publisher's validate needs the network.
//
// The tests of a built bundle and of its server.json run when .ci/run
// points them at the files (AEAT_MCP_BUNDLE, AEAT_MCP_SERVER_JSON); the
// others always run.
package packaging
