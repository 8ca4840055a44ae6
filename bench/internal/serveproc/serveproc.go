package serveproc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// FreeAddr returns a loopback HOST:PORT nothing listens on now.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Options say how to start one server.
type Options struct {
	Bin  string   // the textanalysis binary
	Env  []string // its whole environment
	Dir  string   // its working directory
	Addr string   // --addr; "" for a free loopback port
	// AdminAddr is --admin-addr: "" for a free loopback port, "off" for
	// none (then readiness is /healthz on Addr).
	AdminAddr string
	Args      []string // more serve flags
	// Ready bounds the wait for the server to answer; 0 means a minute.
	Ready time.Duration
}

// Proc is a running `textanalysis serve`.
type Proc struct {
	Base  string // http://HOST:PORT of the API
	Admin string // http://HOST:PORT of the admin endpoints, or ""
	Cmd   *exec.Cmd

	opts   Options
	mu     sync.Mutex
	log    bytes.Buffer
	exited chan struct{}
}

// Start starts a server and waits until it is ready: /readyz on the admin
// address answers 200 (or /healthz on the API address without one).
func Start(ctx context.Context, o Options) (*Proc, error) {
	var err error
	if o.Addr == "" {
		if o.Addr, err = FreeAddr(); err != nil {
			return nil, err
		}
	}
	if o.AdminAddr == "" {
		if o.AdminAddr, err = FreeAddr(); err != nil {
			return nil, err
		}
	}
	if o.Ready == 0 {
		o.Ready = time.Minute
	}
	p := &Proc{Base: "http://" + o.Addr, opts: o, exited: make(chan struct{})}
	if o.AdminAddr != "off" {
		p.Admin = "http://" + o.AdminAddr
	}
	args := append([]string{"serve", "--addr", o.Addr, "--admin-addr", o.AdminAddr}, o.Args...)
	p.Cmd = exec.Command(o.Bin, args...)
	p.Cmd.Env, p.Cmd.Dir = o.Env, o.Dir
	p.Cmd.Stdout, p.Cmd.Stderr = p, p
	if err := p.Cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = p.Cmd.Wait(); close(p.exited) }()
	if err := p.waitReady(ctx); err != nil {
		p.Kill()
		return nil, err
	}
	return p, nil
}

// Restart starts a new process with the same addresses and flags, once
// this one has exited.
func (p *Proc) Restart(ctx context.Context) (*Proc, error) {
	<-p.exited
	return Start(ctx, p.opts)
}

func (p *Proc) waitReady(ctx context.Context) error {
	url := p.Base + "/healthz"
	if p.Admin != "" {
		url = p.Admin + "/readyz"
	}
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(p.opts.Ready)
	for {
		res, err := client.Get(url)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-p.exited:
			return fmt.Errorf("serve exited at start: %s", p.Logs())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("serve not ready after %s: %s", p.opts.Ready, p.Logs())
		}
	}
}

// Write collects the process's output.
func (p *Proc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.Write(b)
}

// Logs is what the process wrote so far.
func (p *Proc) Logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// Pid is the process ID.
func (p *Proc) Pid() int { return p.Cmd.Process.Pid }

// Exited is closed once the process has exited.
func (p *Proc) Exited() <-chan struct{} { return p.exited }

// Stop sends SIGTERM and waits up to 30 s, then kills.
func (p *Proc) Stop() {
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		p.Kill()
	}
}

// Kill sends SIGKILL and waits for the process to go.
func (p *Proc) Kill() {
	_ = p.Cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// Key is what `keys create --json` prints.
type Key struct {
	Key       string `json:"key"`
	KeyID     int64  `json:"key_id"`
	AccountID int64  `json:"account_id"`
	Plan      string `json:"plan"`
}

// Run runs a textanalysis command to its end and returns its standard
// output (its standard error in the error when it fails).
func Run(ctx context.Context, bin string, env []string, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Dir = env, dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("textanalysis %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// CreateKey makes a key on a new or existing account with `textanalysis
// keys create --plan plan --email email --json`.
func CreateKey(ctx context.Context, bin string, env []string, dir, plan, email string) (Key, error) {
	out, err := Run(ctx, bin, env, dir, "keys", "create", "--plan", plan, "--email", email, "--json")
	if err != nil {
		return Key{}, err
	}
	var k Key
	if err := json.Unmarshal(out, &k); err != nil || k.Key == "" {
		return Key{}, errors.Join(fmt.Errorf("keys create printed %q", out), err)
	}
	return k, nil
}

// Env is os.Environ() without any TEXTANALYSIS_ variable, plus set
// (NAME=value each): the servers see only what the bench means them to.
func Env(set ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TEXTANALYSIS_") {
			env = append(env, kv)
		}
	}
	return append(env, set...)
}
