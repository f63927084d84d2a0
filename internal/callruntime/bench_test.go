//go:build linux

package callruntime_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

// The floor: what a bare os/exec costs for the same program and verb.
func BenchmarkRawExec(b *testing.B) {
	b.Run("c1", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(fakecli, "ok").Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("c8", func(b *testing.B) {
		b.SetParallelism(4) // × GOMAXPROCS 2 = 8 calls in flight
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := exec.Command(fakecli, "ok").Run(); err != nil {
					b.Error(err)
				}
			}
		})
	})
}

// BenchmarkRun is a call under full supervision: every mechanism this
// machine allows (and, for comparison, the /proc-walk fallback).
func BenchmarkRun(b *testing.B) {
	for _, m := range []struct {
		name    string
		disable []callruntime.Mechanism
	}{
		{"best", nil},
		{"held", []callruntime.Mechanism{callruntime.CloneIntoCgroup}}, // where clone3 is refused
		{"procwalk", []callruntime.Mechanism{callruntime.CgroupV2}},
	} {
		r, err := callruntime.NewRunner(callruntime.Options{Disable: m.disable})
		if err != nil {
			b.Fatal(err)
		}
		s := callruntime.Spec{Path: fakecli, Args: []string{"ok"}, Timeout: time.Minute,
			Filter: callruntime.RedactPrivateKeys, OnLine: func(callruntime.Line) {}}
		b.Run(m.name+"/"+r.Tree()+"/c1", func(b *testing.B) {
			for b.Loop() {
				if res, err := r.Run(context.Background(), s); err != nil || res.ExitCode != 0 {
					b.Fatal(err, res.End)
				}
			}
		})
		b.Run(m.name+"/"+r.Tree()+"/c8", func(b *testing.B) {
			b.SetParallelism(4)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if res, err := r.Run(context.Background(), s); err != nil || res.ExitCode != 0 {
						b.Error(err, res.End)
					}
				}
			})
		})
		r.Close()
	}
}

// BenchmarkKillLatency measures, for a SIGTERM-respecting tree with a setsid
// grandchild, the time from the deadline to Run returning with the tree
// confirmed dead. It reports the median and p90 in ms.
func BenchmarkKillLatency(b *testing.B) {
	for _, m := range []struct {
		name    string
		disable []callruntime.Mechanism
	}{
		{"best", nil},
		{"procwalk", []callruntime.Mechanism{callruntime.CgroupV2}},
	} {
		r, err := callruntime.NewRunner(callruntime.Options{Disable: m.disable})
		if err != nil {
			b.Fatal(err)
		}
		const timeout = 150 * time.Millisecond
		s := callruntime.Spec{Path: fakecli, Args: steps("tree plain,setsid", "hang"), Timeout: timeout}
		b.Run(m.name+"/"+r.Tree(), func(b *testing.B) {
			var lat []float64
			for b.Loop() {
				res, err := r.Run(context.Background(), s)
				if err != nil || res.End != callruntime.TimedOut || !res.TreeDead {
					b.Fatal(err, res.End, res.TreeDead)
				}
				lat = append(lat, float64(res.Duration-timeout)/float64(time.Millisecond))
			}
			sort.Float64s(lat)
			b.ReportMetric(lat[len(lat)/2], "ms-median")
			b.ReportMetric(lat[len(lat)*9/10], "ms-p90")
		})
		r.Close()
	}
}

// BenchmarkRunVsRaw interleaves a raw exec and a supervised Run of the same
// program in every iteration and reports the ratio of their medians, so both
// see the same machine conditions.
func BenchmarkRunVsRaw(b *testing.B) {
	r, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	s := callruntime.Spec{Path: fakecli, Args: []string{"ok"}, Timeout: time.Minute, Filter: callruntime.RedactPrivateKeys}
	var raw, run []float64
	for b.Loop() {
		t0 := time.Now()
		if err := exec.Command(fakecli, "ok").Run(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if res, err := r.Run(context.Background(), s); err != nil || res.ExitCode != 0 {
			b.Fatal(err, res.End)
		}
		raw = append(raw, float64(t1.Sub(t0)))
		run = append(run, float64(time.Since(t1)))
	}
	sort.Float64s(raw)
	sort.Float64s(run)
	b.ReportMetric(raw[len(raw)/2]/1e6, "ms-raw")
	b.ReportMetric(run[len(run)/2]/1e6, "ms-run")
	b.ReportMetric(run[len(run)/2]/raw[len(raw)/2], "x-raw")
}

// BenchmarkCostBreakdown prices, interleaved in one loop, each thing Run
// adds to a bare exec of the same program: explicit environment, two pipes
// drained by goroutines, a locked OS thread with Pdeathsig, and finally the
// whole Run. It reports each median in ms.
func BenchmarkCostBreakdown(b *testing.B) {
	r, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	spec := callruntime.Spec{Path: fakecli, Args: []string{"ok"}, Filter: callruntime.RedactPrivateKeys}
	steps := []struct {
		name string
		run  func()
	}{
		{"raw", func() { _ = exec.Command(fakecli, "ok").Run() }},
		{"env", func() {
			c := exec.Command(fakecli, "ok")
			c.Env = []string{"PATH=/usr/bin:/bin", "HOME=/"}
			_ = c.Run()
		}},
		{"pipes", func() {
			c := exec.Command(fakecli, "ok")
			r1, w1, _ := os.Pipe()
			r2, w2, _ := os.Pipe()
			c.Stdout, c.Stderr = w1, w2
			_ = c.Start()
			w1.Close()
			w2.Close()
			done := make(chan struct{}, 2)
			go func() { _, _ = io.Copy(io.Discard, r1); done <- struct{}{} }()
			go func() { _, _ = io.Copy(io.Discard, r2); done <- struct{}{} }()
			_ = c.Wait()
			<-done
			<-done
			r1.Close()
			r2.Close()
		}},
		{"locked-pdeathsig", func() {
			done := make(chan struct{})
			go func() {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				c := exec.Command(fakecli, "ok")
				c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
				_ = c.Run()
				close(done)
			}()
			<-done
		}},
		{"run", func() { _, _ = r.Run(context.Background(), spec) }},
	}
	times := make([][]float64, len(steps))
	for b.Loop() {
		for i, s := range steps {
			t0 := time.Now()
			s.run()
			times[i] = append(times[i], float64(time.Since(t0)))
		}
	}
	for i, s := range steps {
		sort.Float64s(times[i])
		b.ReportMetric(times[i][len(times[i])/2]/1e6, "ms-"+s.name)
	}
}

// BenchmarkHeldStart prices the hold of a call where clone3 is refused (the
// program held by a re-executed trampoline until it is in its cgroup),
// interleaved in one loop with the floor (a raw exec) and a call forked
// straight into its cgroup. It reports each median in ms and the two calls
// as ratios of the floor.
func BenchmarkHeldStart(b *testing.B) {
	clone3, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer clone3.Close()
	held, err := callruntime.NewRunner(callruntime.Options{Disable: []callruntime.Mechanism{callruntime.CloneIntoCgroup}})
	if err != nil {
		b.Fatal(err)
	}
	defer held.Close()
	if clone3.Tree() != "cgroup" || !clone3.Mechanisms().Uses(callruntime.CloneIntoCgroup) {
		b.Skip("no cgroup v2 with clone3 here: nothing to compare")
	}
	s := callruntime.Spec{Path: fakecli, Args: []string{"ok"}, Timeout: time.Minute}
	var raw, direct, hold []float64
	for b.Loop() {
		t0 := time.Now()
		if err := exec.Command(fakecli, "ok").Run(); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if res, err := clone3.Run(context.Background(), s); err != nil || res.ExitCode != 0 {
			b.Fatal(err, res.End)
		}
		t2 := time.Now()
		if res, err := held.Run(context.Background(), s); err != nil || res.ExitCode != 0 {
			b.Fatal(err, res.End)
		}
		raw = append(raw, float64(t1.Sub(t0)))
		direct = append(direct, float64(t2.Sub(t1)))
		hold = append(hold, float64(time.Since(t2)))
	}
	med := func(v []float64) float64 { sort.Float64s(v); return v[len(v)/2] }
	r, d, h := med(raw), med(direct), med(hold)
	b.ReportMetric(r/1e6, "ms-raw")
	b.ReportMetric(d/1e6, "ms-clone3")
	b.ReportMetric(h/1e6, "ms-held")
	b.ReportMetric(d/r, "x-raw-clone3")
	b.ReportMetric(h/r, "x-raw-held")
}
