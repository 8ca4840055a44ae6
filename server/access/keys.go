package access

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"strings"
)

// API is the name keys of this service are issued for.
const API = "textanalysis"

// Key kinds, the middle part of a key: ta_live_…, ta_trial_…, ta_sbx_….
const (
	KindLive  = "live"
	KindTrial = "trial"
	KindSbx   = "sbx"
)

// keyPrefix starts every key this service issues; a key that starts
// otherwise was issued for another API.
const keyPrefix = "ta_"

// secretChars is base62: keys survive URLs, shells and copy-paste.
const secretChars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// secretLen base62 characters carry 32*log2(62) ≈ 190 random bits.
const secretLen = 32

// prefixLen is how much of the secret part the stored prefix shows.
const prefixLen = 6

// NewKey makes a key of a kind and returns it with the prefix and hash the
// store keeps. The key itself is shown once and never stored.
func NewKey(kind string) (key, prefix, hash string, err error) {
	var b strings.Builder
	b.WriteString(keyPrefix + kind + "_")
	max := big.NewInt(int64(len(secretChars)))
	for range secretLen {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			return "", "", "", err
		}
		b.WriteByte(secretChars[n.Int64()])
	}
	key = b.String()
	return key, PrefixOf(key), HashKey(key), nil
}

// HashKey is the hex SHA-256 of a key: keys carry enough entropy that a
// fast hash is safe, and lookups stay one index probe.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// PrefixOf returns the readable start of a key, safe to store and to log:
// the kind prefix (ta_live_, ta_trial_ or ta_sbx_) and the first 6
// characters of the secret, at most [MaxPrefixLen] bytes in all. Input
// that does not start like one of this service's keys (another API's key,
// junk, a header holding several values) gives "", so PrefixOf never
// returns more of its input than that, whatever it is given.
func PrefixOf(key string) string {
	if !strings.HasPrefix(key, keyPrefix) {
		return ""
	}
	rest := key[len(keyPrefix):]
	for _, kind := range []string{KindLive, KindTrial, KindSbx} {
		s, ok := strings.CutPrefix(rest, kind+"_")
		if !ok {
			continue
		}
		if len(s) < prefixLen || strings.Trim(s[:prefixLen], secretChars) != "" {
			return ""
		}
		return keyPrefix + kind + "_" + s[:prefixLen]
	}
	return ""
}

// MaxPrefixLen is the longest [PrefixOf] answer: "ta_trial_" and 6
// characters of the secret.
const MaxPrefixLen = len(keyPrefix+KindTrial+"_") + prefixLen

// ours reports whether a presented key has this API's shape.
func ours(key string) bool {
	if !strings.HasPrefix(key, keyPrefix) {
		return false
	}
	rest := key[len(keyPrefix):]
	for _, kind := range []string{KindLive, KindTrial, KindSbx} {
		if s, ok := strings.CutPrefix(rest, kind+"_"); ok {
			return len(s) == secretLen && strings.Trim(s, secretChars) == ""
		}
	}
	return false
}
