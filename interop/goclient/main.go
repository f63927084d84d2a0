// Command goclient is the go-sdk's own MCP client, timed: it spawns a
// server, connects (server/discover, falling back to initialize; or the
// initialize handshake of -protocol), lists the tools, and prints how long
// that took from the spawn, as one JSON line. interop/connect.mjs runs it
// against aeat-mcp and against the reference server, alternately.
//
//	goclient [-protocol 2025-11-25] -- command [arg...]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	protocol := flag.String("protocol", "", "the protocol version to ask for; empty: the SDK's latest (2026-07-28), falling back to initialize")
	timeout := flag.Duration("timeout", 3*time.Minute, "how long the whole connect may take")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: goclient [-protocol VERSION] -- command [arg...]")
		os.Exit(2)
	}
	if err := run(*protocol, *timeout, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "goclient:", err)
		os.Exit(1)
	}
}

// run connects to the server argv starts and lists its tools.
func run(protocol string, timeout time.Duration, argv []string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "aeat-mcp-interop-go", Version: "1"}, nil)
	start := time.Now() // CommandTransport starts the process in Connect
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		return fmt.Errorf("connecting: %w", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return fmt.Errorf("listing tools: %w", err)
	}
	elapsed := time.Since(start)
	negotiated := ""
	if r := cs.InitializeResult(); r != nil {
		negotiated = r.ProtocolVersion
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"ms":       float64(elapsed.Microseconds()) / 1000,
		"tools":    len(tools.Tools),
		"protocol": negotiated,
	})
}
