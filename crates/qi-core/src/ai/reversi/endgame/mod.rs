//! The exact Reversi endgame solver: the final disc difference with best play.
//!
//! Scores are from the side to move's view by the World Othello Federation rule (empty squares
//! go to the winner), so they are always even, from -64 to 64. [`Solver::solve`] runs
//! null-window probes (MTD(f)) from a first guess ([`Solver::estimate`], a shallow search on
//! the trained pattern evaluation, kept a little low): a probe with the window `(g - 1, g + 1)` says
//! whether the score is below, equal to or above the even value `g`, and fail-soft bounds move
//! `g` to the next probe; the table keeps one probe's work for the next. From 22 empties
//! two selective solves come first (since session 27, [`SolverOptions::pc_margin`]): the same
//! search, but at its nodes with 12 empties or more a 4-ply search on the pattern evaluation
//! that lands 4 discs (then 8) beyond the window stands for the node's result (ProbCut, after
//! Edax's iterative deepening by selectivity); their bounds are marked in the table by their
//! selectivity, a search takes only the moves of entries less exact than itself, and the last
//! selective score, less 2, is the exact search's first guess. Each probe is a
//! principal variation search on bitboards in layers:
//! - from 7 empties: moves generated from the mobility bitboard. The table's move (from 8
//!   empties, a table of bounds in two-entry buckets, one 64-byte cache line each, the entry
//!   with more empties kept first, on 2 MB pages where Linux allows it) is searched before
//!   the other moves are even ordered; from 9 empties each child's bucket is prefetched as
//!   the child is computed for the ordering;
//!   then, above 15 empties, the moves are ordered by a shallow search (1 ply at 16 empties, 2
//!   from 17, 3 from 19; exact only down to 16 discs below alpha; its own moves fastest first
//!   at 2 plies or more from its leaves) with the trained pattern
//!   evaluation at the leaves (its 46 instance indices kept up to date move by move,
//!   [`crate::ai::patterns::Features`], since session 21: FFO #47 in 6.70 G instructions
//!   instead of 7.77 G, the same nodes), less 2 discs per move the opponent has after ours (corners
//!   twice, [`SolverOptions::sort_mobility`]): the latest weights ([`crate::ai::patterns::PatternEval::trained`]) where the
//!   first guess is within 40 discs of a draw ([`SolverOptions::latest_within`]), round one's
//!   ([`crate::ai::patterns::PatternEval::round_one`]) beyond. Session 20: with the latest
//!   (round four) weights FFO #40-#52 took 1.27 G nodes and 82.7 s of CPU against 1.49 G
//!   and 110.3 s with round one's (load about 3), but the wipeout #59 (+64, guess +50) took
//!   3.3 G nodes and 7 minutes against 1,354 nodes, as round two's had not ended within a
//!   minute: their weights value lopsided positions poorly. Before the pattern evaluation
//!   the hand-made one of [`crate::ai::reversi::ReversiWeights`] ordered; up to 15
//!   empties fastest-first (the opponent's mobility after the move, corners counted twice, then
//!   own stable corner discs, the opponent's potential mobility, parity and a value per
//!   square); the next move is
//!   picked from the list when needed rather than sorting it, as most nodes cut on their first
//!   move. Enhanced transposition cutoffs from 11 empties; a stability cut (see
//!   [`SolverOptions`]; the opponent's disc count is tested first, as it bounds its stable
//!   discs);
//! - at 5 and 6 empties: no move generation; the empty squares are kept in a small list in
//!   square-priority order and tried in parity order (squares in quadrants with an odd number
//!   of empties first, the order read from a table by the list's odd-quadrant bits); five
//!   empties in a routine of their own that calls the one for four directly;
//! - at 4 and 3 empties: functions with the squares unrolled (odd quadrants first), the
//!   stability cut at 4, the one for 3 not inlined into the one for 4; at 2 and 1: functions that only count flipped discs for the last move,
//!   the last one by four table look-ups (each line through the square projected on a byte by
//!   a multiplication, then a table of flip counts by position and byte).
//!
//! Flipped discs come from the rays of the square: where the processor has AVX2 the four
//! directions of increasing square index in one 256-bit register and the four others in a
//! second, with a shift count per lane ([`simd`]; move generation the same way), else one
//! function per square with the rays as constants, called through a table ([`bits`]). The
//! build targets x86-64-v2, so the choice is made at run time: the search, the shallow search
//! and the last four empties are built three times (generic over the choice, [`simd::level`]),
//! once with AVX2 enabled so that those routines are inlined there, and once with AVX-512 (F,
//! VL, CD, BW, with BMI1, BMI2 and LZCNT) where the flips of the downward rays are found by a
//! leading-zero count per lane and the masks combined by ternary logic (after Edax's
//! flip_avx512cd). The search honours a stop flag and a deadline; a stopped search returns
//! `None`.
//!
//! The code: this file has the options, the solver, the null-window driver and the search from
//! 7 empties; [`last`] the search below; [`table`] the table of bounds; [`order`] the ordering
//! searches; [`bits`] and [`simd`] the bitboard routines.
//!
//! With [`Solver::threads`] above 1 the solve is shared (young brothers wait): at a node with
//! [`SolverOptions::split_min`] empties or more (and at the root) whose first move did not cut, a
//! free thread is started on the remaining moves, both threads taking the next move from the list;
//! a cut found by either raises a flag that stops the other's part. A thread that waits for its
//! helper lends its place to any split below. All threads share the table, whose entries are
//! written and read without locks (three words each, checked on reading). On FFO #40-#49 (64 MB
//! table, `qi-engine ffo --threads 2`): 30.2 s wall and 59.6 s of CPU for 783.8 M nodes, against
//! 57.3 s wall (54.9 s CPU, 696.6 M nodes) on one thread, a speed-up of 1.9 for 12% more nodes
//! (load average 1.4-1.8 during the one-thread run, 2.4-2.7 during the two-thread one, of which 2
//! were its own threads). One thread solves exactly as before the split code (the same node
//! counts).
//!
//! All of FFO #40-#59 solved exactly with this version (commit "Reversi patterns trained on
//! 11,400 self-play games"; `qi-engine ffo --hash 256` runs the same benchmark, on any range
//! of the positions): the `ffo` example, 256 MB table, one thread a position, two or three
//! solver processes side by side on the 2-core machine (at times with tests and matches
//! besides), so the CPU times of the solving threads are inflated by the sharing; nodes are
//! those with 2 or more empties (the ordering searches are not counted):
//!
//! | FFO | 40 | 41 | 42 | 43 | 44 | 45 | 46 | 47 | 48 | 49 |
//! |---|---|---|---|---|---|---|---|---|---|---|
//! | move, score | a2 +38 | h4 +0 | g2 +6 | c7 -12 | b8 -14 | b2 +6 | b3 -8 | g2 +4 | f6 +28 | e1 +16 |
//! | CPU s | 0.6 | 1.3 | 1.5 | 2.8 | 1.5 | 23.8 | 7.6 | 2.0 | 13.0 | 36.2 |
//! | M nodes | 7 | 14 | 19 | 21 | 11 | 216 | 65 | 13 | 88 | 235 |
//!
//! | FFO | 50 | 51 | 52 | 53 | 54 | 55 | 56 | 57 | 58 | 59 |
//! |---|---|---|---|---|---|---|---|---|---|---|
//! | move, score | d8 +10 | a3 +6 | a3 +0 | d8 -2 | c7 -2 | b7 +0 | h5 +2 | a6 -10 | g1 +4 | g8 +64 |
//! | CPU s | 90.8 | 36.1 | 37.9 | 446.0 | 513.5 | 1668.2 | 269.5 | 540.9 | 421.5 | 0.03 |
//! | M nodes | 395 | 243 | 246 | 3547 | 4111 | 13062 | 1327 | 3824 | 2408 | 0.002 |
//!
//! Total: **4115 s of CPU (68.6 minutes), 29.85 G nodes**, every move and score right. The
//! previous version (hand-made ordering evaluation, ordering searches from 12 empties, probes
//! from a draw) took 532 s for #40-#53 under another load, 1115 s for #54, and was stopped on
//! #55 after 2576 s. On the quiet machine #40-#45 took 32.1 s and 289 M nodes with this
//! version, 34.9 s and 334 M with the hand-made evaluation at the same settings and 40.7 s and
//! 337 M with the previous settings.
//!
//! The speed-per-node work of issue 20 (AVX2 flips and moves, see below) left the trees as
//! they were (the same nodes to the unit) and was not run on all twenty. `qi-engine ffo
//! --threads 1` (64 MB table), this build and then the build of main before it, one after the
//! other at load 8.6-9.3, each process getting a quarter to a half of a core (so both CPU times
//! are inflated against the table above):
//!
//! | FFO | 40 | 41 | 42 | 43 | 44 | 45 | 46 | 47 | 48 | 49 | total |
//! |---|---|---|---|---|---|---|---|---|---|---|---|
//! | CPU s, this build | 0.53 | 1.07 | 1.24 | 1.93 | 0.99 | 16.11 | 5.70 | 1.56 | 10.54 | 22.17 | 61.8 |
//! | CPU s, main | 0.79 | 1.50 | 1.92 | 3.09 | 1.52 | 24.36 | 7.23 | 1.92 | 14.18 | 35.25 | 91.8 |
//!
//! That is 11.3 M nodes/s against 7.6 M, 1.49 times as fast (a `cargo check` of this branch ran
//! beside the first three minutes of this build's run, none beside main's). On #50-#52 (load 8.6-9.9, a
//! build running beside both), the same 899.8 M nodes: this build 65.4, 25.9 and 23.6 s (114.9 s,
//! 7.8 M nodes/s), main 96.4, 34.5 and 33.6 s (164.5 s, 5.5 M nodes/s), 1.43 times as fast.
//! #53 alone (load 7.7-8.6, a build beside it): 3.60 G nodes (64 MB table), 310.7 s, 11.6 M
//! nodes/s; main was not run again.
//!
//! All twenty again with this build (session 12, `qi-engine ffo --from 40 --to 59 --threads 1
//! --hash 256`, load 1.4-3.8): every move and score right, the same 29.85 G nodes, **2,776.7 s
//! of CPU** (10.7 M nodes/s; #53 307.7 s, #54 335.8 s, #55 1,098.9 s, #56 194.9 s, #57 378.1 s,
//! #58 290.5 s), 1.48 times as fast as the 4,115 s above; the README has the table.
//!
//! What was tried here, on load-independent counts where the clock was too noisy (the same
//! binary's CPU time on #40-#44 varied from 10.1 to 13.6 s between runs):
//! - the last-move count by line look-ups, selection instead of sorting and the disc-count test
//!   before the stability cut took the instructions for #40 from 5.29 G to 5.06 G (valgrind's
//!   cachegrind), 508 to 487 per node counted; no change in the CPU time could be told apart
//!   from the noise;
//! - a `perf` profile of #43 put a third of the time in the search above 6 empties on the
//!   table's probe (a cache and TLB miss each); with the table on 2 MB pages that share fell
//!   from 15% to 10% of all samples. Prefetching children's buckets while ordering moved the
//!   stall to the prefetch rather than removing it, and was left out;
//! - a 256 MB table: #49 in 347 M nodes instead of 362 M, the same CPU time; ordering searches 4
//!   plies deep from 22 empties: 356 M nodes, the same time; null-window probes that step
//!   further after two failures on the same side: +4% nodes on #40-#44 and #47 (#40 -14%,
//!   #43 +14%, #47 +12%); ordering by the opponent's mobility and parity alone at 7 and 8
//!   empties: 0.7% fewer instructions, not kept;
//! - per empties (QI_STATS): at the levels where the null-window search expects a cut, 96-98%
//!   of the nodes that cut do so on the first move, and the tree grows by 2.7 (at 7-9
//!   empties) to 7.8 (at 19-21) every two plies, so the trees are close to minimal for this
//!   ordering; a perfect first guess of the score saves 5% of the nodes on #45 and 19% on
//!   #40-#44.
//! - speed per node (issue 20, `perf` profiles of #43 and #45 with the old build: 49% of the
//!   time in the search from 7 empties, of which a quarter waiting on the table, 19% at 4 to 1
//!   empties, 15% at 5 and 6, 9% in the pattern evaluation of the ordering searches; flipping
//!   discs, spread over all of them, was then 29% once it had a function of its own): the
//!   branch-free ray scans, then per-square functions (#40-#44 from 8.0-8.8 s of CPU to
//!   6.6-7.6 s, load 8-9), then AVX2 flips and moves (5.6-5.7 s, load 5), inlined (#45-#46
//!   21-22 s against 22-24 s); the bucket prefetched at a node's entry and all the children's
//!   before the transposition cutoff, which spread the wait without removing it (a third of the
//!   search's time is still the table's). Unchanged by all this: the nodes, to the unit;
//! - with the per-square flips (the `ffo` example, load 6-8): the table from 9 empties instead
//!   of 8 (+8% nodes, 6.6-7.2 s of CPU on #40-#44 against 6.8 s) and the list search at 7
//!   empties (`QI_SHALLOW=7`: +20% nodes, 7.4-7.8 s against 7.9 s): neither kept.
//!
//! Session 14 (issue 20 again; callgrind instruction counts, which do not depend on the load,
//! and `qi-engine ffo --from 40 --to 49 --threads 1`, 64 MB table, against the build before,
//! one after the other):
//! - the pattern evaluation of the ordering searches read its 46 instances from four boards
//!   (the position, its vertical flip, its transpose, that flipped) with rows read either way
//!   through a second ternary table, instead of eight boards of which four bit-reversed, and
//!   added the weights as it went; its mobility by the AVX2 routine: the same values (a test
//!   compares the sums), #47 from 9.86 G to 7.81 G instructions (the evaluation had been half
//!   of them); #40-#49 57.1 s of CPU against 63.6 s (load 4.3-5.3), the same 696.6 M nodes.
//! - the ordering searches with a window ([`SolverOptions::sort_window`], after Edax): from
//!   the child's side values above 16 discs below the node's alpha (ours) need not be exact,
//!   so the replies to a bad move stop at the first that shows it bad. #47 from 7.81 G to
//!   7.01 G instructions (13.13 M nodes instead of 13.14 M); #40-#49 697.9 M nodes (+0.2%),
//!   58.8 and 50.6 s of CPU against 58.5 and 57.8 s for the build before, runs alternated
//!   (load 5.0-6.2). Windows of 8 and 12 discs: 715.8 M and 708.7 M nodes; 20: 696.7 M; 24
//!   on #47: 7.19 G instructions.
//! - the ordering searches built twice like the search (AVX2 flips and moves inlined, the
//!   evaluation's mobility too): #47 from 7.00 G to 6.81 G instructions; the parity of the
//!   move ordering by four population counts instead of a walk over the empties: 6.79 G. The
//!   same nodes.
//! - with the ordering searches cheaper, from 16 empties (1 ply there) instead of 17
//!   (`QI_SORT=15 QI_D2=17` in the `ffo` example): #40-#49 643.0 M nodes instead of 697.9 M
//!   (-7.9%), #43, #44 and #47 21.64 G instructions instead of 21.89 G; the example's CPU
//!   time 46.3 and 49.0 s against 50.6 s (load 4.7-5.1). Tried besides: 2 plies at 16
//!   (`QI_SORT=15`): 626.2 M nodes but 23.73 G instructions, 51.4 and 53.7 s; from 15
//!   empties (`QI_SORT=14 QI_D2=17`): 631.7 M nodes, 52.2 s; 3 plies from 18 (with the
//!   kept settings): 625.2 M nodes, 24.64 G instructions, 48.1 s. `qi-engine ffo` against
//!   the build before, alternated (load 5.6-6.8): 47.1 and 49.1 s against 45.1 and 53.6 s,
//!   no difference the noise lets one see.
//! - fastest-first ordering with a small preference by square (Edax's table of square values,
//!   0-18, below the parity bonus of 16 and the other terms): #40-#49 629.6 M nodes instead
//!   of 643.0 M (-2.1%), #43-#44 14.79 G instructions instead of 14.92 G; `qi-engine ffo`
//!   alternated (load 4.7-5.3): 47.1 and 42.5 s against 45.5 and 42.1 s. Tried besides: a
//!   parity bonus of 8 (629.8 M nodes), corners counted twice in the potential mobility
//!   (628.7 M): not kept.
//!
//! All of session 14 against the build before it (commit 072004c's solver), `qi-engine ffo
//! --threads 1`, alternated, load 1.9-2.6: #40-#49 **629.6 M nodes, 44.9 and 47.6 s of CPU**
//! against 696.6 M nodes, 51.2 and 52.7 s (-11%); #50-#52 (load 2.1-3.6) 864.0 M nodes and
//! 81.6 s against 899.8 M and 101.5 s (-20%), every result right.
//!
//! Branch solver-speed (speed on one thread; an AMD EPYC machine, 2 cores, other work beside: load
//! 2-3). A `perf` profile of #45 (cpu-clock sampling; no hardware counters in this virtual
//! machine): 44% of the time in the search from 7 empties, of which about 40% on the
//! instructions that wait for the node's table bucket right after the prefetch at its entry
//! (17% of all samples); 26% in the four-to-one-empties routines (last4 with last3, last2
//! and last1 inlined: 42.7 kB of code, more than the instruction cache), 17% at 5 and 6
//! empties, 7% in the ordering searches (25% on #51, a bigger tree), 3% in the stable
//! discs. Kept, `qi-engine ffo --from 40 --to 49 --threads 1` alternated with the build
//! before:
//! - three empties in parity order (as Edax's solve_3) and not inlined: 626.2 M nodes
//!   instead of 629.6 M, 34.9 and 34.9 s of CPU against 37.5 and 37.6 s; cachegrind on #47:
//!   4.3 k I1 misses instead of 4.46 M, 1.6% more instructions;
//! - the children's buckets prefetched while the moves are ordered (from 9 empties): the
//!   same nodes, 32.0 and 32.6 s against 34.6 and 34.6 s.
//!
//! Together against main's build: #40-#49 32.4 and 31.6 s against 34.6 and 35.8 s (-9%);
//! #50-#52 859.9 M nodes against 864.0 M, 72.2 s against 73.0 s (one pair, load 1.9-2.8),
//! no gain the noise lets one see: there the ordering searches take a quarter of the time.
//!
//! All twenty with this build (`qi-engine ffo --from 40 --to 59 --threads 1 --hash 256`,
//! load 1.9-3.1): every move and score right, **27.71 G nodes, 1,708.6 s of CPU** (16.2 M
//! nodes/s; #53 201.5 s, #54 224.0 s, #55 719.1 s, #56 102.4 s, #57 219.4 s, #58 137.0 s;
//! session 12's 2,776.7 s was another machine, and before session 14's smaller trees).
//!
//! Tried and not kept (the `ffo` example, on #40-#49 unless said): before the changes above,
//! the table from 9 empties (674.6 M nodes, 38.9 s against 42.0 s, load 1.7-2.4) and the list search at 7 empties (747.0 M, 38.7 s), neither clearly better;
//! the prefetch with the T1 or NTA hint instead of T0 (#45 and #49: 21.8-24.0 s and
//! 21.0-22.2 s against 21.4 s twice); the transposition cutoff from 9 empties (610.3 M
//! nodes, -2.5%, but #45 and #49 in 20.4-22.0 s against 20.5-22.1 s); the last move with
//! Edax's lazy cut (the opponent's flips counted only when the score without them is above
//! alpha): 0.17% fewer instructions on #47; on #50-#52, 3 plies of ordering search from 18
//! or 20 empties instead of 19 (845.8 M and 884.0 M nodes against 859.9 M, 61.2 and 61.1 s
//! against 65.7 s, single runs inside the noise).
//!
//! Session 23 (`qi-engine ffo --threads 1 --hash 256`, runs of two builds alternated on one
//! core while a helper's match used the other, load 2-4; CPU times of one build varied by up
//! to 20% between runs, 46-63 s on #50-#52). A `perf` profile of #49-#52: the search from 7
//! empties 46% (of it a quarter on the instruction after the prefetch of the children's
//! buckets, a tenth on the node's probe and a twelfth on the transposition cutoff's), the
//! ordering searches 21%, three empties (with two and one inlined) 12%, five and six 12%,
//! four 4%, the stable discs 4%; a 16 MB table gives 7% more nodes a second than 256 MB,
//! so the table's wait is not the lever it seemed. Kept: the search below 11 empties
//! (neither ordering searches, transposition cutoff nor splits there) in an AVX2 function
//! of its own, the generic search built without that code (6.3 kB instead of 8.8 kB): the
//! same nodes, #51-#52 and #45-#49 about 3.5% less CPU (6 pairs of 7). Tried and not kept:
//! no prefetch of the children's buckets at 9 and 10 empties (where no transposition
//! cutoff probes them; #50-#52 50.4 and 47.3 s against 46.8 and 45.8 s); the table from 9
//! empties again (+5.7% nodes, no faster); the list search at 7 empties (+10% nodes on
//! #51-#52, the same time); the transposition cutoff after the first move instead of before
//! it (+20% nodes); fastest-first instead of the ordering search where the table's move
//! was searched first and did not cut (the same nodes, but those nodes order only 1-2% of
//! the moves ordered by search, 12% on #49: no time gained); fastest-first instead of the
//! ordering search at nodes expected to fail low by the parity of their depth (#49 7.4
//! times the nodes); the moves of the ordering searches by square class, corners first
//! (the same nodes, the same time); the side to move's stable discs as a lower bound (never
//! cut on #51-#52); the two-empties pass out of line (three empties' code 6.4 kB instead of
//! 10.9 kB, no time gained).
//!
//! Session 24 (`qi-engine ffo --threads 1 --hash 256`, two builds alternated on one core while
//! a helper's Gomoku match used the other, load 1.8-2.9; the same nodes unless said). A `perf`
//! profile of #49-#51: in the search at 7-10 empties 29% of its samples on the instruction
//! right after the prefetch of the children's buckets and 12% on the node's probe; in the one
//! from 11 empties 45% after that prefetch and 23% on the transposition cutoff's probes. The
//! prefetch itself waits (for the address translation, most likely: the table spans 256 MB; a
//! 2 MB table ran #45-#46 at 23.6 M nodes/s against 20.3 M, 32 MB at 23.1 M). Kept:
//! - the flips of all the moves first, each child's bucket requested as it is found, and only
//!   then the ordering work, so that the requests overlap: #45-#49 20.5 and 20.8 s against
//!   22.4 and 23.0 s, #50-#52 42.5 and 41.1 s against 46.8 and 43.9 s (-8%);
//! - the per-empties statistics only when asked ([`Solver::collect_stats`]) and the list of
//!   empty squares built in one word: no gain the noise lets one see (#45-#49 21.2 and 20.5 s
//!   against 22.6 and 20.4 s, #50-#52 42.1 s against 42.4 s);
//! - the ordering searches try their moves fastest first (the opponent's mobility, corners
//!   twice) at 2 plies or more from the leaves, so that the replies to the later moves cut
//!   sooner; their values are those of a plain negamax within their window, only bounds
//!   beyond it may differ: #50-#52 627.1 M nodes and 37.7 and 38.3 s against 629.1 M and 41.5
//!   and 40.9 s, #45-#49 404.1 M nodes and 19.2 s against 404.4 M and 20.7 s, #53 1.422 G
//!   nodes and 64.5 s against 1.423 G and 65.5 s.
//!
//! All twenty with these (`qi-engine ffo --from 40 --to 59 --threads 1 --hash 256`, load
//! 1.9-2.7, the Gomoku match on the other core): every move and score right, **14.41 G nodes,
//! 760.8 s of CPU** (18.9 M nodes/s; #53 64.0 s, #54 106.1 s, #55 356.8 s, #56 64.3 s, #57
//! 56.1 s, #58 51.4 s), against session 21's 861.9 s (load 0.3-2.0) and session 23's 916.2 s
//! (load 1.8-2.3): still 1.27 times the 600 s aimed at.
//!
//! Tried and not kept: the moves generated (and the children's buckets requested) before the
//! node's own probe (#45-#49 20.2 and 20.5 s against 20.4 and 20.8 s, #50-#52 42.2 and 43.3 s
//! against 41.0 and 41.8 s); the minor fastest-first terms (stable corners, potential mobility,
//! parity, square) computed only for the moves of least mobility until the first move fails
//! (#45-#49 22.5 and 21.5 s against 22.9 and 21.2 s, #50-#52 44.2 s against 41.2 s); the
//! fastest-first order in the ordering searches at 1 ply too, where the window is closed on
//! both sides (#50-#52 40.5 s against 37.7 s). With the `ffo` example on #45-#52 (one run
//! each, 1.034 G nodes and 61.9-67.7 s for the defaults over the session): the child's
//! evaluation alone (0 plies, [`SolverOptions::sort_depth1`]) at 16 empties, 1.053 G nodes
//! and 63.7 s, and also 1 ply at 17 and 2 from 18, 1.091 G and 62.4 s; the transposition
//! cutoff from 13 empties, 1.055 G nodes and 70.3-70.4 s against 66.0-67.7 s; the fastest-first
//! search at 6 empties instead of the list (`QI_SHALLOW=5`), 962.5 M nodes (-7%) but
//! 62.0-62.9 s against 61.9-63.3 s, and with the first move's child of a 7-empties node (most
//! likely to fail low) searched by the list even so, 990.8 M nodes and 61.8-62.3 s. After the
//! change to the ordering searches, on #45-#53: 3 plies from 18 empties 2.409 G nodes and
//! 128.6 s against 2.453 G and 124.1 s, 2 plies from 16 2.390 G and 142.3 s. An ordering
//! search is seldom repeated at the same position (0.5-10% of the calls on #45-#51 but #49,
//! 28% there), so a cache of ordering values would save little.
//!
//! Session 25 (`qi-engine ffo --threads 1 --hash 256`, two builds alternated on one core while
//! Gomoku matches, builds and a window test used the other, load 1.0-7.3; the same nodes
//! unless said). A `perf` profile of #49-#51: the search at 7-10 empties 32% (19% of its samples
//! on the instruction after the children's prefetch, 12% on the node's probe), the one from 11
//! empties 15% (32% after the children's prefetch, 22% on the transposition cutoff's probes),
//! the ordering searches 18%, five and six empties 11%, three 10%, the stable discs 6%, four
//! 4%. Kept: the AVX-512 build (see above): #45-#49 in 7 alternated pairs 19.7, 20.7, 19.6,
//! 19.3, 20.5, 21.1 and 17.9 s against 21.0, 21.3, 20.8, 20.9, 21.9, 23.3 and 20.5 s (-6%;
//! enabling the AVX-512 features with the AVX2 flips kept would have given part of it, not
//! measured apart); #50-#52 40.8 and 41.6 s against 43.4 and 40.9 s. All twenty with it
//! (load 2.3-3.7, 1.0-2.3 during #56-#59): every move and score right, **14.41 G nodes,
//! 743.7 s of CPU** (19.4 M nodes/s; #53 68.7 s, #54 105.8 s, #55 356.3 s, #56 55.5 s, #57
//! 48.1 s, #58 48.1 s) against session 24's 760.8 s at load 1.9-2.7.
//!
//! Tried and not kept: a second, small table for the nodes with few empties (so that their
//! probes and prefetches stay within a few pages and the cache; the big table above them), on
//! #45-#49 (404.1 M nodes and 20.6-21.7 s without it over the runs): 4 MB up to 10 empties
//! 416.0 M nodes and 22.7 s, 16 MB up to 10 410.2 M and 20.3-23.2 s, 8 MB up to 10 413.1 M and
//! 20.7-20.8 s, 16 MB up to 11 413.0 M and 20.1-20.8 s, 32 MB up to 11 409.0 M and 20.1-20.2
//! s, 4 MB up to 9 410.8 M and 22.3 s; with the AVX-512 build, 2 MB up to 9 412.1 M nodes and
//! 18.7-19.0 s against 19.1-20.3 s, 2 MB up to 10 418.7 M and 18.5-19.5 s, 1 MB up to 9
//! 413.3 M and 18.8-19.3 s; on #50-#52 2 MB up to 9 634.1 M nodes (+1.1%) and 38.4 and 38.2
//! s against 38.7 and 39.8 s, up to 10 639.3 M and 38.9 and 37.7 s; on #45-#52, three pairs,
//! 2 MB up to 9 1.046 G nodes and 60.8, 58.4 and 58.1 s against 1.031 G and 55.9, 59.5 and
//! 58.3 s. The nodes a second gained are spent on the nodes added.
//!
//! Session 26 (`qi-engine ffo --threads 1 --hash 256`, two builds alternated on one core while
//! other work used the other, load 1.2-2.8; the same nodes unless said). Branch mispredictions,
//! counted by callgrind's branch simulation on #47 (the AVX2 build; its instruction counts do
//! not depend on the load), were the lever found. Kept:
//! - the list search's moves in parity order by a table of orders ([`last`]'s `PARITY_ORDER`,
//!   by the bits of the list's odd-quadrant entries) instead of two passes with a branch per
//!   square, the same for the four empties' order, and the children of five empties straight
//!   to the four-empties routine: #47 40.3 M mispredictions instead of 45.0 M, 0.2% more
//!   instructions; #45-#49 17.8, 17.4 and 17.6 s of CPU against 18.1, 17.9 and 18.1 s
//!   (-2.4%);
//! - five empties in a routine of their own (no branch per move on the children's routine)
//!   and the best-move selection (the search's and the ordering searches') by conditional
//!   moves: #47 35.9 M mispredictions and 6.026 G instructions instead of 40.3 M and
//!   6.062 G.
//!
//! Together against session 25's build: #45-#52 51.6 and 52.9 s against 53.2 and 53.4 s
//! (-1.9%). All twenty (`qi-engine ffo --from 40 --to 59 --threads 1 --hash 256`, each build
//! once, one after the other): every move and score right, the same **14.41 G nodes, 644.7 s
//! of CPU** (22.3 M nodes/s, load 2.1-2.8; #53 57.1 s, #54 92.6 s, #55 300.1 s, #56 51.7 s,
//! #57 45.0 s, #58 44.1 s) against 689.3 s for session 25's build (20.9 M nodes/s, load
//! 1.5-2.0; #55 321.7 s): -6.5%, every position faster but #59 (no time). Session 25's
//! 743.7 s was under a heavier load. Still 1.07 times the 600 s aimed at.
//!
//! Tried and not kept:
//! - a prediction of each node's kind passed down the search (an expected cut's first child
//!   searched is an expected failure low, its other children and all those of an expected
//!   failure low are expected cuts, a pass swaps the kind): on #45, 98-99% of the nodes that
//!   cut at 8 and 10 empties were expected to, and 1.6% of the others cut. Used for, on
//!   #45-#49 (404.1 M nodes and 18.1-19.7 s without): the transposition cutoff only at
//!   expected cuts, 405.0 M nodes and 18.0-18.9 s; the moves of expected failures low up to
//!   10 empties by parity and square value alone, 416.0 M nodes and 19.0 s (with both,
//!   416.9 M and 18.0-18.7 s); fastest-first instead of the ordering search at expected
//!   failures low up to 18 empties, 409.5 M nodes, or at all, 426.9 M (18.1 and 18.6 s;
//!   #50-#52 630.4 M nodes and 35.1 s, up to 20 without the cutoff at failures low 635.9 M
//!   and 35.4 s, against 627.1 M and 35.2 s); only the best child so far prefetched while
//!   the moves of an expected cut up to 10 empties are scored (19.0 and 18.5 s against 18.4
//!   and 18.1 s); fastest-first instead of the list at expected cuts with 6 empties (through
//!   the search: 384.9 M nodes, -4.8%, 18.3, 18.4, 18.0 and 17.9 s against 18.6, 18.2, 18.5
//!   and 18.2 s; #50-#52 588.8 M, -6.1%, 34.6 s against 35.1 s; #45-#52 973.8 M, 52.9 and 58.0
//!   s against 1.031 G, 53.3 and 55.4 s; inside the list search 382.0 M nodes, 19.6 and 18.4
//!   s against 18.4 and 18.4 s; from 5 empties 355.9 M, -12%, but 20.0 and 20.9 s; with the
//!   list at 7 empties for expected failures low 386.8 M and 18.2 s; the fastest-first order
//!   without the potential mobility and corner stability there, the same). The nodes saved
//!   near the leaves are cheap ones, and the ordering costs what they save.
//! - first guesses on #52 (score 0, guess -6): probes from -6, -4, -2, 0 and +2 took 181.5,
//!   175.6, 173.7, 177.6 and 182.5 M nodes: not a lever;
//! - the legal moves as a bitboard in the list search (one branch a square instead of two):
//!   #47 35.1 M mispredictions but 1.2% more instructions; the list of empties by one pass
//!   placing each square (no loop per class): 0.6 M fewer mispredictions, 0.5% more
//!   instructions; the ordering searches' feature update adding the flipped discs two at a
//!   time: 1.0 M fewer mispredictions, 2.6% more instructions; at three and four empties the
//!   flips computed without the neighbour test first in the SIMD builds (one branch a square
//!   instead of two): #45-#49 17.9, 17.4 and 17.4 s against 18.6, 18.2 and 17.1 s, but #45-#52
//!   52.0 and 53.1 s against 51.5 and 51.3 s (load 2.0-2.6).
//!
//! Session 27 (a new machine: 2 cores of an AMD EPYC with AVX-512 VBMI; `qi-engine ffo
//! --threads 1 --hash 256`, Go matches and builds of another engineer on the other core, load
//! 2.5-6). Main's build on all twenty: every move and score right, the same 14.41 G nodes,
//! **554.3 s of CPU** (load 3.7-5.2; #53 48.1 s, #54 80.0 s, #55 258.3 s, #56 44.1 s, #57
//! 39.8 s, #58 36.9 s): this machine alone takes the set below 600 s. Kept: the selective
//! solves before the exact one (see the top). They put moves in the table for the nodes from
//! 12 empties and bounds below 12 (exact there: no cut in those subtrees), so that the exact
//! search visits far fewer nodes, and they give it a first guess close to the score. On
//! #53 (the `ffo` example, 256 MB): 801 M nodes (of them 41 M in the selective solves) and
//! 29.8-31.0 s against 1.42 G and 47.8-48.1 s; #55 5.10 G nodes and 193.4 s against 6.86 G
//! and 258.3 s; #40-#54 and #56-#58 231.3 s against 296.0 s (load 4-6). Settings, on #53,
//! #56 and #58 together (1.721 G nodes and 86.1-86.2 s with the kept ones, against 3.031 G and
//! 128.4 s without selective solves, load 2.5-5): margins 2, 4 and 8 (three solves)
//! 1.718 G and 85.3 s; 3 then 6, 1.953 G and 93.5 s; 5 then 10, 1.729 G and 86.8 s; the cut
//! from 11 empties 1.725 G and 86.6 s, from 13 or 14 1.758 G and 1.768 G, 87.9 and 87.2 s
//! against 86.0 s (load 3.0-3.7); 3-ply tests 1.724 G and 86.7 s; the exact search's guess
//! at the selective score 1.717 G and 85.8 s, 4 below it 1.945 G and 94.9 s. On #53
//! alone: 2-ply tests 1.23 G nodes and 41.9 s; 6-ply 814 M nodes but 65.5 s (the tests cost
//! more than they save); a third solve with margin 16 790 M nodes and 34.1 s, a fourth with 32
//! 1.00 G and 64.1 s; a single solve with margin 16 or 24 (without the cheaper ones first)
//! 951 M and 1.19 G nodes, 40.8 and 41.6 s; before the bounds were marked by selectivity
//! (those of a narrower margin taken as they were by the wider one) 980 M nodes and 35.0 s.
//! Tried and not kept: the test on one side only, chosen by the static evaluation, with a
//! null window, and its result stored in the table: 1.728 G nodes and 83.8 and 86.0 s against
//! 86.1 s; 6-ply tests from 18 or 20 empties (4 below), 1.818 G and 1.746 G nodes, 92.3 and
//! 88.7 s against 87.2 s (load 3.1). The selective solves make the nodes a second fall (16-17 M on #56 and #58 against
//! 19-21 M): their 4-ply tests are not counted as nodes, and the nodes they save are cheap.
//!
//! All twenty with the selective solves, then main's build right after (`qi-engine ffo --from
//! 40 --to 59 --threads 1 --hash 256`, load 2.9-3.1 for both): every move and score right,
//! **10.87 G nodes, 441.5 s of CPU** (24.6 M nodes/s; #53 30.3 s, #54 71.1 s, #55 202.3 s,
//! #56 25.2 s, #57 38.4 s, #58 30.6 s) against 14.41 G nodes and 554.0 s (#53 48.3 s, #54
//! 79.3 s, #55 256.6 s, #56 44.5 s, #57 40.2 s, #58 37.3 s): -20%. #43 took more nodes (24.3 M
//! against 20.3 M), the others fewer or the same.
//!
//! This is far from the few seconds of the strongest programs: #55 alone takes over 3 minutes.
//! Those programs order with an evaluation trained on far more (and exact) data, fill the
//! table with selective (ProbCut) searches of increasing depth before the exact search, and
//! visit about twice as many nodes a second. Here the pattern evaluation's phases above 20
//! empties were fitted to game results only and are the weakest part; the evaluation also
//! costs about 2.5 times the hand-made one (a quarter of the time when ordering from 12
//! empties, hence ordering searches only above 16).

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::ai::patterns::{Features, PatternEval};
use crate::reversi::{PASS, Reversi};

mod bits;
mod last;
mod order;
mod simd;
mod table;

use bits::*;
pub use bits::{final_score, flips, stable_discs};
use last::*;
use order::*;
/// The squares where `p` may play against `o` (AVX2 where the processor has it).
pub use simd::moves as fast_mobility;
use simd::moves as mobility;
use table::*;

/// Where the solver switches techniques, by number of empty squares. The defaults were
/// chosen by timing FFO #40-#59 (see the `ffo` example, which reads them from the environment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverOptions {
    /// At this many empties and fewer (at most 7) the solver walks a list of empty squares.
    pub shallow: u32,
    /// From this many empties the table is used.
    pub tt_min: u32,
    /// From this many empties children are probed in the table before they are searched
    /// (enhanced transposition cutoff).
    pub etc_min: u32,
    /// Above this many empties moves are ordered by a shallow search instead of mobility.
    pub sort_search: u32,
    /// From this many empties the ordering search looks 1 ply deep (below, the child's
    /// evaluation alone).
    pub sort_depth1: u32,
    /// From this many empties the ordering search looks 2 plies deep (else 1).
    pub sort_depth2: u32,
    /// From this many empties the ordering search looks 3 plies deep.
    pub sort_depth3: u32,
    /// From this many empties a node's moves after the first may be shared between threads
    /// (with [`Solver::threads`] above 1).
    pub split_min: u32,
    /// Weight of the opponent's mobility in the ordering by shallow search (hundredths of a
    /// disc a move, corners twice). Session 20, with the latest weights ordering, FFO #40-#52
    /// in nodes: 50 1.38 G, 100 1.27 G, 150 1.17 G, 200 1.11 G, 250 1.11 G, 300 1.16 G, 400
    /// 1.24 G, 600 1.45 G (CPU 71-75 s from 150 to 250 against 82.7 s at 100, load 2-3).
    pub sort_mobility: i32,
    /// Leaves of the ordering search use the midgame evaluation instead of mobility alone.
    pub sort_full_eval: bool,
    /// That midgame evaluation is the trained pattern evaluation
    /// ([`crate::ai::patterns::PatternEval`]) rather than the hand-made one.
    pub sort_patterns: bool,
    /// Leaves with more empties than this use the hand-made evaluation even so (the pattern
    /// weights of the early phases were fitted to noisier targets).
    pub pattern_max_empties: u32,
    /// The ordering searches only tell apart moves down to this many discs below the node's
    /// alpha (a window that lets the others fail); 0 for a full window.
    pub sort_window: i32,
    /// The ordering searches use the latest trained weights ([`crate::ai::patterns::PatternEval::trained`]) when
    /// the first guess ([`Solver::estimate`], on round one's) lies within this many discs of
    /// a draw, and round one's beyond (0: round one's always). See [`Solver::solve_mtd`].
    pub latest_within: i32,
    /// The ordering searches on the patterns keep the instance indices up to date move by
    /// move ([`Features`]) rather than reading them from the boards at every leaf (the same
    /// values).
    pub incremental: bool,
    /// Before the exact search, a selective one fills the table with moves (0: none): at its
    /// nodes with [`SolverOptions::pc_min`] empties or more a shallow search on the pattern
    /// evaluation ([`SolverOptions::pc_depth`] plies) that lands this many discs beyond the
    /// window is taken as the search's result (ProbCut). Its bounds are kept apart in the
    /// table (the exact search takes only their moves), and its score is the exact search's
    /// first guess.
    pub pc_margin: i32,
    /// From this many empties the selective search cuts (at least 11: fewer empties are
    /// searched without the table's selective marks).
    pub pc_min: u32,
    /// Selective searches before the exact one, the margin doubled at each.
    pub pc_levels: u32,
    /// The plies of the selective search's test.
    pub pc_depth: u32,
    /// The selective search runs from this many empties at the root.
    pub pc_root: u32,
    /// The exact search's first guess is the selective score less this.
    pub pc_guess: i32,
}

impl Default for SolverOptions {
    fn default() -> SolverOptions {
        SolverOptions {
            shallow: 6,
            tt_min: 8,
            etc_min: 11,
            sort_search: 15,
            sort_depth1: 16,
            sort_depth2: 17,
            sort_depth3: 19,
            split_min: 12,
            sort_mobility: 200,
            sort_full_eval: true,
            sort_patterns: true,
            pattern_max_empties: 64,
            sort_window: 16,
            latest_within: 40,
            incremental: true,
            pc_margin: 4,
            pc_min: 12,
            pc_levels: 2,
            pc_depth: 4,
            pc_root: 22,
            pc_guess: 2,
        }
    }
}
const INF_SORT: i32 = 1 << 20;
/// Nodes between checks of the stop flag and the clock.
const CHECK_EVERY: u64 = 1 << 16;
/// The same when several threads solve: a cut found by one thread stops the others sooner.
const CHECK_EVERY_SPLIT: u64 = 1 << 10;

/// An endgame solver with its own table; reuse it between positions. With
/// [`Solver::threads`] above 1 the solve is shared between threads (young brothers wait: a
/// node's first move is searched alone, the others by every thread free at that moment).
pub struct Solver {
    pub options: SolverOptions,
    /// Threads to solve with (1 by default).
    pub threads: usize,
    table: Arc<Table>,
    pub nodes: u64,
    /// Per number of empties (from 7, the nodes with a move list): nodes, nodes that cut,
    /// cuts on the first move searched, nodes with more than one move, and the sum of the
    /// indices of the cutting moves. Never reset by the solver; only kept with
    /// [`Solver::collect_stats`].
    pub stats: Vec<[u64; 5]>,
    /// Keep [`Solver::stats`] (off by default: a branch instead of memory updates at every
    /// node).
    pub collect_stats: bool,
    /// Nodes split between threads in the last solve.
    pub splits: u64,
    next_check: u64,
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    stopped: bool,
    /// Threads free to help (shared by all the threads of one solve).
    idle: Arc<AtomicIsize>,
    /// The flags of the split points this thread works under: any one raised (a cut found by
    /// another thread) ends this thread's part.
    aborts: Vec<Arc<AtomicBool>>,
    /// The build of the search that runs ([`simd::level`]: AVX-512 or AVX2 where the
    /// processor has them; the tests choose the others to check them).
    simd: u8,
    /// The ordering searches of this solve use the latest weights (see
    /// [`SolverOptions::latest_within`]).
    latest: bool,
    /// The selectivity of the search that runs (0: exact; see [`SolverOptions::pc_margin`]).
    selective: u8,
}

/// What the threads working on one split node share.
struct SplitPoint {
    /// The next move of the list to hand out.
    next: AtomicUsize,
    /// The best score so far and its move.
    best: Mutex<(i32, u8)>,
    /// Raised on a cut: the other threads stop their part.
    abort: Arc<AtomicBool>,
}

/// An exact result: the best move (`PASS` if the side must pass, `None` if the game is over)
/// and the final disc difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    pub best: Option<u8>,
    pub score: i32,
}

/// A move with its flipped discs and its ordering score (higher first).
#[derive(Clone, Copy, Default)]
struct Candidate {
    score: i32,
    sq: u8,
    flips: u64,
}

/// Moves the best-scored candidate of `list[i..]` to `list[i]` and returns it.
#[inline(always)]
fn select_best(list: &mut [Candidate], i: usize) -> Candidate {
    // without a branch per candidate (conditional moves: the comparisons mispredicted often)
    let (mut b, mut best) = (i, list[i].score);
    for (j, c) in list.iter().enumerate().skip(i + 1) {
        let better = c.score > best;
        b = if better { j } else { b };
        best = if better { c.score } else { best };
    }
    list.swap(i, b);
    list[i]
}

impl Solver {
    /// A solver whose table takes about `mb` megabytes (1 to
    /// [`crate::search::tt::MAX_HASH_MB`]; a larger request is cut to that).
    pub fn new(mb: usize) -> Solver {
        let mb = mb.clamp(1, crate::search::tt::MAX_HASH_MB);
        let n = (mb * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(512);
        Solver {
            options: SolverOptions::default(),
            threads: 1,
            table: Arc::new(Table {
                buckets: Table::buckets(n),
            }),
            nodes: 0,
            stats: vec![[0; 5]; 65],
            collect_stats: false,
            splits: 0,
            next_check: CHECK_EVERY,
            stop: None,
            deadline: None,
            stopped: false,
            idle: Arc::new(AtomicIsize::new(0)),
            aborts: Vec::new(),
            simd: simd::level(),
            latest: false,
            selective: 0,
        }
    }

    /// A solver for a helping thread: the same table, options, stop flag and deadline, and the
    /// split flags it works under.
    fn helper(&self, aborts: Vec<Arc<AtomicBool>>) -> Solver {
        Solver {
            options: self.options,
            threads: self.threads,
            table: self.table.clone(),
            nodes: 0,
            stats: vec![[0; 5]; 65],
            collect_stats: self.collect_stats,
            splits: 0,
            next_check: 0,
            stop: self.stop.clone(),
            deadline: self.deadline,
            stopped: false,
            idle: self.idle.clone(),
            aborts,
            simd: self.simd,
            latest: self.latest,
            selective: self.selective,
        }
    }

    pub fn clear(&mut self) {
        for b in &self.table.buckets {
            for e in &b.e {
                for w in &e.w {
                    w.store(0, Ordering::Relaxed);
                }
            }
        }
    }

    /// Solves `pos` exactly, or returns `None` if `stop` was raised or `deadline` passed first:
    /// null-window probes (see [`Solver::solve_mtd`]) from [`Solver::estimate`].
    pub fn solve(
        &mut self,
        pos: &Reversi,
        stop: Option<&Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        let guess = self.estimate(pos);
        let empties = 64 - (pos.own() | pos.opp()).count_ones();
        if self.options.pc_margin > 0 && empties >= self.options.pc_root {
            // selective searches first, of growing margins: moves in the table and a first
            // guess
            let (mut g, mut nodes) = (guess, 0);
            let options = self.options;
            for k in 0..options.pc_levels {
                self.options.pc_margin = options.pc_margin << k;
                self.selective = (options.pc_levels - k) as u8;
                let r = self.solve_mtd(pos, g, stop, deadline);
                self.selective = 0;
                self.options = options;
                nodes += self.nodes;
                let r = r?;
                g = r.score;
            }
            let exact = self.solve_mtd(pos, g - options.pc_guess, stop, deadline);
            self.nodes += nodes;
            return exact;
        }
        self.solve_mtd(pos, guess, stop, deadline)
    }

    /// A first guess of the score for the null-window probes: a shallow search (4 plies, 6
    /// from 24 empties) on the pattern evaluation, rounded to an even score, less 4; 0 when the
    /// options do not use the pattern evaluation or the position has `sort_search` empties or
    /// fewer. The guess is kept low on purpose: a probe above the score fails low, and that
    /// costs a refutation of every move at the root, while probes below it fail high on one
    /// move (FFO #45, score +6: probes at 10 and 8 took 129 M and 145 M nodes before the
    /// exact probe at 6; from 0, probes at 0, 2 and 4 took 60 M, 22 M and 43 M). On #40-#45 a
    /// guess 4 below the estimate took 261 M nodes, 2 below 280 M, the estimate itself 393 M.
    pub fn estimate(&self, pos: &Reversi) -> i32 {
        let (p, o) = (pos.own(), pos.opp());
        let empties = 64 - (p | o).count_ones();
        if !self.options.sort_patterns || empties <= self.options.sort_search {
            return 0;
        }
        let depth = if empties >= 24 { 6 } else { 4 };
        let (a, b) = (-INF_SORT, INF_SORT);
        let v = match self.simd {
            simd::AVX512 => {
                let leaf = self.leaf_eval::<{ simd::AVX512 }>(false);
                shallow_search_d::<{ simd::AVX512 }>(p, o, depth, a, b, leaf)
            }
            simd::AVX2 => {
                let leaf = self.leaf_eval::<{ simd::AVX2 }>(false);
                shallow_search_d::<{ simd::AVX2 }>(p, o, depth, a, b, leaf)
            }
            _ => {
                let leaf = self.leaf_eval::<{ simd::SCALAR }>(false);
                shallow_search_d::<{ simd::SCALAR }>(p, o, depth, a, b, leaf)
            }
        };
        // finished games score 1000 per disc, estimates 100 (and lie within ±6400)
        let discs = if v.abs() > 6500 { v / 1000 } else { v / 100 };
        ((discs - 4).clamp(-64, 64) / 2) * 2
    }

    /// Solves by null-window probes (MTD(f)) starting from the estimate `guess`; the table
    /// keeps the work of one probe for the next.
    pub fn solve_mtd(
        &mut self,
        pos: &Reversi,
        guess: i32,
        stop: Option<&Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        let (mut lo, mut hi) = (-64, 64);
        let mut g = (guess.clamp(-64, 64) / 2) * 2;
        self.latest = self.options.latest_within > 0 && g.abs() < self.options.latest_within;
        let mut best = None;
        let mut nodes = 0;
        loop {
            let r = self.solve_window(pos, g - 1, g + 1, stop, deadline)?;
            nodes += self.nodes;
            if r.best.is_none() {
                self.nodes = nodes;
                return Some(r);
            }
            if r.score < g {
                hi = r.score;
                g = r.score.max(lo);
            } else if r.score > g {
                lo = r.score;
                best = r.best;
                g = r.score.min(hi);
            } else {
                self.nodes = nodes;
                return Some(r);
            }
            if lo >= hi {
                if best.is_some() {
                    self.nodes = nodes;
                    return Some(Solution { best, score: lo });
                }
                // only upper bounds so far: one more probe at the score finds its move
                g = lo;
            }
        }
    }

    /// Win, draw or loss only (score 1, 0 or -1 from the side to move's view), by one search
    /// with the window (-1, 1): faster than the exact score. The move wins, or draws, when the
    /// position does; in a lost position it is only the first move tried. `None` if `stop` was
    /// raised or `deadline` passed first.
    pub fn solve_wld(
        &mut self,
        pos: &Reversi,
        stop: Option<&Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        // a window at the draw: a won position is cut by any win, a wipeout need not be found
        self.latest = self.options.latest_within > 0;
        let r = self.solve_window(pos, -1, 1, stop, deadline)?;
        Some(Solution {
            best: r.best,
            score: r.score.signum(),
        })
    }

    /// Solves with a window: the score is exact when it lies strictly inside `(alpha, beta)`,
    /// else a bound on the side the window was left.
    pub fn solve_window(
        &mut self,
        pos: &Reversi,
        alpha: i32,
        beta: i32,
        stop: Option<&Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        self.nodes = 0;
        self.splits = 0;
        self.next_check = 0;
        self.stop = stop.cloned();
        self.deadline = deadline;
        self.stopped = false;
        self.aborts.clear();
        self.idle
            .store(self.threads.max(1) as isize - 1, Ordering::Relaxed);
        self.check();
        if self.stopped {
            return None;
        }
        let (p, o) = (pos.own(), pos.opp());
        let moves = mobility(p, o);
        if moves == 0 {
            if mobility(o, p) == 0 {
                return Some(Solution {
                    best: None,
                    score: final_score(p, o),
                });
            }
            let s = -self.search(o, p, -beta, -alpha, true);
            return (!self.stopped).then_some(Solution {
                best: Some(PASS),
                score: s,
            });
        }
        let mut buf = [MaybeUninit::uninit(); 36];
        let list = self.order_moves::<{ simd::SCALAR }, true>(p, o, moves, alpha, &mut buf);
        let n = list.len();
        list[..n].sort_by_key(|c| -c.score);
        let mut best = list[0].sq;
        let mut a = alpha;
        let mut best_score = -65;
        for (i, c) in list[..n].iter().enumerate() {
            if i > 0 && n - i >= 2 && self.threads > 1 && self.claim_helper() {
                let (s, m) = self.split(p, o, &list[i..n], a, beta, best_score, best);
                if self.stopped {
                    return None;
                }
                best_score = s;
                best = m;
                break;
            }
            let (np, no) = (p | c.flips | (1u64 << c.sq), o & !c.flips);
            let s = if i == 0 {
                -self.search(no, np, -beta, -a, false)
            } else {
                let s = -self.search(no, np, -a - 1, -a, false);
                if s > a && s < beta && !self.stopped {
                    -self.search(no, np, -beta, -a, false)
                } else {
                    s
                }
            };
            if self.stopped {
                return None;
            }
            if s > best_score {
                best_score = s;
                best = c.sq;
                if s > a {
                    a = s;
                    if a >= beta {
                        break;
                    }
                }
            }
        }
        Some(Solution {
            best: Some(best),
            score: best_score,
        })
    }

    /// Fills `out` with the moves of `p` (given by the bitboard `moves`) with their flips and
    /// ordering scores (higher first; not sorted); returns them (the start of `out`, left
    /// uninitialised beyond: no clearing of the whole list at every node).
    #[inline(always)]
    fn order_moves<'a, const AVX: u8, const DEEP: bool>(
        &self,
        p: u64,
        o: u64,
        mut moves: u64,
        alpha: i32,
        out: &'a mut [MaybeUninit<Candidate>; 36],
    ) -> &'a mut [Candidate] {
        let empties = 64 - (p | o).count_ones();
        let by_search = DEEP && empties > self.options.sort_search;
        let parity = parity_of(!(p | o));
        // the ordering searches on the patterns alone keep their instance indices up to date
        let features = (by_search
            && self.options.sort_patterns
            && self.options.incremental
            && self.options.pattern_max_empties >= 60)
            .then(|| Features::new(p, o));
        // first the flips of every move and the children's buckets requested (the first child
        // searched probes its bucket soon after, and the transposition cutoff probes them all):
        // the requests overlap instead of each waiting behind the ordering work of a move
        let mut n = 0;
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips_g::<AVX>(p, o, sq);
            if empties > self.options.tt_min {
                self.prefetch(o & !f, p | f | (1u64 << sq));
            }
            out[n] = MaybeUninit::new(Candidate {
                score: 0,
                sq,
                flips: f,
            });
            n += 1;
        }
        // SAFETY: the first n entries were written just above, and MaybeUninit<Candidate> has
        // the layout of Candidate
        let list = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut Candidate, n) };
        for c in list.iter_mut() {
            let (sq, f) = (c.sq, c.flips);
            let (np, no) = (p | f | (1u64 << sq), o & !f);
            c.score = if by_search {
                // the opponent's value after a shallow search: lower is better for us
                let d = if empties >= self.options.sort_depth3 {
                    3
                } else if empties >= self.options.sort_depth2 {
                    2
                } else if empties >= self.options.sort_depth1 {
                    1
                } else {
                    0
                };
                // from the child's side: values above `cap` (moves more than `sort_window`
                // discs below alpha for us) need not be exact
                let cap = if self.options.sort_window > 0 {
                    (self.options.sort_window - alpha) * 100
                } else {
                    INF_SORT
                };
                let v = if let Some(fs) = &features {
                    let leaf = Incremental {
                        f: fs.play(sq, f, true),
                        first: false,
                        eval: self.pattern_eval(),
                    };
                    -shallow_search_d::<AVX>(no, np, d, -INF_SORT, cap, leaf)
                } else if self.options.sort_patterns {
                    -shallow_search_d::<AVX>(
                        no,
                        np,
                        d,
                        -INF_SORT,
                        cap,
                        self.leaf_eval::<AVX>(self.latest),
                    )
                } else if self.options.sort_full_eval {
                    -sort_search_full(no, np, d, -INF_SORT, INF_SORT)
                } else {
                    -sort_search(no, np, d, -INF_SORT, INF_SORT)
                };
                if self.options.sort_mobility != 0 {
                    let m = moves_g::<AVX>(no, np);
                    let wm = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
                    v - self.options.sort_mobility * wm
                } else {
                    v
                }
            } else {
                let m = moves_g::<AVX>(no, np);
                let wm = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
                let pot = (neighbours(np) & !(np | no)).count_ones() as i32;
                let mut s = (36 - wm) << 15;
                s += (corner_stability(np) as i32) << 11;
                s += (36 - pot) << 5;
                if parity & QUADRANT_ID[sq as usize] != 0 {
                    s += 1 << 4;
                }
                s + SQUARE_VALUE[sq as usize] as i32
            };
        }
        list
    }

    /// The pattern evaluation of this solve's ordering searches (see
    /// [`SolverOptions::latest_within`]).
    #[inline(always)]
    fn pattern_eval(&self) -> &'static PatternEval {
        if self.latest {
            PatternEval::trained()
        } else {
            PatternEval::round_one()
        }
    }

    /// The leaf evaluation of the ordering searches with the pattern evaluation: the latest
    /// weights or round one's.
    #[inline(always)]
    fn leaf_eval<const AVX: u8>(&self, latest: bool) -> impl Fn(u64, u64) -> i32 + Copy {
        let eval = if latest {
            crate::ai::patterns::PatternEval::trained()
        } else {
            crate::ai::patterns::PatternEval::round_one()
        };
        let max = self.options.pattern_max_empties;
        move |p: u64, o: u64| {
            if 64 - (p | o).count_ones() <= max {
                eval.evaluate_with(p, o, moves_g::<AVX>)
            } else {
                crate::ai::reversi::ReversiWeights::FULL.evaluate(p, o)
            }
        }
    }

    /// Adds `v` to the statistic `k` of the nodes with `empties` empties (see
    /// [`Solver::stats`]), if they are kept.
    #[inline(always)]
    fn stat(&mut self, empties: u32, k: usize, v: u64) {
        if self.collect_stats {
            self.stats[empties as usize][k] += v;
        }
    }

    #[inline(always)]
    fn check(&mut self) {
        if self.nodes < self.next_check {
            return;
        }
        self.next_check = self.nodes
            + if self.threads > 1 {
                CHECK_EVERY_SPLIT
            } else {
                CHECK_EVERY
            };
        if self.raised() {
            self.stopped = true;
        }
    }

    /// The stop flag, the deadline or a split flag this thread works under is up.
    fn raised(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.aborts.iter().any(|a| a.load(Ordering::Relaxed))
    }

    /// The value of the position with `p` to move against `o`, within `(alpha, beta)`: the
    /// AVX-512 or AVX2 build of the search where the processor allows.
    #[inline(always)]
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        match self.simd {
            simd::AVX512 => self.search_d::<{ simd::AVX512 }>(p, o, alpha, beta, passed),
            simd::AVX2 => self.search_d::<{ simd::AVX2 }>(p, o, alpha, beta, passed),
            _ => self.search_d::<{ simd::SCALAR }>(p, o, alpha, beta, passed),
        }
    }

    /// [`Solver::search`] with the routines chosen (`AVX` a build the processor runs, see
    /// [`simd::level`]).
    #[inline(always)]
    fn search_d<const AVX: u8>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if AVX != simd::SCALAR {
            let empties = 64 - (p | o).count_ones();
            let opt = &self.options;
            let small = empties < opt.etc_min.min(opt.split_min).min(opt.sort_search + 1);
            // SAFETY: each SIMD build only runs where the processor has its instructions
            return unsafe {
                match (AVX == simd::AVX512, small) {
                    (true, true) => self.search_avx512_small(p, o, alpha, beta, passed),
                    (true, false) => self.search_avx512(p, o, alpha, beta, passed),
                    (false, true) => self.search_avx2_small(p, o, alpha, beta, passed),
                    (false, false) => self.search_avx2(p, o, alpha, beta, passed),
                }
            };
        }
        self.search_scalar(p, o, alpha, beta, passed)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd,avx512bw,bmi1,bmi2,lzcnt")]
    fn search_avx512(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.search_g::<{ simd::AVX512 }, true>(p, o, alpha, beta, passed)
    }

    /// [`Solver::search_avx2_small`] with AVX-512.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd,avx512bw,bmi1,bmi2,lzcnt")]
    fn search_avx512_small(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.search_g::<{ simd::AVX512 }, false>(p, o, alpha, beta, passed)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn search_avx2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.search_g::<{ simd::AVX2 }, true>(p, o, alpha, beta, passed)
    }

    /// The search below the ordering searches, the transposition cutoff and the splits:
    /// without their code, a smaller function.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn search_avx2_small(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.search_g::<{ simd::AVX2 }, false>(p, o, alpha, beta, passed)
    }

    #[inline(never)]
    fn search_scalar(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.search_g::<{ simd::SCALAR }, true>(p, o, alpha, beta, passed)
    }

    /// The search itself, from 7 empties (see [`Solver::search`]).
    #[inline(always)]
    fn search_g<const AVX: u8, const DEEP: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        passed: bool,
    ) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties <= self.options.shallow.min(7) {
            let (list, n, parity) = empty_list(!(p | o));
            return self.shallow_d::<AVX>(p, o, alpha, beta, &list, n, parity, passed);
        }
        let use_tt = empties >= self.options.tt_min;
        if use_tt {
            self.prefetch(p, o);
        }
        self.nodes += 1;
        self.stat(empties, 0, 1);
        self.check();
        if self.stopped {
            return 0;
        }
        // stability cut
        // (the opponent's discs bound its stable ones: a cheap test first)
        if alpha >= stability_threshold(empties) && 64 - 2 * (o.count_ones() as i32) < beta {
            let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
            if upper < beta {
                beta = upper;
            }
        }
        let moves = moves_g::<AVX>(p, o);
        if moves == 0 {
            if passed {
                return final_score(p, o);
            }
            return -self.search_d::<AVX>(o, p, -beta, -alpha, true);
        }
        let mut hash_move = None;
        // the selective search's results are marked as such in the table
        let sel = if DEEP && empties >= self.options.pc_min {
            self.selective
        } else {
            0
        };
        if use_tt && let Some(e) = self.probe(p, o) {
            // the exact search takes only the move of a selective entry
            if e.sel <= sel {
                let (lo, hi) = (e.lower as i32, e.upper as i32);
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                if lo == hi {
                    return lo;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
            hash_move = Some(e.mv);
        }
        if sel > 0 {
            // ProbCut: a shallow search well beyond the window stands for the search
            let t = self.options.pc_margin;
            let leaf = Incremental {
                f: Features::new(p, o),
                first: true,
                eval: self.pattern_eval(),
            };
            let (lo, hi) = ((alpha - t) * 100, (beta + t) * 100);
            let v = shallow_search_d::<AVX>(p, o, self.options.pc_depth, lo, hi, leaf);
            if v >= hi {
                return beta;
            }
            if v <= lo {
                return alpha;
            }
        }
        let orig_alpha = alpha;
        let mut best = -65;
        let mut best_move = 0u8;
        if moves & (moves - 1) == 0 {
            // a single move: no ordering needed
            let sq = moves.trailing_zeros() as u8;
            let f = flips_g::<AVX>(p, o, sq);
            best = -self.search_d::<AVX>(o & !f, p | f | (1u64 << sq), -beta, -alpha, false);
            best_move = sq;
        } else {
            let mut rest = moves;
            if let Some(hm) = hash_move.filter(|&m| m < 64 && moves >> m & 1 != 0) {
                // the table's move first, before the others are generated and ordered: a cut
                // here saves the ordering
                let f = flips_g::<AVX>(p, o, hm);
                best = -self.search_d::<AVX>(o & !f, p | f | (1u64 << hm), -beta, -alpha, false);
                if self.stopped {
                    return 0;
                }
                best_move = hm;
                rest &= !(1u64 << hm);
                if best > alpha {
                    alpha = best;
                    if best >= beta {
                        self.stat(empties, 1, 1);
                        self.stat(empties, 2, 1);
                        self.store(p, o, orig_alpha, beta, best, best_move, empties, sel);
                        return best;
                    }
                }
            }
            let mut buf = [MaybeUninit::uninit(); 36];
            let list = self.order_moves::<AVX, DEEP>(p, o, rest, alpha, &mut buf);
            let n = list.len();
            let searched = best > -65;
            if DEEP && empties >= self.options.etc_min {
                // enhanced transposition cutoff: a child already known to be good enough
                // (all the children's buckets were requested while ordering, so that the
                // misses overlap)
                for c in &list[..n] {
                    let (np, no) = (p | c.flips | (1u64 << c.sq), o & !c.flips);
                    if let Some(e) = self.probe(no, np)
                        && e.sel <= sel
                    {
                        let s = -(e.upper as i32);
                        if s >= beta {
                            if use_tt {
                                self.store(p, o, orig_alpha, beta, s, c.sq, empties, sel);
                            }
                            return s;
                        }
                    }
                }
            }
            for i in 0..n {
                if DEEP
                    && (i > 0 || searched)
                    && n - i >= 2
                    && empties >= self.options.split_min
                    && self.threads > 1
                    && self.claim_helper()
                {
                    // the first move did not cut: the others are shared between threads
                    list[i..n].sort_unstable_by_key(|c| -c.score);
                    let (s, m) = self.split(p, o, &list[i..n], alpha, beta, best, best_move);
                    if self.stopped {
                        return 0;
                    }
                    best = s;
                    best_move = m;
                    break;
                }
                // selection instead of a full sort: most nodes cut on their first move
                let c = select_best(&mut list[..n], i);
                let (np, no) = (p | c.flips | (1u64 << c.sq), o & !c.flips);
                let s = if i == 0 && !searched {
                    -self.search_d::<AVX>(no, np, -beta, -alpha, false)
                } else {
                    let s = -self.search_d::<AVX>(no, np, -alpha - 1, -alpha, false);
                    if s > alpha && s < beta && !self.stopped {
                        -self.search_d::<AVX>(no, np, -beta, -alpha, false)
                    } else {
                        s
                    }
                };
                if self.stopped {
                    return 0;
                }
                if s > best {
                    best = s;
                    best_move = c.sq;
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            self.stat(empties, 1, 1);
                            if i == 0 && !searched {
                                self.stat(empties, 2, 1);
                            }
                            self.stat(empties, 4, i as u64 + searched as u64);
                            break;
                        }
                    }
                }
            }
            self.stat(empties, 3, 1);
        }
        if self.stopped {
            return 0;
        }
        if use_tt {
            self.store(p, o, orig_alpha, beta, best, best_move, empties, sel);
        }
        best
    }

    /// Takes a free thread for a split, if there is one.
    #[inline(always)]
    fn claim_helper(&self) -> bool {
        let mut v = self.idle.load(Ordering::Relaxed);
        while v > 0 {
            match self
                .idle
                .compare_exchange_weak(v, v - 1, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return true,
                Err(x) => v = x,
            }
        }
        false
    }

    /// Searches the `moves` (ordered, none searched yet) of the node `p`, `o` with a helping
    /// thread (whose slot [`Solver::claim_helper`] took), both taking the next move from the
    /// list until it is empty or one finds a cut. `best` and `best_move` are what the node's
    /// moves searched before gave; returns the best score and its move. `self.stopped` tells
    /// afterwards whether the result is void (the stop flag, the deadline or a cut above).
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        p: u64,
        o: u64,
        moves: &[Candidate],
        alpha: i32,
        beta: i32,
        best: i32,
        best_move: u8,
    ) -> (i32, u8) {
        self.splits += 1;
        let sp = SplitPoint {
            next: AtomicUsize::new(0),
            best: Mutex::new((best, best_move)),
            abort: Arc::new(AtomicBool::new(false)),
        };
        self.aborts.push(sp.abort.clone());
        let mut helper = self.helper(self.aborts.clone());
        let idle = self.idle.clone();
        let helper = std::thread::scope(|scope| {
            let h = scope.spawn(|| {
                helper.split_work(p, o, moves, alpha, beta, &sp);
                helper.idle.fetch_add(1, Ordering::AcqRel);
                helper
            });
            self.split_work(p, o, moves, alpha, beta, &sp);
            // while waiting for the helper, this thread's slot is free for another split
            idle.fetch_add(1, Ordering::AcqRel);
            let helper = h.join().expect("a solver thread panicked");
            idle.fetch_sub(1, Ordering::AcqRel);
            helper
        });
        self.nodes += helper.nodes;
        self.splits += helper.splits;
        for (a, b) in self.stats.iter_mut().zip(&helper.stats) {
            for k in 0..5 {
                a[k] += b[k];
            }
        }
        self.aborts.pop();
        // a stop because of this split's own flag means a cut was found: the result stands
        self.stopped = self.raised();
        *sp.best.lock().expect("a solver thread panicked")
    }

    /// One thread's part of a split: the next move of the list until none is left or a
    /// thread finds a cut.
    fn split_work(
        &mut self,
        p: u64,
        o: u64,
        moves: &[Candidate],
        alpha: i32,
        beta: i32,
        sp: &SplitPoint,
    ) {
        loop {
            let i = sp.next.fetch_add(1, Ordering::Relaxed);
            if i >= moves.len() || self.stopped {
                return;
            }
            let c = moves[i];
            let a = sp
                .best
                .lock()
                .expect("a solver thread panicked")
                .0
                .max(alpha);
            if a >= beta {
                return;
            }
            let (np, no) = (p | c.flips | (1u64 << c.sq), o & !c.flips);
            let mut s = -self.search(no, np, -a - 1, -a, false);
            if s > a && s < beta && !self.stopped {
                s = -self.search(no, np, -beta, -a, false);
            }
            if self.stopped {
                return;
            }
            let mut b = sp.best.lock().expect("a solver thread panicked");
            if s > b.0 {
                *b = (s, c.sq);
                if s >= beta {
                    sp.abort.store(true, Ordering::Relaxed);
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// Plain minimax to the end of the game.
    fn minimax(pos: &mut Reversi) -> i32 {
        let mut v = Vec::new();
        pos.legal_moves(&mut v);
        if v.is_empty() {
            return final_score(pos.own(), pos.opp());
        }
        let mut best = -65;
        for m in v {
            let u = pos.make(m);
            best = best.max(-minimax(pos));
            pos.unmake(u);
        }
        best
    }

    fn random_endgame(seed: u64, empties: u32) -> Option<Reversi> {
        let mut rng = crate::search::Rng::new(seed);
        let mut pos = Reversi::start();
        let mut v = Vec::new();
        while 64 - (pos.discs[0] | pos.discs[1]).count_ones() > empties {
            pos.legal_moves(&mut v);
            if v.is_empty() {
                return None;
            }
            let m = v[rng.below(v.len() as u64) as usize];
            pos.make(m);
        }
        Some(pos)
    }

    #[test]
    fn ordering_search_with_features_equals_the_board_reading() {
        // the ordering searches with incremental features give the values of those that read
        // the patterns from the boards, at every depth they are used at, with and without AVX2
        let eval = PatternEval::trained();
        let leaf = |p: u64, o: u64| eval.evaluate(p, o);
        for seed in 0..40 {
            let Some(pos) = random_endgame(seed, 16 + (seed % 10) as u32) else {
                continue;
            };
            let (p, o) = (pos.own(), pos.opp());
            let inc = Incremental {
                f: Features::new(p, o),
                first: true,
                eval,
            };
            for depth in 0..=3 {
                for window in [(-INF_SORT, INF_SORT), (-300, 500)] {
                    let (a, b) = window;
                    let want = shallow_search_d::<{ simd::SCALAR }>(p, o, depth, a, b, leaf);
                    let got = shallow_search_d::<{ simd::SCALAR }>(p, o, depth, a, b, inc);
                    assert_eq!(got, want, "seed {seed} depth {depth}");
                    if simd::has_avx2() {
                        let got = shallow_search_d::<{ simd::AVX2 }>(p, o, depth, a, b, inc);
                        assert_eq!(got, want, "seed {seed} depth {depth} (AVX2)");
                    }
                    if simd::has_avx512() {
                        let got = shallow_search_d::<{ simd::AVX512 }>(p, o, depth, a, b, inc);
                        assert_eq!(got, want, "seed {seed} depth {depth} (AVX-512)");
                    }
                }
            }
        }
    }

    #[test]
    fn solver_equals_minimax_on_small_endgames() {
        let mut solver = Solver::new(4);
        let mut scalar = Solver::new(4);
        scalar.simd = simd::SCALAR;
        // the AVX2 build too where the processor also has AVX-512
        let mut avx2 = Solver::new(4);
        avx2.simd = simd::level().min(simd::AVX2);
        let mut checked = 0;
        let mut seed = 0;
        while checked < 150 {
            seed += 1;
            let empties = 4 + (seed % 7) as u32; // 4..=10: both the shallow and the table code
            let Some(pos) = random_endgame(seed, empties) else {
                continue;
            };
            let sol = solver.solve(&pos, None, None).unwrap();
            let mut q = pos;
            let exact = minimax(&mut q);
            assert_eq!(sol.score, exact, "{}", pos.to_text());
            // the build of the search without AVX2 as well
            scalar.clear();
            let s = scalar.solve(&pos, None, None).unwrap();
            assert_eq!(s.score, exact, "scalar: {}", pos.to_text());
            avx2.clear();
            let s = avx2.solve(&pos, None, None).unwrap();
            assert_eq!(s.score, exact, "AVX2: {}", pos.to_text());
            if let Some(m) = sol.best {
                let mut q = pos;
                q.play(m).unwrap();
                assert_eq!(-minimax(&mut q), exact, "move {m} in {}", pos.to_text());
            }
            // a null window around the score bounds it on the right side
            let lo = solver
                .solve_window(&pos, exact - 1, exact, None, None)
                .unwrap();
            assert!(lo.score >= exact);
            let hi = solver
                .solve_window(&pos, exact, exact + 1, None, None)
                .unwrap();
            assert!(hi.score <= exact);
            // null-window probes give the same result from any first guess
            for guess in [exact - 20, exact + 6, 64, -64] {
                let m = solver.solve_mtd(&pos, guess, None, None).unwrap();
                assert_eq!(m.score, exact, "guess {guess} in {}", pos.to_text());
                if let Some(mv) = m.best.filter(|&mv| mv != PASS) {
                    let mut q = pos;
                    q.play(mv).unwrap();
                    assert_eq!(-minimax(&mut q), exact, "move {mv} in {}", pos.to_text());
                }
            }
            checked += 1;
        }
    }

    /// The ordering searches take the latest weights where the first guess is near a draw and
    /// round one's in a lopsided position; both orderings give the exact score.
    #[test]
    fn ordering_weights_follow_the_first_guess() {
        let mut solver = Solver::new(1);
        let (mut near, mut far, mut seed) = (0, 0, 900);
        while near < 3 || far < 2 {
            seed += 1;
            let Some(pos) = random_endgame(seed, 17) else {
                continue;
            };
            let guess = solver.estimate(&pos);
            let exact = solver.solve_mtd(&pos, 0, None, None).unwrap().score;
            let sol = solver.solve(&pos, None, None).unwrap();
            assert_eq!(sol.score, exact, "seed {seed}");
            let g = (guess.clamp(-64, 64) / 2) * 2;
            assert_eq!(solver.latest, g.abs() < 40, "seed {seed}, guess {guess}");
            if solver.latest {
                near += 1;
            } else {
                far += 1;
            }
        }
        solver.options.latest_within = 0;
        let pos = random_endgame(901, 17).unwrap();
        solver.solve(&pos, None, None).unwrap();
        assert!(!solver.latest);
    }

    /// The three- and four-empties routines against minimax on random positions, with the
    /// squares in three orders, several windows, both builds (AVX2 where the processor has
    /// it): inside the window the exact score, outside a bound on the right side.
    #[test]
    fn last3_and_last4_equal_minimax() {
        let mut solver = Solver::new(1);
        let builds: Vec<u8> = (simd::SCALAR..=simd::level()).collect();
        let (mut checked, mut seed, mut passes) = (0, 5000, 0);
        while checked < 400 {
            seed += 1;
            let empties = 3 + (seed % 2) as u32;
            let Some(pos) = random_endgame(seed, empties) else {
                continue;
            };
            let exact = minimax(&mut pos.clone());
            let (p, o) = (pos.own(), pos.opp());
            if mobility(p, o) == 0 {
                passes += 1;
            }
            let sq: Vec<u8> = (0..64u8).filter(|&s| !(p | o) >> s & 1 == 1).collect();
            let orders: Vec<Vec<u8>> = if empties == 3 {
                vec![
                    vec![sq[0], sq[1], sq[2]],
                    vec![sq[2], sq[1], sq[0]],
                    vec![sq[1], sq[2], sq[0]],
                ]
            } else {
                vec![
                    vec![sq[0], sq[1], sq[2], sq[3]],
                    vec![sq[3], sq[2], sq[1], sq[0]],
                    vec![sq[1], sq[3], sq[0], sq[2]],
                ]
            };
            for &avx in &builds {
                for order in &orders {
                    for (a, b) in [
                        (-65, 65),
                        (exact - 1, exact + 1),
                        (exact, exact + 2),
                        (exact - 2, exact),
                        (exact + 5, exact + 7),
                        (exact - 9, exact - 7),
                    ] {
                        let o3 = [order[0], order[1], order[2]];
                        let o4 = [order[0], order[1], order[2], order[order.len() - 1]];
                        let s = match (empties, avx) {
                            (3, simd::AVX512) => {
                                solver.last3_d::<{ simd::AVX512 }>(p, o, a, b, o3, false)
                            }
                            (3, simd::AVX2) => {
                                solver.last3_d::<{ simd::AVX2 }>(p, o, a, b, o3, false)
                            }
                            (3, _) => solver.last3_d::<{ simd::SCALAR }>(p, o, a, b, o3, false),
                            (_, simd::AVX512) => {
                                solver.last4_d::<{ simd::AVX512 }>(p, o, a, b, o4, false)
                            }
                            (_, simd::AVX2) => {
                                solver.last4_d::<{ simd::AVX2 }>(p, o, a, b, o4, false)
                            }
                            (_, _) => solver.last4_d::<{ simd::SCALAR }>(p, o, a, b, o4, false),
                        };
                        let what = format!("{} {order:?} ({a}, {b}) avx {avx}", pos.to_text());
                        if s > a && s < b {
                            assert_eq!(s, exact, "{what}");
                        } else if s <= a {
                            assert!(exact <= s, "{s} {exact} {what}");
                        } else {
                            assert!(exact >= s, "{s} {exact} {what}");
                        }
                        if exact > a && exact < b {
                            assert_eq!(s, exact, "{what}");
                        }
                    }
                }
            }
            checked += 1;
        }
        assert!(passes > 0, "no position with a pass");
    }

    /// The selective searches before the exact one (here from 16 empties at the root, cutting
    /// from 11) leave the score exact, and the move one that keeps it.
    #[test]
    fn selective_searches_keep_the_solve_exact() {
        let mut plain = Solver::new(4);
        plain.options.pc_margin = 0;
        let mut sel = Solver::new(4);
        sel.options.pc_root = 16;
        sel.options.pc_min = 11;
        sel.options.pc_depth = 2;
        let (mut checked, mut seed) = (0, 3000);
        while checked < 12 {
            seed += 1;
            let Some(pos) = random_endgame(seed, 16 + (seed % 3) as u32) else {
                continue;
            };
            assert_solves_alike(&mut plain, &mut sel, &pos);
            checked += 1;
        }
    }

    /// `other` gives `reference`'s exact score for `pos`, and a best move that keeps it (checked
    /// by `reference` after the move).
    fn assert_solves_alike(reference: &mut Solver, other: &mut Solver, pos: &Reversi) {
        reference.clear();
        other.clear();
        let a = reference.solve(pos, None, None).unwrap();
        let b = other.solve(pos, None, None).unwrap();
        assert_eq!(a.score, b.score, "{}", pos.to_text());
        if let Some(m) = b.best.filter(|&m| m != PASS) {
            let mut q = *pos;
            q.play(m).unwrap();
            reference.clear();
            let after = reference.solve(&q, None, None).unwrap();
            assert_eq!(-after.score, a.score, "move {m} in {}", pos.to_text());
        }
    }

    /// Two threads splitting from 8 empties (so that small positions split too) give the
    /// exact score, and a best move that keeps it, on random endgames up to 16 empties; the
    /// splits do happen.
    #[test]
    fn parallel_solver_equals_the_serial_one() {
        let mut serial = Solver::new(4);
        let mut parallel = Solver::new(4);
        parallel.threads = 2;
        parallel.options.split_min = 8;
        let (mut checked, mut seed, mut splits) = (0, 1000, 0);
        while checked < 40 {
            seed += 1;
            let empties = 10 + (seed % 7) as u32;
            let Some(pos) = random_endgame(seed, empties) else {
                continue;
            };
            assert_solves_alike(&mut serial, &mut parallel, &pos);
            splits += parallel.splits;
            checked += 1;
        }
        assert!(splits > 0);
    }

    /// A flag raised before the solve ends it at once, and two threads stop at a deadline.
    /// (A flag raised by another thread in the middle of a solve:
    /// `tests/ai_reversi.rs::solver_keeps_its_deadline_and_stops`.)
    #[test]
    fn stop_flag_ends_a_solve() {
        use std::time::{Duration, Instant};
        let pos = Reversi::start();
        let raised = Arc::new(AtomicBool::new(true));
        let mut s = Solver::new(1);
        assert_eq!(s.solve(&pos, Some(&raised), None), None);
        // two threads stop as well (a deadline, here)
        let mut s = Solver::new(1);
        s.threads = 2;
        let t = Instant::now();
        let r = s.solve(&pos, None, Some(t + Duration::from_millis(100)));
        assert_eq!(r, None);
        assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    }
}
