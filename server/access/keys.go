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

// PrefixOf returns the readable start of a key: kind and a few characters.
func PrefixOf(key string) string {
	i := strings.LastIndexByte(key, '_')
	if i < 0 || len(key) < i+1+prefixLen {
		return ""
	}
	return key[:i+1+prefixLen]
}

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
