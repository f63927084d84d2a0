package main

import (
	"strings"
	"testing"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
	"github.com/stretchr/testify/assert"
)

// TestDoctorHostJob: on Windows doctor says whether the server runs in a
// host's job and with which limits, and what calls get when they cannot
// have a job of their own — where a host's job with UI restrictions used to
// make every call fail while doctor showed green.
func TestDoctorHostJob(t *testing.T) {
	var b strings.Builder
	doctorHostJob(&b, &callruntime.Report{Platform: "linux"})
	assert.Empty(t, b.String(), "nothing to say outside Windows")

	b.Reset()
	doctorHostJob(&b, &callruntime.Report{Platform: "windows",
		Mechanisms: []callruntime.MechanismStatus{{Mechanism: callruntime.JobObject, Available: true, Used: true}}})
	assert.Contains(t, b.String(), "runs in no job")

	b.Reset()
	doctorHostJob(&b, &callruntime.Report{Platform: "windows",
		Host:       &callruntime.HostJob{Limits: []string{"KILL_ON_JOB_CLOSE"}, UI: []string{"DESKTOP"}},
		Mechanisms: []callruntime.MechanismStatus{{Mechanism: callruntime.JobObject, Detail: "access denied"}}})
	out := b.String()
	assert.Contains(t, out, "KILL_ON_JOB_CLOSE")
	assert.Contains(t, out, "DESKTOP")
	assert.Contains(t, out, "tree_dead stays false")
	assert.Contains(t, out, "fix:")
}
