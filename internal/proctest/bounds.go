package proctest

import "time"

// HangAfter bounds a wait in a test that only catches a hang. A test waits
// for an event (a line, a pid file, a process gone), and the bound says
// nothing about speed: it must hold on a machine loaded 10x over its cores
// (CI, and the shared machine the suite is written on, at a load of 20 on
// 2 cores), where what takes 100 ms quiet can take seconds.
const HangAfter = time.Minute
