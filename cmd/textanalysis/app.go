package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/textanalysis/go-textanalysis/display"
	"github.com/textanalysis/go-textanalysis/extract"
	"github.com/textanalysis/go-textanalysis/server"
	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/mail"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/textanalysis"
)

// newApp builds the CLI over the given streams, so tests can run it.
func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	// The models load on first use, so that --help is instant.
	analyzer := func(c *cli.Context) (*textanalysis.Analyzer, error) {
		if c.Bool("allow-private") {
			return privateAnalyzer()
		}
		return guardedAnalyzer()
	}
	app := &cli.App{
		Name:      "textanalysis",
		Usage:     "extract, recognize, display, score and answer: text analysis from the shell, or as an HTTP API",
		Version:   currentVersion().String(),
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// urfave/cli calls os.Exit for cli.ExitCoder errors unless this is
		// set; main alone decides the exit code.
		ExitErrHandler: func(*cli.Context, error) {},
		// Without a command: the help; with an unknown one: a usage error
		// (exit 2), where urfave/cli would exit 1 or 3.
		Action: func(c *cli.Context) error {
			if c.Args().Present() {
				return usagef("unknown command %q (textanalysis --help lists them)", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
		OnUsageError: func(c *cli.Context, err error, isSubcommand bool) error {
			return &usageError{err}
		},
		Description: `Each analysis command reads its input from arguments, --file, or standard input,
and prints JSON (--pretty for a readable form). Flags may come before or after the
text; -- ends them (textanalysis sentiment -- "-5 degrees" --pretty scores the whole
line as text). With --input FILE.jsonl (or - for
standard input) it runs over JSON lines and writes one line per input, carrying the
input's "id", flushed line by line.

Exit codes: 0 success; 1 the analysis failed; 2 bad usage or input; 3 a batch
finished but some of its lines failed (each such line has an "error").`,
		Commands: []*cli.Command{
			textCommand(analyzer),
			nerCommand(analyzer),
			displayCommand(analyzer),
			sentimentCommand(analyzer),
			qaCommand(analyzer),
			serveCommand(),
			migrateCommand(),
			versionCommand(),
			healthcheckCommand(),
			keysCommand(),
			usageCommand(),
		},
	}
	for _, cmd := range app.Commands {
		cmd.OnUsageError = func(c *cli.Context, err error, isSubcommand bool) error {
			return &usageError{err}
		}
	}
	return app
}

// One Analyzer per process and fetch policy: a CLI process runs one
// command, and tests running many share the loaded models.
var (
	// Lazy: a command loads only the models it uses; serve loads them all
	// at start instead (see serveAnalyzer).
	guardedAnalyzer = sync.OnceValues(func() (*textanalysis.Analyzer, error) {
		return textanalysis.New(textanalysis.Options{Lazy: true})
	})
	privateAnalyzer = sync.OnceValues(func() (*textanalysis.Analyzer, error) {
		return textanalysis.New(textanalysis.Options{Lazy: true, Fetch: extract.Options{AllowPrivate: true}})
	})
)

type analyzerFunc func(*cli.Context) (*textanalysis.Analyzer, error)

// batchFlags are shared by every analysis command.
func batchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "pretty", Usage: "print an indented, readable form"},
		&cli.StringFlag{Name: "input", Aliases: []string{"i"}, Usage: "run over JSON lines from `FILE` (- for standard input)"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write results to `FILE` instead of standard output"},
		&cli.IntFlag{Name: "workers", Aliases: []string{"w"}, Value: 0, DefaultText: "one per CPU", Usage: "analyse `N` lines at once in batch mode; answers keep the input order"},
	}
}

// fetchFlags are for the commands that fetch pages: text and qa.
func fetchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "allow-private", EnvVars: []string{"TEXTANALYSIS_ALLOW_PRIVATE"}, Usage: "let URL fetches reach private and loopback addresses (local testing only)"},
	}
}

// withoutFlag returns flags less the one named name.
func withoutFlag(flags []cli.Flag, name string) []cli.Flag {
	out := flags[:0:0]
	for _, f := range flags {
		if f.Names()[0] != name {
			out = append(out, f)
		}
	}
	return out
}

func inputFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "file", Aliases: []string{"f"}, Usage: "read the text from `FILE` (- for standard input)"},
	}
}

// readText returns the text to analyse: the arguments joined by spaces,
// the --file, or standard input.
func readText(c *cli.Context) (string, error) {
	if f := c.String("file"); f != "" {
		if c.Args().Present() {
			return "", usagef("give the text as arguments or with --file, not both")
		}
		return readFileOrStdin(c, f)
	}
	if c.Args().Present() {
		args := c.Args().Slice()
		if len(args) == 1 && args[0] == "-" {
			return readFileOrStdin(c, "-")
		}
		return strings.Join(args, " "), nil
	}
	if isTerminal(c.App.Reader) {
		return "", usagef("no text: give it as arguments, with --file, or on standard input")
	}
	return readFileOrStdin(c, "-")
}

// maxInputBytes bounds what the CLI reads for one text: a little more than
// the analysis limit allows, so that too-long input gets the clear error.
const maxInputBytes = 64 << 20

func readFileOrStdin(c *cli.Context, name string) (string, error) {
	var r io.Reader
	if name == "-" {
		r = c.App.Reader
	} else {
		f, err := os.Open(name)
		if err != nil {
			return "", &usageError{err}
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxInputBytes+1))
	if err != nil {
		return "", fmt.Errorf("read input: %w", err)
	}
	if len(b) > maxInputBytes {
		return "", usagef("input is larger than %d bytes", maxInputBytes)
	}
	return string(b), nil
}

// printResult writes one result as JSON, or indented with --pretty.
func printResult(c *cli.Context, v any) error {
	w, closeOut, err := openOutput(c)
	if err != nil {
		return err
	}
	defer closeOut()
	return server.EncodeJSON(w, v, c.Bool("pretty"))
}

func openOutput(c *cli.Context) (io.Writer, func(), error) {
	name := c.String("output")
	if name == "" || name == "-" {
		return c.App.Writer, func() {}, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, nil, &usageError{err}
	}
	return f, func() { f.Close() }, nil
}

// isValidation reports errors that come from the input, not the machinery.
func isValidation(err error) bool {
	var (
		unknown *textanalysis.UnknownModelError
		tooLong *textanalysis.TooLongError
		spanErr *display.SpanError
		urlErr  *extract.URLError
	)
	return errors.As(err, &unknown) || errors.As(err, &tooLong) || errors.As(err, &spanErr) ||
		errors.As(err, &urlErr) || errors.Is(err, textanalysis.ErrNoText) || errors.Is(err, display.ErrOutputTooLarge)
}

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "serve the HTTP API, the developer site and the docs",
		Description: `Serves every operation, the OpenAPI document (/openapi.json), the HTML reference
(/docs), the markdown docs (/docs.md) and the developer site (/developer) with the
embedded models. Keys, plans and counts live in the store: textanalysis.db (SQLite)
in the working directory unless TEXTANALYSIS_DATABASE_URL names another SQLite file
or a PostgreSQL database (postgres://...), which many server processes can share.
E-mail goes over SMTP when TEXTANALYSIS_SMTP_URL is set
(smtp://user:pass@host:587?from=address), to files with --mail-dir (development),
else to the log with keys, link tokens and addresses redacted. Requests put their mails in
the store's outbox; a worker in each server process sends them, retries failures
with a backoff (8 attempts over about 20 minutes) and logs those it gives up.
Operator endpoints (/metrics, /healthz, /readyz) are served on --admin-addr,
127.0.0.1:9090 by default, and not on the public address; give each server
process on one machine its own admin address, or off.

Examples:
   textanalysis serve
   textanalysis serve --addr 127.0.0.1:9000 --base-url https://api.example.com
   TEXTANALYSIS_DATABASE_URL=postgres://api@db/textanalysis textanalysis serve`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: server.DefaultAddr, EnvVars: []string{"TEXTANALYSIS_ADDR"}, Usage: "listen on `HOST:PORT`"},
			&cli.StringFlag{Name: "base-url", EnvVars: []string{"TEXTANALYSIS_BASE_URL"}, Usage: "public `URL` of the API, for docs, e-mails and links"},
			&cli.StringFlag{Name: "developer-url", EnvVars: []string{"TEXTANALYSIS_DEVELOPER_URL"}, Usage: "public `URL` of the developer site (default: base URL + /developer)"},
			&cli.StringFlag{Name: "operator-email", EnvVars: []string{"TEXTANALYSIS_OPERATOR_EMAIL"}, Usage: "`ADDRESS` that receives the account page's requests for Pay as you go (default: the log)"},
			&cli.StringFlag{Name: "admin-addr", Value: server.DefaultAdminAddr, EnvVars: []string{"TEXTANALYSIS_ADMIN_ADDR"}, Usage: "serve /metrics, /healthz and /readyz for operators on `HOST:PORT` (keep it private; off or \"\" for none)"},
			&cli.StringSliceFlag{Name: "mcp-allowed-origin", EnvVars: []string{"TEXTANALYSIS_MCP_ALLOWED_ORIGINS"}, Usage: "let web pages from `ORIGIN` (scheme://host[:port], or *) call /mcp besides the API's own (repeat or comma-separate); other browser origins get 403"},
			&cli.StringSliceFlag{Name: "trusted-proxy", EnvVars: []string{"TEXTANALYSIS_TRUSTED_PROXIES"}, Usage: "`CIDR` of a reverse proxy whose X-Forwarded-For is believed (repeat or comma-separate)"},
			&cli.StringFlag{Name: "log-level", Value: "info", EnvVars: []string{"TEXTANALYSIS_LOG_LEVEL"}, Usage: "debug, info, warn or error"},
			&cli.BoolFlag{Name: "allow-private", EnvVars: []string{"TEXTANALYSIS_ALLOW_PRIVATE"}, Usage: "let URL fetches reach private and loopback addresses (testing only; never in production)"},
			&cli.StringFlag{Name: "mail-dir", EnvVars: []string{"TEXTANALYSIS_MAIL_DIR"}, Usage: "without SMTP, write the developer site's mails whole as files in `DIR` (development: the log redacts their links)"},
			&cli.BoolFlag{Name: "no-keys", EnvVars: []string{"TEXTANALYSIS_NO_KEYS"}, Usage: "serve without keys, metering or developer site (local development only)"},
			&cli.BoolFlag{Name: "migrate", Value: true, EnvVars: []string{"TEXTANALYSIS_MIGRATE"}, Usage: "migrate the database's schema at start; --migrate=false when deployments run textanalysis migrate as their own step (the server then refuses an older schema, and uses a newer one that is compatible)"},
			&cli.StringFlag{Name: "redis-url", EnvVars: []string{"TEXTANALYSIS_REDIS_URL"}, Usage: "share the per-second rate limits of all instances through the Redis at `URL` (redis:// or rediss://; set a password through the environment, not the flag); without it each instance keeps its own; when Redis fails, each falls back to its own and logs it"},
			&cli.DurationFlag{Name: "key-cache", Value: access.DefaultKeyCacheTTL, EnvVars: []string{"TEXTANALYSIS_KEY_CACHE"}, Usage: "remember a key and its plan for `DURATION`: a key revoked or a plan changed elsewhere takes effect on this instance within it (negative: read the store for every request)"},
			&cli.DurationFlag{Name: "drain-delay", EnvVars: []string{"TEXTANALYSIS_DRAIN_DELAY"}, Usage: "on SIGINT or SIGTERM, answer /readyz with 503 and keep serving for `DURATION` before the graceful shutdown (e.g. 5s behind a load balancer that polls /readyz)"},
			&cli.Float64Flag{Name: "rate-scale", Value: 1, EnvVars: []string{"TEXTANALYSIS_RATE_SCALE"}, Usage: "multiply every plan's per-second rate limit by `X` (load tests)"},
			&cli.IntFlag{Name: "max-conns", Value: server.DefaultMaxConns, EnvVars: []string{"TEXTANALYSIS_MAX_CONNS"}, Usage: "most open connections, `N` (negative: no cap); more are closed at once"},
			&cli.IntFlag{Name: "max-conns-per-addr", Value: server.DefaultMaxConnsPerAddr, EnvVars: []string{"TEXTANALYSIS_MAX_CONNS_PER_ADDR"}, Usage: "most open connections from one client address (IPv6: one /64), `N` (negative: no cap); trusted proxies are exempt"},
			&cli.Int64Flag{Name: "max-work", Value: server.DefaultMaxWork, EnvVars: []string{"TEXTANALYSIS_MAX_WORK"}, Usage: "weight of analysis work in flight, `N` code points (negative: no cap); past it 503 with Retry-After"},
			&cli.IntFlag{Name: "max-fetches", Value: server.DefaultMaxFetches, EnvVars: []string{"TEXTANALYSIS_MAX_FETCHES"}, Usage: "page fetches in flight, `N` (negative: no cap); past it 503 with Retry-After"},
		},
		Action: func(c *cli.Context) error {
			var level slog.Level
			if err := level.UnmarshalText([]byte(c.String("log-level"))); err != nil {
				return usagef("--log-level: %v", err)
			}
			logger := slog.New(slog.NewJSONHandler(c.App.ErrWriter, &slog.HandlerOptions{Level: level}))
			cfg := server.Config{Addr: c.String("addr"), BaseURL: c.String("base-url"), DeveloperURL: c.String("developer-url"), OperatorEmail: c.String("operator-email"), Logger: logger}
			cfg.MaxConns, cfg.MaxConnsPerAddr, cfg.MaxWork, cfg.MaxFetches = c.Int("max-conns"), c.Int("max-conns-per-addr"), c.Int64("max-work"), c.Int("max-fetches")
			cfg.AdminAddr = c.String("admin-addr")
			cfg.DrainDelay = c.Duration("drain-delay")
			if cfg.AdminAddr == "" {
				cfg.AdminAddr = "off"
			}
			for _, v := range c.StringSlice("mcp-allowed-origin") {
				for _, part := range strings.Split(v, ",") {
					if part = strings.TrimSpace(part); part != "" {
						cfg.MCPAllowedOrigins = append(cfg.MCPAllowedOrigins, part)
					}
				}
			}
			for _, v := range c.StringSlice("trusted-proxy") {
				for _, part := range strings.Split(v, ",") {
					part = strings.TrimSpace(part)
					if part == "" {
						continue
					}
					p, err := netip.ParsePrefix(part)
					if err != nil {
						a, aerr := netip.ParseAddr(part)
						if aerr != nil {
							return usagef("--trusted-proxy %q: not a CIDR or address", part)
						}
						p = netip.PrefixFrom(a, a.BitLen())
					}
					cfg.TrustedProxies = append(cfg.TrustedProxies, p)
				}
			}
			an, err := textanalysis.New(textanalysis.Options{Fetch: extract.Options{AllowPrivate: c.Bool("allow-private")}})
			if err != nil {
				return err
			}
			if !c.Bool("no-keys") {
				// Start-up I/O (connect, migrate, read the secret) has a
				// deadline: a database that does not answer fails the start.
				startCtx, cancelStart := context.WithTimeout(c.Context, server.StartupTimeout)
				defer cancelStart()
				open := server.OpenStore
				if !c.Bool("migrate") {
					open = server.OpenStoreNoMigrate
				}
				st, err := open(startCtx, os.Getenv("TEXTANALYSIS_DATABASE_URL"))
				if err != nil {
					return err
				}
				defer st.Close()
				// Expired tokens, past days' trial counters and long-expired
				// trials are purged now and every hour; the job stops, and is
				// waited for, before the store closes.
				purgeCtx, stopPurge := context.WithCancel(c.Context)
				purged := make(chan struct{})
				go func() {
					defer close(purged)
					server.RunPurge(purgeCtx, st, server.PurgeOptions{Logger: logger.With("job", "purge")})
				}()
				defer func() { stopPurge(); <-purged }()
				rates := map[store.Plan]access.Rate{}
				for p, r := range access.DefaultRates {
					scale := c.Float64("rate-scale")
					rates[p] = access.Rate{PerSecond: r.PerSecond * scale, Burst: int(float64(r.Burst) * scale)}
				}
				devURL := cfg.DeveloperURL
				if devURL == "" {
					base := strings.TrimRight(cfg.BaseURL, "/")
					if base == "" {
						base = server.LocalURL(cfg.Addr)
					}
					devURL = base + "/developer"
				}
				keyCache := c.Duration("key-cache")
				if keyCache == 0 {
					keyCache = -1 // 0 given on purpose: no cache
				}
				gate, err := access.New(startCtx, access.Config{
					Store: st, Rates: rates, DeveloperURL: devURL,
					RedisURL: c.String("redis-url"), KeyCacheTTL: keyCache, Logger: logger.With("component", "gate"),
				})
				if err != nil {
					return err
				}
				defer gate.Close()
				cfg.Gate = gate
				switch smtpURL, dir := os.Getenv("TEXTANALYSIS_SMTP_URL"), c.String("mail-dir"); {
				case smtpURL != "" && dir != "":
					return &usageError{errors.New("serve: set TEXTANALYSIS_SMTP_URL or --mail-dir, not both")}
				case smtpURL != "":
					m, err := mail.NewSMTP(smtpURL)
					if err != nil {
						return &usageError{err}
					}
					cfg.Mail = m
				case dir != "":
					cfg.Mail = mail.Dir{Path: dir}
				default:
					cfg.Mail = mail.Log{Logger: logger.With("component", "developer")}
				}
				// Requests only enqueue their mails in the store's outbox;
				// this worker (one per process, sharing the outbox with the
				// others) sends and retries them, until the store closes.
				worker := &mail.Worker{Queue: st, Sender: cfg.Mail, Logger: logger.With("job", "mail")}
				cfg.Mail = worker.Outbox(0)
				mailCtx, stopMail := context.WithCancel(c.Context)
				mailed := make(chan struct{})
				go func() {
					defer close(mailed)
					worker.Run(mailCtx)
				}()
				defer func() { stopMail(); <-mailed }()
			}
			srv, err := server.New(cfg, an)
			if err != nil {
				return &usageError{err}
			}
			return srv.ListenAndServe(c.Context)
		},
	}
}
