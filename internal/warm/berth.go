package warm

import "github.com/aeat-mcp/aeat-mcp/internal/callruntime"

// A template's spare is forked into a berth ([callruntime.Berth]): the
// tree of the call it will be handed, made before that call, so that the
// call does not move it into its cgroup — a move waits for an RCU grace
// period, which was most of a warm call's own overhead (BENCHMARKS.md, "A
// warm call's wall time, broken down"). The template holds one berth at a
// time, the one sent with the last fork request ([msgFork]'s second
// descriptor): every spare it forks from then on is born there. So:
//
//   - a call takes the template's berth as its tree (Spec.Berth), and its
//     fork request brings the template a new one for the next spare;
//   - a berth the call did not take as its tree (a memory ceiling the
//     berth lacks, a Run that failed first) is the template's again if no
//     other has been sent since, else released — its spare, if it had one,
//     was handed to a call and moved out;
//   - a berth replaced before any call took it is released once the call
//     that replaced it is over: by then its spare was handed to that call.
//
// Nothing here is trusted for supervision: Run checks where the child it
// adopts is and moves it if it is not in the call's tree, and a berth
// released with something in it has it killed.

// berths are the berths one warm call took and replaced.
type berths struct {
	took     *callruntime.Berth // the template's, the call's tree
	replaced *callruntime.Berth // the template's when the call sent it another, untaken
}
