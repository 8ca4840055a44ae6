package main

import (
	"flag"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
	"go.yaml.in/yaml/v3"
)

// The deployment files at the repository's root name commands and
// TEXTANALYSIS_ variables of this binary; a renamed flag or a typo in them
// would only show in a deployment, where nothing else tests them (CI has no
// container runtime).

type composeFile struct {
	Services map[string]struct {
		Build       any               `yaml:"build"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Healthcheck struct {
			Test []string `yaml:"test"`
		} `yaml:"healthcheck"`
		Networks any `yaml:"networks"`
	} `yaml:"services"`
}

// interpolated replaces compose's ${VAR:-default} with the default and
// ${VAR:?message} or ${VAR} with a placeholder.
func interpolated(s string) string {
	return regexp.MustCompile(`\$\{([A-Z_]+)(:?-([^}]*)|:?\?[^}]*)?\}`).ReplaceAllStringFunc(s, func(m string) string {
		if i := strings.Index(m, ":-"); i >= 0 {
			return strings.TrimSuffix(m[i+2:], "}")
		}
		return "placeholder"
	})
}

// envRead is every TEXTANALYSIS_ variable this package reads itself.
func envRead(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	names := map[string]bool{}
	re := regexp.MustCompile(`os\.Getenv\("(TEXTANALYSIS_[A-Z_]+)"\)`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			names[m[1]] = true
		}
	}
	require.Contains(t, names, "TEXTANALYSIS_DATABASE_URL")
	return names
}

// checkEnv fails the test unless every TEXTANALYSIS_ variable of env is
// read by cmd, through a flag that accepts its value or directly; with
// direct nil, only the values of the variables cmd's flags read are checked.
func checkEnv(t *testing.T, where string, cmd *cli.Command, env map[string]string, direct map[string]bool) {
	t.Helper()
	byEnv := map[string]cli.Flag{}
	for _, f := range cmd.Flags {
		if ef, ok := f.(cli.DocGenerationFlag); ok {
			for _, e := range ef.GetEnvVars() {
				byEnv[e] = f
			}
		}
	}
	for name, value := range env {
		if !strings.HasPrefix(name, "TEXTANALYSIS_") {
			continue
		}
		f, ok := byEnv[name]
		if !ok && direct == nil {
			continue
		}
		if !ok {
			assert.True(t, direct[name], "%s: %s is not read by textanalysis %s", where, name, cmd.Name)
			continue
		}
		// The flag reads its variable when applied to a flag set: a
		// value it cannot parse is an error.
		t.Setenv(name, interpolated(value))
		set := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
		set.SetOutput(io.Discard)
		assert.NoError(t, f.Apply(set), "%s: %s=%q", where, name, value)
	}
}

func TestComposeFileMatchesTheBinary(t *testing.T) {
	b, err := os.ReadFile("../../compose.yaml")
	require.NoError(t, err)
	var cf composeFile
	require.NoError(t, yaml.Unmarshal(b, &cf))
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	direct := envRead(t)

	ours := 0
	var serving []string
	trusted := map[string]string{}
	for name, svc := range cf.Services {
		if svc.Build == nil {
			continue // postgres, redis, the proxy
		}
		ours++
		require.NotEmpty(t, svc.Command, name)
		cmd := app.Command(svc.Command[0])
		require.NotNil(t, cmd, "%s: no command %q", name, svc.Command[0])
		checkEnv(t, name, cmd, svc.Environment, direct)
		if test := svc.Healthcheck.Test; len(test) > 0 {
			require.GreaterOrEqual(t, len(test), 3, name)
			assert.Equal(t, "CMD", test[0], name)
			assert.Equal(t, "/usr/local/bin/textanalysis", test[1], name)
			hc := app.Command(test[2])
			require.NotNil(t, hc, "%s: health check runs %q", name, test[2])
			checkEnv(t, name+" healthcheck", hc, svc.Environment, nil)
		}
		if cmd.Name == "serve" {
			serving = append(serving, name)
			assert.Equal(t, "false", svc.Environment["TEXTANALYSIS_MIGRATE"], "%s: the migrate service migrates", name)
			assert.Contains(t, svc.Environment, "TEXTANALYSIS_REDIS_URL", name)
			trusted[name] = svc.Environment["TEXTANALYSIS_TRUSTED_PROXIES"]
		}
	}
	assert.Equal(t, 3, ours, "migrate and two replicas")
	slices.Sort(serving)
	assert.Equal(t, []string{"api-1", "api-2"}, serving)

	// The replicas believe X-Forwarded-For from the proxy's fixed address,
	// and the proxy sends to both replicas on their TEXTANALYSIS_ADDR port
	// and polls /readyz on their admin port.
	var proxy struct {
		Services struct {
			Proxy struct {
				Networks map[string]struct {
					IPv4 string `yaml:"ipv4_address"`
				} `yaml:"networks"`
			} `yaml:"proxy"`
		} `yaml:"services"`
	}
	require.NoError(t, yaml.Unmarshal(b, &proxy))
	addr, err := netip.ParseAddr(proxy.Services.Proxy.Networks["backend"].IPv4)
	require.NoError(t, err, "the proxy has a fixed address")
	for name, cidr := range trusted {
		p, err := netip.ParsePrefix(cidr)
		require.NoError(t, err, name)
		assert.True(t, p.Contains(addr), "%s trusts %s, the proxy is %s", name, cidr, addr)
	}
	caddy, err := os.ReadFile("../../deploy/Caddyfile")
	require.NoError(t, err)
	assert.Contains(t, string(caddy), "reverse_proxy api-1:8080 api-2:8080")
	assert.Contains(t, string(caddy), "health_uri /readyz")
	assert.Contains(t, string(caddy), "health_port 9090")
}

// The Dockerfile's ENV and HEALTHCHECK are ones the binary accepts, and
// the compose health check runs the binary where the image puts it.
func TestDockerfileMatchesTheBinary(t *testing.T) {
	b, err := os.ReadFile("../../Dockerfile")
	require.NoError(t, err)
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	env := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "ENV "); ok {
			for _, kv := range strings.Fields(rest) {
				k, v, ok := strings.Cut(kv, "=")
				require.True(t, ok, kv)
				env[k] = v
			}
		}
	}
	require.Contains(t, env, "TEXTANALYSIS_ADMIN_ADDR")
	app := newApp(strings.NewReader(""), io.Discard, io.Discard)
	checkEnv(t, "Dockerfile", app.Command("serve"), env, envRead(t))
	assert.Contains(t, text, `CMD ["/usr/local/bin/textanalysis", "healthcheck"]`)
	assert.Contains(t, text, `COPY --from=build /out/textanalysis /usr/local/bin/textanalysis`)
	assert.Contains(t, text, `CMD ["serve"]`)
	assert.Contains(t, text, "CGO_ENABLED=0")
	assert.Contains(t, text, "USER 65532:65532")
}
