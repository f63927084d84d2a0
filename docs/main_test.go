package docs

import (
	"os"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/proctest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	proctest.RemoveBuilds()
	os.Exit(code)
}
