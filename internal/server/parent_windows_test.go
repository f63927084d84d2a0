package server

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"
)

// TestWatchParentExit_Unopenable (W12): a parent the server may not open —
// here a process whose security descriptor denies SYNCHRONIZE to everyone,
// as an elevated or protected host's would — is an error the server logs,
// not a silent return: Windows never re-parents, so nothing else would tell
// that the host died. Compiled everywhere by CI; runs on Windows.
func TestWatchParentExit_Unopenable(t *testing.T) {
	sd, err := windows.SecurityDescriptorFromString("D:(D;;0x00100000;;;WD)(A;;0x001FFFFF;;;WD)")
	require.NoError(t, err)
	sa := &syscall.SecurityAttributes{SecurityDescriptor: uintptr(unsafe.Pointer(sd))}
	sa.Length = uint32(unsafe.Sizeof(*sa))
	host := exec.Command(os.Args[0], "-test.run=^TestParentWatchHelper$")
	host.Env = append(os.Environ(), "PARENT_WATCH_ROLE=sleeper")
	host.SysProcAttr = &syscall.SysProcAttr{ProcessAttributes: sa}
	require.NoError(t, host.Start())
	t.Cleanup(func() { _ = host.Process.Kill(); _ = host.Wait() })

	gone := false
	stop, err := watchParentExit(host.Process.Pid, func() { gone = true })
	defer stop()
	assert.Error(t, err, "a parent that cannot be opened is reported")
	assert.Contains(t, err.Error(), "opening the parent process")
	assert.False(t, gone, "and not taken for a dead one")
}
