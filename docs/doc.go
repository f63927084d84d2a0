// Package docs is the user documentation — the README's reference, one page
// per subject — and the test that holds it to the product: every command a
// page shows is run, as written, by a user who followed the page.
//
// # What a page may show
//
// Commands go in fences whose language is a shell (sh, bash, powershell).
// Such a fence is run by TestDocsCommands unless its info string marks it:
//
//	```sh not-run: REASON         what CI cannot have (a Mac, a GUI host, a publish)
//	```sh run-by: .ci/run         each of its lines is a line of .ci/run
//
// A line's trailing comment may say the exit status it ends with, when that
// is not 0: `# exits 1: …`. A ```text output fence right after a run fence
// is what that fence prints, line for line: a line "…" stands for any lines,
// a "…" within a line for any text. Every other fence names its language
// (json, text).
// Inline code is a name or a synopsis (with a placeholder such as NAME or …);
// a whole command line shown inline must also be in a fence. TestDocsMarked
// fails on anything else, so no command can appear untested by accident.
//
// The package holds no code of the product; it exists for its tests.
package docs
