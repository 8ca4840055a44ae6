package extract

import "context"

// An Admission is asked, once [FromURL] has read a page and before it
// extracts it, whether a page of pageBytes bytes may be extracted now. It
// returns a release func that FromURL calls when the extraction is done,
// or an error that FromURL returns as it is. It may wait, and must then
// honour ctx.
//
// A server uses it to bound the memory of the extractions it runs at
// once by the size of the pages actually fetched, which is known only
// after the fetch: weighing every fetch by the largest page allowed would
// let a single request hold most of the budget while it waits on the
// network.
type Admission func(ctx context.Context, pageBytes int) (release func(), err error)

type admissionKey struct{}

// WithAdmission returns a context under which [FromURL] asks admit before
// each extraction, in the manner of net/http/httptrace.WithClientTrace.
func WithAdmission(ctx context.Context, admit Admission) context.Context {
	return context.WithValue(ctx, admissionKey{}, admit)
}

// admit runs the context's Admission, if any.
func admit(ctx context.Context, pageBytes int) (func(), error) {
	a, _ := ctx.Value(admissionKey{}).(Admission)
	if a == nil {
		return func() {}, nil
	}
	release, err := a(ctx, pageBytes)
	if err != nil {
		return nil, err
	}
	if release == nil {
		release = func() {}
	}
	return release, nil
}
