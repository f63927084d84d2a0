// Package packaging holds no code: it is the home of the tests that hold
// what aeat-mcp ships to its contracts (docs/install.md and docs/releasing.md) — the MCP Bundle's
// manifest, launcher and icon (mcpb/), the signed bundle scripts/bundle
// builds inside a goreleaser run, the release's archives, checksums and
// Homebrew cask, and server.json for the MCP Registry (registry/),
// validated against the registry's own 2025-12-11 schema, vendored here
// because the publisher's validate needs the network.
//
// The tests of a release run when .ci/run points them at a snapshot's
// files (AEAT_MCP_DIST, AEAT_MCP_BUNDLE, AEAT_MCP_BUNDLE_CERT,
// AEAT_MCP_SERVER_JSON); the others always run.
package packaging
