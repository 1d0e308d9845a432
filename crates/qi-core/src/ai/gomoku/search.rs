//! The Gomoku search: a VCF solver (victory by continuous fours), a VCT solver (continuous
//! threats: fours and open threes, see [`Search::vct`]) and a threat-aware
//! principal-variation alpha-beta search over candidate moves near the stones, with the shared
//! transposition table ([`crate::search::tt::Table`]).
//!
//! At every node: a five of the side to move wins; two fives of the opponent lose; one five of
//! the opponent is the only move (searched without using up depth); an open four (or two fours)
//! of the side to move wins; and when the opponent threatens to make an open four, a four-three
//! or a three-three, only the defences and the side to move's own fours are searched (with
//! [`Config::prune`] the exact answers of the `defence` module, which since session 22 count
//! a point after which the forced block of a four-three's four makes a four as an answer, and
//! with [`Config::fast_first`] answer the faster threat points first). At the
//! root a VCF is tried first, then a VCT, then the opponent's VCF and VCT are looked for and
//! only the moves that stop them are searched (each step only where the level's budget for it
//! is not zero). Black's forbidden points in Renju are never played, and a four of
//! White whose only answer is forbidden for Black is a win.
//!
//! A node searches its best `width` candidates by ordering score (with [`Config::select`],
//! `qi-engine gomocup`'s default since session 24: a count that grows with the remaining depth,
//! below), the earlier candidate (row by row) first among equal scores (`best_first`). They were the first `width` of an unstable
//! sort of all the candidates, which cost 12% of `qi-engine bench gomoku`; picking only the
//! best took it from 4.67 G to 4.31 G instructions (590,091 nodes instead of 594,865: equal
//! scores now come in another order) and scored 88-0-72 (55%) against the build before in
//! `gomocup` self-play at 200 ms a move (seeds 7 and 8, 60 and 100 games; faster as well, so
//! not the ordering alone); with the later steps of the same speed work (3.92 G instructions,
//! the same tree) 53-1-46 (seed 9, 100 games) and under renju 23-0-17 (seed 10, 40 games).
//!
//! History-heuristic ordering ([`Config::history`], match setting `history=1`) is a setting
//! that no level and not `qi-engine gomocup` uses: in `gomocup` self-play at 200 ms a move it
//! scored 21-0-19 (the freestyle openings file) and 62-3-55 (3 random plies, seed 51) in
//! freestyle, 48-0-52 in renju (seed 53), and against Rapfi at 1 s a move 7-0-33 in renju
//! and 1-0-39 in freestyle (load 3.5-4.2), no better than without. A VCT of the side to move
//! tried inside the tree (session 20, not in the code) lost in the same self-play: at every node
//! below the root with 3 plies or more to go, 2,000 nodes, 36-1-63; only at the root's
//! children, 20,000 nodes, 38-0-62; the same with 5,000 nodes and each position tried once a
//! search, 47-0-53 (100 games each, seed 52, 3 random plies, load 2.7-4.8).
//!
//! Selectivity by remaining depth ([`Config::select`], session 24, after the idea of Rapfi's
//! search, no code of it): instead of the beam of `width` moves narrowing with the ply, a node
//! takes up to `width + 8` candidates by ordering score; off the principal variation it stops
//! after 3 + depth^1.32 of them ([`select_count`]) once one move does not lose, and every move
//! from the second on (at the root from the third) is searched ln(depth) × ln(move count)
//! plies shallower ([`select_reduction`], one less for a move making or blocking a three or
//! more and one less on the principal variation, at least one ply left), again in full if it
//! beats alpha. `qi-engine bench gomoku --depth 12 --set patterns=1,lmr=1,prune=1,depth=0`
//! (8 positions): 9.52 M nodes for the beam, 1.65 M with the selectivity at 100%; at 1 s a
//! move the depth reached went from 10-13 to 11-16 in a test game. Measurements (self-play
//! `gomocup` at 200 ms a move against session 23's `gomocup`, the openings files, 40 games;
//! against Rapfi's classical evaluation at 1 s a move, 40 games; load at start and end):
//!
//! | build | test | W-D-L | load |
//! |---|---|---|---|
//! | select, factor 100% | self-play, freestyle | 24-0-16 | 3.5-0.8 |
//! | select, factor 130% | self-play, freestyle | 22-1-17 | 0.8-1.8 |
//! | select, 100%, answers to threats all in full (`seldefend=0`) | self-play, freestyle | 20-1-19 | 1.2-2.0 |
//! | select, 100% | self-play, renju | 23-0-17 | 1.9-2.1 |
//! | select, 100% | Rapfi, freestyle | 6-0-34 | 1.8-0.9 |
//! | select, 100% | Rapfi, renju | 8-0-32 (all eight as White) | 2.0-1.7 |
//! | session 23's `gomocup` (main) | Rapfi, renju, right after | 3-0-37 (one of the three a fault of Rapfi's at the start) | 1.7-1.4 |
//! | select, 100%, played again | Rapfi, renju | 7-0-33 (all seven as White) | 1.5-1.7 |
//! | this build's `gomocup` (select on, 100%) | Rapfi, freestyle | 6-0-34 | 2.4-1.7 |
//! | session 23's `gomocup` (main), right after | Rapfi, freestyle | 6-0-34 | 2.4-1.0 |
//! | select, 130% against select, 100% (both this build's `gomocup`) | self-play, renju | 18-2-20 | 0.8-1.0 |
//!
//! So `qi-engine gomocup` searches with the selectivity (renju 15 of 80 against main's 3 of 40
//! in the same hour, freestyle the same as main's 6-0-34); the levels keep the beam, with
//! which their ladder was measured. Not kept: `seldefend=0` (above) and the factor 130%.
//!
//! Pruning by the static evaluation with the selectivity (session 25, after Rapfi's steps 7
//! and 8, no code of it): session 19's `futility` (both prunings, tried with the beam only)
//! split into [`Config::futility`] (the node returns its evaluation when it is
//! `futm` = 150 a ply above beta, depth 1 to `futdepth` = 3) and [`Config::razor`] (the node
//! is a leaf, its VCF then its evaluation, when the evaluation is `razm` = 200, 320 at depth 2,
//! below alpha), each a `gomocup --set` setting; `futility=1,razor=1` is session 19's
//! pruning. The reply to an opponent's five (Rapfi's OPPO5_EXT) was already searched without
//! using up depth (above), so nothing was added for it. Same measurements as session 24's
//! (self-play against session 24's `gomocup`, `qi-s24-dedupe`, the rows with Rapfi at 1 s a
//! move; load at start and end, another helper's benchmarks and others' work beside them):
//!
//! | build | test | W-D-L | load |
//! |---|---|---|---|
//! | `razor=1` | self-play, freestyle | 12-2-26 | 6.8-6.8 |
//! | `razor=1,razm=400` | self-play, freestyle | 15-3-22 | 2.3-3.5 |
//! | `futility=1` | self-play, freestyle | 23-3-14 | 6.8-7.1 |
//! | `futility=1` | self-play, renju (line score) | 20-3-17 | 7.1-6.3 |
//! | `futility=1`, not where the opponent has a point for a four (not in the code) | self-play, freestyle | 15-2-23 | 4.2-3.4 |
//! | `futility=1` | Rapfi, freestyle | 2-0-38 (one win as White, one as Black) | 6.2-2.6 |
//! | `futility=1` | Rapfi, renju | 9-0-31 (all nine as White) | 3.4-2.3 |
//! | session 24's `gomocup` (main), after the renju row | Rapfi, freestyle | 3-0-37 (one win as White, two as Black) | 2.0-5.4 |
//! | session 24's `gomocup` (main), right after | Rapfi, renju | 4-0-36 (all four as White) | 3.8-2.6 |
//!
//! So neither is on in `gomocup`: the razoring lost in self-play at both margins; the futility
//! pruning, again ahead in freestyle self-play, won no more against Rapfi than main in the same
//! hour in freestyle (2 against 3 of 40; main had won 6 of 40 twice in session 24, so the
//! field itself moves by that much), and in renju 9 against main's 4 of 40 in the same hour,
//! where session 24's selectivity had won 8 and 7 (40 games at 5-20% have a standard error
//! of 4-6 points, the difference of two such matches about 8): no clear gain in either rule.
//!
//! Session 26: quiet threats in the VCT ([`Config::vct_quiet`], match setting `vctq`): a move
//! that is no four or open three but after which the attacker would win by a VCF were the
//! defender to pass, defended by the defender's fours and the points that can break that VCF
//! (checked over 56,632 defences of 489 random positions). Of the 40 Rapfi-proven White wins
//! of session 25's renju losses (`gomoku_diag solve`, 12 threats), the VCT finds:
//!
//! | nodes | quiet threats | at Rapfi's first proof | 4 plies later | 8 plies later |
//! |---|---|---|---|---|
//! | 1,000,000 | 0 | 1 of 40 | 6 of 40 | 16 of 39 |
//! | 1,000,000 | 1 | 3 | 10 | 23 |
//! | 1,000,000 | 2 | 2 | 8 | 23 |
//! | 100,000 | 0 | 0 | 6 | 15 |
//! | 100,000 | 1 | 2 | 8 | 23 |
//! | 10,000 | 0 | 0 | 6 | 14 |
//! | 10,000 | 1 | 1 | 8 | 23 |
//!
//! In play it gained nothing measurable: `gomocup --set vctq=1` against main at 200 ms a move
//! 20-0-20 (renju) and 17-0-23 (freestyle); against Rapfi at 1 s a move in renju 5-0-35 (one
//! win a fault of Rapfi's at the start) where main won 8-0-32 right after (load 1.1-2.4, the
//! solver helper's benchmarks beside them). The renju games are lost early: in one of them
//! Rapfi (300 ms) judged White's (Qi's) first move k10 a loss of about 400 points against its
//! i11, and Qi keeps k10 at 5 s and 14 plies. So `vctq` stays 0 in the levels and `gomocup`.
//! (The learned patterns in renju, `patterns=1`, won 3-0-37 against Rapfi in the same hour.)
//!
//! Session 35 tried four more of Rapfi's search steps (its own comments rate them: null move
//! ~3 Elo, a VCF quiescence at the leaves as part of its razoring ~68, move-count pruning
//! halved off an improving line as part of ~107, singular extensions ~52), each as a
//! `gomocup --set` setting, screened in self-play against the same build without it at 200
//! ms a move (the openings files, 40 games, two Go matches beside them, load 2-4); none is in
//! the code. `bench` is `qi-engine bench gomoku --depth 12` with `gomocup`'s settings
//! (1.66 M nodes without any of them):
//!
//! | setting | bench nodes | self-play W-D-L |
//! |---|---|---|
//! | null move (off the principal variation, depth 3 or more, no four-three, three-three or open-four point of the opponent, evaluation at least beta; 1 + 2 + depth/4 plies shallower) | 1.96 M | freestyle 18-2-20 |
//! | fours past the leaves (the side to move's fours and their forced blocks, up to 2 deep, evaluation as stand-pat) | 2.31 M | freestyle 17-0-23 |
//! | half the move count where the node's evaluation is no better than two plies before | 1.26 M | freestyle 14-2-24 |
//! | singular extensions (depth 6 or more, the table's move at most 3 plies shallower, margin 4 a ply, half-depth test, multi-cut) | 4.14 M | freestyle 22-1-17 and 23-0-17, renju 18-1-21 |
//!
//! Only the singular extensions scored above half in freestyle (45-1-34 in 80 games, within
//! the error of so few) and below it in renju. Against Rapfi at 1 s a move in freestyle (the
//! openings file, 40 games, `--seed 3541`, two Go matches beside it, load about 3) they won
//! 4-0-36, and the same build without them right after 4-0-36 too. Session 47 tried them
//! again on session 45's search (depth 7 or more, the table's move a lower bound or exact at
//! most 2 plies shallower, margin 4 or 2 a ply, half-depth test, multi-cut), against Rapfi
//! only: freestyle 8-0-32 with either margin (the openings file, `--seed 4701` and `4702`,
//! load about 2), where the same search without them scored 34-5-121 (22.8%) in session 45;
//! renju 1-0-14 when stopped. Not in the code.
//!
//! Session 39: Rapfi's classical evaluation averages its basic (point) sum over the position
//! and the one before the last stone, and adds a threat-mask weight; the learned pattern
//! evaluation has both parts but took the point sum of the position alone. [`Config::avg2`]
//! (match setting `avg2=1`) averages it as Rapfi does, with the shipped weights (fitted to the
//! plain sum): in `gomocup` self-play against the same build without it, 200 ms a move, the
//! freestyle openings file, `--seed 3911`, **14-0-26 (35%)** (two 19×19 Go matches beside it,
//! load 3-3.8). The threat weights were fitted with the tempo of the plain sum in them, so the
//! average would need weights fitted to it (the training program reads the plain sum); off.
//!
//! Session 40: a learned ordering score ([`Config::order`], match setting `order=1`): per
//! candidate a weight for the combination of the side to move's shapes on the point, one for
//! the opponent's and one for a point next to a stone ([`super::patterns::OrderWeights`]),
//! fitted as a softmax over the candidates to the moves of Rapfi's classical evaluation
//! playing itself at 100 ms a move from random 3-stone openings (1,648 freestyle games, 703
//! renju; `examples/gomoku_patterns.rs policy`). On the held-out tenth of the games Rapfi's
//! move is among the first 6 candidates in 77.3% of the freestyle positions (the shape values
//! 74.1%) and among the first 10 in 86.5% (83.4%); renju 80.6% (76.0%) and 89.0% (86.1%).
//! Measured with `gomocup --set order=1` against the same build without it (self-play) or
//! against Rapfi (the openings files, 40 games), with Rapfi self-play games or a second match
//! beside each (load 1-2.7):
//!
//! | test | W-D-L with `order=1` | the same build without it |
//! |---|---|---|
//! | self-play, freestyle, 200 ms, the openings file, `--seed 4001` | 26-0-14 | |
//! | self-play, freestyle, 200 ms, 100 random 3-stone openings, `--seed 4002` | 59-3-38 | |
//! | self-play, renju, 200 ms, the openings file, `--seed 4031` | 21-0-19 | |
//! | Rapfi, freestyle, 1 s, `--seed 4011` | 4-0-36 | 8-0-32 (right after) |
//! | Rapfi, freestyle, 1 s, `--seed 4012` (the two side by side) | 4-0-36 | 2-0-38 |
//! | Rapfi, renju, 1 s, `--seed 4032` | 7-0-33 | |
//! | Rapfi, freestyle, 200 ms (Qi used 0.09 s a move, Rapfi 0.14 s), `--seed 4021` | 6-1-33 | 4-0-36 |
//!
//! So it is stronger against Qi's own search in freestyle (85-3-52 in 140 games) but no
//! stronger against Rapfi (8 of 80 against 10 of 80 in the same hours): off by default.
//!
//! Two uses of the learned score in the selectivity, not in the code, each against Rapfi at
//! 200 ms (`--seed 4021`, the freestyle openings file, the two side by side, load about 2):
//! each late move's reduction one ply less when its score is within 1 logit of the node's
//! best candidate, one more from 3 logits below, two from 5 (Rapfi's "policy based
//! reduction"), 3-0-37; with that, also no move searched more than 6 logits below the best
//! off the principal variation at depth 4 or less, 2-0-38.
//!
//! Session 41 tried more search changes, none of them in the code. Each was played against
//! Rapfi at 1 s a move on the freestyle openings file, `--seed 4113`, two matches side by
//! side, load about 2.
//!
//! **The leaf VCF.** A profile of a crowded 8-stone position, 1 s: the leaf VCF ([`Config::vcf_leaf`],
//! 40 nodes wherever the side to move has a four point) took about half the time. Its
//! makes and unmakes took most of the rest.
//! - Without it, that search reached depth 11 instead of 6.
//! - In three 23-stone positions of Rapfi's games it reached depths 11, 9 and 12 instead of
//!   5, 8 and 6 (two matches running beside it).
//! - Against Rapfi, `leaf=0` and `leaf=10` each scored 3-0-37, the same as main (see the
//!   table in the README).
//! - The leaf VCF only where the side to move has two four points or more: 5-1-34 and
//!   5-0-35 (`--seed 4113` and `4114`), against main's 3-0-37 and 4-0-36 beside it. That
//!   is 10-1-69 against 7-0-73, within the noise, so it is not kept.
//!
//! **Other changes, screened on ten positions first.** The positions came from games main
//! lost to Rapfi: each is one where a single move of Qi's took Rapfi's evaluation from -300
//! or better to -500 or worse. A variant passes a position if it plays something else that
//! Rapfi rates -400 or better.
//! - Main passed 1 of the 10 and played the same lost move in 7.
//! - Most variants passed 0-2 of the 10 (`--set`):
//!   - `selk=70`, `selk=140`;
//!   - `vct=400000,vctdefend=40000`, `leaf=400`;
//!   - `order=1`, `seldefend=1`;
//!   - a move making a three or more of the side to move never reduced;
//!   - the answers to an opponent's threat using up no depth where there are at most two
//!     (with no limit: depth 4 instead of 13 at 1 s).
//! - So did 3 times the move time.
//! - The refits of the evaluation to Rapfi's passed 4, but played worse in matches.
//!
//! **Rapfi's trivial-move pruning.** Below 4 plies, once a move does not lose, moves that
//! make no two or more for either side are skipped. It scored 1-0-20, main 1-0-22 beside it
//! (both stopped early).
//!
//! Session 42 measured how often the search finds the wins Rapfi finds. For every game main
//! lost to Rapfi in session 41's matches (four logs, 93 positions after the forced ones are
//! left out), the first position with Rapfi to move where Rapfi at 300 ms reported a mate;
//! `qi-engine gomocup` at 500 ms a position, counted where it reported a win (scripts
//! outside the repo; load 1-2, the figures move by 3-5 from run to run):
//!
//! | `gomocup --set` | wins found of 93 |
//! |---|---|
//! | (main) | 34 |
//! | `w43=1` ([`Config::win43`]: a four-three point a win in five plies where the opponent has no point for a four, as Rapfi's quick win check) | 37 |
//! | `w43=1,leaf=0` (no leaf VCF) | 51, 52 |
//! | `w43=1,qvcf=1` ([`Config::qvcf`]: the quiescence of the `quiesce` module instead of the leaf VCF) | 54, 49 |
//! | `w43=1,selk=200` | 40 |
//!
//! At 1 s a position main found 15 of the first 24 and `w43=1` 17; at 5 s a position `w43=1`
//! found 5 of the 9 it had missed at 1 s, where Rapfi needed 300 ms. Both are on in
//! `qi-engine gomocup` since (`qvcf=0,w43=0` turns them off; the levels keep the leaf VCF,
//! so their ladder and `bench gomoku`, 687,311 nodes, are unchanged). In `gomocup` self-play
//! against the same build without them, 200 ms a move: freestyle 24-1-15 (the openings file,
//! `--seed 4202`) and 60-3-37 (3 random plies, 100 games, `--seed 4203`), 84-4-52 in all
//! (61%); renju 52-0-48 (`--seed 4208`). Against Rapfi at 1 s a move (the freestyle
//! openings file) 5-0-35 and 3-0-37 (`--seed 4201` and `4206`): 8-0-72, where main had
//! scored 7-0-73 in session 41. Stronger, but not against Rapfi.
//!
//! Not kept (each in self-play against the build with both, 200 ms a move, 3 random plies,
//! 100 games): 2 plies more of reduction for late moves that make or block no three at an
//! expected cut node (Rapfi's non-killer cut-node reduction), 50-1-49; a leaf where the
//! opponent has an open-four, four-three or three-three point searched one ply more, at most
//! once a line, 50-4-46 (and it found fewer of the wins above, 41 and 46).
//!
//! Session 45, three changes to `qi-engine gomocup`, each measured against Rapfi at 1 s a
//! move (the openings files, 40 games a match, two matches side by side, load about 2):
//! - Under renju the exact forbidden check ([`Gomoku::is_forbidden`], which copies the
//!   position's 3 kB board) had taken about a fifth of the search (perf); [`Engine::allowed_for`]
//!   now asks it only where [`Board::black_may_be_forbidden`] says a forbidden point is
//!   possible. In game positions: 10-20% more nodes in the same time.
//! - A move gets 900 ms of a 1 s turn instead of 820 (`qi-engine gomocup`'s module doc).
//! - [`Config::verify`]: where the opponent would win by a VCF or a VCT were the side to move
//!   to pass, each root move about to become the best is checked for such a win after it
//!   (60,000 nodes each, once a search). In the freestyle match with seed 4511, at the move
//!   where Qi first let Rapfi have a VCT its own solver finds (300,000 nodes), 7 of the 22
//!   lost games still had moves after which the solver found none; the root's defence filter
//!   (10,000 nodes a move) had missed them.
//!
//! | build | rule | against Rapfi |
//! |---|---|---|
//! | main before (session 44's) | renju | 11-0-29 (`--seed 4503`, beside the next row) |
//! | the forbidden filter and the time | renju | 13-0-27, 11-0-29, 11-0-29 (35-0-85, 29.2%) |
//! | and the check of the best moves (main's since) | renju | 14-0-26, 11-0-29, 11-0-29, 10-0-30 (46-0-114, 28.8%; 3 wins as Black) |
//! | the forbidden filter and the time | freestyle | 8-0-32, 9-0-31 (17-0-63, 21.3%) |
//! | and the check of the best moves | freestyle | 9-1-30, 9-2-29, 7-1-32, 9-1-30 (34-5-121, 22.8%) |
//!
//! Rapfi against itself on the renju openings file (1 s a move) gave White 26 of 29 games:
//! those openings, chosen by Rapfi's evaluation as the closest to even, favour White in play.
//!
//! Session 46. **The three-three points.** In game 10 of the renju match with seed 4505 Qi
//! (White) counted l7 a forced win (mate in 17 plies) and lost: the search let Black answer
//! White's three-three points only with the exact answers ([`Config::prune33`]), and a quiet
//! Black move that stops one of them while making a three of its own (g7 in the test
//! position: the fours it prepares come first once White takes the other point) holds where
//! no exact answer does. Rapfi, as Black, played such moves as the 13th and the 17th stones of
//! that game, and won. Two ways out, each a match setting, each tested both ways on that position
//! (`a_quiet_move_can_hold_against_three_three_points`):
//! - `p33=0`: three-three points do not narrow the moves at all. It fixes the four false
//!   results of that game but lost openings main wins every time as White (the attacker's
//!   three-threes take more depth to prove): renju 8-0-28 after 36 games (`--seed 4622`),
//!   freestyle 8-1-31 (`--seed 4621`).
//! - `a33=1` ([`Config::answer33`]): such a move (one threat point taken away and a three or
//!   more made) answers them too. It fixes the same four results, at depths 14-17 at 1 s
//!   as before, but against Rapfi it scored renju 10-0-30 (`--seed 4641`) and freestyle 9-0-31
//!   (`--seed 4642`): no measurable change, so it stays off.
//!
//! (Both were measured with a 64 MB table, `gomocup`'s default for part of the session: see
//! `qi-engine gomocup`'s `HASH_MB`.)
//!
//! Also measured in session 46 (against Rapfi at 1 s a move, the openings files, 40 games,
//! two matches side by side, load about 2): the freestyle play told twice the turn time by a
//! relay 10-0-30 (25%; renju had gained most from more time in session 44); `verify=150000`
//! 8-1-31 (27-3-90, 23.8%, in 120 games with session 45's); session 44's third freestyle refit
//! (F) on this build 5-0-35. Both programs are close to deterministic, so each (opening,
//! colour) pair mostly repeats its result from match to match: over session 45's four renju
//! matches and this session's first two, Qi won 6 of the 20 openings as White every time and
//! 9 others in some of the matches, and as Black almost never.
//!
//! Session 49: **which parts of Rapfi's search matter with Qi's weights.** Session 48 found
//! Rapfi's search with Qi's weights 13-18 points above Qi's own search against Rapfi. A copy of
//! Rapfi built outside the repo, with Qi's weights and each part of its search behind a switch
//! (an environment variable), played the same copy with all parts on: freestyle openings file,
//! 500 ms a move, 40 games a match, two matches side by side (load 2-3). The score is the
//! full search's:
//!
//! | turned off in the other copy | full search's W-D-L |
//! |---|---|
//! | futility pruning, razoring, fail-high reduction and null move together | 27-0-13 (67.5%) |
//! | futility pruning alone | 22-3-15 (58.8%) |
//! | razoring alone | 15-3-22 (41.3%: better without) |
//! | the move count halved off an improving line, and trivial-move pruning | 18-6-16 (52.5%) |
//! | all its late-move-reduction terms beyond ln·ln (below) | 25-2-13 (65%) |
//! | 1.8 plies more at cut nodes for moves that are no killer | 13-5-22 (38.8%: better without) |
//! | the deeper re-search of a late move that fails high | 17-4-19 (47.5%) |
//! | one ply more off an improving line | 18-2-20 (45%) |
//! | the other terms (history, "was on the PV", defences far from the threat, continued attack, complexity, odd plies) | 24-3-13 (63.8%) |
//! | of those: the history (stat score) term | 18-2-20 (45%) |
//! | of those: 0.97 plies less where the node is or was on the PV (`ttPv`) | 22-3-15 (58.8%) |
//! | of those: more reduction for a defence far from the opponent's threat | 15-7-18 (46.3%) |
//! | of those: less reduction for an attack that follows the side's own three | 18-3-19 (48.8%) |
//!
//! Rapfi's parts that carried weight were then built into this search, each a match setting,
//! all off by default ([`StaticPrune`]: `sfut`, `srazor`, `sfh`, `simp`, `savg`; the extra
//! reduction at cut nodes `cutr`; Rapfi's `square2_line3` candidates `line3`). The search
//! keeps a static evaluation per ply and knows its cut nodes as Rapfi counts them. Against
//! Rapfi at 1 s a move (the openings files, 40 games, two matches side by side, load about
//! 2), where main scores 22.8% in freestyle and 14.4% in renju (160 games each):
//!
//! | setting | rule, seed | W-D-L |
//! |---|---|---|
//! | `sfut=101,srazor=1,sfh=1,savg=1` (Rapfi's freestyle margins) | freestyle, 4911 | 3-0-20 (stopped) |
//! | `sfh=1` | freestyle, 4913 | 8-0-32 |
//! | `sfut=128,savg=1` (Rapfi's renju margin) | renju, 4711 | 8-0-32 |
//! | `cutr=2` | renju, 4711 | 5-0-23 (stopped) |
//! | `line3=1` | freestyle, 4921 | 9-2-29 |
//! | `selk=56` (Rapfi's renju reduction factor 0.75², against Qi's 1.0) | renju, 4912 | 7-0-33 |
//! | `vct=20000` (the root's VCT budget a fifth: the root's threat searches take about a third of a 1 s turn before depth 1) | renju, 4711 | 8-0-32 |
//! | `prune=0` (no narrowing to the answers of a threat) | renju, 4711 | 1-0-21 (stopped) |
//! | main, the same hours | renju, 4711 | 7-0-33 (session 47: 6-0-34) |
//!
//! None is a gain within what 40 games show, so none is on. In Rapfi's search the static
//! evaluation prunes well; in Qi's it does not, as in sessions 19, 25 and 35. Two of Rapfi's
//! terms that helped it here are not in Qi's search yet: the "was on the PV" flag in the
//! transposition table (less reduction there) and the rest of the late-move terms above.
//!
//! Session 50 built the whole of Rapfi's search shape as a second main search instead (the
//! `ab` module, [`Config::ab`]): alone it scored no better than this one, but with Rapfi's
//! history ordering and without the narrowing to the answers of a three-three point it is
//! `qi-engine gomocup`'s freestyle search since (that module's doc has the measurements);
//! the levels and renju keep [`Search::pvs`].

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::board::{
    B4, Board, DOUBLE_THREE, F3, FIVE_FLAG, FOUR_THREE, FOURS_MASK, PointShape, THREAT, UNSTOPPABLE,
};
use crate::game::{Cell, Game, Side, Square};
use crate::gomoku::{Gomoku, GomokuRule, GomokuUndo, Move, move_at, move_square};
use crate::search::tt::{Bound, Table};
use crate::search::{
    MATE, MATE_BOUND, MAX_TIME, SearchInfo, deadline_after, from_tt, hash_noise, to_tt,
};

mod ab;
mod defence;
mod quiesce;
mod root;
mod threats;

const INF: i32 = MATE + 1;
const MAX_PLY: usize = 64;
/// Slots for the candidates of a ply: more than the points of a 19 × 19 board, a power of two
/// (an index masked by `CAND_SLOTS - 1` needs no bounds check).
const CAND_SLOTS: usize = 512;
/// The most threats (fours and threes) of the attacker in a VCT.
pub const VCT_DEPTH: u32 = 8;

/// The failed-threat tables are keyed by Zobrist hashes, random already: the key is its own hash.
#[derive(Clone, Copy, Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    #[inline]
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

type KeyHash = std::hash::BuildHasherDefault<KeyHasher>;

/// `pos` with the other side to move (as if the side to move passed).
fn passed(pos: &Gomoku) -> Option<Gomoku> {
    let text = pos.to_text();
    let flipped = match text.rsplit_once(' ') {
        Some((head, "x")) => format!("{head} o"),
        Some((head, _)) => format!("{head} x"),
        None => return None,
    };
    Gomoku::from_text(&flipped).ok()
}

/// The moves of `items` (ordering score, move) for which `allowed` holds, best score first
/// and in the items' order among equal scores, at most `width` of them, into `out` (after what
/// it holds): a stable sort by score cut to the width. Only the best `width` are kept, in
/// order (in `top`, a buffer; each new one moved up from the end past the lower scores), and
/// the others passed over without a look at `allowed`. A kept move is its score times 2^16
/// plus the move, so that one word moves at a time.
fn best_first(
    items: impl Iterator<Item = (i32, Move)>,
    width: usize,
    allowed: impl Fn(Move) -> bool,
    top: &mut Vec<i64>,
    out: &mut Vec<Move>,
) {
    top.clear();
    if width == 0 {
        return;
    }
    // the score of the last kept move once `width` are kept (no better one: passed over)
    let mut floor = i32::MIN;
    let mut full = false;
    for (k, m) in items {
        // not better than the last of a full list (the earlier move stays first)
        if full && floor >= k {
            continue;
        }
        if !allowed(m) {
            continue;
        }
        // the last slot (a new one, or the one of the move that drops out), then up past the
        // lower scores
        if full {
            top.pop();
        }
        let v = (k as i64) << 16 | m as i64;
        top.push(v);
        let t = top.as_mut_slice();
        for j in (1..t.len()).rev() {
            let prev = t[j - 1];
            if (prev >> 16) as i32 >= k {
                break;
            }
            t[j] = prev;
            t[j - 1] = v;
        }
        if t.len() == width {
            full = true;
            floor = (t[width - 1] >> 16) as i32;
        }
    }
    out.extend(top.iter().map(|&a| a as Move));
}

/// A position with the AI's board beside it, kept in step.
///
/// The search reads of the position only its hash, its side to move and (in Renju) Black's
/// forbidden points, so the engine keeps the hash and the side itself and plays the moves on
/// the position only in Renju (whose forbidden points are read from its lines): under the
/// other rules `g` stays the position the engine was made from, which is the position again
/// whenever every move made has been taken back (the root, where `g` is read).
#[derive(Clone)]
pub struct Engine {
    pub g: Gomoku,
    pub b: Board,
    renju: bool,
    hash: u64,
    side: Side,
}

impl Engine {
    pub fn new(pos: &Gomoku) -> Engine {
        let n = pos.size();
        let mut b = Board::new(n, pos.rule());
        for y in 0..n {
            for x in 0..n {
                let sq = Square::new(x, y);
                if let Cell::Piece(s) = pos.cell(sq) {
                    b.place(move_at(sq), s);
                }
            }
        }
        Engine {
            g: pos.clone(),
            b,
            renju: pos.rule() == GomokuRule::Renju,
            hash: pos.hash(),
            side: pos.side_to_move(),
        }
    }

    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// The position's hash ([`Game::hash`]).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Plays `m` on the AI's board, and in Renju on the position too. The position's result is
    /// not updated ([`Gomoku::make_quiet`]): the search reads the fives from its own board,
    /// never the position's result.
    #[inline]
    pub fn make(&mut self, m: Move) -> Option<GomokuUndo> {
        let s = self.side;
        self.b.place(m, s);
        self.hash ^= Gomoku::hash_step(s, m);
        self.side = s.other();
        self.renju.then(|| self.g.make_quiet(m))
    }

    #[inline]
    pub fn unmake(&mut self, m: Move, u: Option<GomokuUndo>) {
        if let Some(u) = u {
            self.g.unmake(u);
        }
        let s = self.side.other();
        self.side = s;
        self.hash ^= Gomoku::hash_step(s, m);
        self.b.remove(m, s);
    }

    /// A null move: the other side to move, no stone placed ([`Gomoku::pass_quiet`]). Its
    /// own inverse.
    #[inline]
    pub fn pass(&mut self) {
        self.side = self.side.other();
        self.hash ^= Gomoku::side_key();
        if self.renju {
            self.g.pass_quiet();
        }
    }

    /// Whether `side` may put a stone on the empty point `m` (Black's forbidden points in Renju
    /// are not allowed).
    #[inline]
    pub fn allowed_for(&self, side: Side, m: Move) -> bool {
        self.b.is_empty(m)
            && !(self.renju
                && side == Side::Black
                && self.b.black_may_be_forbidden(m)
                && self.g.is_forbidden(move_square(m)).is_some())
    }

    #[inline]
    pub fn allowed(&self, m: Move) -> bool {
        self.allowed_for(self.side(), m)
    }

    /// Whether the opponent of the side to move has an open-four point (an open four or two
    /// fours) it may play: under renju Black's four-four and overline points are forbidden,
    /// and with `exact` those are left out (otherwise any such point counts).
    pub fn opp_open4(&self, exact: bool) -> bool {
        let op = self.side().other();
        let open = &self.b.threats[op.index()].open;
        if exact && self.renju && op == Side::Black {
            open.iter().any(|p| self.allowed_for(op, p))
        } else {
            !open.is_empty()
        }
    }
}

/// A random crowded position for the tests: the rule freestyle, standard or renju by `i`
/// (in turn), `stones` tries at a point of the square of `span` points a side from
/// (`lo`, `lo`), each played where legal while the game goes on.
#[cfg(test)]
pub(crate) fn random_position(
    rnd: &mut impl FnMut(u64) -> u64,
    i: usize,
    stones: u64,
    lo: u8,
    span: u64,
) -> Gomoku {
    let rule = [
        GomokuRule::Freestyle,
        GomokuRule::Standard,
        GomokuRule::Renju,
    ][i % 3];
    let mut g = Gomoku::new(15, rule);
    for _ in 0..stones {
        let m = move_at(Square::new(lo + rnd(span) as u8, lo + rnd(span) as u8));
        if g.outcome().is_none() && g.is_legal(m) {
            g.make(m);
        }
    }
    g
}

/// How a level searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The line-score evaluation of report 004 instead of the shape evaluation.
    pub simple_eval: bool,
    /// The learned pattern evaluation ([`super::patterns`]) instead of either (match setting
    /// `patterns=1`).
    pub patterns: bool,
    /// Threat logic: open fours as wins, defence-only moves against threats, forced replies
    /// searched without using up depth.
    pub threats: bool,
    /// Moves searched at a node (the best by the ordering score).
    pub width: usize,
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    /// Node budget of the VCF tried at the root (0: none).
    pub vcf_root: u64,
    /// Node budget of each check for the opponent's VCF at the root (0: none).
    pub vcf_defend: u64,
    /// Node budget of the VCF tried at the leaves (0: none).
    pub vcf_leaf: u64,
    /// Node budget of the VCT (threes and fours) tried at the root after the VCF (0: none).
    pub vct_root: u64,
    /// Node budget of each check for the opponent's VCT at the root (0: none).
    pub vct_defend: u64,
    /// Node budget of the check of a root move that becomes the best (match setting
    /// `verify`; 0: none): where the opponent would win by a VCF or a VCT were the side to
    /// move to pass, its VCF and VCT after each root move about to become the best, which
    /// scores as the loss found (once a search a move).
    pub verify: u64,
    /// Quiet threats a VCT line may use (match setting `vctq`; 0: none): moves that are no
    /// four or open three but after which the attacker, were the defender to pass, would win
    /// by a VCF ([`Search::vct`]).
    pub vct_quiet: u32,
    /// Node budget of the main alpha-beta search, on top of the threat searches (None: only
    /// the depth and the time limit it).
    pub nodes: Option<u64>,
    /// Evaluation noise amplitude.
    pub noise: i32,
    pub seed: u64,
    /// Late-move reductions for quiet moves (match setting `lmr=1`; no level uses them yet).
    pub lmr: bool,
    /// Iterative deepening starts no new depth after this share of the move time (percent);
    /// an unfinished depth still counts for the moves it has searched.
    pub spend: u32,
    /// Pruning by threat type (the `defence` module): where the opponent threatens an open four, a
    /// four-three or a three-three, only the exact answers are searched (else every point
    /// where the opponent would make a three or more, and own fours).
    pub prune: bool,
    /// Futility pruning of the node by its static evaluation (reverse futility; match setting
    /// `futility=1`): off the principal variation, where the opponent threatens no open four,
    /// four-three or three-three and no five, a node of depth 1 to
    /// [`Config::futility_depth`] whose evaluation is [`Config::futility_margin`] a ply above
    /// beta returns it.
    pub futility: bool,
    /// [`Config::futility`]'s margin a ply of depth (match setting `futm`; the learned
    /// evaluation's units, [`FUTILITY_MARGIN`] by default).
    pub futility_margin: i32,
    /// [`Config::futility`]'s largest depth (match setting `futdepth`).
    pub futility_depth: i32,
    /// Razoring (match setting `razor=1`): off the principal variation, under the same
    /// conditions as [`Config::futility`] and without a point of its own for a three, a
    /// four-three or a three-three, a node of depth 1-2 whose evaluation is
    /// [`Config::razor_margin`] (depth 1; 8/5 of it at depth 2) below alpha is a leaf: only
    /// its VCF is tried (within [`Config::vcf_leaf`]), else its evaluation.
    pub razor: bool,
    /// [`Config::razor`]'s margin at depth 1 (match setting `razm`; [`RAZOR_MARGIN`] by
    /// default).
    pub razor_margin: i32,
    /// With the learned pattern evaluation, its point sum averaged over the position and the
    /// one before its last stone, as Rapfi's classical evaluation averages its basic sum over
    /// the last two plies (match setting `avg2=1`, [`super::board::Board::pattern_score_avg2`]):
    /// the point sum alone swings with each stone towards the side that just played.
    pub avg2: bool,
    /// History-heuristic ordering: a quiet move that cut off the search at depth `d` earns
    /// `d²` for its side and point (halved at each new search, emptied with the table), and a
    /// candidate's ordering score gets up to [`HISTORY_BONUS`] for it, in proportion to the
    /// best point's history: enough to order quiet points among themselves, not to put a quiet
    /// point above a three. (Match setting `history=1`; off in `qi-engine gomocup` and the
    /// levels: see the module doc.)
    pub history: bool,
    /// With [`Config::patterns`], the line pattern weights too ([`super::patterns::LineWeights`],
    /// with their own point and threat weights; match setting `lines=1`, `qi-engine gomocup
    /// --lines`).
    pub lines: bool,
    /// With [`Config::prune`], where the opponent has an open-four, four-four or four-three
    /// point, only those points need answers: its three-three points are left to the next
    /// plies instead of narrowing the answers further.
    pub fast_first: bool,
    /// Selectivity by remaining depth instead of the fixed beam (match setting `select=1`,
    /// `qi-engine gomocup --set select=1`): a node takes up to `width + 8` candidates by
    /// ordering score; off the principal variation it stops after [`select_count`] of them
    /// once it has a move that does not lose, and from the second move on every move is
    /// searched [`select_reduction`] plies shallower (less for threats and on the principal
    /// variation), again in full if it beats alpha. Replaces [`Config::lmr`].
    pub select: bool,
    /// The opponent's three-three points count as threats that only the exact answers (or
    /// the side's own fours and open threes) meet, as its open-four and four-three points do
    /// (match setting `p33`; 0: only those faster points narrow a node's moves, and a
    /// three-three is met in the next plies, when it is an open four to stop). A quiet move
    /// can hold against a three-three where no exact answer does, by a VCF of its own once
    /// the opponent plays it: session 46 found Qi's search counting such a position lost.
    pub prune33: bool,
    /// Where the opponent's threats are all three-three points, a move that takes away one of
    /// them and makes a three or more of the side to move (a point for a four next) answers
    /// them too (match setting `a33`): the fours it prepares may come first once the
    /// opponent takes another (the quiet move of [`Config::prune33`]'s doc).
    pub answer33: bool,
    /// [`Config::select`]'s reduction factor in percent (match setting `selk`).
    pub select_k: u32,
    /// [`Config::select`] also where the opponent threatens an open four, a four-three or a
    /// three-three (the answers pruned by count and reduced like other moves; match setting
    /// `seldefend`).
    pub select_defend: bool,
    /// The ordering score of a candidate from the learned ordering weights
    /// ([`super::patterns::OrderWeights`], fitted to another engine's moves) instead of the
    /// shape values (match setting `order=1`).
    pub order: bool,
    /// A four-three point of the side to move is a win in five plies where the opponent has
    /// no point for a four (match setting `w43`; never for Black under renju).
    pub win43: bool,
    /// The quiescence search of the `quiesce` module at the leaves (fours near the side's own
    /// last stone and their blocks, standing on the evaluation) instead of the leaf VCF
    /// (match setting `qvcf`).
    pub qvcf: bool,
    /// Pruning by the static evaluation of the interior nodes, after Rapfi's search (session
    /// 49; see [`StaticPrune`]): all off by default.
    pub sp: StaticPrune,
    /// [`Config::select`]'s late moves this many plies shallower still at a node that
    /// expects a cut (Rapfi's 1.8 plies for a move that is not a killer; match setting
    /// `cutr`; 0 by default).
    pub cut_reduction: i32,
    /// The candidates of the main search also three points from a stone along its lines
    /// ([`super::board::Board::cands_line3`], Rapfi's `square2_line3`; match setting
    /// `line3`; off by default).
    pub line3: bool,
    /// The main search of the `ab` module, after the whole of Rapfi's alpha-beta search
    /// (fractional depths, its pruning and reductions; session 50) instead of [`Search::pvs`]
    /// (match setting `ab`; off by default).
    pub ab: bool,
    /// The candidate range when not [`Config::line3`]: 0 the points within two of a stone
    /// (5 × 5), 1 also three along the lines (`square2_line3`), 2 within three (7 × 7), 3
    /// within three and four along the lines (Rapfi's default, `square3_line4`; match setting
    /// `range`).
    pub range: u8,
    /// With [`Config::ab`], Rapfi's internal iterative reductions on the principal variation
    /// (its step 10): a third of a ply less without a table move, and up to 3.6 plies less
    /// (0.28 a ply) where the table's entry is shallower than the node (match setting `iir`).
    pub iir: bool,
    /// With [`Config::ab`], Rapfi's extensions other than the singular one: 1.3 plies for
    /// the block of a five (1 without), a quarter of a ply for the table's move on the
    /// principal variation (0.08 off it), and up to a quarter more where that move makes a
    /// four near the side's last stone (match setting `ext`).
    pub ext: bool,
    /// With [`Config::ab`], Rapfi's singular extension: where the table's move failed high
    /// at nearly the node's depth, a reduced search of the other moves below the table's
    /// score less a margin; if none reaches it the move is extended a ply (two off the
    /// principal variation when far below), if that search beats beta the node returns beta,
    /// and a table move that beat beta without being singular is reduced 1.5 plies (match
    /// setting `se`).
    pub singular: bool,
    /// With [`Config::ab`] and [`Config::history`], Rapfi's history in the late-move
    /// reductions: a move with a good history is reduced less, one with a bad history more
    /// (match setting `hred`).
    pub hist_reduction: bool,
    /// With [`Config::ab`], Rapfi's extension of the full-depth search after a reduced one
    /// beat alpha: a ply more where it beat alpha by a margin, two by a larger one, a ply less
    /// where it was no better than the best move so far (match setting `lmrext`).
    pub lmr_ext: bool,
    /// With [`Config::ab`] under renju, Black's open-four points (an open four or two fours)
    /// count as the opponent's open-four threat (Rapfi's `oppo4`) only where Black may play
    /// them: a four-four or an overline point is forbidden, so it threatens nothing (match
    /// setting `f4`).
    pub open4_allowed: bool,
    /// Under renju, the evaluation with White to move leaves out the threat mask's bit of
    /// Black's open-four point where every such point is forbidden (match setting `f4=2`,
    /// with [`Config::open4_allowed`]).
    pub open4_eval: bool,
    /// With [`Config::ab`], Rapfi's margins (in its units of 250 a logit) times this in Qi's
    /// (400 a logit), in hundredths: 160 by the units alone (match setting `unit`).
    pub unit: u16,
}

/// Rapfi's pruning by the static evaluation of a node (its search steps 7 and 8, its fail-high
/// reduction and its move count halved off an improving line), with [`Config::patterns`]
/// only. Off the principal variation, where the opponent has no five to block, the node's
/// static evaluation (the learned pattern evaluation, averaged over two plies with
/// [`StaticPrune::avg2`]) decides. Where the opponent has a point for an open four (an open
/// three on the board), the node takes its parent's evaluation negated, as Rapfi's does: no
/// futility pruning then, no fail-high reduction, and razoring at depth 1-2 (Rapfi's own
/// sentinel for "no evaluation" razors every such node). Margins are in the evaluation's
/// units (400 a logit; Rapfi's 250, so its margins are 1.6 times these).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StaticPrune {
    /// Futility pruning: a node whose evaluation is `fut` × (depth − 1 − improving) above
    /// beta returns it (19 less a ply at a cut node the table does not know), unless the side
    /// to move's last two stones were both fours (match setting `sfut`; 0: off; Rapfi's
    /// margins are 101 freestyle and 128 renju in these units).
    pub fut: i32,
    /// Razoring: a node of depth 1-2 whose evaluation is below alpha by less than Rapfi's
    /// margin (53 at depth 1, 76 at depth 2) is a leaf (match setting `srazor`).
    pub razor: bool,
    /// Fail-high reduction: at a cut node whose evaluation is above beta by 24 × depth − 14,
    /// every move that makes no four is searched a ply shallower, and a four after the side's
    /// own four a ply deeper (match setting `sfh`).
    pub fail_high: bool,
    /// [`Config::select`]'s move count halved where the node's evaluation is no better than
    /// two plies before (match setting `simp`).
    pub improving: bool,
    /// The node's evaluation averaged over the position and the one before its last stone
    /// ([`super::board::Board::pattern_score_avg2`]; match setting `savg`).
    pub avg2: bool,
}

impl StaticPrune {
    /// Whether any of it is on (the nodes then read their static evaluation).
    pub fn on(&self) -> bool {
        self.fut > 0 || self.razor || self.fail_high || self.improving
    }

    /// Rapfi's razoring margin at `depth` (1 or 2), in the evaluation's units.
    pub fn razor_margin(depth: i32) -> i32 {
        // (0.17 d² + 14 d + 19) Rapfi units, × 1.6
        ((17 * depth * depth + 1400 * depth + 1900) * 16 + 500) / 1000
    }

    /// The fail-high reduction's margin above beta at `depth`, in the evaluation's units.
    pub fn fail_high_margin(depth: i32) -> i32 {
        (15 * depth - 9) * 8 / 5
    }
}

/// The moves searched at a node off the principal variation with `depth` plies to go under
/// [`Config::select`]: 3 + depth^1.32 (4, 5, 7, 9, 11, 13, 16, 18 for depths 1-8).
pub fn select_count(depth: i32) -> usize {
    3 + (depth.max(0) as f64).powf(1.32) as usize
}

/// The plies a late move is searched shallower under [`Config::select`]: `k`/100 × ln(depth)
/// × ln(move count), rounded, one less for a move that makes or blocks a three or more and
/// one less on the principal variation, never below zero.
pub fn select_reduction(k: u32, depth: i32, count: usize, important: bool, pv: bool) -> i32 {
    let r = k as f64 / 100.0 * (depth.max(1) as f64).ln() * (count.max(1) as f64).ln();
    (r.round() as i32 - important as i32 - pv as i32).max(0)
}

/// The largest ordering bonus of [`Config::history`] (an open three is worth 110, a two 24).
pub const HISTORY_BONUS: i32 = 48;

/// The default margin a ply of depth of [`Config::futility`]'s reverse futility pruning.
pub const FUTILITY_MARGIN: i32 = 150;
/// The default margin of [`Config::razor`] at depth 1 (8/5 of it at depth 2).
pub const RAZOR_MARGIN: i32 = 200;

impl Default for Config {
    fn default() -> Config {
        Config {
            simple_eval: false,
            patterns: false,
            threats: true,
            width: 16,
            depth: None,
            time: Some(Duration::from_millis(1000)),
            vcf_root: 200_000,
            vcf_defend: 20_000,
            vcf_leaf: 40,
            vct_root: 0,
            vct_defend: 0,
            verify: 0,
            vct_quiet: 0,
            nodes: None,
            noise: 0,
            seed: 0,
            lmr: false,
            spend: 40,
            prune: false,
            futility: false,
            futility_margin: FUTILITY_MARGIN,
            futility_depth: 3,
            razor: false,
            razor_margin: RAZOR_MARGIN,
            avg2: false,
            history: false,
            lines: false,
            fast_first: false,
            select: false,
            select_k: 100,
            select_defend: true,
            prune33: true,
            answer33: false,
            order: false,
            win43: false,
            qvcf: false,
            sp: StaticPrune::default(),
            cut_reduction: 0,
            line3: false,
            ab: false,
            range: 0,
            iir: false,
            ext: false,
            singular: false,
            hist_reduction: false,
            lmr_ext: false,
            open4_allowed: false,
            open4_eval: false,
            unit: 160,
        }
    }
}

/// A scanned candidate point: its [`PointInfo`](super::board::PointInfo) flags for the side
/// to move (`me`) and the opponent (`op`), and its ordering score.
#[derive(Clone, Copy, Debug)]
struct Cand {
    mv: Move,
    me: u8,
    op: u8,
    order: i32,
}

impl Cand {
    const NONE: Cand = Cand {
        mv: 0,
        me: 0,
        op: 0,
        order: 0,
    };

    /// The fours a stone of the side to move makes here.
    #[inline]
    fn my_fours(&self) -> u32 {
        (self.me & FOURS_MASK) as u32
    }

    /// An open four or two fours of the side to move.
    #[inline]
    fn my_unstoppable(&self) -> bool {
        self.me & UNSTOPPABLE != 0
    }

    /// A three or more of the side to move on some line.
    #[inline]
    fn my_threat(&self) -> bool {
        self.me & THREAT != 0
    }

    /// A three or more of the opponent on some line.
    #[inline]
    fn op_threat(&self) -> bool {
        self.op & THREAT != 0
    }

    /// An open four, two fours or a four-three of the opponent.
    #[inline]
    fn op_fast(&self) -> bool {
        self.op & (UNSTOPPABLE | FOUR_THREE) != 0
    }
}

/// What a scan of the candidate points found, from the side to move's view.
#[derive(Clone, Copy, Debug, Default)]
struct Scan {
    my_five: Option<Move>,
    opp_fives: u32,
    opp_five: Move,
    my_fours: u32,
    /// Points where a stone makes a four-three or a three-three (possibly forbidden).
    my_double: u32,
    opp_double: u32,
}

/// The result of [`Search::think`].
#[derive(Clone, Debug)]
pub struct Thought {
    pub best: Option<Move>,
    pub score: i32,
    pub info: SearchInfo,
}

pub struct Search {
    pub cfg: Config,
    tt: Table<Move>,
    pub nodes: u64,
    start: Instant,
    deadline: Option<Instant>,
    stopped: bool,
    stop: Arc<AtomicBool>,
    /// The scanned candidates of each ply: the first `cand_len[ply]` of `cands[ply]`.
    cands: Vec<Box<[Cand; CAND_SLOTS]>>,
    cand_len: Vec<usize>,
    /// The opponent's flags of the candidates of each ply's last scan, or-ed together.
    cand_ops: Vec<u8>,
    /// The moves of each ply's node (kept between nodes, so that no node allocates).
    moves: Vec<Vec<Move>>,
    vcf_fail: HashMap<u64, u32, KeyHash>,
    vct_fail: HashMap<u64, u32, KeyHash>,
    /// The ordering buffer of [`Search::node_moves`].
    order_buf: Vec<(i32, Move)>,
    /// The best moves so far of [`best_first`].
    top_buf: Vec<i64>,
    /// Buffers for the fours of [`Search::vcf`]'s nodes, the ones not in use.
    four_bufs: Vec<Vec<(i32, Move)>>,
    /// The opponent's threat points of [`Search::defence_moves`], each with the point that
    /// would block the four it makes (see [`Search::opp_threat_points`]).
    threat_buf: Vec<(Move, Option<Move>, bool)>,
    /// The search stops when `nodes` reaches this.
    node_limit: u64,
    /// [`Config::history`]: each side's history score of each point (index the move), and
    /// the largest of each side.
    history: Box<[[i32; HISTORY_SLOTS]; 2]>,
    history_max: [i32; 2],
    /// The quiet threats ([`Config::vct_quiet`]) the VCT line being searched may still use.
    quiet_left: u32,
    /// [`Config::order`]: the learned ordering tables of the position's rule (set at the root).
    order_tab: Option<&'static super::patterns::OrderTables>,
    /// The move played at each ply of the line being searched (the root's at 0).
    path: [Option<Move>; MAX_PLY],
    /// [`Config::verify`]: the root moves checked this search, each with the opponent's
    /// winning score after it if the check found a win.
    verified: Vec<(Move, Option<i32>)>,
    /// [`Config::verify`] is on in this search (the opponent threatens a VCF or a VCT).
    verify_on: bool,
    /// [`Config::sp`]: the static evaluation of each ply's node ([`NO_EVAL`] where none), and
    /// whether the move played at each ply made a four.
    seval: [i32; MAX_PLY + 1],
    four_at: [bool; MAX_PLY + 1],
    /// [`Config::ab`]: the line being searched ([`ab::BELOW`] slots before ply 0), the root's
    /// window when the iteration began and its alpha now.
    ab_stack: Vec<ab::Frame>,
    ab_root_delta: i32,
    ab_root_alpha: i32,
    /// [`Config::ab`]: Rapfi's history of each side's moves (index the move; attacks and
    /// quiet moves apart), its counter moves (index the side that played the last move and
    /// that move: the answer that was best and its class), and each ply's searched moves.
    ab_hist: Box<[[[i16; 2]; HISTORY_SLOTS]; 2]>,
    ab_counter: Box<[[(Move, u8); HISTORY_SLOTS]; 2]>,
    ab_searched: Vec<Vec<(Move, bool)>>,
}

/// The kind of a node of [`Search::pvs`]: on the principal variation, or off it expecting a
/// cut-off (a cut node) or not (an all node), as Rapfi counts them ([`StaticPrune::fail_high`]
/// and [`Config::cut_reduction`] read it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Pv,
    Cut,
    All,
}

impl Node {
    /// The kind of the first child: the principal variation's goes on, a cut node's is an all
    /// node and an all node's a cut node.
    fn first_child(self) -> Node {
        match self {
            Node::Pv => Node::Pv,
            Node::Cut => Node::All,
            Node::All => Node::Cut,
        }
    }
}

/// No static evaluation at this ply ([`StaticPrune`]).
const NO_EVAL: i32 = i32::MIN;

/// Slots of the history table: more than the largest move (19 rows of 32).
const HISTORY_SLOTS: usize = 1024;

/// A search's tables that outlive it on its thread ([`SPARE`]).
struct Spare {
    tt: Table<Move>,
    vcf_fail: HashMap<u64, u32, KeyHash>,
    vct_fail: HashMap<u64, u32, KeyHash>,
}

thread_local! {
    /// The tables of the last search dropped on this thread, for the next one (the
    /// transposition table if it has the same size): the levels make a new [`Search`] a move,
    /// and a table of 16 MB written afresh each time cost more than the shortest searches, the
    /// failed-threat maps their growth again. Emptied, they behave as new ones (a cleared
    /// table: see [`crate::search::tt`]).
    static SPARE: std::cell::RefCell<Option<Spare>> = const { std::cell::RefCell::new(None) };
}

/// Empty tables for a search with a transposition table of `hash_mb` megabytes: this
/// thread's spare ones where they fit.
fn empty_tables(hash_mb: usize) -> Spare {
    match SPARE.with(|t| t.borrow_mut().take()) {
        Some(mut t) => {
            if t.tt.has_size(hash_mb) {
                t.tt.clear();
            } else {
                t.tt = Table::new(hash_mb);
            }
            t.vcf_fail.clear();
            t.vct_fail.clear();
            t
        }
        None => Spare {
            tt: Table::new(hash_mb),
            vcf_fail: HashMap::default(),
            vct_fail: HashMap::default(),
        },
    }
}

impl Drop for Search {
    fn drop(&mut self) {
        let t = Spare {
            tt: std::mem::replace(&mut self.tt, Table::new(1)),
            vcf_fail: std::mem::take(&mut self.vcf_fail),
            vct_fail: std::mem::take(&mut self.vct_fail),
        };
        // (no spare tables once the thread's own storage is gone)
        let _ = SPARE.try_with(|s| *s.borrow_mut() = Some(t));
    }
}

impl Search {
    pub fn new(cfg: Config, hash_mb: usize) -> Search {
        let Spare {
            tt,
            vcf_fail,
            vct_fail,
        } = empty_tables(hash_mb);
        Search {
            cfg,
            tt,
            nodes: 0,
            start: Instant::now(),
            deadline: None,
            stopped: false,
            stop: Arc::new(AtomicBool::new(false)),
            cands: (0..=MAX_PLY)
                .map(|_| Box::new([Cand::NONE; CAND_SLOTS]))
                .collect(),
            cand_len: vec![0; MAX_PLY + 1],
            cand_ops: vec![0; MAX_PLY + 1],
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            vcf_fail,
            vct_fail,
            order_buf: Vec::with_capacity(256),
            top_buf: Vec::with_capacity(64),
            four_bufs: Vec::new(),
            threat_buf: Vec::with_capacity(16),
            node_limit: u64::MAX,
            history: Box::new([[0; HISTORY_SLOTS]; 2]),
            history_max: [0; 2],
            quiet_left: 0,
            order_tab: None,
            path: [None; MAX_PLY],
            verified: Vec::new(),
            verify_on: false,
            seval: [NO_EVAL; MAX_PLY + 1],
            four_at: [false; MAX_PLY + 1],
            ab_stack: vec![ab::Frame::EMPTY; MAX_PLY + ab::BELOW + 2],
            ab_root_delta: 1,
            ab_root_alpha: -INF,
            ab_hist: Box::new([[[0; 2]; HISTORY_SLOTS]; 2]),
            ab_counter: Box::new([[(0, 0); HISTORY_SLOTS]; 2]),
            ab_searched: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
        }
    }

    /// Gives the search a transposition table of `mb` megabytes: a new, empty one if the
    /// table has another size, else the table as it is.
    pub fn set_table_size(&mut self, mb: usize) {
        if !self.tt.has_size(mb) {
            self.tt = Table::new(mb);
        }
    }

    /// Whether the transposition table has the size of `mb` megabytes.
    pub fn table_has_size(&self, mb: usize) -> bool {
        self.tt.has_size(mb)
    }

    /// Empties the transposition table and the history (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in self.history.iter_mut() {
            h.fill(0);
        }
        self.history_max = [0; 2];
        self.ab_hist.iter_mut().for_each(|h| h.fill([0; 2]));
        self.ab_counter.iter_mut().for_each(|c| c.fill((0, 0)));
    }

    /// A quiet move `m` of `side` cut off the search at `depth`.
    #[inline]
    fn history_cut(&mut self, side: Side, m: Move, depth: i32) {
        let h = &mut self.history[side.index()][m as usize & (HISTORY_SLOTS - 1)];
        *h = h.saturating_add(depth * depth);
        let max = &mut self.history_max[side.index()];
        *max = (*max).max(*h);
    }

    /// Counts a node of the main search or the quiescence, checks the limits every 1,024 of
    /// them, and tells whether the search has stopped.
    #[inline]
    fn enter_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        self.stopped
    }

    /// Whether the transposition table holds an entry for `pos`.
    pub fn knows(&self, pos: &Gomoku) -> bool {
        self.tt.probe(pos.hash()).is_some()
    }

    /// Starts the clock and clears the per-search tables.
    pub fn begin(&mut self, stop: &Arc<AtomicBool>) {
        self.tt.allocate();
        self.start = Instant::now();
        self.deadline = self.cfg.time.map(|t| deadline_after(self.start, t));
        self.stopped = false;
        self.stop = stop.clone();
        self.nodes = 0;
        self.tt.new_search();
        self.vcf_fail.clear();
        self.vct_fail.clear();
        self.node_limit = u64::MAX;
        self.verified.clear();
        self.verify_on = false;
        // the history of earlier moves counts half
        for h in self.history.iter_mut() {
            for v in h.iter_mut() {
                *v /= 2;
            }
        }
        for m in self.history_max.iter_mut() {
            *m /= 2;
        }
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.stop.load(Ordering::Relaxed) || self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
    }

    /// Scans the candidate points of the side to move into `self.cands[ply]`, with the
    /// counts of [`Scan`].
    fn scan(&mut self, e: &Engine, ply: usize) -> Scan {
        self.scan_with::<true>(e, ply)
    }

    /// Scans the candidate points of the side to move into `self.cands[ply]`; the counts of
    /// [`Scan`] only with `STATS` (else the default).
    #[inline(always)]
    fn scan_with<const STATS: bool>(&mut self, e: &Engine, ply: usize) -> Scan {
        let me = e.side();
        let op = me.other();
        // written slot by slot into the ply's fixed array (no capacity check a point: there
        // are fewer candidates than points on the board)
        let out = &mut self.cands[ply];
        let mut len = 0;
        let mut ops = 0u8;
        let mut sc = Scan::default();
        let n = e.b.n as u16;
        if e.b.stones == 0 {
            let c = n / 2;
            let mv = c * 32 + c;
            out[0] = Cand {
                mv,
                me: e.b.shape(me, mv).info().flags,
                op: e.b.shape(op, mv).info().flags,
                order: 1,
            };
            ops = out[0].op;
            len = 1;
        }
        let adjacent = e.b.adjacent_set();
        let tab = self.order_tab;
        let c = me.index() & 1;
        let cands = if self.cfg.line3 {
            e.b.cands_line3()
        } else if self.cfg.range > 0 {
            e.b.cands_range(self.cfg.range)
        } else {
            e.b.cands()
        };
        cands.for_each_with(&adjacent, |p, near| {
            // one look-up a side for all the flags and the value
            let (sm, so) = (e.b.shape(me, p), e.b.shape(op, p));
            let (mi, oi) = (sm.info(), so.info());
            if STATS {
                if mi.flags & FIVE_FLAG != 0 && sc.my_five.is_none() {
                    sc.my_five = Some(p);
                }
                if oi.flags & FIVE_FLAG != 0 {
                    sc.opp_fives += 1;
                    sc.opp_five = p;
                }
                if mi.flags & FOURS_MASK != 0 {
                    sc.my_fours += 1;
                }
                if mi.flags & (FOUR_THREE | DOUBLE_THREE) != 0 {
                    sc.my_double += 1;
                }
                if oi.flags & (FOUR_THREE | DOUBLE_THREE | UNSTOPPABLE) != 0 {
                    sc.opp_double += 1;
                }
            }
            let order = match tab {
                Some(t) => {
                    t.me[c][sm.key() & (super::patterns::KEYS - 1)] as i32
                        + t.op[c][so.key() & (super::patterns::KEYS - 1)] as i32
                        + if near { t.near[c] as i32 } else { 0 }
                }
                None => mi.value + oi.value * 7 / 8 + if near { 2 } else { 0 },
            };
            out[len & (CAND_SLOTS - 1)] = Cand {
                mv: p,
                me: mi.flags,
                op: oi.flags,
                order,
            };
            ops |= oi.flags;
            len += 1;
        });
        self.cand_len[ply] = len.min(CAND_SLOTS);
        self.cand_ops[ply] = ops;
        sc
    }

    /// The candidates of `ply` of the last scan.
    #[inline]
    fn cands(&self, ply: usize) -> &[Cand] {
        &self.cands[ply][..self.cand_len[ply]]
    }

    /// The fives and fours of both sides from the kept point sets (no sums, no candidates).
    #[inline]
    fn quick_scan(e: &Engine) -> Scan {
        let me = e.side();
        let (tm, to) = (&e.b.threats[me.index()], &e.b.threats[me.other().index()]);
        Scan {
            my_five: tm.five.first(),
            opp_fives: to.five.count(),
            opp_five: to.five.first().unwrap_or(0),
            my_fours: tm.four.count(),
            ..Scan::default()
        }
    }

    fn evaluate(&self, e: &Engine, sc: &Scan) -> i32 {
        let v = if self.cfg.patterns {
            if self.cfg.avg2 {
                e.b.pattern_score_avg2(e.side())
            } else if self.cfg.open4_eval
                && e.renju
                && e.side() == Side::White
                && e.opp_open4(false)
                && !e.opp_open4(true)
            {
                e.b.pattern_score_no_open4(Side::White)
            } else {
                e.b.pattern_score(e.side())
            }
            .clamp(-300_000, 300_000)
        } else if self.cfg.simple_eval {
            e.b.line_score(e.side()).clamp(-300_000, 300_000)
        } else {
            let mut v = e.b.shape_score(e.side());
            if sc.my_double > 0 {
                v += 1500;
            }
            v -= 400 * sc.opp_double.min(3) as i32;
            v += 40 * sc.my_fours.min(5) as i32;
            v.clamp(-300_000, 300_000)
        };
        v + hash_noise(e.hash(), self.cfg.seed, self.cfg.noise)
    }

    /// [`Config::sp`]'s static evaluation of the node: the learned pattern evaluation, averaged
    /// over two plies with [`StaticPrune::avg2`].
    fn static_eval(&self, e: &Engine) -> i32 {
        let me = e.side();
        let v = if self.cfg.sp.avg2 {
            e.b.pattern_score_avg2(me)
        } else {
            e.b.pattern_score(me)
        };
        v.clamp(-300_000, 300_000) + hash_noise(e.hash(), self.cfg.seed, self.cfg.noise)
    }

    /// Whether the opponent (not to move) threatens to win by an open four, a four-three or a
    /// three-three at one of the scanned points.
    fn opp_threat(&self, e: &Engine, ply: usize) -> bool {
        // (none at all unless some candidate has one: no pass over them then)
        let op = e.side().other();
        let flags = self.threat_flags();
        self.cand_ops[ply] & flags != 0
            && self
                .cands(ply)
                .iter()
                .any(|c| c.op & flags != 0 && e.allowed_for(op, c.mv))
    }

    /// The flags of an opponent's point that make it a threat to answer: an open four, two
    /// fours, a four-three, and with [`Config::prune33`] a three-three.
    #[inline]
    fn threat_flags(&self) -> u8 {
        UNSTOPPABLE | FOUR_THREE | if self.cfg.prune33 { DOUBLE_THREE } else { 0 }
    }

    /// The moves of a node, best first: `forced` alone, or the defences against a threat, or
    /// the best `width` candidates.
    fn node_moves(
        &mut self,
        e: &Engine,
        ply: usize,
        hash_move: Option<Move>,
        width: usize,
        out: &mut Vec<Move>,
    ) {
        out.clear();
        let defend = self.cfg.threats && self.opp_threat(e, ply);
        let mut list = std::mem::take(&mut self.order_buf);
        list.clear();
        // the exact answers to the threats, all of them; the wider filter if there are none
        if defend && self.cfg.prune {
            self.defence_moves(e, ply, hash_move, &mut list);
        }
        let allowed = |m| e.allowed(m);
        if !list.is_empty() {
            best_first(
                list.iter().copied(),
                usize::MAX,
                allowed,
                &mut self.top_buf,
                out,
            );
        } else {
            // (the history's bonus read from the table itself: the closure borrows only it)
            let side = e.side().index();
            let (hist, hmax) = (&self.history[side], self.history_max[side]);
            let use_hist = self.cfg.history && hmax > 0;
            let key = |c: &Cand| {
                let k = if Some(c.mv) == hash_move {
                    i32::MAX
                } else if use_hist {
                    let h = hist[c.mv as usize & (HISTORY_SLOTS - 1)] as i64;
                    c.order + (h * HISTORY_BONUS as i64 / hmax as i64) as i32
                } else {
                    c.order
                };
                (k, c.mv)
            };
            // (read from the scanned candidates, without a list of their own)
            let cands = &self.cands[ply][..self.cand_len[ply]];
            let top = &mut self.top_buf;
            if defend {
                let threat = |c: &&Cand| c.my_fours() > 0 || c.op_threat();
                best_first(
                    cands.iter().filter(threat).map(key),
                    width,
                    allowed,
                    top,
                    out,
                );
            } else {
                best_first(cands.iter().map(key), width, allowed, top, out);
            }
        }
        self.order_buf = list;
    }

    /// A leaf: the side to move's VCF (within the leaf budget), else the evaluation.
    fn leaf(&mut self, e: &mut Engine, sc: &Scan, ply: usize) -> i32 {
        if self.cfg.vcf_leaf > 0 && sc.my_fours > 0 {
            let mut budget = self.cfg.vcf_leaf;
            // the VCF reads no evaluation and takes back every stone it plays
            let kept = e.b.pause_line_score();
            let r = self.vcf(e, &mut budget, 12);
            e.b.resume_line_score(kept);
            if let Some((_, k)) = r {
                return MATE - (ply as i32 + k as i32);
            }
        }
        self.evaluate(e, sc)
    }

    fn pvs(
        &mut self,
        e: &mut Engine,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        node: Node,
    ) -> i32 {
        let (is_pv, cut) = (node == Node::Pv, node == Node::Cut);
        if self.enter_node() {
            return 0;
        }
        // the threats from the kept point sets; the candidate list only where it is needed
        let mut sc = Self::quick_scan(e);
        if sc.my_five.is_some() {
            return MATE - (ply as i32 + 1);
        }
        if sc.opp_fives >= 2 {
            return -(MATE - (ply as i32 + 2));
        }
        let forced = sc.opp_fives == 1;
        if forced && !e.allowed(sc.opp_five) {
            return -(MATE - (ply as i32 + 2));
        }
        if !forced
            && self.cfg.threats
            && let Some(w) = self.quick_win(e, ply)
        {
            return w;
        }
        // at a leaf the shape evaluation reads the counts of a full scan; the simple evaluation
        // reads none (the quick scan's stand)
        let leaf = ply >= MAX_PLY - 1 || (!forced && depth <= 0);
        if leaf && !self.cfg.simple_eval && !self.cfg.patterns {
            sc = self.scan(e, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(e, &sc);
        }
        if !forced && depth <= 0 {
            if self.cfg.qvcf {
                return self.qsearch(e, ply, alpha, beta, 0);
            }
            return self.leaf(e, &sc, ply);
        }
        let key = e.hash();
        let mut hash_move = None;
        // (Config::sp) the table's score where its bound makes it a better estimate
        let mut tt_hit = false;
        let mut tt_bound = None;
        if let Some(t) = self.tt.probe(key) {
            hash_move = t.mv;
            tt_hit = true;
            tt_bound = Some((from_tt(t.score, ply), t.bound));
            if !is_pv && t.depth as i32 >= depth {
                let s = from_tt(t.score, ply);
                match t.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let futility = self.cfg.futility && depth <= self.cfg.futility_depth;
        let razor = self.cfg.razor && depth <= 2;
        if (futility || razor)
            && !is_pv
            && !forced
            && alpha.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
        {
            // (bits of `Board::threat_mask`)
            let mask = e.b.threat_mask(e.side());
            if mask & (1 << 5 | 1 << 9 | 1 << 10) == 0 {
                // (the shape evaluation reads the counts of a full scan)
                if !self.cfg.simple_eval && !self.cfg.patterns {
                    sc = self.scan(e, ply);
                }
                let v = self.evaluate(e, &sc);
                if futility && v - self.cfg.futility_margin * depth >= beta {
                    return v;
                }
                let margin = if depth == 1 {
                    self.cfg.razor_margin
                } else {
                    self.cfg.razor_margin * 8 / 5
                };
                if razor && mask & (1 | 1 << 3 | 1 << 4) == 0 && v + margin < alpha {
                    if self.cfg.qvcf {
                        return self.qsearch(e, ply, alpha, alpha + 1, 0);
                    }
                    return self.leaf(e, &sc, ply);
                }
            }
        }
        // (Config::sp) the node's static evaluation, and the pruning by it
        let sp = self.cfg.sp;
        let mut improving = true;
        let mut fail_high = false;
        if sp.on() && self.cfg.patterns {
            let op = e.side().other();
            let parent = if ply >= 1 {
                self.seval[ply - 1]
            } else {
                NO_EVAL
            };
            let opp_open = !e.b.threats[op.index()].open.is_empty();
            if forced || opp_open {
                self.seval[ply] = if parent == NO_EVAL { NO_EVAL } else { -parent };
                improving = false;
                if sp.razor && opp_open && !forced && !is_pv && depth <= 2 && alpha > -MATE_BOUND {
                    return if self.cfg.qvcf {
                        self.qsearch(e, ply, alpha, alpha + 1, 0)
                    } else {
                        self.leaf(e, &sc, ply)
                    };
                }
            } else {
                let stat = self.static_eval(e);
                self.seval[ply] = stat;
                let before = if ply >= 2 {
                    self.seval[ply - 2]
                } else {
                    NO_EVAL
                };
                improving = before == NO_EVAL || stat > before;
                let mut eval = stat;
                if let Some((s, b)) = tt_bound
                    && s.abs() < MATE_BOUND
                    && match b {
                        Bound::Lower => s > eval,
                        Bound::Upper => s < eval,
                        Bound::Exact => true,
                    }
                {
                    eval = s;
                }
                if !is_pv {
                    if sp.razor
                        && depth <= 2
                        && alpha > -MATE_BOUND
                        && eval + StaticPrune::razor_margin(depth) < alpha
                    {
                        return if self.cfg.qvcf {
                            self.qsearch(e, ply, alpha, alpha + 1, 0)
                        } else {
                            self.leaf(e, &sc, ply)
                        };
                    }
                    let attacking = ply >= 4 && self.four_at[ply - 2] && self.four_at[ply - 4];
                    let margin = (sp.fut - 19 * (cut && !tt_hit) as i32)
                        * (depth - 1 - improving as i32).max(0);
                    if sp.fut > 0
                        && eval.abs() < MATE_BOUND
                        && beta > -MATE_BOUND
                        && !attacking
                        && eval - margin >= beta
                    {
                        return eval;
                    }
                    fail_high =
                        sp.fail_high && cut && eval >= beta + StaticPrune::fail_high_margin(depth);
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        if forced {
            // the quick scan's five: the only one
            moves.push(sc.opp_five);
        } else {
            // the candidates only now, after the table's cut-offs, and without the counts
            // (below the leaves nothing reads them)
            self.scan_with::<false>(e, ply);
            // narrower deeper down: the ordering by shape values is good enough there
            let width = if self.cfg.select {
                self.cfg.width + 8
            } else if self.cfg.threats {
                self.cfg.width.saturating_sub(2 * ply).max(7)
            } else {
                self.cfg.width + 4
            };
            self.node_moves(e, ply, hash_move, width, &mut moves);
        }
        if moves.is_empty() {
            self.moves[ply] = moves;
            return 0;
        }
        let child_depth = if forced && self.cfg.threats {
            depth
        } else {
            depth - 1
        };
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let (me, op) = (e.side(), e.side().other());
        // (with `select_defend` off, the answers to an opponent's threat are all searched, and
        // in full depth)
        let select = self.cfg.select
            && !forced
            && (self.cfg.select_defend || !(self.cfg.threats && self.opp_threat(e, ply)));
        let count_limit = if select && !is_pv {
            if sp.improving && !improving {
                select_count(depth) / 2
            } else {
                select_count(depth)
            }
        } else {
            usize::MAX
        };
        for (i, &m) in moves.iter().enumerate() {
            // (Config::select) enough moves off the principal variation once one does not lose
            if i >= count_limit && best > -MATE_BOUND {
                break;
            }
            // (Config::select) every move from the second one shallower by the depth and the
            // move count; (Config::lmr) late quiet moves (no four or three of either side on the
            // point) one ply shallower, two from the eighth on; searched again in full if they
            // beat alpha
            // (StaticPrune::fail_high) a ply less for a move that makes no four, a ply more for a
            // four after the side's own four
            let four = e.b.shape(me, m).max() >= B4;
            let child_depth = if !fail_high {
                child_depth
            } else if !four {
                child_depth - 1
            } else if ply >= 2 && self.four_at[ply - 2] {
                child_depth + 1
            } else {
                child_depth
            };
            let reduce = if select {
                if depth >= 2 && i >= 1 {
                    let important = e.b.shape(me, m).max() >= F3 || e.b.shape(op, m).max() >= F3;
                    let r = select_reduction(self.cfg.select_k, depth, i + 1, important, is_pv)
                        + if cut { self.cfg.cut_reduction } else { 0 };
                    // (at least one ply left)
                    r.min(child_depth - 1).max(0)
                } else {
                    0
                }
            } else if self.cfg.lmr && !forced && depth >= 3 && i >= 3 {
                let quiet = e.b.shape(me, m).max() < F3 && e.b.shape(op, m).max() < F3;
                if !quiet {
                    0
                } else if i >= 8 && depth >= 4 {
                    2
                } else {
                    1
                }
            } else {
                0
            };
            self.path[ply] = Some(m);
            self.four_at[ply] = four;
            let u = e.make(m);
            // (the cut nodes as Rapfi counts them: the first move of a cut node's child is one
            // of an all node and the other way round; a late move's reduced search expects a
            // cut)
            let late = i >= 1 && depth >= 2;
            let score = if i == 0 {
                -self.pvs(e, child_depth, ply + 1, -beta, -alpha, node.first_child())
            } else {
                let kind = if late || !cut { Node::Cut } else { Node::All };
                let mut s = -self.pvs(e, child_depth - reduce, ply + 1, -alpha - 1, -alpha, kind);
                if reduce > 0 && s > alpha && !self.stopped {
                    let kind = if cut { Node::All } else { Node::Cut };
                    s = -self.pvs(e, child_depth, ply + 1, -alpha - 1, -alpha, kind);
                }
                if s > alpha && s < beta && is_pv && !self.stopped {
                    s = -self.pvs(e, child_depth, ply + 1, -beta, -alpha, Node::Pv);
                }
                s
            };
            e.unmake(m, u);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if self.cfg.history && !forced && e.b.shape(me, m).max() < F3 {
                            self.history_cut(me, m, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth.max(0) as i16, bound);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Gomoku {
        Gomoku::from_text(text).unwrap()
    }

    /// Black's open three f9 g9 h9, White to move.
    pub(super) fn open_three(rule: GomokuRule) -> Gomoku {
        let mut g = Gomoku::new(15, rule);
        for t in ["f9", "h7", "g9", "j5", "h9", "m12", "c3"] {
            let m = g.parse_move(t).unwrap();
            g.make(m);
        }
        g
    }

    /// Searches [`open_three`] with `cfg` (depth-bound, a VCF budget at the root and for the
    /// defence), checks that the answer is a legal move on the three's row, and gives the
    /// nodes searched.
    fn answers_the_open_three(g: &Gomoku, cfg: Config, what: &str) -> u64 {
        let cfg = Config {
            time: None,
            vcf_root: 20_000,
            vcf_defend: 5_000,
            ..cfg
        };
        let mut s = Search::new(cfg, 4);
        let stop = Arc::new(AtomicBool::new(false));
        let m = s.think(g, &stop, &mut |_| {}).best.unwrap();
        let sq = move_square(m);
        assert!(g.is_legal(m), "{what}");
        assert!(sq.y == 8 && (3..=10).contains(&sq.x), "{what}: {sq:?}");
        s.nodes
    }

    #[test]
    fn late_move_reductions_keep_the_answer_to_an_open_three() {
        // with or without the reductions the answer is on the three's row
        for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
            let g = open_three(rule);
            for lmr in [false, true] {
                let cfg = Config {
                    lmr,
                    depth: Some(5),
                    ..Config::default()
                };
                answers_the_open_three(&g, cfg, &format!("{rule:?} lmr {lmr}"));
            }
        }
    }

    #[test]
    fn selectivity_keeps_the_answer_to_an_open_three_with_fewer_nodes() {
        // the learned evaluation at depth 7 with the pruning by threat type: with the
        // selectivity by depth (both rules) the answer is still on the three's row, and in
        // freestyle it searches fewer nodes than the fixed beam with its reductions
        for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
            let g = open_three(rule);
            let nodes: Vec<u64> = [false, true]
                .into_iter()
                .map(|select| {
                    let cfg = Config {
                        patterns: rule != GomokuRule::Renju,
                        lmr: true,
                        prune: true,
                        select,
                        depth: Some(7),
                        ..Config::default()
                    };
                    answers_the_open_three(&g, cfg, &format!("{rule:?} select {select}"))
                })
                .collect();
            if rule == GomokuRule::Freestyle {
                assert!(nodes[1] < nodes[0], "{nodes:?}");
            }
        }
    }

    #[test]
    fn learned_ordering_puts_the_open_four_first_and_keeps_the_answer_to_an_open_three() {
        // `gomocup`'s search with the learned ordering still answers the open three on its row
        for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
            let cfg = Config {
                patterns: rule != GomokuRule::Renju,
                lmr: true,
                prune: true,
                select: true,
                order: true,
                depth: Some(7),
                ..Config::default()
            };
            answers_the_open_three(&open_three(rule), cfg, &format!("{rule:?} order"));
            // Black to move with the open three: the learned score ranks a point of the open
            // four (e9 or i9) first among the candidates, where the shape values of the plain
            // ordering would too
            let mut g = open_three(rule);
            g.make(g.parse_move("a15").unwrap());
            let e = Engine::new(&g);
            let mut s = Search::new(Config::default(), 1);
            for tab in [
                None,
                Some(super::super::patterns::OrderTables::for_rule(rule)),
            ] {
                s.order_tab = tab;
                s.scan(&e, 0);
                let best = s.cands(0).iter().max_by_key(|c| c.order).unwrap().mv;
                let name = g.move_to_text(best);
                assert!(
                    name == "e9" || name == "i9",
                    "{rule:?} learned {}: {name}",
                    tab.is_some()
                );
            }
        }
    }

    #[test]
    fn select_counts_and_reductions() {
        // 3 + depth^1.32 moves; no reduction for the first moves or at depth 1, more for later
        // moves and deeper nodes, less for threats and on the principal variation
        assert_eq!(
            (1..=8).map(select_count).collect::<Vec<_>>(),
            [4, 5, 7, 9, 11, 13, 16, 18]
        );
        assert_eq!(select_reduction(100, 1, 30, false, false), 0);
        assert_eq!(select_reduction(100, 8, 1, false, false), 0);
        assert!(
            select_reduction(100, 8, 20, false, false) > select_reduction(100, 4, 20, false, false)
        );
        assert!(
            select_reduction(100, 8, 20, false, false) > select_reduction(100, 8, 5, false, false)
        );
        assert_eq!(
            select_reduction(100, 8, 20, true, true) + 2,
            select_reduction(100, 8, 20, false, false)
        );
    }

    #[test]
    fn history_orders_quiet_points_that_cut_off_first() {
        // a quiet opening position: a search with the history on records the cut-offs of
        // quiet moves; a point given the largest history comes first among the quiet points
        // (not above a better-shaped one by more than the bonus), and only with the history on
        let g = pos("15 freestyle 15/15/15/15/15/15/6o8/7x7/7xo6/15/15/15/15/15/15 x");
        let stop = Arc::new(AtomicBool::new(false));
        let cfg = Config {
            history: true,
            depth: Some(5),
            time: None,
            ..Config::default()
        };
        let mut s = Search::new(cfg.clone(), 1);
        s.think(&g, &stop, &mut |_| {});
        assert!(s.history_max.iter().any(|&m| m > 0), "no cut-off recorded");
        let e = Engine::new(&g);
        let first = |history: bool, boost: Option<Move>| -> (Move, Vec<Move>) {
            let mut s = Search::new(
                Config {
                    history,
                    ..cfg.clone()
                },
                1,
            );
            s.scan(&e, 0);
            let mut out = Vec::new();
            s.node_moves(&e, 0, None, 40, &mut out);
            if let Some(b) = boost {
                let side = e.side().index();
                s.history[side][b as usize] = 1000;
                s.history_max[side] = 1000;
                s.node_moves(&e, 0, None, 40, &mut out);
            }
            (out[0], out)
        };
        let (_, plain) = first(true, None);
        // the last of the listed points whose ordering score is within the bonus of the best
        s.scan(&e, 0);
        let order = |m: Move| s.cands(0).iter().find(|c| c.mv == m).unwrap().order;
        let top = order(plain[0]);
        let late = *plain
            .iter()
            .rev()
            .find(|&&m| order(m) + HISTORY_BONUS > top && m != plain[0])
            .expect("a point close to the best");
        assert_eq!(first(true, Some(late)).0, late);
        assert_eq!(first(false, Some(late)).0, plain[0]);
    }

    #[test]
    fn futility_pruning_and_razoring_save_nodes_and_keep_the_answer_to_an_open_three() {
        // the learned evaluation at depth 6 (the beam with its reductions) and 8 (the
        // selectivity by depth): the answer is on the three's row with and without the
        // futility pruning and the razoring, and each of them changes the search (with the
        // beam: fewer nodes)
        let g = open_three(GomokuRule::Freestyle);
        for select in [false, true] {
            let nodes: Vec<u64> = [(false, false), (true, false), (false, true)]
                .into_iter()
                .map(|(futility, razor)| {
                    let cfg = Config {
                        patterns: true,
                        lmr: !select,
                        prune: true,
                        select,
                        futility,
                        razor,
                        depth: Some(if select { 8 } else { 6 }),
                        ..Config::default()
                    };
                    let what = format!("select {select} futility {futility} razor {razor}");
                    answers_the_open_three(&g, cfg, &what)
                })
                .collect();
            if select {
                // (here both search more: 18,767 nodes without, 21,988 and 38,129 with)
                assert!(
                    nodes[1] != nodes[0] && nodes[2] != nodes[0],
                    "select: {nodes:?}"
                );
            } else {
                assert!(
                    nodes[1] < nodes[0] && nodes[2] < nodes[0],
                    "beam: {nodes:?}"
                );
            }
        }
    }

    #[test]
    fn static_pruning_saves_nodes_and_keeps_the_answer_to_an_open_three() {
        // `gomocup`'s search at depth 9 in both rules: with each part of Rapfi's pruning by
        // the static evaluation, and with all of them, the answer is on the three's row and
        // the search takes fewer nodes
        assert_eq!(
            (StaticPrune::razor_margin(1), StaticPrune::razor_margin(2)),
            (53, 76)
        );
        assert_eq!(StaticPrune::fail_high_margin(4), 81);
        let fut = StaticPrune {
            fut: 101,
            ..StaticPrune::default()
        };
        let razor = StaticPrune {
            razor: true,
            ..StaticPrune::default()
        };
        let fail_high = StaticPrune {
            fail_high: true,
            ..StaticPrune::default()
        };
        let all = StaticPrune {
            fut: 101,
            razor: true,
            fail_high: true,
            improving: false,
            avg2: true,
        };
        for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
            let g = open_three(rule);
            let nodes: Vec<u64> = [StaticPrune::default(), fut, razor, fail_high, all]
                .into_iter()
                .map(|sp| {
                    assert_eq!(sp.on(), sp != StaticPrune::default());
                    let cfg = Config {
                        patterns: true,
                        prune: true,
                        select: true,
                        qvcf: true,
                        sp,
                        depth: Some(9),
                        ..Config::default()
                    };
                    answers_the_open_three(&g, cfg, &format!("{rule:?} {sp:?}"))
                })
                .collect();
            assert!(
                nodes[1..].iter().all(|&n| n < nodes[0]),
                "{rule:?}: {nodes:?}"
            );
        }
    }

    #[test]
    fn best_first_is_a_stable_sort_by_score_cut_to_the_width() {
        // random lists with many equal scores, random allowed moves and widths: the same
        // moves as a stable sort, best first, of the allowed moves, cut to the width
        let mut rng = crate::rng::Rng::new(31);
        let mut top = Vec::new();
        for round in 0..3000 {
            let len = rng.below(90) as usize;
            let spread = 1 + rng.below(12) as i32;
            let list: Vec<(i32, Move)> = (0..len)
                .map(|i| (rng.below(spread as u64) as i32 - 3, (i * 7 % 97) as Move))
                .collect();
            let banned = rng.below(5);
            let allowed = |m: Move| banned == 0 || m as u64 % 5 != banned;
            // (no limit, as for the answers to a threat, one time in eight)
            let width = match rng.below(30) as usize {
                w if w % 8 == 7 => usize::MAX,
                w => w,
            };
            let mut want: Vec<(i32, Move)> = list.clone();
            want.sort_by_key(|a| std::cmp::Reverse(a.0));
            let want: Vec<Move> = want
                .iter()
                .map(|a| a.1)
                .filter(|&m| allowed(m))
                .take(width)
                .collect();
            let mut got = vec![999];
            best_first(list.iter().copied(), width, allowed, &mut top, &mut got);
            assert_eq!(got[0], 999, "round {round}: out is appended to");
            assert_eq!(got[1..], want[..], "round {round}: {list:?} width {width}");
        }
    }

    #[test]
    fn engine_keeps_the_hash_and_side_of_the_position() {
        // random moves made and taken back on every rule: the engine's hash and side to move
        // are those of the position with the same moves, and once all are taken back the
        // position is the one it started from
        let mut rng = crate::rng::Rng::new(99);
        for rule in [
            GomokuRule::Freestyle,
            GomokuRule::Standard,
            GomokuRule::Renju,
        ] {
            let start = pos(&format!(
                "15 {} 15/15/15/15/15/15/6o8/7x7/7xo6/15/15/15/15/15/15 x",
                rule.name()
            ));
            let mut e = Engine::new(&start);
            let mut g = start.clone();
            let mut played = Vec::new();
            for i in 0..200 {
                if rng.below(3) == 0 && !played.is_empty() {
                    let (m, u, gu) = played.pop().unwrap();
                    e.unmake(m, u);
                    g.unmake(gu);
                } else {
                    let m = (rng.below(15) * 32 + rng.below(15)) as Move;
                    if !e.b.is_empty(m) {
                        continue;
                    }
                    let u = e.make(m);
                    played.push((m, u, g.make_quiet(m)));
                }
                assert_eq!(
                    (e.hash(), e.side()),
                    (g.hash(), g.side_to_move()),
                    "{rule:?} {i}"
                );
            }
            while let Some((m, u, _)) = played.pop() {
                e.unmake(m, u);
            }
            assert!(e.g == start && e.hash() == start.hash() && e.side() == start.side_to_move());
        }
    }

    #[test]
    fn only_points_the_shapes_flag_can_be_forbidden() {
        // random crowded renju positions: every point forbidden for Black is one the board's
        // cheap filter flags (so the search, which asks the exact check only there, never
        // plays a forbidden point), and the filter spares the exact check at most points
        let mut rng = crate::rng::Rng::new(4501);
        let mut rnd = move |k: u64| rng.below(k);
        let (mut forbidden, mut flagged, mut empty) = (0, 0, 0);
        let mut kinds = std::collections::HashSet::new();
        for i in 0..3000 {
            let stones = 20 + rnd(60);
            let g = random_position(&mut rnd, 3 * i + 2, stones, 1, 13);
            let e = Engine::new(&g);
            for y in 0..15 {
                for x in 0..15 {
                    let sq = Square::new(x, y);
                    let m = move_at(sq);
                    if !e.b.is_empty(m) {
                        continue;
                    }
                    empty += 1;
                    let may = e.b.black_may_be_forbidden(m);
                    flagged += may as u32;
                    if let Some(f) = g.is_forbidden(sq) {
                        forbidden += 1;
                        kinds.insert(format!("{f:?}"));
                        assert!(may, "{f:?} at {} in {}", g.move_to_text(m), g.to_text());
                    }
                }
            }
        }
        assert!(forbidden > 300 && kinds.len() == 3, "{forbidden} {kinds:?}");
        assert!(flagged * 5 < empty, "{flagged} of {empty} flagged");
    }

    #[test]
    fn the_verified_best_move_leaves_the_opponent_no_vct() {
        // game 14 of session 45's freestyle match against Rapfi (seed 4511), White to move
        // after 11 stones: at depth 10 `gomocup`'s search without the check chose g10, after
        // which Black wins by a VCT (Qi's solver, 7,859 nodes); the check of each new best
        // root move (`Config::verify`) rejects it for a move after which the solvers find no
        // win of Black's
        let g = pos("15 freestyle 15/15/15/15/7ox6/7x7/6oxo6/5o2x6/5oxx7/15/15/15/15/15/15 o");
        let mut session = crate::engine::gomocup::Session::new();
        let mut sink = Vec::new();
        for line in ["START 15", "INFO rule 0", "INFO timeout_turn 1000"] {
            session.handle(line, &mut sink);
        }
        let gomocup = session.config();
        assert!(gomocup.verify > 0, "gomocup checks its best moves");
        // (the search this was found with: gomocup's freestyle search before session 50;
        // the `ab` search, gomocup's freestyle default since, with the check too)
        let base = Config {
            ab: false,
            history: false,
            prune33: true,
            ..gomocup.clone()
        };
        for (cfg, verify, lost) in [
            (&base, 0, true),
            (&base, base.verify, false),
            (&gomocup, gomocup.verify, false),
        ] {
            let cfg = Config {
                time: None,
                depth: Some(10),
                verify,
                ..cfg.clone()
            };
            let mut s = Search::new(cfg.clone(), 16);
            let best = s
                .think(&g, &Arc::new(AtomicBool::new(false)), &mut |_| {})
                .best
                .unwrap();
            let mut after = g.clone();
            after.make(best);
            let (vcf, _) =
                super::super::threat_search(&after, 1_000_000, |s, e, b| s.vcf(e, b, 60));
            let (vct, _) = super::super::threat_search(&after, 300_000, |s, e, b| s.vct(e, b, 8));
            assert_eq!(
                vcf.is_some() || vct.is_some(),
                lost,
                "verify {verify}, ab {}: {}",
                cfg.ab,
                g.move_to_text(best)
            );
        }
    }

    #[test]
    fn a_forbidden_double_four_point_is_no_open_four_threat() {
        // Black's e8 f8 g8 (d8 White) and h5 h6 h7 (h4 White): h8 makes two fours, the only
        // point where Black would have an open four or two fours. Under renju that point is
        // forbidden, so with `exact` Black, the opponent of White to move, has none.
        let text = |rule: &str| {
            format!("15 {rule} 14o/15/15/15/15/15/15/3oxxx8/7x7/7x7/7x7/7o7/15/15/o13o o")
        };
        let g = pos(&text("renju"));
        let h8 = g.parse_move("h8").unwrap();
        assert!(g.is_forbidden(move_square(h8)).is_some());
        let e = Engine::new(&g);
        assert_eq!(
            e.b.threats[Side::Black.index()]
                .open
                .iter()
                .collect::<Vec<_>>(),
            [h8]
        );
        assert!(e.opp_open4(false));
        assert!(!e.opp_open4(true));
        // and `Config::open4_eval` reads the threat weights without that point's bit
        assert_ne!(e.b.threat_mask(Side::White) & 1 << 10, 0);
        assert_ne!(
            e.b.pattern_score_no_open4(Side::White),
            e.b.pattern_score(Side::White)
        );
        let sc = Search::quick_scan(&e);
        for open4_eval in [false, true] {
            let cfg = Config {
                patterns: true,
                open4_eval,
                ..Config::default()
            };
            let want = if open4_eval {
                e.b.pattern_score_no_open4(Side::White)
            } else {
                e.b.pattern_score(Side::White)
            };
            assert_eq!(Search::new(cfg, 1).evaluate(&e, &sc), want);
        }
        // in freestyle the same point is Black's open four
        let e = Engine::new(&pos(&text("freestyle")));
        assert!(e.opp_open4(false) && e.opp_open4(true));
    }

    #[test]
    fn a_quiet_move_can_hold_against_three_three_points() {
        // game 10 of session 45's renju match against Rapfi (seed 4505), Black to move after
        // 16 stones: White's three-three points j4 and l5 are both stopped only by k8 and l8,
        // after which White wins; Black's g7 stops j4 alone, and once White takes l5, Black's
        // fours come first (Qi's solvers find no win of White's after g7; Rapfi as Black
        // played it and won). With the three-three points narrowing the moves
        // (`Config::prune33`) the search never tries g7 and counts Black lost
        let g = pos("15 renju 15/15/15/15/15/15/6x6o1/9x2x2/8x1xo3/7oxooo3/6x1oo5/8x6/15/15/15 x");
        let g7 = g.parse_move("g7").unwrap();
        let mut after = g.clone();
        after.make(g7);
        let (vcf, _) = super::super::threat_search(&after, 1_000_000, |s, e, b| s.vcf(e, b, 60));
        let (vct, _) = super::super::threat_search(&after, 300_000, |s, e, b| s.vct(e, b, 8));
        assert!(vcf.is_none() && vct.is_none(), "White wins after g7");
        let mut session = crate::engine::gomocup::Session::new();
        let mut sink = Vec::new();
        for line in ["START 15", "INFO rule 4", "INFO timeout_turn 1000"] {
            session.handle(line, &mut sink);
        }
        // (and with `Config::answer33` g7 answers them: it takes j4 away and makes Black's
        // split three g5 . g7 . g9)
        for (prune33, answer33) in [(true, false), (false, false), (true, true)] {
            let cfg = Config {
                time: None,
                depth: Some(10),
                prune33,
                answer33,
                ..session.config()
            };
            let t = Search::new(cfg, 16).think(&g, &Arc::new(AtomicBool::new(false)), &mut |_| {});
            let best = g.move_to_text(t.best.unwrap());
            if prune33 && !answer33 {
                assert!(t.score < -MATE_BOUND && best != "g7", "{best} {}", t.score);
            } else {
                assert!(
                    t.score > -MATE_BOUND && best == "g7",
                    "{prune33} {answer33}: {best} {}",
                    t.score
                );
            }
        }
    }

    #[test]
    fn engine_board_matches_position() {
        let g = pos("15 freestyle 15/15/15/15/15/15/6o8/7x7/7xo6/15/15/15/15/15/15 x");
        let e = Engine::new(&g);
        assert_eq!(e.b.stones, 4);
        assert_eq!(e.b.cell(move_at(Square::new(7, 7)) as usize), 1);
        assert_eq!(e.b.cell(move_at(Square::new(6, 8)) as usize), 2);
    }
}
