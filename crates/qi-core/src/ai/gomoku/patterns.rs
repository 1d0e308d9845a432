//! The learned pattern evaluation of Gomoku: a value for every combination of the four line
//! shapes a stone would make on an empty point, summed over the empty points for each side,
//! and a value for the threats on the board seen from the side to move.
//!
//! Every empty point has, for each side, the shapes a stone of that side there would make on
//! its four lines ([`super::board::PointShape`]: none, one, two, three, four, open four, five,
//! blocked or free). The four shapes taken as a multiset (order of the directions left out)
//! are one of [`COMBOS`] combinations; each has a weight per colour, and the first part of the
//! evaluation is the sum of Black's weights over the empty points minus White's (kept up to
//! date stone by stone by the board, [`super::board::Board::keep_points`]). What that sum cannot
//! see is whose move it is: an open three of the side to move is a win in two, one of the
//! opponent must be answered. The second part is a weight per threat mask ([`THREAT_BITS`]
//! flags: for each side whether it has a four-three point, a four point, two of them, an
//! open-three point, a three-three point, and whether the opponent has an open-four point; [`super::board::Board::threat_mask`]), per colour
//! of the side to move.
//!
//! The weights are fitted by logistic regression on the results of self-play games (the
//! estimated winning chance of the side to move is `1 / (1 + exp(-v / SCALE))`), by the
//! training program `examples/gomoku_patterns.rs` (which gives the data recipe), one set for
//! freestyle (also used for the standard rule; both colours share it) and one for renju
//! (Black's and White's apart). They ship in `data/gomoku-patterns.bin` (22 kB); the
//! freestyle set was refitted in session 42 and the renju set in session 43 and again in
//! session 62 (below); before
//! that both were fitted on:
//!
//! ```text
//! gomoku_patterns gen --rule freestyle --games 1200 --seed 1 --nodes 30000 --out gf1.txt
//! gomoku_patterns train --rule freestyle gf1.txt --epochs 300 --l2 0    # held-out log loss 0.406
//! gomoku_patterns gen --rule renju --games 1000 --seed 2 --nodes 30000 --out gr1.txt
//! gomoku_patterns train --rule renju gr1.txt --epochs 200 --l2 0        # held-out log loss 0.399
//! ```
//!
//! In use: `qi-engine gomocup` in freestyle and the standard rule (in self-play at 200 ms a
//! move it won 65% against the line score, 40 games; against Rapfi's classical evaluation at
//! 1 s a move 13 of 80 games, where the line score had won 0-10%); in renju, where these
//! weights only drew even (20-0-20), since session 43's refit of the renju weights (below);
//! the levels with the match setting `patterns=1`. A second round (1,200 more freestyle games played on these weights, a refit
//! on both sets) won 56 of 100 self-play games against them but only 3 of 40 against Rapfi,
//! and is not shipped; a second renju round lost in self-play (45%). Session 20 refitted the
//! freestyle weights from these ones to Rapfi's own evaluation (50 ms a position) of the
//! 24,614 positions of 900 self-play games (`gen --nodes 20000 --patterns 1`, seeds 5 and 6;
//! the recipe in the training program's doc): held-out log loss against Rapfi's labels 0.476
//! for these weights, 0.450 for the refit, which moved the point weights by 2.4 on average
//! (400 is one logit); in `gomocup` self-play at 200 ms a move it scored 51-5-44 against these
//! (seed 55, load 3.2-3.6) and against Rapfi at 1 s a move 4-0-36 (10%, the freestyle file,
//! load 3.7-4.0): no better, so not shipped.
//!
//! Session 41 tried that again on the positions where Qi actually loses: the labels were
//! Rapfi's search evaluation at 120 ms a position, turned into a winning chance with its own
//! scale (250 units a logit; a mate 0.98 or 0.02). The positions were every position from the
//! fourth stone of 555 distinct Qi-against-Rapfi match games, and every third of 1,648 games of
//! Rapfi against itself: 33,742 positions, 15,665 of them mates. Held-out log loss against
//! those labels:
//!
//! | weights | all positions | the 18,077 without a mate |
//! |---|---|---|
//! | these (shipped) | 0.653 (66% of the signs right) | 0.779 (59%: worse than a coin) |
//! | refit from these, all positions | 0.509 (80%) | — |
//! | refit from these, without the mates | — | 0.577 (82%) |
//!
//! Against Rapfi at 1 s a move (freestyle openings file) both refits played worse than these
//! weights usually do:
//! - the first: 3-1-41 in 45 games (seeds 4111 and 4112, stopped early);
//! - the second: 1-0-22 in 23 games (seed 4111, stopped early);
//! - these weights usually score 5-20% in such matches (load about 2).
//!
//! So an evaluation that agrees much better with Rapfi's does not help Qi's search. Neither
//! refit is shipped.
//!
//! Session 42 added the positions Qi's search believes in: for every position with Qi to move
//! from the 4th to the 24th stone of the distinct games of the Qi-against-Rapfi match logs,
//! `qi-engine gomocup` searched to depth 8 and to depth 11; every second position along each
//! principal variation, from the one after its first move, and the one before its last move
//! were labelled by Rapfi as above (120 ms a position, scale 250). Where Qi loses, these
//! leaves are where the evaluation errs in Qi's favour (in one opening Qi's depth-11 score was +1,068 for itself where Rapfi rated it
//! -756). The freestyle weights shipped since are a refit from the weights before on those
//! and session 41's positions (`train --base embedded --epochs 200 --lr 2`; scripts and
//! labels outside the repo, like Rapfi):
//!
//! | refit | positions (labelled / kept by `train`) | held-out log loss, the weights before | refit |
//! |---|---|---|---|
//! | round one: session 41's and 3,994 from PVs of main's `gomocup` | 37,736 / 29,917 | 0.661 (64.9% of the signs right) | 0.552 (73.8%) |
//! | round two (shipped): and 8,697 more from PVs of round one's `gomocup` | 46,433 / 36,680 | 0.664 (65.0%) | 0.553 (74.2%) |
//!
//! Measured with `qi-engine gomocup` (the quiescence of session 42 on), 200 ms a move in
//! self-play (3 random plies, 100 games) and 1 s a move against Rapfi (the freestyle openings
//! file, 40 games a match; load about 2, two matches or labelling beside each):
//!
//! | weights | self-play | against Rapfi |
//! |---|---|---|
//! | before (session 21's round one) | | 5-0-35, 3-0-37 |
//! | round one | 56-3-41 against the weights before | 6-0-34, 8-0-32, 9-0-31 |
//! | round two | 49-2-49 against round one | 10-0-30, 5-0-35 |
//!
//! Session 43 did the same for renju, whose `gomocup` had kept the line score. The roots were
//! the positions with Qi to move, from the 4th to the 24th stone, of 80 renju games against
//! Rapfi at 1 s a move (40 of main's line score, 40 of the pattern evaluation with the renju
//! weights before); `gomocup --set patterns=1` searched each to depth 8 and to depth 11, and
//! the positions along the PVs were taken as in session 42. Rapfi labelled them (120 ms, scale
//! 250), with every position from the 4th stone of those games and every second position of
//! 199 games of Rapfi against itself (100 ms a move, random 3-stone openings within 3 of the
//! centre). The renju weights shipped since are round one, a refit from the weights before
//! (`train --rule renju <labels…> --base embedded --epochs 200 --lr 2`):
//!
//! | refit | positions labelled / kept by `train` | held-out log loss, the weights before | refit |
//! |---|---|---|---|
//! | round one (shipped): 6,171 PV positions and 5,308 game positions | 11,479 / 8,699 | 0.804 (58.7% of the signs right) | 0.630 (66.1%) |
//! | round two: and 6,257 along round one's PVs on the same roots, 4,424 along its PVs in its own 80 games against Rapfi and 1,549 positions of those games | 23,711 / 17,777 | 0.778 (61.9%) | 0.648 (65.6%) |
//!
//! Against Rapfi at 1 s a move (the renju openings file, 40 games a match, load about 2, two
//! matches side by side):
//!
//! | `gomocup` under renju | against Rapfi |
//! |---|---|
//! | the line score (main until then) | 5-0-35, 5-0-35 (12.5%) |
//! | the pattern evaluation, the renju weights before | 9-0-31 |
//! | round one (shipped) | 9-0-31, 10-0-30, 12-0-28, 11-0-29 (42-0-118, 26.3%) |
//! | round two | 8-0-32, 6-0-34 (17.5%) |
//! | round one as `gomocup`'s default (the final build, no `--set`) | 7-0-33 (load 3-4, a CI build beside it), 11-0-29 |
//! | the line score, side by side with the last row | 7-0-33 |
//!
//! Over all 240 games round one scored 60-0-180 (25.0%), the line score 17-0-103 (14.2%) in
//! 120.
//!
//! Self-play again disagreed with the matches against Rapfi: in renju at 200 ms a move (3
//! random plies, 100 games, seed 4301) the weights before scored 43-1-56 against the line
//! score, and round one 42-0-58.
//!
//! Session 44 tried a third renju round and a third freestyle round, neither shipped. Renju:
//! the roots were the 1,800 positions with Qi to move (stones 4-24) of the 240 games rounds one
//! and two had played against Rapfi; the shipped `gomocup` searched each to depths 8 and 11,
//! and 10,465 new positions along the PVs were labelled as before. Freestyle: 747 roots of 80
//! games of the shipped `gomocup` against Rapfi, 5,738 PV positions and the games' 2,746
//! positions (7,656 labelled). Against Rapfi at 1 s a move (40 games a match, load about 2):
//!
//! | refit | held-out log loss, base → refit | against Rapfi |
//! |---|---|---|
//! | renju A: session 43's round-one data and the new PVs, from the weights before round one | 0.856 → 0.656 | 7-0-33 |
//! | renju D: the same data, from round one | 0.694 → 0.626 | 8-0-32 (round one on the same openings beside it: 11-0-29) |
//! | freestyle F: the new data, from the shipped weights | 0.645 → 0.605 | 9-1-30, 9-1-30, 6-0-34 (24-2-94, 20.8%; the shipped weights 9-0-31 the same day) |
//!
//! In every renju match Qi won almost only as White (rounds one to three: 0-1 wins of 20 as
//! Black a match, about half as White): the renju gap is Black's play, which these refits did
//! not move.
//!
//! Session 47 balanced the renju openings file by Rapfi's self-play (the file's header; the old
//! file gave White 26 of 29 of Rapfi's own games), and tried a renju refit E on positions from
//! other openings: 20 new random ones (seed 48), on which the shipped `gomocup` played Rapfi
//! (40 games, 13-0-27); its 410 roots searched to depths 8 and 11 gave 2,824 PV positions,
//! with the games' 1,240 positions 3,662 distinct ones labelled as before (Rapfi at 120 ms,
//! scale 250). Fitted from the shipped weights on those and round one's data (`train --rule
//! renju … --base embedded --epochs 200 --lr 2`), and E2 on the new positions alone. Against
//! Rapfi at 1 s a move on the new file (40 games a match, two side by side, load about 2):
//!
//! | renju weights | held-out log loss, base → refit | against Rapfi |
//! |---|---|---|
//! | shipped (round one) | | 6-0-34, 4-0-36, 3-0-37, 10-0-30 (23-0-137, 14.4%) |
//! | E: round one's data and the new positions | 0.600 → 0.574 | 8-0-32, 4-0-36, 5-0-35 (17-0-103, 14.2%) |
//! | E2: the new positions alone | 0.527 → 0.401 (139 held out) | 3-0-37 |
//!
//! E scores no better than the shipped weights, so it is not shipped.
//!
//! Session 48 asked whether the evaluation or the search holds Qi back, by swapping each with
//! Rapfi's (its classical tables, `model220723.bin`, have this evaluation's shape: a value per
//! combination of four line patterns per colour, summed over the empty points, and a threat
//! mask's value). Scripts outside the repo mapped Rapfi's 14 line patterns onto these 10 shapes
//! (its F2, F2A and F2B onto F2, F3 and F3S onto F3, their values averaged; DEAD and OL onto
//! none) and the threat masks onto each other, in both directions; along one game Qi's point
//! sum with the mapped tables kept the sign and the swings of Rapfi's own (its `TRACEBOARD`),
//! within 100-200 of Rapfi's units. Against Rapfi at 1 s a move (the openings files, 40 games
//! a match unless stopped, load about 2):
//!
//! | search | evaluation | freestyle | renju |
//! |---|---|---|---|
//! | Qi's (`gomocup`) | these weights (session 45's and 47's matches) | 34-5-121 (22.8%) | 23-0-137 (14.4%) |
//! | Qi's | Rapfi's tables, plain point sum | 0-1-22 (stopped) | 0-1-19 (stopped) |
//! | Qi's | Rapfi's tables, point sum of the last two positions (`avg2=1`, as Rapfi reads them) | 9-1-26 (36 games) | 0-0-12 (stopped) |
//! | Qi's | Rapfi's point tables, these threat weights | 1-0-11 (stopped) | 2-0-8 (stopped) |
//! | Rapfi's | these weights (Rapfi's move-ordering scores kept) | 13-3-24 and 17-2-21 (30-5-45, 40.6%) | 11-0-29 (27.5%) |
//! | Rapfi's, its candidates within 2 of the stones (as Qi's; its default is within 3, and 4 along the lines) | these weights | 10-1-29 (26.3%) | 12-0-28 (30%) |
//! | Rapfi's, its candidates within 3 of the stones | these weights | 16-3-21 (43.8%) | |
//!
//! Rapfi's point sums swing by about 600 of these units from one stone to the next, which its
//! search evens out by averaging the last two positions; read plain, they lose every game.
//! Averaged, they do no better in Qi's search than these weights; Rapfi's search with these
//! weights scores 13-18 points more than Qi's in both rules. So Qi's search, not the
//! evaluation, is where most of the gap is: no refit of these weights has moved the results
//! against Rapfi (sessions 20 and 41-47), and Rapfi's own evaluation does not either. (Rapfi's
//! move-ordering scores in the place of the learned ordering, `order=1`, scored 0-0-16 in
//! freestyle and 1-0-9 in renju before they were stopped; Qi's candidates widened from 5 × 5
//! to 7 × 7 around the stones, 3-0-22 in freestyle, though Rapfi's search lost 15 points in
//! freestyle when narrowed to Qi's 5 × 5.)
//!
//! The same session fitted both sets for `avg2` (`train --avg2 1`: the point features of the
//! position and of the one before its last stone, half each; [`point_combos`]), from the
//! shipped weights, on the labelled positions kept on this machine (renju: sessions 43, 44 and
//! 47's, 25,221 fitted and 2,733 held out; freestyle: session 44's, 5,470 and 592), `--base
//! embedded --epochs 200 --lr 2`. Held-out log loss against Rapfi's labels:
//!
//! | rule | shipped, plain | refit, plain | shipped, read with `avg2` | refit for `avg2` |
//! |---|---|---|---|---|
//! | renju | 0.727 | 0.665 | 0.662 | 0.599 |
//! | freestyle | 0.645 | 0.605 | 0.639 | 0.609 |
//!
//! The averaged reading fits Rapfi's renju labels much better, yet against Rapfi (`gomocup
//! --set avg2=1` with the refits, `--seed 4807`) it scored 9-0-31 (22.5%) in freestyle and
//! 5-0-35 (12.5%) in renju, and the shipped `gomocup` right after on the same openings 11-1-28
//! (28.8%) and 9-0-31 (22.5%); not shipped.
//!
//! Session 52 refitted the renju weights once more, now on the `ab` search's own play (the
//! renju `gomocup` since session 51): the roots were the 738 distinct positions with Qi to move
//! (stones 4-24) of two of its 40-game renju matches against Rapfi; `gomocup --set depth=11`
//! and `depth=16` searched each, and the positions along the principal variations taken as in
//! session 42 gave 7,792 distinct positions; with the 3,255 positions of those games from the
//! 4th stone, Rapfi labelled them (120 ms, scale 250), and `train --rule renju … --base
//! embedded --epochs 200 --lr 2` kept 7,547 to fit and 859 held out: held-out log loss 0.774
//! (54.1% of the signs right) for the shipped weights, 0.631 (70.1%) for the refit. Against
//! Rapfi at 1 s a move (with `f4=1`, the renju openings file) it scored 10-0-30 and 6-0-34
//! (20%), where the shipped weights with `f4=1` scored 50-1-188 (21.1%) the same evening: not
//! shipped. Again a better fit to Rapfi's labels did not play better.
//!
//! Session 53 tried Black's threat flags under renju as Rapfi's threat mask reads them: Rapfi
//! gives a point that may be forbidden for Black its own class (FORBID) and counts it in no
//! threat class, where [`super::board::Board::threat_mask`] counts it as a four, four-three,
//! open-three or three-three point. With Black's points that
//! [`super::board::Board::black_may_be_forbidden`] left out of its flags (and out of White's
//! bit for the opponent's open-four point), on session 52's 11,038 labelled positions: held-out
//! log loss 0.752 for the shipped weights (0.758 with the mask as it is), 0.644 refitted (0.638
//! with the mask as it is). With the shipped weights, against Rapfi at 1 s a move on the renju
//! openings file, `gomocup` scored 8-0-32 and 9-0-31 (21.2%; 7 of 40 won as Black, 9 as
//! White; load 2-3), as main does (21.1% in 239 games): not kept. Session 53 also had Rapfi
//! (300 ms a position) value the positions before and after each of Qi's moves in 36 of the
//! renju games Qi lost as Black: Rapfi had Black ahead at the start of 32 of them (+9 to
//! +225), and the value slid under Qi's moves, by 150-600 in single moves from the fourth
//! stone on. At 13 of the 23 largest such drops up to the 20th stone, `gomocup` at 1 s valued
//! the position before the move at +395 to +781 for Black (1-2 logits of its scale), where
//! Rapfi gave −21 to +573 (under +300 in 10 of them). Rapfi's move was Qi's in 318 of 711
//! positions.
//!
//! Line weights (session 21, [`LineWeights`], `data/gomoku-lines.bin`; `qi-engine gomocup
//! --lines`, match setting `lines=1`): for every empty point, direction and colour, the eight
//! cells around the point on that line (four each way: empty, own stone, or the other side's
//! stone or the edge) are a key of 3^8 ([`line_key`], read from the board's codes, so kept up
//! to date with them); each key has a weight per colour (a key and its mirror image share
//! one), summed with the point weights. They come with their own point and threat weights,
//! fitted together with them to labels from Qi's own deeper search: every position of 1,368
//! freestyle self-play games (38,225 positions: session 20's 900 `gen` games and 785 distinct
//! games of the self-play matches of sessions 20 and 21) searched with 60,000 nodes, the
//! score turned into a winning chance (the recipe in the training program's doc). Held-out log
//! loss (every tenth game): 0.499 for the shipped weights, 0.424 for a refit of the point and
//! threat weights alone, 0.419 with the line weights (3,098 of Black's non-zero). Bench gomoku
//! with `patterns=1`: 1.11-1.39 M nodes/s with the lines, 1.41-1.56 M without (load 3-4.5).
//! In `gomocup` self-play at 200 ms a move against the shipped evaluation: 25-0-15 (the
//! freestyle openings file) and 54-0-46 (100 games from random 3-stone openings, seed 22),
//! 56% together; against Rapfi's classical evaluation at 1 s a move (the freestyle openings
//! file, 40 games) 4-0-36 (10%, load 1.7-2.0), main 3-0-37 (7.5%) right after (load 1.6-2.1):
//! no real gain, so it stays off (a first fit on 18,553 positions only drew 72-0-68 in
//! self-play).
//!
//! Session 55 tried line weights for renju, where the point weights are coarsest (outside the
//! repo: a build with its own `data/gomoku-lines.bin`, `gomocup --set lines=1`). Fitted to
//! session 52's Rapfi labels of the `ab` search's games and principal variations (11,000
//! positions; `train --rule renju --lines 1 --base embedded --epochs 200 --lr 2`), held-out log
//! loss: a refit of the point and threat weights alone 0.631 (70.1% of the signs right), with
//! the line weights 0.604 (70.1%; `--l2-lines 1e-6`) and 0.605 (72.4%; `1e-7`). Against
//! Rapfi at 1 s a move (the renju openings file, seed 5501, load about 2, the two side by
//! side): the first 2-0-23 after 25 games, the second 6-0-22 after 28 (both stopped; the
//! machine was replaced before the second ended), where the shipped weights score 20-25%: a
//! finer fit to Rapfi's labels again did not carry over into play (as in sessions 20, 41, 44,
//! 48 and 52), so Rapfi's finer line patterns (its 14 against the board's 10 shapes) are an
//! unlikely lever on their own: the line weights are finer still.
//!
//! Session 62 refitted the renju weights to game results instead of Rapfi's labels: 3,951 games
//! of Rapfi's classical evaluation against itself under renju at 50 ms a move (`qi-engine
//! match gomoku --rule renju --movetime 50 -v`, both sides Rapfi behind the relay, from 3,000
//! random 3-stone openings within 3 of the centre, each with both colours; Black won 2,180,
//! White 1,759, 12 drawn; no faults), turned into game lines (outside the repo). `train --rule
//! renju GAMES --base embedded --epochs 400 --lr 2 --l2 0` (72,688 positions fitted, 8,501
//! held out): held-out log loss 0.584 (72.2% right) for the weights before, 0.506 (79.1%) for
//! the refit (with the default `--l2 1e-6` and 200 epochs 0.525, the weights barely moved).
//! The refit moves the weights far (their cosine with the ones before 0.38-0.84 per table).
//! Against Rapfi at 1 s a move (the renju openings file, seeds 5901-5905, two matches side
//! by side, load about 2): 13-0-27, 12-0-28, 13-0-27, 13-1-26, 12-0-28, **63-1-136 (31.8%)
//! in 200 games** (25 of 100 won as Black, 38 of 100 as White), where the weights before
//! scored 48-0-152 (24.0%; 15 as Black) on the same seeds in session 59; the `--l2 1e-6` fit
//! 9-0-31 on seed 5901. Shipped: the first refit here that plays better, and Black most.
//!
//! Session 63 played the same build again (the same machine, load about 2, two matches side by
//! side; with an openings file the seed does not change the openings, so every seed plays the
//! same 40 (opening, colour) pairs): seeds 6301-6304 10-0-30, 7-0-33, 7-0-33, 9-0-31,
//! 33-0-127 (20.6%; 12 won as Black, 21 as White), with the weights before beside the first two
//! at 9-0-31 and 9-0-31 (22.5%). Over both sessions the refit scored 96-1-263 (26.8%) in 360
//! games and the weights before 66-0-214 (23.6%) in 280: a gain of about three points, within
//! two standard errors, and the renju figure is not reached after all.
//!
//! Session 64 tripled the games: 7,849 more of Rapfi against itself under renju at 50 ms a move
//! (three `qi-engine match` runs side by side, each opening with both colours, from about 3,900
//! new random 3-stone openings within 3 of the centre, none of them one of the openings file's
//! 20 or their mirror images, nor one of session 62's; Black won 4,173, White 3,646, 30 drawn,
//! no faults), fitted with session 62's 3,951 from the shipped weights
//! (`train --rule renju GAMES --base embedded --epochs 400 --lr 2 --l2 0`; 219,441 positions,
//! 24,523 held out): held-out log loss 0.471 (78.9% right) for the shipped weights, 0.453
//! (79.8%) for the refit (cosine with the shipped tables 0.75-0.79 for the points, 0.95-0.97
//! for the threats). The fit's features look saturated: on 5,320 of the games (session 62's and
//! the first 1,369 new ones; shipped weights 0.490 held out) the same recipe reached 0.480, the
//! line weights too (`--lines 1 --l2-lines 1e-5`) 0.478 (0.565 and
//! rising without a penalty), and point weights split by the side to move (a test build)
//! 0.478. Against Rapfi at 1 s a move (the renju openings file, two matches side by side, load
//! about 2): seeds 6401-6404 10-0-30, 9-0-31, 12-1-27, 9-0-31, **40-1-119 (25.3%) in 160
//! games** (16 won as Black, 24 as White), with main's build beside the third at 9-0-31 (with
//! session 63's 19-0-61 on the same build, 28-0-92, 23.3%, in 120). Level 6 against level 5
//! with the refit: 34-0-6 and 32-0-8 (82.5%; seeds 5304-5305). Two points above main is
//! within the noise (a standard error of about 3.5 points), so the refit is not shipped; the
//! renju figure stays below 30% with both.
//!
//! Session 65 tried the one split of the features that session 64 had not: by the game's
//! phase. Each point weight became two, one for 4 stones on the board and one for 44 or more,
//! blended linearly by the stone count (a test build of the training program, not kept; the
//! threat weights stay one set). On session 64's 11,800 games from the shipped weights
//! (`--epochs 300 --lr 2 --l2 0`), held-out log loss 0.445 (80.1% right) against 0.453 for one
//! set on the same games and epochs; a blend over 16 stones instead of 40 fitted the same
//! (0.444). A test engine (outside the repo) took the blend of the root's stone count plus 4
//! plies for the whole search (the board's point sum is kept move by move with one table).
//! Against Rapfi at 1 s a move (the renju openings file, seeds 6501-6502, two matches side by
//! side, load about 2): 11-0-29 and 8-1-31, **19-1-60 (24.4%) in 80 games** (7 won as Black,
//! 12 as White; Qi 0.47-0.48 s a move, Rapfi 0.67 s): the same as main's 23.3% and the single
//! refit's 25.3%. A lower held-out loss on Rapfi's self-play results has stopped turning into
//! points against Rapfi (0.471 → 0.453 → 0.445 for 23.3%, 25.3%, 24.4%).
//!
//! Then a non-linear evaluation on the same features: the linear one plus 32 clipped ReLUs
//! (clamped to 0..1) over the same sparse inputs (the point combinations of both colours and
//! the threat mask, from the side to move's view), an NNUE-like residual whose inputs the board
//! keeps summed over the empty points stone by stone as it keeps the point total. Fitted on the
//! same 11,800 games by mini-batch Adam (2,048 positions, 16 epochs, the hidden weights' ridge
//! 1e-4, the best held-out epoch kept): held-out log loss **0.418** against 0.453 for the
//! linear fit alone (16 hidden units without the ridge 0.434, 64 units 0.418; the training
//! loss falls to 0.34, so more games should help). The test engine (kept on the branch
//! `exp-renju-mlp` with the games and the weights, driven by environment variables; not in
//! main) searched 537 k nodes a second against 688 k without it on 40 positions of these
//! matches (depth 11.8 against 12.2 in 0.5 s). Against Rapfi at 1 s a move (the renju
//! openings file, seeds 6521-6524, two matches side by side, load about 2): 13-1-26, 10-0-30,
//! 9-0-31, 10-0-30, **42-1-117 (26.6%) in 160 games** (21 won as Black, 21 as White). The
//! first pair's 29.4% did not hold; the lead over main's 23.3% is about one standard error,
//! so it is not shipped either.

use std::sync::OnceLock;

use super::search::Engine;
use crate::game::{Game, Side};
use crate::gomoku::{Gomoku, GomokuRule, STRIDE};

/// Multisets of four line shapes out of ten: C(13, 4).
pub const COMBOS: usize = 715;
/// Flags of the threat mask.
pub const THREAT_BITS: usize = 11;
pub const THREATS: usize = 1 << THREAT_BITS;
/// The evaluation's unit: a value of `SCALE` is odds of e to 1 for the side to move.
pub const SCALE: f64 = 400.0;
/// The point tables are padded to this many keys, so that a key masked by `KEYS - 1` needs
/// no bounds check.
pub const KEYS: usize = 1 << 14;

const MAGIC: &[u8; 4] = b"QGPW";
const VERSION: u8 = 1;

/// `COMBO_OF[key]`: the combination (0..COMBOS) of a point's key ([`super::board::PointShape`]'s
/// four shapes as a base-10 number).
pub fn combo_of(key: usize) -> usize {
    static T: OnceLock<Vec<u16>> = OnceLock::new();
    T.get_or_init(|| {
        // the sorted quadruples in lexicographic order get the indices 0..COMBOS
        let mut index = vec![u16::MAX; 10_000];
        let mut next = 0u16;
        for a in 0..10 {
            for b in a..10 {
                for c in b..10 {
                    for d in c..10 {
                        index[((a * 10 + b) * 10 + c) * 10 + d] = next;
                        next += 1;
                    }
                }
            }
        }
        assert_eq!(next as usize, COMBOS);
        (0..10_000)
            .map(|k| {
                let mut l = [k / 1000, k / 100 % 10, k / 10 % 10, k % 10];
                l.sort_unstable();
                index[((l[0] * 10 + l[1]) * 10 + l[2]) * 10 + l[3]]
            })
            .collect()
    })[key] as usize
}

/// The reader of a weights file's little-endian `i16` tables, its header checked (the magic,
/// the version byte and the whole size).
struct I16s<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> I16s<'a> {
    fn open(
        b: &'a [u8],
        magic: &[u8; 4],
        version: u8,
        size: usize,
        what: &str,
    ) -> Result<I16s<'a>, String> {
        if b.len() != size || &b[..4] != magic || b[4] != version {
            return Err(format!(
                "not a Gomoku {what} weights file of version {version} ({} bytes, {size} expected)",
                b.len()
            ));
        }
        Ok(I16s { b, at: 5 })
    }

    /// The next `n` values (the size was checked when the file was opened).
    fn take(&mut self, n: usize) -> Vec<i16> {
        let v = self.b[self.at..self.at + 2 * n]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        self.at += 2 * n;
        v
    }
}

/// `w` as little-endian `i16` onto `out`.
fn put_i16s(out: &mut Vec<u8>, w: &[i16]) {
    for &v in w {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// The weights of one rule: `point[colour][combo]` and `threat[colour to move][mask]`.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleWeights {
    pub point: [Vec<i16>; 2],
    pub threat: [Vec<i16>; 2],
}

impl RuleWeights {
    pub fn zero() -> RuleWeights {
        RuleWeights {
            point: [vec![0; COMBOS], vec![0; COMBOS]],
            threat: [vec![0; THREATS], vec![0; THREATS]],
        }
    }
}

/// The weights of freestyle (index 0) and renju (index 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub rules: [RuleWeights; 2],
}

impl Weights {
    /// The file form: `QGPW`, a version byte, then per rule the two point tables and the two
    /// threat tables as little-endian `i16`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(VERSION);
        for r in &self.rules {
            for t in r.point.iter().chain(r.threat.iter()) {
                put_i16s(&mut out, t);
            }
        }
        out
    }

    pub fn from_bytes(b: &[u8]) -> Result<Weights, String> {
        let size = 5 + 2 * 2 * (2 * COMBOS + 2 * THREATS);
        let mut f = I16s::open(b, MAGIC, VERSION, size, "pattern")?;
        let mut read = |n: usize| f.take(n);
        let mut rule = || RuleWeights {
            point: [read(COMBOS), read(COMBOS)],
            threat: [read(THREATS), read(THREATS)],
        };
        let rules = [rule(), rule()];
        Ok(Weights { rules })
    }

    /// The shipped weights.
    pub fn embedded() -> &'static Weights {
        static W: OnceLock<Weights> = OnceLock::new();
        W.get_or_init(|| {
            Weights::from_bytes(include_bytes!("../../../data/gomoku-patterns.bin"))
                .expect("the embedded Gomoku pattern weights")
        })
    }
}

/// The tables the board reads: the point weights expanded to every key, per colour.
pub struct Tables {
    pub point: [Box<[i16; KEYS]>; 2],
    pub threat: [Box<[i16; THREATS]>; 2],
    /// `line[colour][key]`: the line weights ([`line_key`]), all zero without them.
    pub line: [Box<[i16; LINE_KEYS]>; 2],
    /// The line weights are read (the board keeps their sum in its point total).
    pub lines: bool,
}

impl Tables {
    pub fn new(w: &RuleWeights) -> Tables {
        let point = |c: usize| -> Box<[i16; KEYS]> {
            let mut t = Box::new([0i16; KEYS]);
            for (k, v) in t.iter_mut().take(10_000).enumerate() {
                *v = w.point[c][combo_of(k)];
            }
            t
        };
        let threat = |c: usize| -> Box<[i16; THREATS]> {
            let mut t = Box::new([0i16; THREATS]);
            t.copy_from_slice(&w.threat[c]);
            t
        };
        Tables {
            point: [point(0), point(1)],
            threat: [threat(0), threat(1)],
            line: [Box::new([0i16; LINE_KEYS]), Box::new([0i16; LINE_KEYS])],
            lines: false,
        }
    }

    /// The tables of the point, threat and line weights of `w` (the line weights of `line`).
    pub fn with_lines(w: &RuleWeights, line: &[Vec<i16>; 2]) -> Tables {
        let mut t = Tables::new(w);
        for (t, l) in t.line.iter_mut().zip(line.iter()) {
            t.copy_from_slice(l);
        }
        t.lines = true;
        t
    }

    /// The shipped tables of `rule` with the line weights ([`LineWeights::embedded`]).
    pub fn lines_for_rule(rule: GomokuRule) -> &'static Tables {
        static T: OnceLock<[Tables; 2]> = OnceLock::new();
        let t = T.get_or_init(|| {
            let w = LineWeights::embedded();
            [
                Tables::with_lines(&w.base.rules[0], &w.line[0]),
                Tables::with_lines(&w.base.rules[1], &w.line[1]),
            ]
        });
        &t[(rule == GomokuRule::Renju) as usize]
    }

    /// The shipped tables of `rule` (renju has its own; standard reads freestyle's).
    pub fn for_rule(rule: GomokuRule) -> &'static Tables {
        static T: OnceLock<[Tables; 2]> = OnceLock::new();
        let t = T.get_or_init(|| {
            let w = Weights::embedded();
            [Tables::new(&w.rules[0]), Tables::new(&w.rules[1])]
        });
        &t[(rule == GomokuRule::Renju) as usize]
    }
}

/// Learned move-ordering weights ([`super::search::Config::order`]): per rule (freestyle, also
/// for the standard rule, and renju) and colour to move, a weight for the combination of the
/// shapes the side to move would make on the point (`me`), one for the opponent's (`op`) and
/// one for a point next to a stone (`near`), the logits of a softmax over the candidate points
/// times 100, fitted to the moves of another engine's games (`examples/gomoku_patterns.rs
/// policy`).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderWeights {
    pub rules: [[OrderSide; 2]; 2],
}

/// [`OrderWeights`] of one rule and colour to move.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderSide {
    pub me: Vec<i16>,
    pub op: Vec<i16>,
    pub near: i16,
}

const ORDER_MAGIC: &[u8; 4] = b"QGOW";
const ORDER_VERSION: u8 = 1;

impl OrderSide {
    pub fn zero() -> OrderSide {
        OrderSide {
            me: vec![0; COMBOS],
            op: vec![0; COMBOS],
            near: 0,
        }
    }
}

impl OrderWeights {
    pub fn zero() -> OrderWeights {
        let r = || [OrderSide::zero(), OrderSide::zero()];
        OrderWeights { rules: [r(), r()] }
    }

    /// The file form: `QGOW`, a version byte, then per rule and colour the `me` and `op`
    /// tables and `near`, little-endian `i16`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = ORDER_MAGIC.to_vec();
        out.push(ORDER_VERSION);
        for side in self.rules.iter().flatten() {
            put_i16s(&mut out, &side.me);
            put_i16s(&mut out, &side.op);
            put_i16s(&mut out, &[side.near]);
        }
        out
    }

    pub fn from_bytes(b: &[u8]) -> Result<OrderWeights, String> {
        let size = 5 + 2 * 2 * 2 * (2 * COMBOS + 1);
        let mut f = I16s::open(b, ORDER_MAGIC, ORDER_VERSION, size, "ordering")?;
        let mut read = |n: usize| f.take(n);
        let mut side = || OrderSide {
            me: read(COMBOS),
            op: read(COMBOS),
            near: read(1)[0],
        };
        let rules = [[side(), side()], [side(), side()]];
        Ok(OrderWeights { rules })
    }

    /// The shipped ordering weights.
    pub fn embedded() -> &'static OrderWeights {
        static W: OnceLock<OrderWeights> = OnceLock::new();
        W.get_or_init(|| {
            OrderWeights::from_bytes(include_bytes!("../../../data/gomoku-order.bin"))
                .expect("the embedded Gomoku ordering weights")
        })
    }
}

/// [`OrderWeights`] expanded to every point key ([`super::board::PointShape::key`]), per
/// colour to move: what the search reads.
pub struct OrderTables {
    pub me: [Box<[i16; KEYS]>; 2],
    pub op: [Box<[i16; KEYS]>; 2],
    pub near: [i16; 2],
}

impl OrderTables {
    pub fn new(w: &[OrderSide; 2]) -> OrderTables {
        let expand = |t: &[i16]| -> Box<[i16; KEYS]> {
            let mut e = Box::new([0i16; KEYS]);
            for (k, v) in e.iter_mut().take(10_000).enumerate() {
                *v = t[combo_of(k)];
            }
            e
        };
        OrderTables {
            me: [expand(&w[0].me), expand(&w[1].me)],
            op: [expand(&w[0].op), expand(&w[1].op)],
            near: [w[0].near, w[1].near],
        }
    }

    /// The shipped tables of `rule` (renju has its own; standard reads freestyle's).
    pub fn for_rule(rule: GomokuRule) -> &'static OrderTables {
        static T: OnceLock<[OrderTables; 2]> = OnceLock::new();
        let t = T.get_or_init(|| {
            let w = OrderWeights::embedded();
            [OrderTables::new(&w.rules[0]), OrderTables::new(&w.rules[1])]
        });
        &t[(rule == GomokuRule::Renju) as usize]
    }
}

/// Line keys: the eight cells around an empty point on one line (four each way), each empty,
/// own stone, or the other side's stone or off the board: 3^8.
pub const LINE_KEYS: usize = 6561;

/// The line key of a board code ([`super::board::Board`]'s base-3 code of the ten cells
/// around a point, digit 0 the cell five behind, digits 1-4 four to one behind, 5-8 one to
/// four ahead, 9 five ahead): its eight inner digits.
#[inline(always)]
pub fn line_key(code: usize) -> usize {
    code / 3 % LINE_KEYS
}

/// The key of the same line read the other way (digits reversed).
pub fn line_mirror(key: usize) -> usize {
    let (mut k, mut m) = (key, 0);
    for _ in 0..8 {
        m = m * 3 + k % 3;
        k /= 3;
    }
    m
}

const LINE_MAGIC: &[u8; 4] = b"QGLW";
const LINE_VERSION: u8 = 1;

/// The weights of the evaluation with line patterns: its own point and threat weights (fitted
/// together with the line weights) and `line[rule][colour][key]`, the weight of a stone of
/// that colour on an empty point with that line key, summed over the four directions of every
/// empty point like the point weights.
#[derive(Clone, Debug, PartialEq)]
pub struct LineWeights {
    pub base: Weights,
    pub line: [[Vec<i16>; 2]; 2],
}

impl LineWeights {
    pub fn zero() -> LineWeights {
        LineWeights {
            base: Weights {
                rules: [RuleWeights::zero(), RuleWeights::zero()],
            },
            line: std::array::from_fn(|_| [vec![0; LINE_KEYS], vec![0; LINE_KEYS]]),
        }
    }

    /// The file form: `QGLW`, a version byte, the point and threat weights in
    /// [`Weights::to_bytes`]'s form, then per rule and colour the line weights as
    /// little-endian `i16`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = LINE_MAGIC.to_vec();
        out.push(LINE_VERSION);
        out.extend_from_slice(&self.base.to_bytes());
        for t in self.line.iter().flatten() {
            put_i16s(&mut out, t);
        }
        out
    }

    pub fn from_bytes(b: &[u8]) -> Result<LineWeights, String> {
        let base_size = 5 + 2 * 2 * (2 * COMBOS + 2 * THREATS);
        let size = 5 + base_size + 2 * 2 * 2 * LINE_KEYS;
        let mut f = I16s::open(b, LINE_MAGIC, LINE_VERSION, size, "line")?;
        let base = Weights::from_bytes(&b[5..5 + base_size])?;
        f.at += base_size;
        let mut rule = || [f.take(LINE_KEYS), f.take(LINE_KEYS)];
        let line = [rule(), rule()];
        Ok(LineWeights { base, line })
    }

    /// The shipped line weights.
    pub fn embedded() -> &'static LineWeights {
        static W: OnceLock<LineWeights> = OnceLock::new();
        W.get_or_init(|| {
            LineWeights::from_bytes(include_bytes!("../../../data/gomoku-lines.bin"))
                .expect("the embedded Gomoku line weights")
        })
    }
}

/// The index of `rule`'s weights in [`Weights::rules`].
pub fn rule_index(rule: GomokuRule) -> usize {
    (rule == GomokuRule::Renju) as usize
}

/// What the fit reads of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// Per colour (Black, White), the combination of the shapes a stone of that colour would
    /// make on each empty point.
    pub combos: [Vec<u16>; 2],
    /// Per colour, the line keys ([`line_key`]) of the four directions of each empty point,
    /// those of lines with no stone and no edge within four (key 0) left out.
    pub lines: [Vec<u16>; 2],
    /// [`super::board::Board::threat_mask`] with the side to move.
    pub mask: u16,
    /// The side to move: 0 Black, 1 White.
    pub side: usize,
}

/// The features of `pos`, or `None` where the search decides the game before it evaluates:
/// the side to move has a five or an open-four point, or the opponent has a five point.
pub fn features(pos: &Gomoku) -> Option<Features> {
    if pos.outcome().is_some() {
        return None;
    }
    let e = Engine::new(pos);
    let me = pos.side_to_move();
    let (tm, to) = (&e.b.threats[me.index()], &e.b.threats[me.other().index()]);
    if !tm.five.is_empty() || !tm.open.is_empty() || !to.five.is_empty() {
        return None;
    }
    let (combos, lines) = shape_features(&e, pos.size() as u16, true);
    Some(Features {
        combos,
        lines,
        mask: e.b.threat_mask(me) as u16,
        side: me.index(),
    })
}

/// Per colour (Black, White), the combination of the shapes a stone of that colour would make
/// on each empty point of `pos` ([`Features::combos`], for any position: the training program
/// reads the position before the last stone's with it for [`super::search::Config::avg2`]).
pub fn point_combos(pos: &Gomoku) -> [Vec<u16>; 2] {
    shape_features(&Engine::new(pos), pos.size() as u16, false).0
}

/// The point combinations and, with `with_lines`, the line keys of [`Features`].
fn shape_features(e: &Engine, n: u16, with_lines: bool) -> ([Vec<u16>; 2], [Vec<u16>; 2]) {
    let mut combos = [Vec::new(), Vec::new()];
    let mut lines = [Vec::new(), Vec::new()];
    for y in 0..n {
        for x in 0..n {
            let p = y * STRIDE + x;
            if e.b.is_empty(p) {
                for (c, side) in [Side::Black, Side::White].into_iter().enumerate() {
                    combos[c].push(combo_of(e.b.shape(side, p).key()) as u16);
                    if !with_lines {
                        continue;
                    }
                    for d in 0..4 {
                        let k = line_key(e.b.line_code(p, c, d));
                        if k != 0 {
                            lines[c].push(k as u16);
                        }
                    }
                }
            }
        }
    }
    (combos, lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avg2_training_features_read_as_the_search_does() {
        // half the point sums of `point_combos` of a position and of the one before its last
        // stone, and the threat weight of the position: what the search reads with `avg2`
        // (`Board::pattern_score_avg2`), not the plain score
        for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
            let mut before = Gomoku::new(15, rule);
            for t in ["h8", "h9", "i9", "g7", "j10", "k11", "i8", "g8"] {
                before.make(before.parse_move(t).unwrap());
            }
            let last = before.parse_move("j8").unwrap();
            let mut e = Engine::new(&before);
            e.b.keep_points(true);
            e.make(last);
            let mut g = before.clone();
            g.make(last);
            let w = &Weights::embedded().rules[(rule == GomokuRule::Renju) as usize];
            let sum = |p: &Gomoku| -> i32 {
                let c = point_combos(p);
                c[0].iter()
                    .map(|&k| w.point[0][k as usize] as i32)
                    .sum::<i32>()
                    - c[1]
                        .iter()
                        .map(|&k| w.point[1][k as usize] as i32)
                        .sum::<i32>()
            };
            let side = g.side_to_move();
            let f = features(&g).expect("an evaluated position");
            assert_eq!(point_combos(&g), f.combos);
            let sign = if side == Side::Black { 1 } else { -1 };
            let threat = w.threat[side.index()][f.mask as usize] as i32;
            let avg2 = sign * (sum(&g) + sum(&before)) / 2 + threat;
            let got = e.b.pattern_score_avg2(side);
            assert!((got - avg2).abs() <= 1, "{rule:?}: {got} against {avg2}");
            let plain = sign * sum(&g) + threat;
            assert_eq!(e.b.pattern_score(side), plain, "{rule:?}");
            assert_ne!(plain, avg2, "{rule:?}: the two readings differ here");
        }
    }

    #[test]
    fn combinations_ignore_the_order_of_directions() {
        assert_eq!(combo_of(0), 0);
        assert_eq!(combo_of(9999), COMBOS - 1);
        assert_eq!(combo_of(1234), combo_of(4321));
        assert_eq!(combo_of(1234), combo_of(3142));
        assert_ne!(combo_of(1234), combo_of(1235));
        let mut seen = vec![false; COMBOS];
        for k in 0..10_000 {
            seen[combo_of(k)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn weights_round_trip_through_bytes() {
        let mut w = Weights {
            rules: [RuleWeights::zero(), RuleWeights::zero()],
        };
        w.rules[1].point[1][7] = -123;
        w.rules[0].threat[0][2000] = 456;
        let b = w.to_bytes();
        assert_eq!(Weights::from_bytes(&b).unwrap(), w);
        assert!(Weights::from_bytes(&b[..b.len() - 1]).is_err());
        // the shipped file reads
        let _ = Weights::embedded();
    }

    #[test]
    fn ordering_weights_round_trip_and_reject_bad_files() {
        let mut w = OrderWeights::zero();
        w.rules[1][1].me[714] = -77;
        w.rules[0][0].op[3] = 1234;
        w.rules[1][0].near = 9;
        let b = w.to_bytes();
        assert_eq!(OrderWeights::from_bytes(&b).unwrap(), w);
        assert!(OrderWeights::from_bytes(&b[..b.len() - 1]).is_err());
        assert!(OrderWeights::from_bytes(&[b.as_slice(), &[0]].concat()).is_err());
        assert!(OrderWeights::from_bytes(&[]).is_err());
        let mut bad = b.clone();
        bad[0] = b'X';
        assert!(OrderWeights::from_bytes(&bad).is_err());
        // the shipped file reads, and its tables give a combination's weight at each of its keys
        let t = OrderTables::for_rule(GomokuRule::Freestyle);
        let w = &OrderWeights::embedded().rules[0][0];
        assert_eq!(t.me[0][1234], w.me[combo_of(1234)]);
        assert_eq!(t.op[0][4321], w.op[combo_of(1234)]);
    }

    #[test]
    fn line_weights_round_trip_and_reject_bad_files() {
        let mut w = LineWeights::zero();
        w.line[0][1][6560] = -77;
        w.line[1][0][3] = 1234;
        w.base.rules[0].point[0][5] = 9;
        let b = w.to_bytes();
        assert_eq!(LineWeights::from_bytes(&b).unwrap(), w);
        // truncated, too long, a wrong magic or version: errors, not panics
        assert!(LineWeights::from_bytes(&b[..b.len() - 1]).is_err());
        assert!(LineWeights::from_bytes(&[b.as_slice(), &[0]].concat()).is_err());
        assert!(LineWeights::from_bytes(&[]).is_err());
        let mut bad = b.clone();
        bad[0] = b'X';
        assert!(LineWeights::from_bytes(&bad).is_err());
        let mut bad = b.clone();
        bad[4] = 9;
        assert!(LineWeights::from_bytes(&bad).is_err());
        // a corrupt inner point-weights header is an error too
        let mut bad = b;
        bad[5] = b'X';
        assert!(LineWeights::from_bytes(&bad).is_err());
        // the shipped file reads
        let _ = LineWeights::embedded();
    }

    #[test]
    fn line_keys_read_the_eight_inner_cells() {
        // digits 0 and 9 (five away) do not count; digit 1 is the key's lowest
        assert_eq!(line_key(2), 0);
        assert_eq!(line_key(2 * 19683), 0);
        assert_eq!(line_key(3), 1);
        assert_eq!(line_key(59_048), LINE_KEYS - 1);
        assert_eq!(line_mirror(1), 2187);
        for k in [0, 1, 5, 100, 4000, 6560] {
            assert_eq!(line_mirror(line_mirror(k)), k);
        }
    }
}
