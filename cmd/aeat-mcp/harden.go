package main

// The server's own process is closed, where the OS can close it, to the
// programs it runs: a CLI runs as the same user, and the same user may
// open another process's pipes through the OS — on Linux
// /proc/PID/fd/N, which gave a cold CLI the server's stdout (a forged
// JSON-RPC answer reached the host) and its stdin (a request the host
// never sent), and a warm call the server's log. See harden_*.go for what
// each OS offers; the warm template does the same for itself
// (internal/warm/template.py).
//
// What it does not close: a CLI of the same user is not sandboxed. It can
// still reach the host's own end of those pipes through the host's process
// (hosts are not hardened), and anything the user can do.
//
// main calls harden first thing; doctor reports what it did
// (system.hardening, system.hardenErr).
