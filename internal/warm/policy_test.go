package warm

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// What differs per OS is a function of its name: each branch runs here.
func TestPolicies(t *testing.T) {
	assert.True(t, DefaultOn("linux"))
	assert.False(t, DefaultOn("darwin"), "off on macOS until it has run there")
	assert.Empty(t, DefaultOffReason("linux"))
	assert.Contains(t, DefaultOffReason("darwin"), "--warm=true")

	assert.Equal(t, []string{"proxies", "keyring"}, canarySteps("darwin"), "what Apple's runtimes kill a forked child for")
	assert.Equal(t, []string{"proxies"}, canarySteps("linux"), "no keychain look-up, which may start D-Bus daemons")

	for _, tc := range []struct {
		goos, sig string
		off       bool
	}{
		{"darwin", "SIGABRT", true},
		{"darwin", "SIGTRAP", true},
		{"darwin", "SIGKILL", true},
		{"darwin", "SIGINT", false}, // an unhandled KeyboardInterrupt, warm or cold
		{"darwin", "", false},
		{"linux", "SIGSEGV", false}, // the CLI's crash, as a cold call's would be
	} {
		assert.Equal(t, tc.off, crashTurnsOff(tc.goos, tc.sig), "%s %s", tc.goos, tc.sig)
	}
}

// A call waits for a starting template only while it is foreseen to serve
// before a cold run started now would end, and gives up on one later than
// foreseen by a whole cold run.
func TestWorthWaiting(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	p := &Pool{launching: true, state: Starting, yield: newYielding()}
	_, ok := p.worthWaiting(now)
	assert.False(t, ok, "nothing foreseen: start cold")

	p.est.savedCold = 5 * time.Second
	p.est.readyAt = now.Add(3 * time.Second)
	until, ok := p.worthWaiting(now)
	assert.True(t, ok, "ready in 3 s, a cold run takes 5")
	assert.Equal(t, now.Add(8*time.Second), until)
	end := p.yield.call()
	_, ok = p.worthWaiting(now)
	assert.False(t, ok, "a template held for a call serves after it at the soonest: start cold")
	end()

	p.est.readyAt = now.Add(6 * time.Second)
	_, ok = p.worthWaiting(now)
	assert.False(t, ok, "a cold run would end first")

	p.est.readyAt = now.Add(-6 * time.Second)
	_, ok = p.worthWaiting(now)
	assert.False(t, ok, "later than foreseen by a whole cold run")

	p.est.readyAt = now
	p.est.cold(time.Second)
	p.est.cold(9 * time.Second)
	p.est.cold(2 * time.Second)
	assert.Equal(t, 2*time.Second, p.est.coldRun(now), "the median of the runs seen wins over the verdict's")

	p.state = Off
	_, ok = p.worthWaiting(now)
	assert.False(t, ok, "off: start cold")
}

// Before any cold run ended, the cold verify run in progress says a cold
// run takes at least as long as it has run so far.
func TestColdRunWhileVerifying(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var e estimates
	assert.Zero(t, e.coldRun(now))
	e.coldVerify = now.Add(-4 * time.Second)
	assert.Equal(t, 4*time.Second, e.coldRun(now))
	e.imported(now)
	assert.Equal(t, now, e.readyAt, "at least the cold verify's end, which cannot be foreseen later than now yet")
	e.warmVerify = 100 * time.Millisecond
	e.colds = []time.Duration{10 * time.Second}
	e.imported(now)
	assert.Equal(t, now.Add(6100*time.Millisecond), e.readyAt, "the cold verify's end (it began 4 s ago; a cold run takes 10), then the warm runs")
}

// The template's interpreter gets glibc's huge-page advice on Linux alone,
// and never over a person's own GLIBC_TUNABLES; what was added is named, so
// the template can take it out of the CLI's sight.
func TestTemplateEnv(t *testing.T) {
	call := []string{"PATH=/usr/bin:/bin", "HOME=/home/a"}
	for _, tc := range []struct {
		goos       string
		env        []string
		want, gone []string
	}{
		{"linux", call, append(append([]string{}, call...), "GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=131072"), []string{"GLIBC_TUNABLES"}},
		{"linux", nil, []string{"GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=131072"}, []string{"GLIBC_TUNABLES"}},
		{"linux", append(append([]string{}, call...), "GLIBC_TUNABLES=glibc.malloc.hugetlb=0"), append(append([]string{}, call...), "GLIBC_TUNABLES=glibc.malloc.hugetlb=0"), nil},
		{"darwin", call, call, nil},
		{"windows", call, call, nil},
		{"darwin", nil, []string{}, nil},
	} {
		got, added := templateEnv(tc.goos, tc.env)
		assert.Equal(t, tc.want, got, "%s %v", tc.goos, tc.env)
		assert.NotNil(t, got, "an empty environment, never nil (which inherits the server's)")
		assert.Equal(t, tc.gone, added, "%s %v", tc.goos, tc.env)
	}
	env := append([]string{}, call...)
	templateEnv("linux", env)
	assert.Equal(t, call, env, "the call's environment is not changed")
}
