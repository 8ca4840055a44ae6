package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/textanalysis/go-textanalysis/server"
)

// maxLineBytes bounds one JSON line of batch input.
const maxLineBytes = 16 << 20

// lineFunc analyses one input line and returns the result object, whose
// fields are written after "id". It sets *id to the line's id as it
// decodes the line, so that a large line is decoded once.
type lineFunc func(ctx context.Context, line json.RawMessage, id *json.RawMessage) (any, error)

// runBatch reads JSON lines from --input and writes one line per input to
// --output, flushed line by line. Each output line carries the input's id
// (any JSON value); a line that fails carries {"id", "error"} instead and
// the batch goes on.
func runBatch(c *cli.Context, analyse lineFunc) error {
	var in io.Reader
	var size int64
	name := c.String("input")
	if name == "-" {
		in = c.App.Reader
	} else {
		f, err := os.Open(name)
		if err != nil {
			return &usageError{err}
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			size = st.Size()
		}
		in = f
	}
	out, closeOut, err := openOutput(c)
	if err != nil {
		return err
	}
	defer closeOut()
	if c.Bool("pretty") {
		return usagef("--pretty does not apply to batch output, which is one JSON object per line")
	}
	workers := c.Int("workers")
	if workers < 0 {
		return usagef("--workers must be at least 1 (0: one per CPU)")
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}

	tuneGCForBatch()

	var bar *progress
	// The bar goes to a terminal only.
	if isTerminal(c.App.ErrWriter) && (c.String("output") != "" || !isTerminal(c.App.Writer)) {
		bar = newProgress(c.App.ErrWriter, size)
		defer bar.finish()
	}

	failed, err := runSerial(c.Context, in, out, analyse, bar, workers)
	if err != nil {
		return fmt.Errorf("batch %s: %w", name, err)
	}
	if err := c.Context.Err(); err != nil {
		return err
	}
	if bar != nil {
		bar.complete()
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d", errBatchFailed, failed)
	}
	return nil
}

// batchGCPercent and batchMemoryLimit are the collector's settings for a
// batch, unless GOGC or GOMEMLIMIT say otherwise. A batch allocates much
// per line and keeps little between lines, so that it collects less often
// than the default (100) would have it; but a larger heap is memory that
// is faulted in, and out of the caches, when it comes round again: a text
// batch takes ~15% less CPU at 200 than at 400 (790 ScrapingHub pages
// from a file, and the extraction harness's line-by-line driver on all
// three sets). The soft limit makes the collector work harder before the
// process grows past 1 GiB.
const (
	batchGCPercent   = 200
	batchMemoryLimit = 1 << 30
)

func tuneGCForBatch() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(batchGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(batchMemoryLimit)
	}
}

// A worker takes lines in batches, so that the hand-offs between the
// reader, the workers and the writer (and the writes) are per batch, not
// per line: a batch is the lines already read in, at most batchLines of
// them and about batchBytes, and never waits for more input, so a program
// that drives the command line by line still gets each answer at once.
const (
	batchLines = 64
	batchBytes = 256 << 10
)

// batchesPerWorker bounds how many batches may be read ahead of the oldest
// unanswered one, per worker, so that one slow line cannot make the
// answers waiting behind it grow without limit.
const batchesPerWorker = 4

// lineBatch is a run of input lines, one after the other in buf; line k
// ends at ends[k].
type lineBatch struct {
	seq  int
	buf  []byte
	ends []int
	size int64 // input bytes of the lines, with their newlines
}

func (b *lineBatch) line(k int) []byte {
	start := 0
	if k > 0 {
		start = b.ends[k-1]
	}
	return b.buf[start:b.ends[k]]
}

// answerBatch holds the output lines of a lineBatch.
type answerBatch struct {
	seq    int
	out    []byte
	lines  int
	failed int
	size   int64
}

// Batch buffers are reused: a batch's input is not referred to once it
// is answered (lineFunc copies what it keeps), nor its output once
// written.
var (
	lineBatchPool = sync.Pool{New: func() any { return new(lineBatch) }}
	outBufPool    = sync.Pool{New: func() any { return new([]byte) }}
)

// maxPooledBytes is the largest buffer kept for reuse: a batch with a
// huge line should not pin its buffer.
const maxPooledBytes = 4 * batchBytes

func recycleBatch(b *lineBatch) {
	if cap(b.buf) > maxPooledBytes {
		b.buf = nil
	}
	lineBatchPool.Put(b)
}

func recycleOut(b []byte) {
	if cap(b) <= maxPooledBytes {
		outBufPool.Put(&b)
	}
}

// lineReady reports whether br holds a whole line, so that reading it will
// not wait for input.
func lineReady(br *bufio.Reader) bool {
	n := br.Buffered()
	if n == 0 {
		return false
	}
	b, _ := br.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// runParallel answers lines with several workers and writes the answers in
// input order. Like runSerial, it flushes whenever every line read so far
// has been answered, so a program that drives it line by line still gets
// each answer at once.
func runParallel(ctx context.Context, in io.Reader, out io.Writer, analyse lineFunc, bar *progress, workers int) (failed int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan *lineBatch, workers)
	answers := make(chan answerBatch, workers)
	window := make(chan struct{}, workers*batchesPerWorker)
	var (
		read    atomic.Int64 // batches handed to the workers
		readErr error        // set before jobs is closed
	)
	br := bufio.NewReaderSize(in, 1<<20)
	go func() {
		defer close(jobs)
		for seq := 0; ; {
			b := lineBatchPool.Get().(*lineBatch)
			b.buf, b.ends, b.size = b.buf[:0], b.ends[:0], 0
			var rerr error
			for {
				var line []byte
				line, rerr = readLine(br)
				if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
					b.buf = append(b.buf, trimmed...)
					b.ends = append(b.ends, len(b.buf))
					b.size += lineSize(line, rerr)
				}
				if rerr != nil || len(b.ends) >= batchLines || len(b.buf) >= batchBytes || !lineReady(br) {
					break
				}
			}
			if len(b.ends) > 0 {
				select {
				case window <- struct{}{}:
				case <-ctx.Done():
					return
				}
				b.seq = seq
				seq++
				read.Add(1)
				jobs <- b
			} else {
				recycleBatch(b)
			}
			if rerr != nil {
				if rerr != io.EOF {
					readErr = rerr
				}
				return
			}
			if ctx.Err() != nil {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range jobs {
				bp := outBufPool.Get().(*[]byte)
				a := answerBatch{seq: b.seq, out: (*bp)[:0], lines: len(b.ends), size: b.size}
				for k := range b.ends {
					var ok bool
					a.out, ok = appendAnswer(a.out, ctx, b.line(k), analyse)
					if !ok {
						a.failed++
					}
				}
				recycleBatch(b)
				answers <- a
			}
		}()
	}
	go func() {
		wg.Wait()
		close(answers)
	}()

	bw := bufio.NewWriterSize(out, 64<<10)
	var wErr error
	pending := make(map[int]answerBatch)
	next := 0
	for a := range answers {
		pending[a.seq] = a
		for {
			a, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-window
			failed += a.failed
			if wErr == nil {
				if _, err := bw.Write(a.out); err != nil {
					wErr = err
					cancel()
				}
			}
			recycleOut(a.out)
			if bar != nil {
				bar.add(a.size, a.lines)
			}
		}
		if wErr == nil && int64(next) == read.Load() {
			if err := bw.Flush(); err != nil {
				wErr = err
				cancel()
			}
		}
	}
	if wErr == nil {
		wErr = bw.Flush()
	}
	if wErr != nil {
		return failed, fmt.Errorf("write output: %w", wErr)
	}
	return failed, readErr
}

// runSerial answers lines one by one, in order, and flushes the output
// whenever no more input is waiting, so a program that drives the command
// line by line gets each answer at once, while a file or a pipe full of
// lines is answered in large writes. With workers > 1 it hands the rest of
// the input to runParallel as soon as a line is answered and more input is
// already waiting: a driver that sends a line and waits for its answer
// gains nothing from workers, and handing each line from goroutine to
// goroutine (and waking an idle thread for it) cost a quarter of the CPU
// of extracting a page.
func runSerial(ctx context.Context, in io.Reader, out io.Writer, analyse lineFunc, bar *progress, workers int) (failed int, err error) {
	br := bufio.NewReaderSize(in, 1<<20)
	bw := bufio.NewWriterSize(out, 64<<10)
	defer func() {
		if ferr := bw.Flush(); err == nil && ferr != nil {
			err = fmt.Errorf("write output: %w", ferr)
		}
	}()
	var answer []byte
	for ctx.Err() == nil {
		line, rerr := readLine(br)
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			var ok bool
			answer, ok = appendAnswer(answer[:0], ctx, trimmed, analyse)
			if !ok {
				failed++
			}
			if _, err := bw.Write(answer); err != nil {
				return failed, fmt.Errorf("write output: %w", err)
			}
			if bar != nil {
				bar.add(lineSize(line, rerr), 1)
			}
		}
		if rerr == io.EOF {
			return failed, nil
		}
		if rerr != nil {
			return failed, rerr
		}
		waiting := br.Buffered() > 0
		if !waiting || workers > 1 {
			if err := bw.Flush(); err != nil {
				return failed, fmt.Errorf("write output: %w", err)
			}
		}
		if waiting && workers > 1 {
			// runParallel reads on from br (bufio does not wrap a
			// reader that is already large enough), buffered input
			// included.
			n, err := runParallel(ctx, br, out, analyse, bar, workers)
			return failed + n, err
		}
	}
	return failed, nil
}

// lineSize is the bytes of input that line took, with its newline.
func lineSize(line []byte, err error) int64 {
	if err == nil {
		return int64(len(line)) + 1
	}
	return int64(len(line))
}

// readLine reads one line, at most maxLineBytes long, without its end.
func readLine(br *bufio.Reader) ([]byte, error) {
	var long []byte
	for {
		part, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, part...)
			if len(long) > maxLineBytes {
				return nil, fmt.Errorf("a line is longer than %d bytes", maxLineBytes)
			}
			continue
		}
		if long != nil {
			part = append(long, part...)
		}
		return bytes.TrimSuffix(part, []byte("\n")), err
	}
}

// notJSONHint ends the error of a batch line that is not a JSON object.
const notJSONHint = " (--input reads one JSON object per line, see --help; for plain text use --file - or give the text as an argument)"

// appendAnswer appends the output line (with newline) for one input line
// to dst. It reports false when the line failed and its answer is an
// error line.
func appendAnswer(dst []byte, ctx context.Context, line []byte, analyse lineFunc) ([]byte, bool) {
	var id json.RawMessage
	res, err := analyse(ctx, line, &id)
	if id == nil {
		// The line did not decode as the command's shape; its id may
		// still be there for the error line.
		var head struct {
			ID json.RawMessage `json:"id"`
		}
		if jerr := json.Unmarshal(line, &head); jerr != nil {
			msg := "invalid JSON line: " + jerr.Error()
			if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '{' {
				// Plain text piped into --input is the usual first
				// mistake: say what --input wants and what to use instead.
				msg += notJSONHint
			}
			return append(dst, errorLine(nil, msg)...), false
		}
		id = head.ID
	}
	if err != nil {
		return append(dst, errorLine(id, userMessage(err))...), false
	}
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	start := len(dst)
	dst = append(dst, `{"id":`...)
	dst = append(dst, id...)
	var body []byte
	if a, ok := res.(jsonAppender); ok {
		// The result writes itself right after the id; an object's "{"
		// becomes the comma between them.
		mark := len(dst)
		dst = a.appendJSON(dst)
		if b := dst[mark:]; len(b) > 2 && b[0] == '{' {
			dst[mark] = ','
			return append(dst, '\n'), true
		}
		body = bytes.Clone(dst[mark:])
		dst = dst[:mark]
	} else {
		var buf bytes.Buffer
		if err := server.EncodeJSON(&buf, res, false); err != nil {
			return append(dst[:start], errorLine(id, err.Error())...), false
		}
		body = bytes.TrimSpace(buf.Bytes())
	}
	if len(body) > 2 && body[0] == '{' {
		dst = append(dst, ',')
		dst = append(dst, body[1:]...)
	} else {
		dst = append(dst, `,"result":`...)
		dst = append(dst, body...)
		dst = append(dst, '}')
	}
	return append(dst, '\n'), true
}

func errorLine(id json.RawMessage, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	var b bytes.Buffer
	_ = server.EncodeJSON(&b, struct {
		ID    json.RawMessage `json:"id"`
		Error string          `json:"error"`
	}{id, msg}, false)
	return b.Bytes()
}

// isTerminal reports whether v is a character device such as a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress draws a one-line bar on a terminal: by bytes when the input's
// size is known, else a count of lines.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int64
	done  int64
	lines int64
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, total int64) *progress {
	return &progress{w: w, total: total, start: time.Now()}
}

// add counts lines answered lines that took n bytes of input.
func (p *progress) add(n int64, lines int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.lines += int64(lines)
	if time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	p.draw()
}

func (p *progress) draw() {
	rate := float64(p.lines) / time.Since(p.start).Seconds()
	if p.total > 0 {
		frac := min(float64(p.done)/float64(p.total), 1)
		const width = 30
		filled := int(frac * width)
		bar := make([]byte, width)
		for i := range bar {
			bar[i] = '-'
			if i < filled {
				bar[i] = '#'
			}
		}
		fmt.Fprintf(p.w, "\r[%s] %3.0f%% %d lines %.1f/s", bar, frac*100, p.lines, rate)
		return
	}
	fmt.Fprintf(p.w, "\r%d lines %.1f/s", p.lines, rate)
}

// complete marks the whole input read: blank lines, which are not
// answered, still took bytes, and the bar must end full.
func (p *progress) complete() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = max(p.done, p.total)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw()
	fmt.Fprintln(p.w)
}
