package extract

import (
	"context"
	"errors"
	"fmt"
)

// ErrTooComplex is returned by [FromHTML], and wrapped by the *FetchError
// (cause "too_complex") that [FromURL] returns, when a page has more than
// Options.MaxNodes elements and runs of text. Test for it with errors.Is.
var ErrTooComplex = errors.New("extract: page too complex")

// DefaultMaxNodes is the work budget used when Options.MaxNodes is zero.
// Real pages have one node per 20 bytes of HTML or more (pages with
// 200,000 elements are rare outliers), so that they stay well below it up
// to DefaultMaxBytes; a page of bare tags can have one per 3 bytes.
const DefaultMaxNodes = 1_000_000

// checkEvery is how many tokens or elements pass between two looks at
// the context: often enough to stop within a millisecond or so, rarely
// enough to cost nothing.
const checkEvery = 1024

// work meters one extraction: it counts the nodes of the tree against the
// budget, and the steps of the work (tokens read, elements visited) to
// look at the context every checkEvery steps. Once it has failed it keeps
// failing with the same error. The budget bounds the work too: each
// token costs constant amortised time, and each pass over the tree time
// linear in its nodes.
type work struct {
	ctx   context.Context
	left  int // nodes left
	limit int // the budget; zero or less is none
	nodes int // nodes counted
	steps int
	err   error
}

func newWork(ctx context.Context, opts Options) *work {
	limit := opts.maxNodes()
	return &work{ctx: ctx, left: limit, limit: limit}
}

// node counts one node added to the tree. Past the budget, w fails with
// ErrTooComplex, wrapped; the caller sees it at its next step.
func (w *work) node() {
	w.nodes++
	if w.limit > 0 {
		if w.left--; w.left < 0 && w.err == nil {
			w.err = fmt.Errorf("%w: more than %d elements and runs of text", ErrTooComplex, w.limit)
		}
	}
}

// step counts a step of work and looks at the context now and then. Its
// error is ErrTooComplex or the context's, wrapped.
func (w *work) step() error {
	if w.err != nil {
		return w.err
	}
	if w.steps++; w.steps%checkEvery == 0 {
		w.check()
	}
	return w.err
}

// check looks at the context now.
func (w *work) check() error {
	if w.err == nil {
		if err := w.ctx.Err(); err != nil {
			w.err = fmt.Errorf("extract: %w", err)
		}
	}
	return w.err
}
