package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := runApp(ctx, newApp(os.Stdin, os.Stdout, os.Stderr), os.Args)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// Exit codes scripts can rely on.
const (
	exitOK          = 0
	exitFailed      = 1 // the analysis, a fetch or the server failed
	exitUsage       = 2 // bad flags or input
	exitBatchFailed = 3 // a batch ran to the end but some lines failed
)

// usageError marks errors in how the command was called.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// errBatchFailed says some batch lines failed; each was reported in its
// output line.
var errBatchFailed = errors.New("some lines failed")

func exitCode(err error, stderr *os.File) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "textanalysis:", userMessage(err))
	return exitCodeOf(err)
}

// exitCodeOf maps an error to the documented exit code.
func exitCodeOf(err error) int {
	var uerr *usageError
	switch {
	case errors.Is(err, errBatchFailed):
		return exitBatchFailed
	case errors.As(err, &uerr), isValidation(err):
		return exitUsage
	}
	return exitFailed
}
