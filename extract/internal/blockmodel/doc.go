// Package blockmodel holds the learned block classifier of package extract:
// gradient-boosted regression trees over per-block features, trained by
// extract/internal/train and embedded as model.json. It also holds the hook
// through which the training program sees the blocks and features that
// package extract computes, so that training and extraction share one
// feature code.
package blockmodel
