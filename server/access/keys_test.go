package access

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrefixOf(t *testing.T) {
	live, _, _, err := NewKey(KindLive)
	require.NoError(t, err)
	secret := live[len("ta_live_"):]
	tests := []struct {
		name, in, want string
	}{
		{"live key", live, live[:len("ta_live_")+6]},
		{"trial key", "ta_trial_" + secret, "ta_trial_" + secret[:6]},
		{"sandbox key", "ta_sbx_" + secret, "ta_sbx_" + secret[:6]},
		{"key and another value in one header", live + ", ta_live_x", live[:len("ta_live_")+6]},
		{"junk before the key", "x, " + live, ""},
		{"another API's key", "sk_live_" + secret, ""},
		{"unknown kind", "ta_gold_" + secret, ""},
		{"too short", "ta_live_abc", ""},
		{"not base62", "ta_live_ab-cdefgh", ""},
		{"underscores after the kind", "ta_live_" + secret + "_" + secret, live[:len("ta_live_")+6]},
		{"empty", "", ""},
		{"prefix only", "ta_trial_", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PrefixOf(tt.in)
			assert.Equal(t, tt.want, got)
			assert.LessOrEqual(t, len(got), MaxPrefixLen)
		})
	}
}

// FuzzPrefixOf checks that PrefixOf never gives away more than a prefix,
// whatever a client puts in its key header.
func FuzzPrefixOf(f *testing.F) {
	key, _, _, err := NewKey(KindTrial)
	require.NoError(f, err)
	for _, s := range []string{"", key, key + ", ta_live_x", "ta_live_x, " + key, "Bearer " + key, "ta_sbx_" + key, "ta__________", "ta_live_ÄÖÜäöüßé"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := PrefixOf(in)
		if got == "" {
			return
		}
		if len(got) > MaxPrefixLen {
			t.Fatalf("PrefixOf(%q) = %q: longer than %d", in, got, MaxPrefixLen)
		}
		if !strings.HasPrefix(in, got) {
			t.Fatalf("PrefixOf(%q) = %q: not a prefix of its input", in, got)
		}
		kind, secret, _ := strings.Cut(strings.TrimPrefix(got, keyPrefix), "_")
		if kind != KindLive && kind != KindTrial && kind != KindSbx {
			t.Fatalf("PrefixOf(%q) = %q: unknown kind", in, got)
		}
		if len(secret) != prefixLen || strings.Trim(secret, secretChars) != "" {
			t.Fatalf("PrefixOf(%q) = %q: not %d characters of a secret", in, got, prefixLen)
		}
	})
}
