package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/textanalysis/go-textanalysis/server"
)

// healthcheckCommand probes a running server's /readyz, for container
// images that hold nothing but this binary (no curl or shell for a
// HEALTHCHECK).
func healthcheckCommand() *cli.Command {
	return &cli.Command{
		Name:  "healthcheck",
		Usage: "exit 0 when the server on this machine is ready (its /readyz answers 200), else 1",
		Description: `Asks /readyz on the admin address, the one serve uses: --admin-addr, else
TEXTANALYSIS_ADMIN_ADDR, else 127.0.0.1:9090 (a host of 0.0.0.0, :: or none means
this machine). Meant for a container's health check, where the image has no curl:
   HEALTHCHECK CMD ["textanalysis", "healthcheck"]`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "admin-addr", Value: server.DefaultAdminAddr, EnvVars: []string{"TEXTANALYSIS_ADMIN_ADDR"}, Usage: "the server's admin `HOST:PORT`"},
			&cli.DurationFlag{Name: "timeout", Value: 3 * time.Second, Usage: "give up after `DURATION`"},
		},
		Action: func(c *cli.Context) error {
			url, err := readyURL(c.String("admin-addr"))
			if err != nil {
				return err
			}
			client := &http.Client{Timeout: c.Duration("timeout")}
			res, err := client.Get(url)
			if err != nil {
				return fmt.Errorf("not ready: %w", err)
			}
			defer res.Body.Close()
			_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("not ready: %s answered %s", url, res.Status)
			}
			_, err = fmt.Fprintln(c.App.Writer, "ready")
			return err
		},
	}
}

// readyURL is the /readyz URL of the admin address addr, as serve binds it.
func readyURL(addr string) (string, error) {
	if addr == "" || addr == "off" {
		return "", usagef("healthcheck: the admin address is off; give --admin-addr HOST:PORT")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", usagef("healthcheck: admin address %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/readyz", nil
}
