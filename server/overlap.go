package server

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/textanalysis/go-textanalysis/server/access"
)

// overlapCount runs next while the request's count is being committed
// (group commit takes a store round trip and a durable commit, as long as
// a short analysis), into a buffer, and answers only once the count is
// durable: with the buffered answer when the request was admitted, else
// with the refusal (allowance used up: the work is dropped) or a 503. So
// a crash can lose an answer, never a count, and metering adds about
// max(0, commit − work) to a request's time instead of the commit.
func (s *Server) overlapCount(w http.ResponseWriter, r *http.Request, adm *access.Admission, next http.Handler) {
	buf := bufferedResponses.Get().(*bufferedResponse)
	defer buf.release()
	next.ServeHTTP(buf, r)
	d, err := adm.Wait()
	if err != nil {
		s.writeMeterError(w, r, err)
		return
	}
	s.setGatewayHeaders(w, d)
	if d.Refused() {
		s.writeRefusal(w, d)
		return
	}
	h := w.Header()
	for k, v := range buf.header {
		h[k] = v
	}
	if buf.status == 0 {
		buf.status = http.StatusOK
	}
	w.WriteHeader(buf.status)
	_, _ = w.Write(buf.body.Bytes())
}

// bufferedResponses keeps buffers, header maps included, between
// requests: every metered request needs one.
var bufferedResponses = sync.Pool{New: func() any { return &bufferedResponse{header: http.Header{}} }}

// maxPooledBody is the largest body buffer kept for another request; a
// long answer's buffer goes to the garbage collector.
const maxPooledBody = 64 << 10

// release returns b to bufferedResponses. The header's values went to the
// real response (which keeps the slices); its entries are dropped here.
func (b *bufferedResponse) release() {
	if b.body.Cap() > maxPooledBody {
		return
	}
	clear(b.header)
	b.status = 0
	b.body.Reset()
	bufferedResponses.Put(b)
}

// bufferedResponse holds an answer until it may be sent. The analysis
// answers are bounded by the input limits (DESIGN.md §3), and held by
// requests the work limiter already bounds.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
