// Command train fits the block classifier of package extract: gradient
// boosted trees over the features extract computes for every block of a
// page, labelled by how much of each block's text the gold text holds.
//
// Training data are the wcxb dev pages (WCXB, CC-BY-4.0, (c) 2026
// Murrough Foley, github.com/Murrough-Foley/web-content-extraction-benchmark)
// and, with a lower weight, the readability test pages, whose gold is
// Readability.js's own output. The decision threshold is chosen by k-fold
// cross-validation over the wcxb pages (folds by page); the ScrapingHub and
// trafilatura dev sets are only scored, never trained on. Training is
// deterministic: pages in id order, a seeded generator for row sampling.
//
// Decoding is chosen by measurement (-grid prints the alternatives): a
// block the rules kept stays unless its probability is under -drop; a
// block they left out comes in from -add, or from -article-add on a page
// whose article probability (from the page-type models, themselves
// cross-validated) is at least -article-tau; blocks the rules' text
// filters name as furniture (-veto), and on article pages blocks the rules
// dropped for their class or element (-veto-dropped), never come in. The
// gate can be soft (-article-tau-hi: the add threshold ramps with the
// article probability; -non-article-drop: the drop threshold too). The
// page-type probabilities are block features too (stacking: out-of-fold
// probabilities for the wcxb pages); with -types-readability the
// readability pages train the page-type models as articles, by the same
// folds. -dump and -dump-blocks write per-page scores and per-block
// probabilities for studying decoding outside the program; -zero sets
// features to zero (ablation). Run from the repository root (add -cache
// FILE, a file outside the repository, to keep the block features between
// runs):
//
//	go run ./extract/internal/train -data ../shared/data/extract -types-readability \
//		-drop 0.4 -add 0.3 -article-tau 0.12 -article-add 0.8
//
// writes the embedded model (its Note records the flags); add -grid to
// compare decodings, -skip-cv to train the final model only.
package main
