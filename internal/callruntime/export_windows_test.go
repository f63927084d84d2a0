package callruntime

// ResumeThreads lets the Windows tests start a helper suspended, place it in
// a host-like job, and resume it.
var ResumeThreads = resumeThreads
