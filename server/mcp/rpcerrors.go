package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// JSON-RPC 2.0 error codes this endpoint answers itself.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

// rpcErrors puts the protocol's own errors in front of the SDK, which
// answers several mistakes with HTTP 400 and a plain-text line (naming its
// Go types for some): clients then report a transport failure instead of
// the JSON-RPC error they can act on. Here:
//
//   - a body over maxBody gets the API's JSON 413 (error body_too_large);
//   - a body that is not JSON gets -32700, one that is not a request
//     object (a string, an empty batch, a wrong version, an id that is
//     null or not a string or number), or a batch longer than MaxBatch,
//     gets -32600, both with id null and HTTP 400, as no request can be
//     answered;
//   - a request the SDK refuses with a plain-text 400 gets a JSON-RPC
//     error with its own id: -32601 (unknown method) or -32602 (missing
//     params) with HTTP 200, so that clients report them as such; the
//     transport's refusals (Accept header, protocol version) stay 400,
//     now in JSON. A batch the SDK refuses is answered element by element.
func rpcErrors(next http.Handler, maxBody int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			if errors.As(err, new(*http.MaxBytesError)) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusRequestEntityTooLarge)
				fmt.Fprintf(w, `{"detail":"The request body is larger than %d bytes.","error":"body_too_large","limit":%d}`, maxBody, maxBody)
			}
			// Else the client went away while sending: nobody reads an answer.
			return
		}
		trimmed := bytes.TrimSpace(body)
		if !json.Valid(trimmed) {
			writeRPCError(w, http.StatusBadRequest, nil, codeParseError, "Parse error: the body is not JSON")
			return
		}
		if len(trimmed) > 0 && trimmed[0] == '[' {
			var batch []json.RawMessage
			_ = json.Unmarshal(trimmed, &batch)
			if len(batch) == 0 {
				writeRPCError(w, http.StatusBadRequest, nil, codeInvalidRequest, "Invalid Request: empty batch")
				return
			}
			if len(batch) > MaxBatch {
				writeRPCError(w, http.StatusBadRequest, nil, codeInvalidRequest, fmt.Sprintf("Invalid Request: a batch may hold at most %d messages", MaxBatch))
				return
			}
			for _, m := range batch {
				if _, msg := checkMessage(m); msg != "" {
					writeRPCError(w, http.StatusBadRequest, nil, codeInvalidRequest, "Invalid Request: batch element: "+msg)
					return
				}
			}
			iw := &interceptWriter{w: w}
			next.ServeHTTP(iw, withBody(r, body))
			if !iw.refused {
				return
			}
			answerEach(w, r, next, batch)
			return
		}
		id, msg := checkMessage(trimmed)
		if msg != "" {
			writeRPCError(w, http.StatusBadRequest, nil, codeInvalidRequest, "Invalid Request: "+msg)
			return
		}
		iw := &interceptWriter{w: w}
		next.ServeHTTP(iw, withBody(r, body))
		if iw.refused {
			status, code, text := refusal(iw.buf.String(), trimmed)
			writeRPCError(w, status, id, code, text)
		}
	})
}

// answerEach serves the elements of a batch one at a time and answers the
// array of their responses (202 when all were notifications).
func answerEach(w http.ResponseWriter, r *http.Request, next http.Handler, batch []json.RawMessage) {
	var out []json.RawMessage
	for _, m := range batch {
		id, _ := checkMessage(m)
		rec := &bufferWriter{header: http.Header{}}
		iw := &interceptWriter{w: rec}
		next.ServeHTTP(iw, withBody(r, m))
		switch {
		case iw.refused && id != nil:
			_, code, text := refusal(iw.buf.String(), m)
			out = append(out, rpcError(id, code, text))
		case !iw.refused && rec.buf.Len() > 0:
			out = append(out, bytes.TrimSpace(rec.buf.Bytes()))
		}
	}
	if len(out) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	b, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// checkMessage returns the id of a request (nil for a notification or a
// response) and "" when m is a JSON-RPC 2.0 message, else what is wrong.
func checkMessage(m json.RawMessage) (json.RawMessage, string) {
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(m, &msg); err != nil || msg == nil {
		return nil, "a message must be a JSON object"
	}
	if v := msg["jsonrpc"]; string(v) != `"2.0"` {
		return nil, `"jsonrpc" must be "2.0"`
	}
	id, hasID := msg["id"]
	if hasID {
		if len(id) == 0 || (id[0] != '"' && id[0] != '-' && (id[0] < '0' || id[0] > '9')) {
			return nil, `"id" must be a string or a number`
		}
	}
	if _, hasMethod := msg["method"]; hasMethod {
		var method string
		if err := json.Unmarshal(msg["method"], &method); err != nil || method == "" {
			return nil, `"method" must be a non-empty string`
		}
		if !hasID {
			return nil, ""
		}
	}
	return id, ""
}

// refusal maps the SDK's plain-text refusal of a request to an HTTP
// status, a JSON-RPC error code and a message. Mistakes in the request
// itself are answered 200, so that a client reports the JSON-RPC error;
// the transport's own refusals (the Accept header, the protocol version)
// keep their 400 and their text, which names no Go type.
func refusal(text string, m json.RawMessage) (status, code int, message string) {
	var msg struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(m, &msg)
	switch {
	case strings.Contains(text, "JSON RPC not handled"):
		return http.StatusOK, codeMethodNotFound, "Method not found: " + strconv.Quote(msg.Method)
	case strings.Contains(text, "missing required") || strings.Contains(text, "params"):
		return http.StatusOK, codeInvalidParams, "Invalid params: " + strconv.Quote(msg.Method) + " needs params"
	case strings.HasPrefix(text, "invalid request") || strings.HasPrefix(text, "malformed payload"):
		return http.StatusOK, codeInvalidRequest, "Invalid Request"
	}
	return http.StatusBadRequest, codeInvalidRequest, strings.TrimSpace(text)
}

func rpcError(id json.RawMessage, code int, message string) json.RawMessage {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message}})
	return b
}

func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	h := w.Header()
	h.Del("Content-Length")
	h.Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(rpcError(id, code, message))
}

func withBody(r *http.Request, body []byte) *http.Request {
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	return r2
}

// interceptWriter passes an answer through unless it is a plain-text 400,
// which it keeps instead, for rpcErrors to answer in JSON-RPC.
type interceptWriter struct {
	w           http.ResponseWriter
	wroteHeader bool
	refused     bool
	buf         bytes.Buffer
}

func (i *interceptWriter) Header() http.Header { return i.w.Header() }

func (i *interceptWriter) WriteHeader(code int) {
	if i.wroteHeader {
		return
	}
	i.wroteHeader = true
	if code == http.StatusBadRequest && strings.HasPrefix(i.w.Header().Get("Content-Type"), "text/plain") {
		i.refused = true
		return
	}
	i.w.WriteHeader(code)
}

func (i *interceptWriter) Write(b []byte) (int, error) {
	if !i.wroteHeader {
		i.WriteHeader(http.StatusOK)
	}
	if i.refused {
		return i.buf.Write(b)
	}
	return i.w.Write(b)
}

func (i *interceptWriter) Flush() {
	if f, ok := i.w.(http.Flusher); ok && !i.refused {
		f.Flush()
	}
}

// bufferWriter keeps a whole answer, for one element of a batch.
type bufferWriter struct {
	header http.Header
	status int
	buf    bytes.Buffer
}

func (b *bufferWriter) Header() http.Header { return b.header }
func (b *bufferWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}
func (b *bufferWriter) Write(p []byte) (int, error) { return b.buf.Write(p) }
