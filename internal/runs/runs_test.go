package runs

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sleeper(d time.Duration, out string) Work[string] {
	return func(ctx context.Context, _ *Run[string]) (string, Phase) {
		select {
		case <-time.After(d):
			return out, Completed
		case <-ctx.Done():
			return "cancelled", Cancelled
		}
	}
}

func TestRegistry_RunOutlivesItsCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g Registry[string]
		r, joined := g.Start(context.Background(), Spec{Tool: "pull", Tier: "live", Ceiling: time.Minute}, sleeper(90*time.Second, "done"))
		assert.False(t, joined)
		assert.Regexp(t, `^r-[0-9a-f]{16}$`, r.ID)
		_, ok := r.Result()
		assert.False(t, ok)
		time.Sleep(50 * time.Second) // the caller went away long ago
		got, found := g.Get(r.ID)
		require.True(t, found)
		assert.Equal(t, Working, got.Phase())
		<-got.Done()
		res, ok := got.Result()
		assert.True(t, ok)
		assert.Equal(t, "done", res)
		assert.Equal(t, Completed, got.Phase())
		list := g.List()
		require.Len(t, list, 1)
		assert.Equal(t, 90*time.Second, list[0].Elapsed)
	})
}

func TestRegistry_Join(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g Registry[string]
		spec := Spec{Tool: "submit", Key: "submit\x00{}", Join: true}
		a, _ := g.Start(context.Background(), spec, sleeper(time.Second, "a"))
		b, joined := g.Start(context.Background(), spec, sleeper(time.Second, "b"))
		assert.True(t, joined)
		assert.Same(t, a, b, "one run, not two")
		other, joined := g.Start(context.Background(), Spec{Tool: "submit", Key: "submit\x00{\"x\":1}", Join: true}, sleeper(time.Second, "c"))
		assert.False(t, joined, "other arguments: another run")
		assert.NotEqual(t, a.ID, other.ID)
		noJoin, joined := g.Start(context.Background(), Spec{Tool: "submit", Key: spec.Key}, sleeper(time.Second, "d"))
		assert.False(t, joined, "Join false")
		assert.NotEqual(t, a.ID, noJoin.ID)
		<-a.Done()
		c, joined := g.Start(context.Background(), spec, sleeper(time.Second, "e"))
		assert.False(t, joined, "a finished run is not joined")
		assert.NotEqual(t, a.ID, c.ID)
		for _, r := range []*Run[string]{other, noJoin, c} {
			<-r.Done()
		}
	})
}

func TestRegistry_Cancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g Registry[string]
		r, _ := g.Start(context.Background(), Spec{Tool: "t"}, sleeper(time.Hour, "x"))
		r.Cancel()
		<-r.Done()
		res, _ := r.Result()
		assert.Equal(t, "cancelled", res)
		assert.Equal(t, Cancelled, r.Phase())

		parent, stop := context.WithCancel(context.Background())
		r, _ = g.Start(parent, Spec{Tool: "t"}, sleeper(time.Hour, "x"))
		stop() // the server going away
		<-r.Done()
		assert.Equal(t, Cancelled, r.Phase())
	})
}

func TestRegistry_Eviction(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := Registry[string]{Keep: time.Minute, Max: 3}
		long, _ := g.Start(context.Background(), Spec{Tool: "long"}, sleeper(time.Hour, "x"))
		var ids []string
		for i := 0; i < 4; i++ {
			r, _ := g.Start(context.Background(), Spec{Tool: fmt.Sprint(i)}, sleeper(time.Duration(i+1)*time.Second, "x"))
			ids = append(ids, r.ID)
		}
		time.Sleep(5 * time.Second)
		_, ok := g.Get(ids[0])
		assert.False(t, ok, "the oldest finished goes first")
		_, ok = g.Get(ids[1])
		assert.False(t, ok)
		_, ok = g.Get(long.ID)
		assert.True(t, ok, "a run in progress is never dropped")
		_, ok = g.Get(ids[3])
		assert.True(t, ok)
		time.Sleep(time.Minute + time.Second)
		_, ok = g.Get(ids[3])
		assert.False(t, ok, "expired")
		_, ok = g.Get(long.ID)
		assert.True(t, ok)
		long.Cancel()
		<-long.Done()
	})
}

func TestRun_Watch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g Registry[string]
		step := make(chan struct{})
		r, _ := g.Start(context.Background(), Spec{Tool: "t"}, func(ctx context.Context, r *Run[string]) (string, Phase) {
			r.SetLine("one")
			<-step
			r.SetWaiting(true)
			return "ok", Completed
		})
		ch, stop := r.Watch()
		defer stop()
		synctest.Wait()
		line, _ := r.Status()
		assert.Equal(t, "one", line)
		close(step)
		<-r.Done()
		select {
		case <-ch:
		default:
			t.Fatal("a watcher is woken")
		}
		_, waiting := r.Status()
		assert.True(t, waiting)
	})
}

// TestRun_Abandon: a run is stopped when the last request waiting for it
// goes away — not while a join still waits, not once its id was handed out —
// and a run being stopped is joined no more.
func TestRun_Abandon(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var g Registry[string]
		spec := Spec{Tool: "submit", Key: "submit\x00{}", Join: true}
		first, retry := new(int), new(int)
		spec.Observer = first
		r, _ := g.Start(context.Background(), spec, sleeper(time.Minute, "done"))
		joined, ok := g.Join(spec.Key, retry)
		require.True(t, ok)
		require.Same(t, r, joined)
		assert.False(t, r.Abandon(first), "the retry still waits")
		assert.Equal(t, Working, r.Phase())
		assert.True(t, r.Abandon(retry), "nobody waits any more")
		<-r.Done()
		assert.Equal(t, Cancelled, r.Phase())

		spec.Observer = first
		a, _ := g.Start(context.Background(), spec, sleeper(time.Minute, "a"))
		a.Cancel()
		_, ok = g.Join(spec.Key, retry)
		assert.False(t, ok, "a run being stopped is not joined")
		spec.Observer = retry
		b, joined2 := g.Start(context.Background(), spec, sleeper(time.Second, "b"))
		assert.False(t, joined2)
		assert.NotSame(t, a, b, "an identical call starts a run of its own")
		<-b.Done()

		spec.Observer = first
		h, _ := g.Start(context.Background(), spec, sleeper(time.Second, "held"))
		h.Hold()
		assert.False(t, h.Abandon(first), "its id was handed out: only Cancel stops it")
		<-h.Done()
		res, _ := h.Result()
		assert.Equal(t, "held", res)
	})
}

// TestRegistry_MaxBytes: finished results are kept by weight too — the
// oldest go first — but the newest is always kept, however heavy.
func TestRegistry_MaxBytes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := Registry[string]{MaxBytes: 10, Size: func(s string) int64 { return int64(len(s)) }}
		var ids []string
		for _, out := range []string{"aaaa", "bbbb", "cccc", "dddddddddddddddd"} {
			r, _ := g.Start(context.Background(), Spec{Tool: "t"}, sleeper(time.Second, out))
			<-r.Done()
			ids = append(ids, r.ID)
		}
		for i, want := range []bool{false, false, false, true} {
			_, found := g.Get(ids[i])
			assert.Equal(t, want, found, "run %d", i)
		}
		r, _ := g.Start(context.Background(), Spec{Tool: "t"}, sleeper(time.Second, "ee"))
		<-r.Done()
		_, found := g.Get(ids[3])
		assert.False(t, found, "no longer the newest, and over the weight")
		_, found = g.Get(r.ID)
		assert.True(t, found)
	})
}
