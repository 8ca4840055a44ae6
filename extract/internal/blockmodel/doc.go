// Package blockmodel holds the learned block classifier of package extract:
// gradient-boosted regression trees over per-block features, trained by
// extract/internal/train, which writes model.json and model.bin, the same
// model in a form that loads in about a millisecond instead of the 13-14
// ms of encoding/json (binary.go; `go generate ./extract/internal/blockmodel`
// rewrites model.bin from model.json, and TestBinaryMatchesJSON fails when
// they differ). The binary embeds model.bin. It also holds the hook
// through which the training program sees the blocks and features that
// package extract computes, so that training and extraction share one
// feature code.
package blockmodel
