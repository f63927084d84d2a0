//go:build linux

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The manifest cache as the built binary uses it: in the user's cache
// directory (XDG_CACHE_HOME here; os.UserCacheDir elsewhere).

// servedList starts the binary on manifest with cacheHome as its cache
// directory, asks for tools/list after initialize, and returns the answer's
// result, everything else it wrote on stdout, and its stderr.
func servedList(t *testing.T, manifest, cacheHome string) (json.RawMessage, []byte, string) {
	t.Helper()
	cmd := exec.Command(binary, "--manifest", manifest, "--cli", fakeaeat)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cacheHome)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	// stderr is read only once the server has exited (it is written
	// meanwhile by exec's copying goroutine).
	fail := func(what string, err error) {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("%s: %v; stderr: %s", what, err, stderr.String())
	}
	r := bufio.NewReaderSize(out, 1<<20)
	if _, err := io.WriteString(in, initLine+"\n"); err != nil {
		fail("writing initialize", err)
	}
	initAnswer, err := r.ReadBytes('\n')
	if err != nil {
		fail("reading the answer to initialize", err)
	}
	if _, err := io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n"); err != nil {
		fail("writing tools/list", err)
	}
	line, err := r.ReadBytes('\n')
	if err != nil {
		fail("reading the answer to tools/list", err)
	}
	in.Close()
	rest, _ := io.ReadAll(r)
	require.NoError(t, cmd.Wait(), stderr.String())
	var answer struct {
		ID     int
		Result json.RawMessage
	}
	require.NoError(t, json.Unmarshal(line, &answer))
	require.Equal(t, 2, answer.ID)
	return answer.Result, append(initAnswer, rest...), stderr.String()
}

// cacheFiles are the files in the binary's manifest cache under home.
func cacheFiles(t *testing.T, home string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(home, "aeat-mcp", "manifests", "*"))
	require.NoError(t, err)
	return files
}

// TestE2E_ManifestCache: the first start writes the cache, the next reads
// it and lists the same tools; a corrupt cache file is ignored and rebuilt
// with a warning on stderr (stdout stays JSON-RPC only); a cache directory
// that cannot be made does not stop the server; servers started at once
// leave one whole file.
func TestE2E_ManifestCache(t *testing.T) {
	manifest := filepath.Join(t.TempDir(), "aeat.manifest.json")
	data, err := os.ReadFile(curatedAeatManifest)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(manifest, data, 0o600))
	home := t.TempDir()

	first, _, _ := servedList(t, manifest, home)
	files := cacheFiles(t, home)
	require.Len(t, files, 1, "the first start keeps the manifest")
	written, err := os.ReadFile(files[0])
	require.NoError(t, err)

	again, _, _ := servedList(t, manifest, home)
	assert.Equal(t, string(first), string(again))

	// onlyJSONRPC: stdout holds JSON-RPC and nothing of the cache.
	onlyJSONRPC := func(t *testing.T, stdout []byte) {
		t.Helper()
		assert.NotContains(t, string(stdout), "cache")
		for _, line := range bytes.Split(bytes.TrimSpace(stdout), []byte("\n")) {
			var msg struct{ JSONRPC string }
			require.NoError(t, json.Unmarshal(line, &msg), "stdout: %q", line)
			assert.Equal(t, "2.0", msg.JSONRPC)
		}
	}
	// A byte of the head (past the magic and the head's length: the key),
	// which a start checks: the file is ignored and rebuilt at the start.
	t.Run("corrupt", func(t *testing.T) {
		spoilt := bytes.Clone(written)
		spoilt[64] ^= 0x55
		require.NoError(t, os.WriteFile(files[0], spoilt, 0o600))
		got, stdout, stderr := servedList(t, manifest, home)
		assert.Equal(t, string(first), string(got))
		assert.Contains(t, stderr, "the manifest cache is unusable and was ignored")
		onlyJSONRPC(t, stdout)
		rebuilt, err := os.ReadFile(files[0])
		require.NoError(t, err)
		assert.Equal(t, written, rebuilt)
	})
	// A byte past the head (a tool's section or the details part, read
	// when first needed): the tools are listed as ever, the spoilt file is
	// removed when its bad part is read, and the next start writes it whole.
	t.Run("corrupt-section", func(t *testing.T) {
		spoilt := bytes.Clone(written)
		spoilt[len(spoilt)*3/4] ^= 0x55
		require.NoError(t, os.WriteFile(files[0], spoilt, 0o600))
		got, stdout, _ := servedList(t, manifest, home)
		assert.Equal(t, string(first), string(got))
		onlyJSONRPC(t, stdout)
		got, _, _ = servedList(t, manifest, home)
		assert.Equal(t, string(first), string(got))
		rebuilt, err := os.ReadFile(files[0])
		require.NoError(t, err)
		assert.Equal(t, written, rebuilt)
	})
	t.Run("no-cache-directory", func(t *testing.T) {
		notADir := filepath.Join(t.TempDir(), "file")
		require.NoError(t, os.WriteFile(notADir, nil, 0o600))
		got, _, stderr := servedList(t, manifest, notADir)
		assert.Equal(t, string(first), string(got))
		assert.Contains(t, stderr, "could not be written")
	})
	t.Run("concurrent-starts", func(t *testing.T) {
		// Each server loads the manifest, finds stdin closed and exits.
		fresh := t.TempDir()
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				cmd := exec.Command(binary, "--manifest", manifest, "--cli", fakeaeat)
				cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+fresh)
				errs[i] = cmd.Run()
			})
		}
		wg.Wait()
		for _, err := range errs {
			assert.NoError(t, err)
		}
		assert.Len(t, cacheFiles(t, fresh), 1, "one file, no temporary one left")
		got, _, _ := servedList(t, manifest, fresh)
		assert.Equal(t, string(first), string(got))
	})
}
