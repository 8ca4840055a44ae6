package extract

import (
	"context"
	"testing"
)

func contextWithCancel(t testing.TB) (context.Context, context.CancelFunc) {
	t.Helper()
	return context.WithCancel(t.Context())
}

func errCanceled() error { return context.Canceled }
