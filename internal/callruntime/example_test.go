//go:build linux

package callruntime_test

import (
	"context"
	"fmt"
	"time"

	"github.com/aeat-mcp/aeat-mcp/internal/callruntime"
)

func ExampleRunner_Run() {
	r, err := callruntime.NewRunner(callruntime.Options{})
	if err != nil {
		panic(err)
	}
	defer r.Close()

	res, err := r.Run(context.Background(), callruntime.Spec{
		Path:    fakecli, // an absolute path; never a shell
		Args:    []string{"echo", "hola", "+", "exit", "3"},
		Env:     []string{"LANG=es_ES.UTF-8"}, // exactly this, nothing inherited
		Timeout: 45 * time.Second,
	})
	if err != nil {
		panic(err) // could not start: *StartError
	}
	fmt.Println(res.End, res.ExitCode, res.TreeDead)
	fmt.Print(res.Stdout.Text(nil))
	// Output:
	// exited 3 true
	// hola
}

func ExampleRedactPrivateKeys() {
	f := callruntime.RedactPrivateKeys()
	out := f.Write([]byte("key: -----BEGIN RSA PRIVATE KEY-----\nMIIEow"))
	out = append(out, f.Write([]byte("IBAAK\n-----END RSA PRIV"))...)
	out = append(out, f.Write([]byte("ATE KEY-----\ndone\n"))...)
	out = append(out, f.Flush()...)
	fmt.Print(string(out))
	// Output:
	// key: [redacted private key]
	// done
}
