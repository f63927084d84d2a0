package callruntime

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCrashName(t *testing.T) {
	tests := []struct {
		code uint32
		want string
	}{
		{0, ""},
		{1, ""},          // TerminateProcess's and os.Process.Kill's code
		{3, ""},          // abort() in the MSVC runtime exits 3
		{0xFFFFFFFF, ""}, // exit(-1): a customer code, not a crash
		{0xC0000005, "STATUS_ACCESS_VIOLATION"},
		{0xC00000FD, "STATUS_STACK_OVERFLOW"},
		{0xC0000409, "STATUS_STACK_BUFFER_OVERRUN"},
		{0xC000013A, "STATUS_CONTROL_C_EXIT"},
		{0xC0000135, "STATUS_DLL_NOT_FOUND"},
		{0xE06D7363, "MSVC_CPP_EXCEPTION"},
		{0xC0001234, "NTSTATUS_0xC0001234"}, // an error NTSTATUS we have no name for
		{0x80000003, ""},                    // a warning (STATUS_BREAKPOINT's severity is 2): not taken for a crash
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, crashName(tc.code), "0x%08X", tc.code)
	}
}

func TestDescribeHostJob(t *testing.T) {
	// libuv's own job, as every Node-based host makes it.
	h := describeHostJob(0x800|0x1000|0x400|0x2000, 0)
	assert.Equal(t, []string{"DIE_ON_UNHANDLED_EXCEPTION", "BREAKAWAY_OK", "SILENT_BREAKAWAY_OK", "KILL_ON_JOB_CLOSE"}, h.Limits)
	assert.Empty(t, h.UI)
	assert.Contains(t, h.String(), "KILL_ON_JOB_CLOSE")
	ui := describeHostJob(0, 0x1|0x40)
	assert.Equal(t, []string{"HANDLES", "DESKTOP"}, ui.UI)
	assert.Contains(t, ui.String(), "cannot be nested")
}
