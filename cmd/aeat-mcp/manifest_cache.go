package main

import (
	"fmt"
	"log/slog"
	"os"

	"github.com/aeat-mcp/aeat-mcp/internal/annotations"
	"github.com/aeat-mcp/aeat-mcp/internal/server"
)

// manifestCache keeps the manifests this binary validated in the user's
// cache directory (annotations.Cache), so a server of a 300-verb CLI
// starts like one of 19: the host waits for it before initialize.
func manifestCache(logger *slog.Logger) *annotations.Cache {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &annotations.Cache{Dir: annotations.DefaultCacheDir(), Version: cacheVersion(), Logger: logger, Listed: server.ListedJSON}
}

// cacheVersion is this binary's version and, because a development build
// ("devel", or a revision with changes) keeps its version across
// rebuilds, the executable's size and modification time.
func cacheVersion() string {
	v := buildVersion()
	if exe, err := executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			v += fmt.Sprintf(" %d %d", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return v
}
