// Command train builds the embedded weights of the sentiment "hybrid" model
// from the training sets in ../shared/data/sentiment/train/ (see that
// directory's README: SST train phrases, IMDB train reviews, SemEval
// 2013–2016 tweets, 100,000 Sentiment140 tweets, Amazon multi-domain
// reviews). Nothing else trains it; the dev sets are only read with -dev.
//
//	go run ./sentiment/internal/train -data ../shared/data/sentiment/train \
//	    -out sentiment/internal/lr/weights.bin.gz [-dev ../shared/data/sentiment]
//
// The defaults are the settings of the shipped weights (3–4 minutes on
// two cores shared with other jobs; the same flags rebuild the same
// bytes, and -pol-from the shipped weights gives the same bytes too). Every text is featurised as package
// sentiment does at run time: its VADER scores come from lr.VaderOf,
// which package sentiment sets (VADER with the hybrid's lexicon
// supplement). What it trains, in order:
//
//   - the polarity head (2^20 hashed words and word pairs, negation
//     marked) on every record with a pos/neg label, sample weights SST 4
//     (phrases 2), Amazon 2, IMDB 1, SemEval 1, Sentiment140 0.1, and on
//     the neutral SST records of 6 tokens or more with target 0.5 and
//     twice those weights (-sst-neu 2, -sst-neu-min 6). Each
//     feature is scaled by its naive Bayes log-count ratio (Wang & Manning
//     2012; a neutral phrase counts half on each side), folded into the
//     weights afterwards; each head is AdaGrad with its weights averaged
//     over the last epoch, and sixteen such heads (-ens), trained on
//     different shuffles, are averaged;
//   - the tokenised-text head (2^18), the same on the SST records alone;
//   - out-of-fold logits of both (two folds) for the whole text, the part
//     after its last "but"/"however" and each clause, from which the blend
//     with VADER's scores, the kind of text and VADER's compound times
//     the cues its rules read (shortness, emoticons/emoji, "!", sentiment
//     words all of one sign, 1/(1+|logit|) of the word model) is fitted,
//     on every polar
//     record but the SST phrases shorter than 16 tokens (the blend must
//     learn how far to trust each part on whole sentences). The SST
//     records are split into folds by parse tree (a record goes with the
//     longest record that contains it), and a fold's heads see no n-gram
//     of its held-out records: the training data holds no phrase of an SST
//     dev or test sentence either, so the blend sees the heads as they
//     are on new sentences (-tree-folds);
//   - the subjectivity head (2^18, with VADER's scores as dense features)
//     on nine tenths of the SemEval tweets and of the SST records of 3
//     tokens or more (label5 2 is neutral, -subj-sst 1), picked by id;
//   - the neutral decision on the remaining tenth (-band-tol 0.003): a text
//     is neutral when P(polar) is below Tau, or when VADER finds no
//     sentiment word and |2·P(positive)−1| is below Band, unless VADER's
//     compound is at least Kappa in magnitude and agrees in sign with
//     P(positive) − 1/2 (see lr.IsNeutral). Band and Kappa are fixed
//     (-band 0.2, -kappa 0.8: what a free search over all three chose for
//     seed 1; negative values search them too), and Tau is chosen on the
//     mean of five held-out figures, the two the evaluation judges a
//     label by on each set with neutral gold — 3-class macro-F1, and
//     accuracy on the polar records where "neutral" counts as wrong — for
//     the SemEval tweets and the SST sentences and phrases of 10 tokens or
//     more, plus accuracy on a tenth of the Amazon reviews. That mean is
//     flat over a range of taus (about 0.22–0.36), so the best point is
//     noise: Tau is the one within -band-tol (0.003) of the best nearest
//     the middle of that range (-tau-mid). The free search over all three
//     (-band -1 -kappa -1 -tau-mid=false: among the triples within
//     -band-tol of the best the narrowest band, then the lowest Kappa)
//     chose (0.30, 0.20, 0.80), (0.23, 0.25, 0.50) and (0.26, 0.25, 0.90)
//     for seeds 1–3, and dev TweetEval macro-F1 swung from 0.608 to 0.561
//     (VADER's) with the seed; with the fixed band and the middle tau the
//     seeds choose 0.29, 0.27 and 0.29 (table below). The SST and Amazon
//     records are in the polarity heads' training, so the band is, if
//     anything, chosen narrow;
//   - the tweet heads (-tweet, tweet.go): Dom (2^18) tells tweets (half of
//     the SemEval tweets, a third of the Sentiment140 ones) from the first
//     four sentences of the Amazon reviews and of a third of the IMDB
//     reviews and the SST sentences, by the word hashes and lr.TweetCues;
//     Neu (2^20) tells polar from neutral tweets by those and
//     lr.CharGrams, trained on the nine tenths of the SemEval tweets and,
//     as polar with weight 0.2 (-tweet-s140), half of the Sentiment140
//     tweets, those in which VADER finds a sentiment word
//     (-tweet-s140-words); both AdaGrad, 4 epochs (-tweet-epochs), rate
//     0.1 (-tweet-eta), averaged over the last epoch, VADER's scores as
//     dense features. TauTweet is chosen on the held-out tenth of the
//     SemEval tweets and of those Sentiment140 tweets: the mean of
//     SemEval 3-class macro-F1 and Sentiment140 label accuracy, the tau
//     nearest the middle of those within -band-tol of the best (0.45–0.54:
//     0.49). BandTweet is fixed at 0.2 (-tweet-band; a free search is
//     flat within 0.001 over 0–0.55) and KappaTweet at 0.8 (-tweet-kappa).
//     At run time a text that is not long and that Dom gives P(tweet) ≥
//     1/2 is judged by Neu with these; other texts as before. On dev, Dom
//     takes 97% of TweetEval and 88% of the VADER tweets for tweets, and
//     14% of vader-nyt, 7% of UCI, 5% of vader-amazon, 3% of SST.
//
// What the issue 14 changes did, seed 1, dev label accuracy (-use-label;
// 3-class macro-F1 in brackets), each step on top of the previous one:
//
//	                         SST          TweetEval    UCI    Amazon (VADER)  NYT    VADER tweets
//	before                   .819 (.587)  .857 (.618)  .867   .732 (.599)     .570   .902 (.714)
//	VADER-cue blend features .823 (.585)  .860 (.615)  .868   .741 (.599)     .575   .907 (.718)
//	+ domain supplement      .823 (.585)  .859 (.613)  .870   .741 (.599)     .575   .907 (.717)
//	+ Kappa (chosen 0.80)    .826 (.582)  .864 (.608)  .872   .748 (.603)     .587   .914 (.723)
//	+ word classes (below)   .827 (.581)  .864 (.608)  .872   .748 (.603)     .586   .915 (.723)
//	+ middle tau (0.29)      .828 (.575)  .871 (.603)  .875   .754 (.604)     .595   .916 (.714)
//	+ tweet heads (0.49)     .828 (.579)  .766 (.684)  .874   .752 (.607)     .583   .915 (.709)
//
// The tweet heads trade TweetEval label accuracy (every neutral tweet
// called polar counted as right there if its sign was) for 3-class
// macro-F1: TweetEval neutral recall went from 0.31 to 0.61. VADER tweets:
// 3-class accuracy 0.871 → 0.869. Variants, -pol-from the shipped
// polarity, dev -use-label:
//
//	                                       TweetEval    VADER tweets       UCI    NYT
//	                                       F1           binary  F1   acc
//	shipped (-tweet-s140 0.2, words only)  .684         .915   .709  .869  .874   .583
//	-tweet-s140 0 (TauTweet 0.31)          .623         .914   .724  .872  .873   .591
//	-tweet-s140-words=false (0.49)         .677         .927   .694  .874  .878   .589
//
// Seeds of the neutral side (-pol-from the shipped weights -seed N: the
// subjectivity head, Tau and the tweet heads; the polarity heads stay
// seed 1's), same columns as the table above:
//
//	seed 1 (shipped, tau 0.29, TauTweet 0.49) .828 (.579)  .766 (.684)  .874   .752 (.607)  .583   .915 (.709)
//	seed 2 (tau 0.27, TauTweet 0.48)          .831 (.579)  .765 (.675)  .878   .754 (.602)  .592   .916 (.706)
//	seed 3 (tau 0.29, TauTweet 0.49)          .830 (.585)  .763 (.682)  .876   .751 (.601)  .580   .914 (.703)
//
// -tweet-s140-words=false (every Sentiment140 tweet as polar, also in
// the choice) reaches VADER tweets binary 0.927, but makes plain short
// statements polar ("Water boils at 100 degrees Celsius at sea level.":
// P(polar) 0.70, positive): those tweets were labelled by an emoticon
// that was removed, so many carry no sentiment in their words, and the
// head learns that an everyday statement is polar. In an experiment
// outside this program, Neu applied to every text instead of through Dom
// lost the binary sets (tau 0.30: UCI 0.841, vader-nyt 0.486); Neu also
// reading P(positive) in bins (in-sample for the SemEval training tweets)
// was dropped; Sentiment140 weight 0.5 was no better than 0.2 on either
// tweet set.
//
// Word classes: the word model reads each word of package sentiment's
// domain supplement as "lex:neg" or "lex:pos" (lr.SetWordClass), so it learns
// the class from all of them together instead of, say, "plunged" from the
// eight film reviews that have it ("Apple shares plunged 5%" was positive,
// now negative). On the 161 polar dev texts that hold a supplement word the
// label is right for 129 (131 before, VADER 82): the dev sets have few
// news and product-fault sentences, so the gain there is not measurable.
//
// Seeds 1–3 of the final recipe (tau 0.29, 0.27, 0.29), dev, same
// columns, and, for comparison, seeds 2 and 3 with the free search:
//
//	seed 1 (shipped)         .828 (.575)  .871 (.603)  .875   .754 (.604)     .595   .916 (.714)
//	seed 2                   .828 (.563)  .875 (.590)  .880   .758 (.597)     .608   .919 (.692)
//	seed 3                   .822 (.571)  .870 (.604)  .880   .749 (.595)     .590   .917 (.702)
//	seed 2, free search      .834 (.578)  .887 (.561)  .879   .757 (.600)     .630   .926 (.686)
//	seed 3, free search      .826 (.575)  .881 (.588)  .878   .743 (.591)     .603   .923 (.698)
//
// No threshold reaches dev TweetEval macro-F1 0.66 without losing the
// binary targets: on the seed 1 model, tau 0.35 gives TweetEval 0.637 but
// UCI 0.851 and VADER tweets 0.891, tau 0.45 TweetEval 0.662 but UCI 0.801,
// VADER tweets 0.833 and NYT 0.404 (the -subj-blend head, 0.66 at tau
// 0.34–0.42, loses as much). The neutral tweets of SemEval look like polar
// ones to every head tried here.
//
// Sign errors on the VADER tweets (measured after the tweet heads; nothing
// shipped). Dev -use-label: ours gives the wrong polar label to 101 polar
// VADER tweets, VADER to 27; the 3-class accuracy gap to VADER (0.869
// against 0.899) is all sign errors, since ours errs less on neutral
// decisions there (170 texts against VADER's 182; that set's neutral gold
// is |mean rating| < 0.2, 7% of it). By cause, first match (VADER right
// on how many): the word model reads the context against the lexicon
// words 17 (17), emoticons/emoji/laughter 16 (12), news headlines 14
// (11), "but"/"though" 12 (12), negation 11 (11), intensifiers/caps/"!!"
// 10 (9), lexicon wrong too (sarcasm, irony) 9 (0), slang/profanity/
// elongation 7 (7), no lexicon word 5 (0). TweetEval's 67: lexicon wrong
// too 33, negation 10, context 8, the rest 16. Where ours and VADER give
// opposite polar labels, VADER is right on 79 VADER tweets and ours on
// 13, but on the held-out tenth of the SemEval tweets (out of sample for
// the polarity heads too) VADER on 60, ours on 194; on the Sentiment140
// tenth (in the polarity heads' training at weight 0.1) 165 / 1153;
// TweetEval 25 / 82; vader-amazon 60 / 131; UCI 28 / 100; vader-nyt 106 /
// 126. Per cause, on the SemEval tenth, ours wins every one: emoticons
// 3 / 22, contrast 3 / 21, negation 10 / 29, intensifiers 13 / 34, slang
// 8 / 22, context 22 / 58, headlines 1 / 8. So no rule that follows
// VADER's sign survives the held-out tweets (fixed / broken): VADER's
// emoticon sign (SemEval tenth 2 / 4, Sentiment140 tenth 4 / 29);
// laughter or a happy emoticon against a negative label (3 / 4, 23 / 67);
// "follow VADER when |VADER compound| ≥ 0.3–0.7 and |ours| < 0.1–0.3"
// (SemEval 3–30 / 3–49, Sentiment140 1–55 / 16–263); the same only where
// the word model has little evidence, the mean |weight| of the text's
// hashes below 0.35–0.55 (at 0.4, SemEval 2 / 0 but Sentiment140 4 / 11,
// vader-nyt 10 / 14, VADER tweets only 2 / 0; at 0.55, VADER tweets 19 /
// 3 but SemEval 11 / 28, Sentiment140 16 / 128, SST 14 / 42); and a
// second stage fitted on the SemEval tenth (the blended logit, VADER's
// compound, its emoticon sign, laughter, compound × low evidence:
// two-fold error 209 against the blend's 203). The sign is not biased
// either: shifting the polarity logit by −0.3 to +0.5 gains no VADER
// tweet. More or less Sentiment140 in the polarity heads (-s140 0.2 or
// 0.05, full retrains, seed 1) raises the sign errors on the SemEval
// tenth (203 → 209, 215) and does not help the VADER tweets (binary
// .915 → .908, .915; 3-class accuracy .869 → .862, .870). The VADER
// tweets' gold is a mean of crowd ratings on the lexicon's −4..4 scale,
// and it sides with the lexicon where tweets labelled by their authors
// (Sentiment140's emoticons) or by SemEval's annotators do not.
//
// Tweet polarity (after the sign-error analysis above; nothing shipped,
// the experiment code is not kept). The polarity of a tweet comes from
// heads trained mostly on reviews, so a domain-matched polarity head was
// tried: TwPol (2^20 hashes, reading what Neu reads: the word hashes,
// lr.TweetCues, lr.CharGrams and VADER's scores as dense features),
// AdaGrad as Neu, on the polar nine tenths of the SemEval tweets and Neu's
// half of the Sentiment140 tweets (weight 0.1), used for texts Dom judges
// as tweets. Judged first on the polar held-out tenth of the SemEval
// tweets (out of sample for every head) and of the Sentiment140 tweets
// (in the polarity heads' training at 0.1): sign errors, of 2672 and
// 9660. The mix weight was chosen on that tenth (best mean of the two
// accuracies); as a check, chosen on the even records and scored on the
// odd ones and the other way round. Then dev -use-label, columns as the
// first table, plus VADER tweets 3-class accuracy:
//
//	                              SemEval  S140   SST          IMDB  TweetEval    UCI   Amazon       NYT          VADER tweets
//	seed 1 (shipped)              298      1489   .828 (.579)  .906  .766 (.684)  .874  .752 (.607)  .583 (.530)  .915 (.709) .869
//	  TwPol mixed, 0.10           289      1508   .828 (.577)  .906  .767 (.685)  .874  .752 (.608)  .583 (.530)  .916 (.707) .870
//	  TwPol on the residual, 0.80 277      1516   .827 (.572)  .906  .763 (.681)  .875  .753 (.609)  .584 (.529)  .913 (.704) .867
//	  blend tweet flag from Dom   296      1478   .823 (.572)  .907  .767 (.685)  .874  .752 (.610)  .579 (.528)  .915 (.709) .869
//	  -semeval 2                  289      1588   .825 (.575)  .905  .765 (.684)  .870  .755 (.601)  .595 (.536)  .917 (.705) .870
//	seed 2                        300      1484   .827 (.565)  .905  .764 (.673)  .878  .757 (.599)  .593 (.528)  .916 (.701) .869
//	  TwPol mixed, 0.05           294      1492   .827 (.565)  .905  .765 (.674)  .879  .756 (.600)  .593 (.528)  .916 (.700) .868
//	  TwPol on the residual, 0.25 287      1477   .827 (.565)  .905  .765 (.674)  .879  .757 (.600)  .593 (.527)  .914 (.699) .866
//	  blend tweet flag from Dom   293      1484   .829 (.568)  .905  .766 (.674)  .878  .755 (.605)  .583 (.521)  .916 (.701) .869
//
// "Mixed": the tweet's polarity logit is (1−w) times the blended one plus
// w times TwPol's. TwPol alone (w = 1, seed 1) has 308 / 2284 errors:
// no better than the general heads on the SemEval tweets and far worse on
// Sentiment140's, and the best w is small (0.05–0.10; the halves choose
// 0.10 and 0.10, and gain 0.0007 each on the other half). Sentiment140 at
// 0.5 or 1 in TwPol (dev VADER tweets .915 / .916, 3-class macro-F1 .706
// / .707), naive Bayes scaling, or 8 epochs with Sentiment140 at 0.3 move
// the held-out mean accuracy by under 0.002. "Residual": TwPol fitted as a correction on top of
// the out-of-fold blended logit (full runs, the logit plus w times
// TwPol's): the SemEval tenth gains 21 and 13 but the Sentiment140 tenth
// is mixed, the halves choose w apart (0.80 / 0.10, 0.85 / 0.35), and dev
// VADER tweets lose on both seeds. "Blend tweet flag from Dom": Dom trained
// first, and the blend reads every text Dom judges as a tweet as
// Domain.Tweet (61,010 more polarity training texts; at run time 88% of
// the VADER tweets against 66% with @, #, a link or emoji): the tweet sets
// do not move, NYT loses on both seeds. -semeval 2 (SemEval tweets at
// twice the weight in the polarity heads) trades 99 Sentiment140 errors
// for 9 SemEval ones and costs UCI. None gains on the tweet sets
// together, so none ships; the VADER tweets targets (binary ≥ 0.921,
// macro-F1 ≥ 0.728, 3-class accuracy ≥ 0.89) stay unmet. A tweet head
// trained on SemEval's and Sentiment140's labels learns what the general
// heads already know of tweets; the VADER tweets' sign errors are spread
// over the rating scale (polar texts with |mean rating| below 0.5: 232,
// ours wrong in sign on 31, VADER on 8; 0.5–1: 387, 38 / 6; 1 or more:
// 1301, 32 / 13), so they are not only the faintly rated ones.
//
// KappaTweet (measured and left out, -pol-from the shipped weights): a
// lower -tweet-kappa, so that a tweet with clearer VADER sentiment on the
// model's side is polar sooner, leaves the VADER tweets where they were
// (0.5: binary .915, 3-class accuracy .869, macro-F1 .709 → .706; 0.65:
// unchanged) and costs TweetEval (macro-F1 .684 → .673 and .681). The
// polar VADER tweets called neutral are mostly texts without a sentiment
// word that the raters still rated mildly ("Pizza time." +0.9, "Just
// landed in houston." +0.6), which VADER scores 0 and so misses as well.
//
// The bands and TauTweet (measured and left out, dev -use-label; the
// TauTweet rows patch the shipped model's threshold, the others retrain
// the neutral side with -pol-from the shipped weights):
//
//	                     TweetEval     VADER tweets            UCI    SST          Amazon (F1)
//	                     acc  F1       binary  acc   F1
//	shipped (0.49)       .766 .684     .915    .869  .709      .874   .828 (.579)  .752 (.607)
//	TauTweet 0.45        .785 .672     .923    .875  .708      .875   .828 (.579)  .753 (.603)
//	TauTweet 0.40        .818 .662     .927    .876  .703      .875   .829 (.580)  .753 (.600)
//	-tweet-band 0 (0.51) .752 .684     .914    .865  .689      .876   .828 (.572)  .755 (.605)
//	-band 0 (tau 0.32)   .765 .683     .915    .869  .709      .881   .836 (.565)  .761 (.587)
//
// 0.45 is the low end of the flat range the program chooses TauTweet
// from (0.45-0.54 within -band-tol). It meets the VADER tweets' binary
// target by 0.002 on dev but not their 3-class ones, and costs TweetEval
// 0.012 of macro-F1; no threshold moves 3-class accuracy past 0.876,
// since its errors are signs (compound-sign binary accuracy is already
// 0.940 there). -band 0 trades 3-class macro-F1 on SST and Amazon for
// binary accuracy on the same sets.
//
// Lexicon classes (measured and left out, the experiment code is not
// kept): every word of VADER's lexicon rated 1 or more in magnitude also
// gave the word model a class feature, "<lexclass:neg>" or
// "<lexclass:pos>", marked like the word when in a negation scope, so that
// a pair seldom seen ("not terrible") would be read as its class is ("not
// bad"). Full retrain, seed 1, dev -use-label (3-class macro-F1 in
// brackets), shipped → with the classes: SST .828 (.579) → .815 (.556),
// IMDB .906 → .904, TweetEval .766 (.684) → .763 (.684), UCI .874 → .870,
// Amazon .752 (.607) → .753 (.604), movies .798 (.555) → .803 (.559), NYT
// .583 (.530) → .580 (.535), VADER tweets .915 (.709) → .914 (.705).
// "Not terrible." stays negative: "not" itself weighs negative in the
// reviews. On the dev texts with a negated negative lexicon word and no
// negated positive one, the shipped labels are right more often than
// VADER's on the review and news sets and one text less often on the
// tweet sets (SST 18 of 21 against 9, UCI 21 of 25 against 15,
// vader-movies 130 of 164 against 87, vader-amazon 35 of 47 against 35,
// vader-nyt 20 of 37 against 19, TweetEval 10 of 12 against 11, VADER
// tweets 21 of 24 against 22), so the class is not one the data shows the
// model getting wrong.
//
// Tried and left out, on the final recipe: -subj-neu 1.5 or 0.67
// (neutral records weigh more or less in the subjectivity head): the middle
// tau moves to 0.23 or 0.36 and the held-out SemEval macro-F1 stays 0.587
// or 0.585 (0.585 without), dev within 0.01 of the shipped figures either
// way, like a threshold shift.
//
// Tried and left out, on the recipe before word classes and middle tau: -nb-alpha 5 (UCI .873, Amazon .744,
// NYT .579, but SST macro-F1 .574, measured before Kappa); the blend
// reading VADER's pos/neg shares times |compound| instead of the shares
// (every set lower: SST .814, UCI .862, Amazon .727); the shares times the
// tweet flag as two more blend features (the blend weighs them down,
// -0.8: VADER tweets .907, Amazon .738, UCI .870); -blend-s140 10
// (VADER tweets .890, TweetEval macro-F1 .602); -subj-s140 0.2 or 0.05,
// Sentiment140 as polar texts for the subjectivity head (label accuracy up
// everywhere, VADER tweets .932, UCI .884, NYT .650, but 3-class macro-F1
// down: TweetEval .542–.551, below VADER's .561, and VADER tweets
// .676–.679).
//
// The figures of -subj-blend and -nb-alpha below were measured on the
// features before the idiom negator got a word of its own (which changed
// 11 dev labels and no set's figure by more than 0.001).
//
// -subj-blend (off in the shipped weights) adds a second stage to the
// neutral decision: a logistic regression over the subjectivity head's
// out-of-fold logit (two folds, SST by parse tree), the strength of the
// out-of-fold polarity logit, VADER's scores and hit share, length, "!",
// "?", emoticons/emoji, links and mentions and the kind of text, fitted on
// the subjectivity records (SST ones of -subj-blend-min tokens or more).
// Seed 1: held-out SemEval macro-F1 0.594 → 0.628 and dev TweetEval 0.617
// → 0.649, but the thresholds it leads to call news and product sentences
// neutral far more often (dev vader-nyt label accuracy 0.570 → 0.481,
// below VADER; vader-amazon 0.732 → 0.683; UCI 0.867 → 0.833): the neutral
// gold of the training data is tweets and movie phrases only. Without
// -subj-blend-min (all SST records ≥ 3 tokens) the gains and losses are
// both smaller (TweetEval 0.627, vader-tweets 0.902 → 0.890). -subj-nb
// (naive Bayes scaling) and -subj-bits 20 lower the held-out SemEval
// figure (0.551, 0.549), as do -subj-sst 0.5 or 0.25, -epochs 6 and
// -eta 0.1 for the subjectivity head (0.56–0.58).
//
// Idioms (shipped; full retrain, seed 1, the same flags): the negator of
// "couldn't have been" + a comparative and of "can't tell you / believe /
// describe how …" opens no negation scope (lr.IdiomAfter, beside "can't
// … enough" and "couldn't be happier"), and the hybrid's VADER scores,
// which the blend reads, skip the same negators. Dev -use-label moved by
// at most 0.002 on any set (binary: vader-amazon .752 → .753; 3-class
// macro-F1: SST .579 → .577, vader-amazon .607 → .608; the rest equal),
// with Tau and TauTweet chosen the same (0.29, 0.49). 33 dev labels
// changed: of the labelled ones 12 right, 11 wrong; the dev texts with
// such an idiom went 3 right ("Setup couldn't have been simpler.", "I
// can't tell you how disappointed I was.", "the software couldn't be
// better …"), 1 wrong ("We could not believe how dirty the oysters
// were!": "The oysters were dirty!" alone is positive too, a word the
// film reviews teach otherwise), the rest are the retrain's noise.
// Probes: "It couldn't have been better." −0.47 → +0.30, "Words cannot
// describe how bad this movie is." +0.05 → −0.91, "I can't believe how
// good this is." −0.47 → +0.85.
//
// Wishes (shipped; full retrain, seed 1, the same flags): "better" or
// "worse" after "could/should/would/might be" or "… have been", with
// "much", "a lot", "so much", "way", "far", "even" between, is read as
// negated by the word model (lr.Counterfactual) and by the hybrid's VADER
// scores (VADER's negation factor; the vader model keeps the
// reference's reading). In the training reviews such a phrase is in
// 263 negative and 104 positive records (IMDB and Amazon). "Could be
// better." +0.09 → −0.34, "It could have been better." −0.33 (word model
// alone) → −0.60, "The service could be much better." → −0.37;
// "This is better than the last one." stays +0.53 and "It couldn't have
// been better." +0.37. Dev -use-label within noise: UCI .874 → .876,
// vader-movies .798 → .799, vader-nyt .585 → .586, VADER tweets binary
// .916 → .915; 3-class macro-F1 SST .577 → .579, vader-amazon .607 →
// .609, TweetEval .682 → .681, VADER tweets .708 → .709. Of the 33
// labelled dev texts with such a phrase, 2 labels changed (one now right,
// one now wrong: "navigation could be better, but …" in a positive
// review). "Could be worse." stays negative (−0.26): the training data
// has the phrase too seldom to teach that it means "fine".
//
// Faces by kind (shipped; full retrain, seed 1, the same flags): the word
// model's tokens spell each face one way (":-)", "=]", "(:" as ":)";
// ":-(", "=[" as ":("; "xD" as ":D"; the nose and the tear dropped) and
// HTML-escaped text is unescaped ("&lt;3" was "lt", ".", "0").
// Sentiment140's tweets lost the faces their labels came from, so the
// spellings left in them lean either way (";)" 158 negative against 283
// positive there, 2 against 97 in SemEval; "=(" 27 positive against 7),
// and a rare spelling learned little or the wrong way ("the bus is late
// ;-)" was negative, "xD" too). Dev -use-label moved by noise: binary
// IMDB .906 → .904, TweetEval .766 → .764, vader-amazon .753 → .751,
// vader-nyt .583 → .585, VADER tweets .915 → .916, the rest equal;
// 3-class macro-F1 TweetEval .684 → .682, vader-nyt .530 → .531, VADER
// tweets .709 → .708; VADER tweets 3-class accuracy .869 → .870. The
// held-out SemEval tenth's tweet decision scored the same (best mean
// 0.7435). Probes: "the bus is late ;-)" −0.08 → +0.05, "… xD" −0.11 →
// +0.36, "Love you &lt;3" positive either way.
//
// Topic words (measured and left out, code not kept): "The weather is
// nice today." is negative (−0.23; "Nice weather today." −0.40), since the
// word model reads "weather" alone at −2.4 where "nice" is +3.6: in
// Sentiment140 "weather" is in 428 negative tweets against 162 positive
// (Monday 397/133, work 3,258/1,251, rain 410/139), while SemEval, IMDB
// and Amazon lean the other way; no hash collision is involved. Without
// Sentiment140 in the polarity heads (-s140 0) the sentence is +0.59 and
// the VADER tweets gain (binary .916 → .919, 3-class accuracy .870 →
// .872), but every other set loses (SST .828 → .819, IMDB .904 → .898,
// UCI .874 → .866, vader-amazon .751 → .744, vader-nyt .585 → .578):
// its vocabulary helps more than its topics hurt. Training the polarity
// heads only on the Sentiment140 tweets in which VADER finds a sentiment
// word (26,000 fewer) keeps the topics (the sentence −0.29) and moves dev
// by noise (UCI .877, SST macro-F1 .577 → .567, VADER tweets .915 /
// .702 / .868). Domain copies of the features (Daumé 2007; measured and
// left out, code not kept): the polarity heads trained with a second copy
// of every hash per training source, which run time does not read, so
// that what one source alone teaches goes to its copy. With a copy for
// every source, the sentence is +0.29 but dev loses on most sets (SST
// .828 → .823, TweetEval .764 → .757, vader-nyt .586 → .575, VADER tweets
// .915 → .907; UCI .876 → .881); with a copy for Sentiment140 alone,
// +0.24, and SST .819, vader-nyt .580, VADER tweets .913 (3-class
// accuracy .866), the rest within 0.005: the same trade as -s140 0, since
// a copy cannot tell Sentiment140's topics from the slang and spellings
// only it holds. A known error.
//
// Balanced clauses (measured and left out, code not kept): "Not good,
// not bad." is −0.87 and "Some parts were great, others were awful."
// −0.39, where the issue asks for neutral. A text whose clause logits
// reach a on both sides (ClMax ≥ a and ClMin ≤ −a) called neutral: at
// a = 2 (297 dev texts) SST binary .828 → .822 (3-class macro-F1 .579 →
// .582), vader-movies .799 → .781, VADER tweets .915 → .908 (.709 →
// .702); at a = 3 (55 texts) every set within 0.003. The gold of mixed
// texts is mostly their overall verdict, not neutral.
//
// Amazon review titles (measured and left out, code not kept; the
// training file has them beside the texts, unused): "Five stars, would
// buy again." and "The product arrived on time and works as described."
// are neutral (P(polar) 0.22 and 0.25: the subjectivity head learned
// from tweets and film phrases only). The 7,375 titles as polar texts in
// the subjectivity head (-pol-from the shipped weights, weight 0.5 / 1)
// make both positive and raise dev binary accuracy (UCI .876 → .880 /
// .884, vader-amazon .751 → .758 / .762, vader-nyt .586 → .592 / .605),
// but lower 3-class macro-F1 (vader-amazon .609 → .599 / .595, VADER
// tweets .709 → .703 / .701) and leave 3-class accuracy where it was
// (within 0.003 on every set): plain product statements turn polar too
// ("i have had this phone for about 5 months." negative). The titles in
// the polarity heads with their review's label (weight 1 / 2, full
// retrains) lower most sets (vader-amazon .742 / .748, VADER tweets .912
// / .908): a title often says little of the review's verdict ("Strangely
// Compelling" on a two-star review).
//
// Agreement (measured and left out, code not kept): a text the
// subjectivity head calls neutral is kept polar when VADER's compound is
// at least k1 in magnitude and the word model's |2·P(positive)−1| at least
// k2, with the same sign ("The stock plunged 20% after the report.": VADER
// −0.42, P(positive) 0.05, P(polar) 0.21, so neutral). On the held-out
// tenth the neutral thresholds are chosen on, every (k1, k2) in 0.2–0.6 ×
// 0.5–0.95 lowers the objective at every tau near the chosen one (best
// 0.7933 without, 0.7928 at most with): the SemEval tweets label such news
// statements neutral.
//
// Lexicon classes (measured and left out, code not kept): every word of
// VADER's lexicon given a second feature, the class of its rating (≤ −2,
// to −0.5, from 0.5, ≥ 2), negated as the word, so that a word the
// training data seldom has leans its rated way. Full retrain, dev
// -use-label against the idiom model: SST binary .828 → .813 (3-class
// macro-F1 .577 → .561), vader-amazon .753 → .745, vader-nyt .583 →
// .576, VADER tweets .915 → .914; vader-movies .798 → .802, TweetEval
// macro-F1 .684 → .685. The classes pull the words the reviews do teach
// toward their ratings.
//
// Ratings (measured and left out, code not kept): the word model reads
// numbers as "0", so "1/10" and "10/10", "1 star" and "5 stars" read the
// same; a token for the rating's share of its scale (≥ 0.7, ≤ 0.4, in
// between) after "N/M", "N out of M" and "N star(s)" (11% of the IMDB dev
// reviews, 17 UCI sentences, 11 vader-amazon ones) left IMDB at .906 and
// UCI at .873 (from .874), and moved SST, which has no rating, from .828
// to .817 (vader-amazon .753 → .746): the ratings take weight from the
// words of the reviews that hold them, and the words carry to SST.
//
// Ratings in the hybrid's VADER scores (shipped; package sentiment's
// markRatings, full retrain, seed 1, the same flags): "9/10", "9 out of
// 10", "5 stars", "one-star" read as a sentiment word whose valence
// follows the rating's share of its scale (±3 at the ends, nothing
// between 0.4 and 0.6), so that VADER's negation and "but" apply ("It does
// not deserve 5 stars." negative). "10/10", "10 out of 10 stars." and "All
// in all I give this one a resounding 9 out of 10." were neutral (UCI dev
// has each). Dev -use-label against the model before: UCI .876 → .878 (4
// rating sentences right, 1 other wrong), IMDB .904 → .902, SST 3-class
// macro-F1 .579 → .577, TweetEval .764 → .763, vader-nyt .586 → .587
// (.531 → .534), VADER tweets .915 → .917 (.709 → .706, 3-class accuracy
// .870 → .871): beyond the ratings, the retrain's noise; Tau and TauTweet
// chosen the same (0.29, 0.49). A first version also read "N/5" and a
// slash rating after a weekday, a month or "on" ("Wednesday 10/10", which
// in tweets is a date): the held-out tweets then chose TauTweet 0.48 and
// dev moved by more, both ways (VADER tweets .921 / .716, TweetEval .775,
// but TweetEval neutral recall 528 → 516 of 869 and "Water boils at 100
// degrees Celsius at sea level." positive).
//
// Negation scope in the hybrid's VADER scores (measured and left out,
// code not kept): the reference's three-word window negates across
// commas ("Not good, not bad." negates "bad" twice, compound −0.58); a
// negation ending with its clause, as the word model reads it, made
// VADER's part of "Not good, not bad." positive, but the label stayed
// negative (−0.87 → −0.77: the word model's "not good" outweighs its "not
// bad"), and dev moved by noise (TweetEval macro-F1 .684 → .681, VADER
// tweets .709 → .706, vader-nyt binary .583 → .585). Balanced texts
// ("Not good, not bad.", "Neither good nor bad.") stay a known error.
//
// Accents folded in the word model's tokens (measured and left out, code
// not kept; package ner does fold them, see align.Fold): "cliché" and
// "cliche" as one word (about 5% of the IMDB dev reviews hold an accented
// Latin word, mostly "cliché(s)"/"clichéd") moved dev by noise: SST .828
// → .825, IMDB .906 → .905, UCI .874 → .875, VADER tweets macro-F1 .709 →
// .706; the training data spells these words both ways often enough.
//
// -nb-alpha (1 in the shipped weights) smooths the naive Bayes counts. A
// word seen in a handful of reviews gets a large ratio and so a strong
// weight from little evidence ("plunged", 8 training reviews, leans
// positive). Seed 1 with -nb-alpha 5 raises label accuracy on most dev
// sets (UCI 0.867 → 0.876, vader-amazon 0.732 → 0.750, vader-nyt 0.570 →
// 0.583), but it lowers 3-class macro-F1 (SST 0.587 → 0.571, TweetEval
// 0.617 → 0.611), so it is not the default.
//
// -pol-from FILE skips the polarity heads and blend and takes them from a
// model file: a fast loop for experiments on the neutral decision (the
// subjectivity head has its own random stream, so the result equals the
// full run's when FILE is that run's output; with -subj-blend the
// polarity logits are then in-sample for the heads' own training records,
// so the blend is only approximate).
//
// With -dev it also prints binary accuracy on the dev sets, of the model
// as written (quantised weights), with that of the polarity head and of
// the tokenised-text head alone, for development only.
//
// Seed sensitivity of the polarity side (measured before the neutral
// decision above; compound-sign binary accuracy), dev binary accuracy (TweetEval: 3-class macro-F1) for
// -seed 1..5, min–max:
//
//	               SST-2        IMDB         TweetEval    UCI          VADER tweets
//	this recipe    0.851–0.857  0.904–0.908  0.665–0.670  0.911–0.915  0.933–0.935
//	before         0.841–0.854  0.902–0.909  0.665–0.673  0.910–0.916  0.930–0.938
//
// "Before" is four heads and no neutral phrases. Sixteen heads alone only
// narrow SST-2 to 0.847–0.850; the neutral phrases raise it by about half
// a point (the heads' clause logits say less about plain spans, and the
// blend leans less on VADER against them). Using the shorter neutral
// phrases too gains a little more on SST-2 but costs VADER tweets 0.2 to
// 0.3 points (one seed of five fell to 0.930); neutral SemEval tweets at target 0.5 hurt both. The dev sets
// chose only -ens, -sst-neu and -sst-neu-min; the shipped weights are
// -seed 1, not the best seed.
//
// Spelling (package sentiment's speller). Trained with the speller on, so
// that the training texts' misspelt words were read as the words they
// misspell too, the model changed by more than the misspellings: TauTweet
// 0.49 → 0.48, and dev -use-label vader-movies 29 texts fewer right,
// vader-nyt 17 fewer, vader-amazon 7 fewer, TweetEval 3-class macro-F1
// .681 → .676, VADER tweets .706 → .714 (binary .917 → .921). That is the
// retrain's noise, not the class: read at run time only, on the shipped
// weights, it changed 17 labelled dev texts (10 fixed, 4 broken). So the
// program turns it off (lr.SetSpelling(nil)) and the weights stay
// reproducible byte for byte.
package main
