package server

import (
	"bytes"
	"errors"
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
//
// An answer is held up to maxHeldAnswer bytes. A longer one (/ner/display
// draws up to 16 MiB of HTML) waits for the count when it reaches that
// size and then streams: what was held goes out first, the rest as it is
// written; when the request is refused meanwhile, the handler's next write
// fails and the work stops.
func (s *Server) overlapCount(w http.ResponseWriter, r *http.Request, adm *access.Admission, next http.Handler) {
	buf := bufferedResponses.Get().(*bufferedResponse)
	defer buf.release()
	buf.srv, buf.w, buf.r, buf.adm = s, w, r, adm
	next.ServeHTTP(buf, r)
	if buf.streaming {
		return
	}
	s.answerNow(w, r, adm, buf)
}

// maxHeldAnswer is how much of a metered request's answer is held while
// its count is committed (see overlapCount): most answers are far
// shorter; long ones (HTML, the entities of a long text) stream past it.
const maxHeldAnswer = 256 << 10

// answerNow waits for the request's count and sends what buf holds, or
// the refusal (or a 503 when the store failed). It reports whether the
// answer may go on: then buf passes later writes through to w.
func (s *Server) answerNow(w http.ResponseWriter, r *http.Request, adm *access.Admission, buf *bufferedResponse) bool {
	d, err := adm.Wait()
	if err != nil {
		s.writeMeterError(w, r, err)
		return false
	}
	s.setGatewayHeaders(w, d)
	if d.Refused() {
		s.writeRefusal(w, d)
		return false
	}
	h := w.Header()
	for k, v := range buf.header {
		h[k] = v
	}
	if buf.status == 0 {
		buf.status = http.StatusOK
	}
	w.WriteHeader(buf.status)
	if buf.body.Len() > 0 {
		_, _ = w.Write(buf.body.Bytes())
	}
	buf.body.Reset()
	buf.out = w
	return true
}

// errAnswerRefused stops a handler whose request was refused (or could
// not be counted) while its answer was being written.
var errAnswerRefused = errors.New("server: the request was not admitted; its answer is dropped")

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
	b.srv, b.w, b.r, b.adm = nil, nil, nil, nil
	b.out, b.streaming, b.dropped = nil, false, false
	bufferedResponses.Put(b)
}

// bufferedResponse holds an answer until it may be sent. The analysis
// answers are bounded by the input limits (DESIGN.md §3), and held by
// requests the work limiter already bounds.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
	// Once the body would pass maxHeldAnswer, the request is answered
	// (srv.answerNow with w, r and adm; see overlapCount) and streaming is
	// set: out is then the real writer when the request was admitted,
	// and dropped says it was not.
	srv       *Server
	w         http.ResponseWriter
	r         *http.Request
	adm       *access.Admission
	streaming bool
	dropped   bool
	out       http.ResponseWriter
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
	if !b.streaming && b.adm != nil && b.body.Len()+len(p) > maxHeldAnswer {
		b.streaming = true
		b.dropped = !b.srv.answerNow(b.w, b.r, b.adm, b)
	}
	switch {
	case b.dropped:
		return 0, errAnswerRefused
	case b.streaming:
		return b.out.Write(p)
	}
	return b.body.Write(p)
}
