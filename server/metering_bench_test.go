package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/textanalysis/go-textanalysis/internal/cputime"
	"github.com/textanalysis/go-textanalysis/server/access"
	"github.com/textanalysis/go-textanalysis/server/store"
	"github.com/textanalysis/go-textanalysis/server/store/sqlite"
)

// BenchmarkSentimentShort serves bench/load's short GET /sentiment from 8
// goroutines per core without the network, metered (one hot Pay as you
// go account, SQLite) and not: the difference is what metering costs a
// request in the server, commits of counts included.
func BenchmarkSentimentShort(b *testing.B) {
	an, err := testAnalyzer()
	require.NoError(b, err)
	for _, mode := range []string{"unmetered", "metered"} {
		b.Run(mode, func(b *testing.B) {
			var cfg Config
			key := ""
			if mode == "metered" {
				st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
				require.NoError(b, err)
				defer st.Close()
				gate, err := access.New(context.Background(), access.Config{Store: st, Rates: noRates, PaygCap: 1 << 40})
				require.NoError(b, err)
				a, err := st.CreateAccount(context.Background(), store.Account{Plan: store.PlanPayg, Email: "bench@example.com"})
				require.NoError(b, err)
				iss, err := gate.IssueKey(context.Background(), a, access.KindLive, "")
				require.NoError(b, err)
				cfg.Gate, key = gate, iss.Secret
			}
			srv, err := New(cfg, an)
			require.NoError(b, err)
			b.SetParallelism(8)
			b.ReportAllocs()
			cpu0 := cputime.Process()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req := httptest.NewRequest(http.MethodGet, "/sentiment?text=What+a+lovely+day", nil)
					if key != "" {
						req.Header.Set("X-API-Key", key)
					}
					w := httptest.NewRecorder()
					srv.ServeHTTP(w, req)
					if w.Code != http.StatusOK {
						b.Fatal(w.Code, w.Body.String())
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
			if cfg.Gate != nil {
				batches, requests := cfg.Gate.BatchStats()
				b.ReportMetric(float64(requests)/float64(max(batches, 1)), "requests/batch")
			}
		})
	}
}
