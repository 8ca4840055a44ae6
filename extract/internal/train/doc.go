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
// deterministic: pages in id order, and row sampling keyed by each row's
// identity (gbdt.go, rowKey: a hash of set, page id, block index, seed and
// tree decides whether a row is in a tree's subsample), so that changing
// one page changes that page's rows only and not the sample of the others.
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
//		-drop 0.3 -add 0.3 -article-tau 0.12 -article-add 0.8 \
//		-type-decode -type-rule-chars 500 \
//		-type-gate-types documentation -short-rule-chars 500 -article-veto-comments
//
// writes the embedded model (its Note records the flags; see "The
// documentation gate" below for the last line); add -grid to
// compare decodings. -skip-cv trains the final model only, without the
// per-type thresholds (they are chosen on the cross-validated
// probabilities).
//
// -stack measures a stacked second stage (stack.go, blockmodel.StackRows):
// a model over each block's features and its neighbours' first-stage
// probabilities (previous and next blocks, windows, the highest before and
// after, the heading section's, the page's), trained on out-of-fold
// first-stage probabilities. Its wcxb figure is by nested cross-validation
// of the whole two-stage pipeline (-stack-inner folds inside each outer
// fold's training pages); it prints that beside the first stage's, per
// type, and over a small grid of thresholds, and writes the model with its
// second stage (Model.Stack, which extract applies when present).
// Measured on dev with the decoding above (not shipped: the embedded model
// has no second stage):
//
//	                              wcxb CV  ScrapingHub  snippets
//	first stage only               0.8339       0.9761    0.9424
//	two stages, -stack-inner 2     0.8355       0.9755    0.9408
//	two stages, -stack-inner 4     0.8383       0.9755    0.9408
//	  second stage for blocks the
//	  rules left out only          0.8393       0.9754    0.9402
//	  mean of the two stages       0.8358       0.9760    0.9424
//
// By type (-stack-inner 4, CV) the second stage gains on documentation
// (.889 -> .896), collection (.619 -> .637), listing (.597 -> .633),
// product (.671 -> .683) and service (.770 -> .779) but loses on article
// (.941 -> .939) and forum (.786 -> .779), as both variants do (article
// .940 and .939, forum .780 and .782); no threshold of its grid
// reaches wcxb CV 0.84 with ScrapingHub at 0.975 (-article-add 0.6 gives
// 0.843 but ScrapingHub 0.963 and snippets 0.933, as with the first stage
// alone). The second stage is 100 trees (82 kB of JSON; the model 403 kB
// with it) and costs no measurable speed (ScrapingHub, -reps 3: 367-373
// against 364-386 CPU pages/s, within the noise). Command:
//
//	go run ./extract/internal/train -data ../shared/data/extract -types-readability \
//		-drop 0.4 -add 0.3 -article-tau 0.12 -article-add 0.8 -stack -stack-inner 4 -out FILE
//
// -type-decode (typedecode.go, Model.TypeDrop, TypeAdd and TypeRuleChars)
// gives a page whose most likely type (out-of-fold on wcxb) is not
// article thresholds of its own type, chosen on wcxb by coordinate ascent
// over a grid of add thresholds (the drop threshold stays -drop); its
// figure is by cross-validation of the choice itself (the thresholds for
// each fold chosen on the other four folds' out-of-fold probabilities).
// Pages predicted article keep the decoding above; with -type-rule-chars
// so do pages where the rules kept that many characters or more (the
// rules found a body of their own: 500 is the rules' own "too short",
// under which they retry without their class-name rule, as go-trafilatura
// falls back when its result looks too short). -oof-cache FILE keeps the
// first stage's out-of-fold probabilities between runs. Measured on dev
// (wcxb by cross-validation; ScrapingHub and snippets with the final
// model):
//
//	                               wcxb CV  ScrapingHub  snippets
//	without -type-decode            0.8339       0.9761    0.9424
//	-type-decode -type-rule-chars
//	  500 (shipped)                 0.8404       0.9761    0.9394
//	  1000                          0.8420       0.9695    0.9388
//	  2000                          0.8421       0.9695    0.9377
//	  4000                          0.8416       0.9695    0.9379
//	  0 (every page)                0.8410       0.9703    0.9369
//	  0, drop chosen too
//	  (-type-drop-grid 0.2,...,0.5) 0.8396       0.9703    0.9369
//	  0, without listing            0.8381       0.9752    0.9408
//	  0, drop chosen too, and
//	  -type-veto-dropped            0.8345
//	  -type-filter                  0.8358       0.9762    0.9414
//
// (1000 to 4000 by the -dump simulation, the others by the program.) By
// type (CV, without -type-decode -> shipped ->
// every page): article .941 -> .940 -> .937, collection .619 -> .651 ->
// .638, documentation .889 -> .889 -> .910, forum .786 -> .786 -> .792,
// listing .597 -> .648 -> .667, product .671 -> .687 -> .670, service .770
// -> .772 -> .791. The gains come from blocks the rules dropped for their
// class or element or by their text filters (link lists, cards, product
// and service sections): vetoing either takes nearly all of it back.
// Without the rule-chars gate ScrapingHub falls on one news page the
// page-type model calls a listing (a short article, 660 characters, among
// headline lists), where the listing thresholds take in the headline
// links; the article probability, the top type's probability or the
// rules' share of the text as the gate do not keep it out and the wcxb
// gains in. Documentation gains only without the gate: its pages have
// long rule texts. The readability pages (articles) do not stand in for
// ScrapingHub in the choice: folded too (-readability-folds, their
// probabilities out of fold; wcxb CV without -type-decode 0.8315 with
// fewer of them per fold), -type-decode raises both wcxb (0.8420) and
// them (0.9474 -> 0.9485), so weighting them in (-type-readability-weight)
// changes nothing. The harness (../shared/eval/extract, all three dev
// sets in one run, -reps 3; wcxb in-sample) on the shipped model: wcxb
// 0.868 (go-trafilatura 0.810), ScrapingHub 0.976 (0.971), snippets 0.940
// (0.922); on the model without the gate: 0.872, 0.970, 0.937. Speed is
// the previous model's (ScrapingHub and trafilatura sets, one run, -reps
// 5: 182 and 171 CPU pages/s against 184 and 167).
//
// Documentation (CV 0.889 against go-trafilatura's 0.931) is held back
// by the block probabilities, not by the decoding: on the -dump grid no
// single drop/add pair, even given each page's true type, gets the 38
// documentation pages above 0.927. Measured and not shipped (wcxb by
// cross-validation; the choice of a threshold cross-validated outside
// the program on the -dump and -dump-blocks output):
//
//   - Reading a page wrapper hidden by an inline visibility:hidden until
//     script runs (a framework's guard against unstyled content; the
//     element holds two thirds of the page's text): it changes one page
//     over the four dev sets, a documentation page that came out as its
//     meta description. Retrained with it (the same command, features
//     recomputed) documentation goes 0.889 -> 0.911, ScrapingHub 0.978,
//     snippets 0.937, but wcxb CV 0.8404 -> 0.8382 (article 0.937,
//     product 0.665): one page's rows move the seeded row sampling, and
//     the other types move by that noise, about 0.002 overall.
//   - On top of it, on pages where the rules kept under 500 characters,
//     an add threshold of its own in place of -article-add (0.45:
//     documentation 0.923, CV 0.8404, ScrapingHub 0.976, snippets
//     0.937): it takes the comments and a no-article page's menu into
//     the golden pages' text (up to 0.7 still the comments heading).
//   - Documentation-probability gates on pages with long rule texts
//     (add 0.3 to 0.6 from a documentation probability of 0.05 to 0.5):
//     +0.013 on documentation with the choice made on all pages, +0.003
//     with the choice cross-validated; the per-type thresholds for pages
//     predicted documentation whatever the rules kept: +0.005.
//
// # Keyed sampling and the surroundings features
//
// The row sampling was a sequential generator: one page more or less, or
// one page's blocks changed, shifted every later row's draw, and wcxb CV
// moved by about 0.002 to 0.005 for reasons unrelated to the change. It
// is now keyed by row (rowKey). The command as it was (-drop 0.4) with
// the keyed sampling and the features as they were: wcxb CV 0.8359 (the shipped 0.8404 was
// one draw of the old stream; by type article .939, collection .613,
// documentation .898, forum .790, listing .645, product .681, service
// .772), ScrapingHub 0.975, snippets 0.938.
//
// Features of a block's surroundings (extract/features.go, docContext),
// for the text documentation and listing pages spread over list items,
// short paragraphs and cells: its heading section, nested by level
// (hsec_level, the section's characters, blocks, the rules' share and
// link density), the densest text window (dense_ratio: the block's
// 11-block window against the page's densest, dense_dist), the blocks of
// the same tag under the same parent (sib_log_count, sib_log_chars), a
// list introduced by a line ending in a colon (intro_colon), code within
// two blocks (near_pre) and the mean log characters over 7 and 21 blocks.
// All linear in the page. With them (the command above with -drop 0.4 /
// -drop 0.3; the first-stage probabilities are the same):
//
//	                       -drop 0.4   -drop 0.3 (shipped)
//	wcxb CV                  0.8434      0.8434
//	  article                 .939        .939
//	  collection              .658        .656
//	  documentation           .900        .903
//	  forum                   .790        .794
//	  listing                 .662        .667
//	  product                 .682        .684
//	  service                 .787        .782
//	ScrapingHub               0.976       0.976
//	snippets                  0.9344      0.9357
//
// (-drop chosen between the two on these figures: 0.3 keeps the snippets
// the features cost at 0.4.) The gain is about the size of the seed's
// noise: with -seed 2 (-drop 0.3; per-type CV, and in brackets the
// figure without the per-type thresholds):
//
//	                    seed 1 before  seed 1 after    seed 2 before  seed 2 after
//	wcxb CV             .8359 (.8346)  .8434 (.8364)   .8363 (.8332)  .8393 (.8324)
//	  article           .939           .939            .938           .939
//	  collection        .613           .656            .624           .666
//	  documentation     .898           .903            .904           .904
//	  forum             .790           .794            .794           .795
//	  listing           .645           .667            .655           .617
//	  product           .681           .684            .663           .680
//	  service           .772           .782            .772           .769
//	ScrapingHub         0.975          0.976           0.978          0.973
//	snippets            0.938          0.9357          0.9373         0.9343
//
// (seed 1 before at -drop 0.4.) The features raise collection by .04
// under both seeds and the per-type decoding a little overall; they do
// not move documentation, nor the first stage's own figure. Documentation stays short of go-trafilatura's
// 0.931: its pages lose recall on blocks the rules left out (list items
// and plain paragraphs of manual pages, tutorial section titles) whose
// probabilities sit between 0.3 and 0.8, on pages the decoding treats as
// articles: the page-type models give most of them an article probability
// of 0.12 or more (the -article-tau gate, add 0.8) even when documentation
// is their most likely type (0.8 and more on two of the worst), and their
// rule texts are long (over -type-rule-chars, so the per-type thresholds
// do not apply). Simulated on the -dump output (wcxb out of fold), a gate
// on the documentation probability (from 0.05: drop 0.3, add 0.4; the
// choice cross-validated) gives documentation 0.916 (0.920 chosen on all
// pages), wcxb 0.8454, ScrapingHub unchanged, snippets 0.9335; it needs a
// decoding rule in blockmodel.Thresholds, which the model's fields cannot
// express, and is not shipped. With one threshold for every block and no
// article gate (0.30) documentation reaches 0.932 but ScrapingHub falls
// (the gate is there for it).
//
// The hidden-wrapper reading above, measured again with the keyed
// sampling and these features (commit "read a wrapper hidden only by an
// inline visibility:hidden", reverted): wcxb CV 0.8434 -> 0.8420,
// documentation .903 -> .916, article .939 -> .940, collection .656 ->
// .660, forum .794 -> .795, listing .667 -> .652, product .684 -> .671,
// service .782 -> .778, ScrapingHub 0.976 -> 0.975, snippets 0.9357 ->
// 0.9320. It changes one dev page's rule text, and the other types move
// all the same: keyed sampling keeps the other pages' samples, but one
// page's rows still change the page-type models and the trees grown
// after them (and the per-type thresholds chosen on them). Not shipped:
// snippets fall under 0.935.
//
// # The documentation gate
//
// The shipped model (sha256 03a9da16..., 324117 bytes) reads the hidden
// wrapper above again (extract/blocks.go, hiddenWrapper) and adds two
// decoding rules (blockmodel.Model.Thresholds), each chosen by
// cross-validation after the per-type thresholds (typedecode.go,
// chooseTypeGates: for each fold on the other folds' pages under that
// fold's per-type thresholds):
//
//   - -type-gate-types documentation: on a page the per-type thresholds
//     do not take, a documentation probability of at least TypeGate gives
//     the blocks the rules left out TypeGateAdd in place of the article
//     gate's 0.8 (grid: from 0.03 to 0.5, add 0.3 to 0.6). Chosen: from
//     0.03, add 0.50 in every fold (seed 1); seed 2 chose add 0.30 to 0.50.
//   - -short-rule-chars 500: on a page neither takes where the rules kept
//     some text but under 500 characters (their own "too short"), the
//     blocks they left out need ShortAdd (grid 0.5 to 0.8; chosen 0.5 in
//     every fold and both seeds). Where they kept nothing the article gate
//     stays: such a page may have no body (the no-article golden page
//     would take in its category links); measured, keeping
//     those pages in changes wcxb CV by 0.0001 (seed 1) and 0.0005 (seed 2).
//     wcxb's own choice goes lower (0.35 when the grid starts at 0.3:
//     documentation .939, ScrapingHub 0.974, snippets 0.929), where
//     ScrapingHub's short articles take in their furniture, hence the
//     grid's floor.
//
// Per type (wcxb CV; before: the model before this section, the hidden
// wrapper not read; wrapper: retrained with it, same decoding; shipped:
// with the two rules; snippets of the wrapper column by the -dump
// simulation):
//
//	                 seed 1                    seed 2
//	                 before  wrapper shipped   before  wrapper shipped
//	all              .8434   .8420   .8448     .8393   .8365   .8395
//	  article        .939    .940    .940      .939    .938    .9385
//	  collection     .656    .660    .6595     .666    .619    .619
//	  documentation  .903    .916    .938      .904    .914    .9375
//	  forum          .794    .795    .798      .795    .798    .799
//	  listing        .667    .652    .654      .617    .643    .649
//	  product        .684    .671    .671      .680    .668    .668
//	  service        .782    .778    .788      .769    .772    .782
//	ScrapingHub      0.976   0.975   0.975     0.973   0.973   0.973
//	snippets         0.9357  0.9320  0.9311    0.9343  0.9341  0.9307
//
// go-trafilatura's CV figures, for comparison: documentation .931,
// article .930, collection .600, forum .672, listing .530, product .631,
// service .753. Documentation gains .022 to .024 from the rules on either
// seed and every other type stays above go-trafilatura; wcxb CV stays at
// or above its seed's "before" (seed 2 was under 0.84 already). The
// snippets fall under 0.935: on seed 1 mostly by the retrain (the
// per-type thresholds, add 0.2, take in furniture on six trafilatura
// pages the model calls service, product or listing; without the
// per-type thresholds that model's snippets are 0.9349), on seed 2 by the
// gate, whose add on all pages is 0.35 there. The harness (one run,
// -reps 1; wcxb in-sample) on the shipped model: wcxb 0.868 (go-trafilatura
// 0.810; documentation .946 against .931), ScrapingHub 0.975 (0.971),
// snippets 0.931 (0.922). Without the wrapper the two rules give
// documentation 0.926 (seed 1, dump simulation: wcxb 0.8461,
// ScrapingHub 0.9759, snippets 0.9335), short of go-trafilatura's 0.931:
// the wrapper's page comes out empty. Measured and not shipped (dump
// simulation, seed 1 wrapper model, both rules): per-type add
// thresholds floored at 0.25 or 0.3 (snippets 0.9324 and 0.9333, wcxb
// 0.8442 and 0.8435); -article-add 0.9 (snippets 0.9343, ScrapingHub
// 0.979, wcxb 0.8391, article .935).
//
// # Snippets under the per-type decoding: measured, nothing shipped
//
// The shipped model's snippets (0.9311, harness 0.931) are under the
// issue's 0.935. Where the errors are (trafilatura dev, seed 1, by the
// regime that decodes the page; tp/fp/fn are snippets): 418 pages under
// the article gate (add 0.8) 1197/97/60; 27 under the documentation gate
// 77/10/2; 12 short rule texts 29/4/5; 9 under the per-type thresholds
// 21/15/0 (under the short-rule add 0.5 they would be 21/7/0); 9 with an
// article probability under -article-tau 27/7/0. Of the 133 false
// snippets 88 sit in blocks the rules kept (probability 0.3 and more,
// most above 0.8), 44 in blocks the model added; of the 67 missed, 51 sit
// in blocks left out under their add threshold, 16 in no single block.
// With none of the three non-article rules (every page under the article
// gate) the snippets reach 0.9352 only: most of the loss is in the
// article gate itself, on German, Spanish and Polish news furniture
// ("Die meistgelesenen Artikel", "LE PUEDE INTERESAR: ...") the model
// scores high.
//
// Decodings measured by the -dump-blocks simulation (the choice made by
// the same coordinate ascent, cross-validated over the wcxb folds as the
// program does; it reproduces the program's 0.8448 / 0.9752 / 0.9311):
//
//	                                         wcxb CV  ScrapingHub  snippets
//	shipped                                   0.8448       0.9752    0.9311
//	per-type thresholds only when the top
//	  type's probability >= c, c chosen by CV  (chooses c = 0: unchanged)
//	  c = 0.5 fixed                           0.8423       0.9752    0.9314
//	  c = 0.6 fixed                           0.8415       0.9752    0.9333
//	margin between the top two types, by CV    (chooses 0: unchanged)
//	one-standard-error rule (the most
//	  conservative threshold within k SE of
//	  the best, per coordinate), k = 0.5      0.8405       0.9752    0.9314
//	  k = 1                                   0.8360       0.9752    0.9337
//	without the per-type thresholds           0.8373       0.9752    0.9330
//	-article-add 0.85 (rest re-chosen)        0.8421       0.9759    0.9336
//	-article-add 0.9                          0.8392       0.9790    0.9343
//	-article-add 0.95                         0.8340       0.9811    0.9338
//	-readability-folds (their out-of-fold
//	  probabilities count in the choice; by
//	  the program)                            0.8433       0.9752    0.9330
//	  and -article-add 0.85                   0.8425       0.9759    0.9355
//
// The training data do not ask for the restraint the two check sets
// reward: by article probability ([0.12,0.5), [0.5,0.8), [0.8,0.9),
// [0.9,0.95), [0.95,1]), the wcxb pages under the article gate (out of
// fold) score best at add 0.8 in every band (against 0.85, 0.9 and the
// rules' text alone: e.g. 0.9647 / 0.9640 / 0.9630 / 0.9480 in the top
// band), and so do the readability pages out of fold (-readability-folds;
// over all of them 0.9495 at 0.8, 0.9484 at 0.85, 0.9455 at 0.9, 0.9418
// at 0.95), while ScrapingHub and the snippets gain from 0.9 or the rules
// alone in most bands. Both golds are inclusive (wcxb's "full main
// content", Readability.js's output); ScrapingHub's is the article body
// and the snippets mark furniture as must-not. No readability page falls
// under the per-type thresholds, so they carry no signal on them. A
// heavier readability weight does not move the check sets either (the
// final model alone, -skip-cv, as configured without the per-type rules:
// -readability-weight 1.0 ScrapingHub 0.975, snippets 0.9353, against
// 0.975 and 0.9352 at 0.3). Taking non-English pages (by a stopword
// share) out of the non-article rules gives 0.9356: not a choice the
// training data can make (wcxb is English), and short of the bar anyway.
// So no decoding chosen on the training data reaches snippets 0.935 with
// wcxb CV at 0.84; the gap is in the block probabilities on non-English
// news furniture, which the wcxb and readability golds do not label.
// -dump-blocks writes the readability pages too (out of fold) when
// -readability-folds is set.//
// # Position against the main paragraphs: A shipped, with the comment veto
//
// Language-independent block features for the news furniture above
// (extract/features.go, in docContext; all prefix sums, linear in the
// page; a main paragraph is a block of 200 characters or more with under
// 30% link text):
//
//   - main_before, main_after: log characters of the main paragraphs
//     before and after the block (none after: trailing furniture);
//   - gap_prev_main, gap_next_main: log characters between the block and
//     the nearest main paragraph before and after it (-1: none);
//   - page_link_share: the block's share of the page's link characters;
//   - text_repeat: log count of the page's blocks with the same text
//     (short blocks only: "weiterlesen", "Bild anzeigen");
//   - label_colon: a colon in the first 40 bytes of a line that goes on
//     ("Lea más: ...", "Release Date: ...");
//   - main_parent, main_gparent: the share of the main paragraphs'
//     characters under the block's parent and grandparent.
//
// The shipped command (features recomputed; a subset by -zero, which
// gives the same figures as the code without those features: all nine
// zeroed reproduce the shipped 0.8448 / 0.9752 / 0.9311). wcxb CV as
// the program prints it ("type gates, cross-validated", per type);
// ScrapingHub to four digits by a simulation of the decoding on the
// -dump-blocks output (it reproduces the program's three-digit figures
// and the snippets exactly); snippets by the program:
//
//	                                 wcxb CV  ScrapingHub  snippets
//	seed 1  shipped features          .8448     .9752      .9311
//	        the four main_/gap_ (A)   .8457     .9749      .9367
//	        all nine but main_parent,
//	        main_gparent              .8454     .9764      .9337  (documentation .927)
//	        page_link_share,
//	        text_repeat, label_colon  .8438     .9765      .9335
//	        A + text_repeat,
//	        label_colon               .8462     .9744      .9347  (documentation .923)
//	        A + page_link_share       .8441     .9746      .9347
//	        A + main_parent, gparent  .8442     .9736      .9349
//	seed 2  shipped features          .8395     .9733      .9307
//	        A                         .8420     .9752      .9313
//	        all nine but main_parent,
//	        main_gparent              .8410     .9756      .9341
//	seed 3  shipped features          .8411     .9745      .9342
//	        A                         .8461     .9758      .9342
//	A and -readability-folds (the readability pages' out-of-fold
//	probabilities count in the choice of the per-type thresholds):
//	seed 1                            .8491     .9749      .9354
//	seed 2                            .8440     .9752      .9316
//
// Per type for A (seed 1 / 2 / 3; shipped features in brackets): article
// .942 / .939 / .940 (.940 / .9385 / .941), collection .662 / .658 / .675
// (.660 / .619 / .627), documentation .940 / .940 / .940 (.938 / .9375 /
// .929), forum .793 / .796 / .792 (.798 / .799 / .788), listing .651 /
// .624 / .635 (.654 / .649 / .650), product .677 / .668 / .680 (.671 /
// .668 / .662), service .786 / .786 / .787 (.788 / .782 / .7925). A
// raises wcxb CV on every seed (+.0009, +.0025, +.0050; no type under
// go-trafilatura) and ScrapingHub on two of three, but the snippets by
// +.0056, +.0006 and 0: on seed 1 (the shipped seed) it reaches 0.9367
// with ScrapingHub 0.9749, under the 0.9752 it had; on the other seeds it
// stays under 0.935. No set of these features meets all three bars with
// margin on more than one seed.
//
// Shipped: A alone (the four features; the other five are not computed),
// chosen because it raises wcxb CV on all three seeds, the criterion
// training data can judge, not for the check sets; seed 1 stays the
// shipped seed. With A a short blog post's first comment came in (golden
// comments: its paragraphs are all under 200 characters, so no block is a
// main paragraph; the model before A let the same comment in once one
// paragraph was longer, golden comments-long-paragraph). Hence
// -article-veto-comments (blockmodel.Model.ArticleVetoComments): on a
// page whose most likely type is article and whose rules kept a block
// outside comment sections, every block inside one (cls_comment > 0) is
// left out, kept by the rules or not; a page that is one comment keeps
// it, and forum pages are not articles. Seed 1, A:
//
//	                                 wcxb CV  ScrapingHub  snippets
//	no veto                           .8457     .975       .9367
//	veto on added blocks only
//	  (article gate)                  .8462     .975       .9367
//	veto on all comment blocks of
//	  article-gated pages             .8443     .975       .9370  (forum .7728)
//	veto on all comment blocks of
//	  pages whose top type is
//	  article (shipped)               .8457     .975       .9370
//
// (ScrapingHub as the program prints it; precision .966 -> .967 with the
// shipped veto.) The first two leave the comments golden page's comment
// in: the rules keep it, and the article gate does not apply to a page
// whose rules kept under -short-rule-chars.
//
// The false snippets under the article gate do not move (by the
// simulation, false snippets of pages decoded by the article gate: 97 /
// 96 / 96 with the shipped features on seeds 1 / 2 / 3, 92 / 98 / 89
// with A); the snippet gains and losses sit in the pages decoded by the
// non-article rules (per-type thresholds, documentation gate, short rule
// text), which move with the seed (documentation gate 10 / 19 / 19
// false snippets with the shipped features, 8 / 12 / 18 with A). The
// wcxb gold labels the English form of the furniture as content: blocks
// the rules left out inside their container, of 54 characters or more, with
// link density 0.5 or more and a probability of 0.8 or more ("Also
// Read: ...", "READ MORE: ...", "Website: ...") hold 77% of their
// shingles in the gold (167 blocks, out of fold); under the article
// gate, kept blocks under 100 characters after the last main paragraph
// the rules kept hold 50% to 58% (by distance), against 61% before it.
// Under the article gate (seed 1, snippets contained in one block) the
// rules' kept blocks at probability 0.3 to 0.9 hold 45 false and 140 true
// snippets, those at 0.9 and over 28 and 1040, the added blocks 23 and
// 17: many false snippets are whole paragraphs of teasers or leads that
// look like running text. The rules alone score 0.9367 on the snippets.
//
// Bagging (-bag N, fitBag: the mean of N block models fitted with seeds
// -seed … -seed+N−1, one model of N·200 trees; the page-type models stay
// single). Measured 2026-11-25 with the shipped flags and -bag 3 (seeds
// 1–3), against the single seeds of the same recipe (WCXB per-type CV;
// ScrapingHub and snippets as the program prints them):
//
//	                 wcxb CV   ScrapingHub   snippets
//	seed 1 (shipped) .8457     .975          .9370
//	seed 2           .8420                   .9326
//	bag of seeds 1-3 .8462     .976          .9356
//
// The bag lands between the seeds on the snippets and at the best seed on
// WCXB: it narrows the seed's spread but gains nothing on average, and it
// doubles the model (441,829 bytes of model.bin against 220,531). Not
// shipped; the flag stays for the next feature round, where comparing
// bags rather than single seeds separates a feature's gain from the
// seed's noise.
package main
