// Command answerfloor is the floor of a server's start to its tools/list
// answer (BenchmarkStartFullVsCurated): it reads a file of answers a
// server wrote — its initialize answer, then its tools/list answer, a line
// each — and, on stdio, answers the first line read with the first, and
// the third (after initialized) with the rest, byte for byte. Nothing is
// decoded, checked or made: what is left is a process's start, reading
// the bytes from a file and writing them through the pipe.
package main

import (
	"bufio"
	"bytes"
	"os"
)

func main() {
	answers, err := os.ReadFile(os.Args[1])
	if err != nil {
		os.Exit(2)
	}
	first, rest, _ := bytes.Cut(answers, []byte("\n"))
	in := bufio.NewReader(os.Stdin)
	for i, out := range [][]byte{append(first, '\n'), rest} {
		for range 1 + i { // initialize; then initialized and tools/list
			if _, err := in.ReadSlice('\n'); err != nil {
				os.Exit(1)
			}
		}
		if _, err := os.Stdout.Write(out); err != nil {
			os.Exit(1)
		}
	}
	_, _ = in.ReadSlice('\n') // until the host closes stdin, as a server
}
