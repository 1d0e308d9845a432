//! The Go CPU: Monte Carlo tree search for 9×9, 13×13 and 19×19 (any size 5..19 works).
//!
//! - **Search**: UCT with RAVE (all-moves-as-first values blended in with weight
//!   `β = ñ / (ñ + n + n·ñ/3000)`), no exploration term; new children start with prior
//!   knowledge as virtual games from a move model ([`prior`]: each point's weight from its
//!   features — captures, escapes (against when a ladder catches them, [`ladder`]), self-atari,
//!   atari (more when it starts a working ladder), 3×3 shapes, distance to the last two
//!   moves, edge lines — turned into `K·√p` virtual wins as Pachi does with its pattern
//!   probabilities; self-ataris and the first and second lines of empty areas also get
//!   virtual losses). Own eyes are never filled, in the tree or in the playouts. In the
//!   opening of 13×13 and 19×19 (fewer stones than lines) the root's children get the model's
//!   virtual wins twice more ([`mcts::Tree::boost_root`]): light playouts and their AMAF values
//!   hardly tell the open points apart and like the centre, so a long search (30,000
//!   playouts and more) let one open point run away with the visits. Without it level 6 at
//!   30,000 playouts opened the empty board off the corner points in 10 of 20 tries (13×13
//!   and 19×19, one and two threads, seeds 1-5): on the fifth line or higher in 7 (G9, H6 on
//!   13×13; O10, G11, P7, K7, L13 on 19×19), in the middle of a side in 3 (G10, G4, Q10); with
//!   it on a 4-4 point in 20 of 20.
//! - **Playouts** ([`playout`]) run on a light board ([`board::Board`]: simple ko, pseudo
//!   liberties with the atari test `sum² = count·squares`, an incremental empty-point list):
//!   capture the last move's chain in atari, save own chains it put in atari (not by an
//!   extension that a ladder catches), nine times in
//!   ten put the last move's chain in atari when it has two liberties and no miai or extend an
//!   own two-liberty chain next to it, play the last good reply to it (learnt from won
//!   playouts, forgotten when it loses; a one-thread search keeps its table from move to
//!   move, the threads of a shared tree start each search afresh), the Mogo 3×3 patterns
//!   around it, otherwise a random move that fills no own eye
//!   and puts no chain of two or more stones in atari. Positional superko is enforced at the root with the real rules.
//! - **Threads**: one tree; with more threads ([`GoCpu::set_threads`], GTP `qi-threads`) they
//!   share it, each walking down and backing up under a lock with virtual losses on its path
//!   and playing its playouts outside the lock; the caller's thread is one of them. The stop
//!   flag is polled every 16 playouts.
//! - **Tree reuse**: the subtree of the position reached is kept when the new position follows
//!   the last searched one by one or two moves.
//! - **Time** ([`time`]): [`GoCpu::choose`]'s `movetime` is a fixed time a move, of which
//!   the search uses at least 75% and at most all; [`GoCpu::choose_timed`] takes a
//!   [`time::MoveTime`] (from a clock by [`time::allocate`]: GTP `time_settings`,
//!   `kgs-time_settings`, `time_left`, a match's clock). Past its minimum the search stops when
//!   the most visited move can no longer be overtaken in the time left, at its target when the
//!   choice is settled, and runs on to its maximum while the choice is close (a fight). A
//!   playout budget (the levels) ends it sooner; when the budget binds before the clock, the
//!   search also stops once the playouts left cannot change the most visited move.
//! - **Pass and resign**: two passes in the tree end the game with the Tromp-Taylor area score.
//!   At the root the CPU passes when the opponent has just passed and the board scored with the
//!   dead stones the playouts see (Tromp-Taylor in clean-up mode) is a win, when the pass is the
//!   most visited move, or when no other move is left. It resigns ([`GoCpu::resigns`]) when
//!   its win rate is below 8% after at least 2,000 playouts, past the opening, and never in
//!   clean-up mode.
//! - **Score**: [`SearchInfo::score`] is the side to move's win rate in hundredths of a percent
//!   minus 5000 (−5000 = sure loss, 0 = even, 5000 = sure win); `depth` is the length of the
//!   principal variation and `nodes` the number of playouts.
//!
//! Levels cap the playouts per move: 1 → 60, 2 → 400, 3 → 2,000, 4 → 6,000, 5 → 24,000;
//! level 6 has no cap ([`LEVEL6_PLAYOUTS`]): its move time decides (the ladder below measured
//! it at 96,000, its cap until the 9×9 endgame, where playouts are short, stopped it after about
//! 1 s of a 2 s move: 1.10 s a move on average against GNU Go). The move time caps every level
//! too (the app gives Go 5 s a move by default; at 2 s a move on a busy machine level 6 gets
//! about 20,000-40,000 playouts in the opening). Every level searches on one
//! thread by default. Earlier builds ran one tree per thread (root parallelism); on this shared
//! machine two trees were weaker than one at the same time: level 6 at 2 s a move with two
//! threads against one thread scored 1 of 6 games (9×9, komi 7), because the playouts were merely
//! split between two shallower trees (about 22,000 playouts a second in all against 20,000 for
//! one thread). The threads now share one tree instead. This machine gives a search hardly more
//! than one core even when `nproc` says 2: two single-thread searches run side by side took 8 s
//! each where one alone took 4 s, and two threads on the shared tree ran 29,000 playouts on 19×19
//! in 4.1 s (about 14,500 each) against 3.5-4.2 s for one thread while another job ran. On the
//! quiet machine the shared tree is 1.7-1.9 times as fast: 29,000 playouts on 19×19 in 2.1-2.4 s
//! against 4.0 s, on 9×9 0.63 s against 1.07 s. Level 6 with two threads against level 6 with one,
//! 1 s a move each (9×9, komi 7, 10 games): 60% (5 won, 2 jigo, 3 lost) — a second thread buys
//! playouts, and the playout-bound levels answer sooner. The engine (GTP, matches) keeps one
//! thread unless `qi-threads` says otherwise, so the ladder above is single-threaded; the app
//! gives every Go CPU two threads on a machine with two cores (`AnyCpu::with_cores`).
//!
//! # Measured (on a shared 2-core machine under heavy load, load average 6-11)
//!
//! - **Playouts per second**, one thread, from early positions (release build): 9×9 about
//!   20,000-27,000, 13×13 about 12,000-15,000, 19×19 about 5,000-7,000. In the GNU Go match
//!   below (two threads, 2 s a move, other jobs running) the 9×9 searches averaged 17,000-18,000
//!   playouts per second (median per move 14,000-15,500), about 25,000-35,000 playouts a move.
//! - **GNU Go 3.8 level 10** (`gnugo --mode gtp --chinese-rules --level 10`), 9×9, komi 7,
//!   2 s a move for Qi, colours alternating, scored by GNU Go's `final_score`
//!   (`scripts/gtp-match.py`): 20 games, Qi won 15, lost 3, 2 jigo (two threads; games 1-10
//!   with an earlier build that counted a jigo as nearly a win for White: 7 won, 2 jigo, 1 lost;
//!   games 11-20 with this one: 8 won, 2 lost). This build (level 6, one thread, tree kept,
//!   seeds 501-502), 10 games, two matches at a time under a load average of 6-8 (Qi made only
//!   about 6,000 playouts a second, median 9,000 a move): 9 won, 1 jigo, none lost.
//! - **Levels**, 9×9, komi 7, one thread each, colours alternating (A's score):
//!
//!   | pairing | playouts a move | games | A's score |
//!   |---|---|---|---|
//!   | 2 vs 1 | 400 vs 60 | 16 | 100% (16-0) |
//!   | 3 vs 2 | 2,000 vs 400 | 16 | 75% (12-4) |
//!   | 4 vs 3 | 6,000 vs 2,000 | 16 | 88% (14-2) |
//!   | 5 vs 4 | 24,000 vs 6,000 | 20 | 90% (17 won, 1 lost, 2 jigo) |
//!   | 6 vs 5 | 96,000 vs 24,000, both reusing their trees | 20 | 85% (17 won, 3 lost) |
//!
//!   Level 6 (96,000 playouts, tree kept) against level 5 (24,000, tree kept), one thread each,
//!   `qi-movetime 600000` so that the budgets bind, seeds 301-304 and 401-404 (`qi-seed`), two
//!   matches at a time on this machine (load average 5-9): 17 won, 3 lost (the three losses
//!   with Black); level 6 stopped once its most visited move was settled, at a median of 49,000
//!   playouts a move (quartiles of speed 5,700-13,600 a second under that load). The level-5
//!   side ran the build before, whose level 5 plays the same. The same 96,000
//!   playouts from empty trees (the rule of the build before: searches above 30,000 playouts
//!   started afresh) scored 72.5% in 20 games (13 won, 3 jigo, 4 lost; seeds 1001-1002 and
//!   2001-2002): keeping the tree did no harm at 96,000, if anything it helped, and level 6 now
//!   keeps it like the other levels.
//!
//!   Why level 6 had not been stronger than level 5 (earlier measurements, kept for the
//!   record: level 6 at 3 s a move with two threads against 18,000: 2-1-1 in 4 games; at 5 s,
//!   about 70,000 playouts, tree kept: 2-6 in 8, then 0-4 in 4 after the node-limit fix;
//!   1.5 s: 3-3; 72,000 vs 24,000 playouts with the tree kept: 0-2, with an exploration term
//!   of 0.1: 1-2; 72,000 from empty trees: 4-1; 3 s from empty trees: 8-6 in 14 games):
//!   - Until the node-limit fix (4,000,000 nodes a tree; a filling tree expands more slowly,
//!     ×4 past a quarter, ×16 past half, ×64 past three quarters) long searches and the trees
//!     they kept reached the old 2,000,000-node limit and stopped growing, so that more
//!     playouts only refined the leaves. A 96,000-playout 9×9 search now makes about 1.2 M
//!     nodes (the ×4 rate from about 55,000 playouts on), a kept tree 1.1-1.3 M after the
//!     next search.
//!   - After the fix the samples were small (2-8 games a setting) and level 6 was bound by the
//!     clock on a machine with a load average of 5-11, where 3-5 s bought only about
//!     30,000-50,000 playouts (about 10,000 a second under that load, measured here), while
//!     level 5's 24,000 start from 11,000-30,000 playouts kept from the search before (self-play,
//!     `QI_GO_DEBUG`): level 6 had hardly more playouts than level 5. With budgets binding and
//!     20 games, 96,000 beats 24,000 with or without reuse, so neither the search nor the
//!     kept trees stop scaling at 25,000.
//!   - No fault was found in the tree reuse (re-rooting keeps children together, root
//!     children the real rules forbid by superko are zeroed, the tree stays legal — a test
//!     walks it), in the AMAF updates or in the pass handling.
//!   - Found in session 10: the root children forbidden by superko were marked with 10⁶ games
//!     and every root move with at least 10⁵ games was then left out as forbidden, so a search
//!     that gave its best move over 100,000 games (level 6 by the clock with its kept tree, in
//!     the later middle game and endgame; the 70,000-playout searches above with their kept
//!     trees) dropped that move and played the second best. The mark is now explicit
//!     (`Node::forbidden` in `mcts.rs`). After the fix, level 6 at 2 s a move against level 5: 3 won,
//!     4 jigo, 3 lost (10 games, where the build before lost 8 of 8); level 6 capped at 60,000
//!     against level 5 at 2 s a move 6-1-1; at 20 s a move 60,000 5-0-1 and 150,000 5-1-0
//!     (README, "Measured").
//!
//!   Since then the priors also seed the AMAF statistics (before, the AMAF values of a young
//!   node washed them out, and 19×19 openings went to the second line) and the 3-3/3-4/4-4
//!   points of empty corners get a prior in the opening of 13×13 and 19×19: level 4 against
//!   the earlier level 4 on 9×9, 16 games: 56% (8 won, 6 lost, 2 jigo) — no loss of strength.
//!
//!   Level 5 had 18,000 playouts before and scored 72% (13-5 in 18 games) against level 4.
//!   Earlier budgets: 600 vs 200 playouts scored 75% (15-5), 2,000 vs 600 65% (13-7), which is
//!   why levels 1 and 2 were spread further apart. In the app, with its default 2 s a move,
//!   level 6 is bound by the clock: with 2 s a move for both (level 5 still capped at 24,000),
//!   16 games, seeds 601-604/701-704, load average 1-6, level 6 made a median of 22,000-27,000
//!   playouts a move and scored 62.5% (10-6) against level 5. It gets its full budget from
//!   about 5-10 s a move on this machine.
//!
//! # Ladders ([`ladder`], in the tree priors by default)
//!
//! A simple-ladder reader on the light board (board copies, at most 200 moves a reading, an
//! unread ladder counts as an escape) leaves caught extensions out of the playouts' escapes
//! and weighs them down in the hand-set priors, where an atari that starts a working ladder
//! weighs more (2.5, 8 from three stones) and one that only chases less (1.2, was 2).
//! `QI_GO_LADDER=both|playout|off` picks the parts (the priors only by default). Measured on
//! 9×9, komi 7 (with `both` the default of the build measured):
//!
//! - Speed (8 searches of about 0.76 s from one opening, load average about 4): 17,000-22,900
//!   playouts a second before (072004c), 12,800-18,000 with ladders in both parts, 12,900-15,500
//!   in the playouts only, 16,800-20,800 in the priors only, 17,600-19,800 off: the playout
//!   reading costs about a quarter of the playouts.
//! - Both parts against the build before (072004c), `--movetime 500` (about 0.75 s a move
//!   each), `--openings 2 --seed 41`, 40 games, load average 4.1 at the start and 1.1 at the
//!   end: 18 won, 1 jigo, 21 lost (46.2%, Elo −26 ± 110): no gain.
//! - Priors only (`QI_GO_LADDER=prior`, same binary, settings and seed), stopped after 16 of
//!   40 games for lack of time, load average 0.7 at the start and 1.0-1.2 at the end: 9 won,
//!   1 jigo, 6 lost (59.4%; far too few games to tell). Both parts, the same openings, stood at
//!   8 won, 8 lost after the same 16 games. Then 32 games with `--seed 42` (the build with the
//!   Gomoku work of session 12, whose Go search is the same), load 1.0-3.2: 21 won, 2 jigo, 9
//!   lost (68.8%, Elo +137 ± 134); with the first 16, 30-3-15 in 48 games (65.6%). So the
//!   priors read ladders by default; the playouts do not (their reading costs a quarter of the
//!   playouts).
//!
//! Since session 35 the tree also leaves those escapes out altogether where the priors read
//! ladders ([`ladder::runs_into_ladder`], `QI_GO_LADDER_TREE=0` keeps them): weighed down
//! was not enough. On 19×19 against GNU Go level 10 at 5 s a move level 6 (Black) ran a
//! caught ladder out for fifteen moves, from M6 on the sixth line to T12 on the edge, and lost
//! by 210 points (GNU Go's estimate: White 10 ahead at move 100, 106 at move 150). In the
//! position before the first escape the search played it with 2,000 playouts and with its
//! 6,656 at 5 s, with the hand-set priors too: the light playouts do not read ladders, so the
//! escaping chain often lives in them, and the escape's AMAF value, which rules a young
//! node, outweighs the priors' few virtual losses (the spatial model, which knows nothing of
//! ladders, even favours the escape). The test `does_not_run_out_a_caught_ladder` replays that
//! game. In session 34's 27 games against Pachi on 13×13 no such run was found (at most three
//! moves of a chase in a row), so it was rare, but it costs the game when it comes.
//!
//! The two-liberty answers of the playouts no longer extend a chain into its own eye (the
//! rest of the policy already kept out of own eyes; a policy test found it on 19×19), ladders or
//! not.
//!
//! Against Pachi 12.90 (no neural network, one thread, 9×9, komi 7, 2 s a move, `--seed 51`,
//! session 13, load 3.1-4.1): 18 won, 22 lost in 40 games, **45%** (Elo −35 ± 112), where the
//! build before the ladders scored 30% (12-28) and 31.7%.
//!
//! On the larger boards (session 13, level 6 on one thread, 5 s a move, load 3.3-4.1, two
//! matches side by side, both stopped at the session's end): 19×19 against GNU Go level 10, 10
//! won of 10, by 2-24 points; 13×13 against Pachi, 0 of 5 (by 20-176 points). 13×13 is where
//! the work is. Session 14, the same build (load 3.1-5.0): 13×13 against GNU Go level 10, 20
//! won of 20 (by 2-16 points); 19×19 against GNU Go, games 11-20, 9 won and 1 lost, so 19 of
//! 20 (95%) in all.
//!
//! Next: a playout check that costs less (an undo on the board instead of copies, or Pachi's
//! quick shape tests before reading), and the priors-only setting over more games.
//!
//! Set `QI_GO_NO_REUSE=1` to start every search with empty trees (an experiment),
//! `QI_GO_LADDER=both|playout|off` to read ladders in the playouts and the priors, in the
//! playouts only or nowhere (in the tree priors only by default), `QI_GO_NO_LGR=1` to play the playouts without last good replies, `QI_GO_NO_2LIB=1` without
//! the two-liberty answers, `QI_GO_NAKADE=1` with the vital point of three-point eye spaces
//! (eight times in ten, after the two-liberty answers; 1 won of 11 against Pachi on 13×13 at
//! 5 s a move), `QI_GO_FUSEKI=1` with the opening rule of [`prior::fuseki_excludes`] (0 of
//! 10 there), `QI_GO_PRIOR_K=<k>` to weigh the move model's priors differently, `QI_GO_PRIOR=hand`
//! for the hand-set priors on every size (13×13 and 19×19 use the spatial-pattern model by default),
//! `QI_GO_ROOT_PRIOR=<f>` to give the root's children in the opening of 13×13 and 19×19 the
//! model's virtual wins `f` times more (2 by default, 0 turns it off; [`mcts::Tree::boost_root`]),
//! `QI_GO_PRIOR=learned` for the 9×9 priors of the model learnt from GNU Go games and the
//! spatial model from 13×13 up, 19×19 included ([`features`]; with `QI_GO_MODEL=<file>` the model in that file, on any board size), `QI_GO_MODEL_LADDER=0` to
//! leave the learnt model's weights without the ladder reader's factor for an atari that starts a
//! working ladder ([`prior::model_reads_ladders`]), `QI_GO_OWNER=1` to weigh
//! the tree priors by who owns each point at the end of 300 playouts run before the search
//! ([`prior::owner_factor`]), `QI_GO_DRAVE=<k>` to weigh the AMAF update of a move played at
//! once after its node `1 + k` times, falling to once at the end of the playout (Pachi's
//! `distance_rave`, 3 there; on 13×13 against Pachi at 5 s a move the ownership alone won 1 of
//! 7 games and with `QI_GO_DRAVE=3` 0 of 5, where main's search has won 3 of 22, though both
//! had led main in short self-play screens: the README has the figures), `QI_GO_CRIT=<k>` to
//! add criticality to the AMAF values of children with over 2,000 playouts (Coulom's
//! criticality as Pachi uses it, `crit_rave` 1.1 there: a child's AMAF games grow by its
//! criticality times their number times `k`), `QI_GO_PLAYOUT_GAMMA=<k>` to draw the
//! playouts' random moves by learnt 3×3 weights (`k` candidates drawn, one chosen in
//! proportion to its weight, [`playout::gammas`]; the weights of the group `pattern` of the
//! model file `QI_GO_PLAYOUT_MODEL`, such as `go_features --sgf DIR --max-games 1500` writes
//! without `--spatial`, or else of the shipped spatial model), `QI_GO_EXPLORE=<c>` to add the
//! UCB exploration term `c·√(ln(N + 1) / (n + 1))` to the tree's values and
//! `QI_GO_EXPLORE_ROOT=<c>` to add it at the root only (none by default; [`mcts`]'s
//! `exploration`), `QI_GO_NODES=<n>` to
//! set the node limit of a tree (4,000,000), and
//! `QI_GO_DEBUG=1` to print the tree sizes, playouts, time and the most visited root moves of
//! each search on stderr (with `QI_GO_DEBUG_MOVES=A10,K13` also the statistics of those root
//! moves: real playouts, games and wins with the priors, AMAF games and wins).
//!
//! ```no_run
//! use std::sync::{Arc, atomic::AtomicBool};
//! use std::time::Duration;
//! use qi_core::{ai::go::GoCpu, go::Go};
//!
//! let stop = Arc::new(AtomicBool::new(false));
//! let mut cpu = GoCpu::new(6);
//! let pos = Go::new(9, 7.0).unwrap();
//! let r = cpu.choose(&pos, Duration::from_secs(2), &stop, 1, &mut |_info| {});
//! println!("{:?} {} resign: {}", r.best, r.score, cpu.resigns());
//! let ownership = cpu.ownership(); // y * 9 + x, +1 Black .. −1 White
//! # let _ = ownership;
//! ```

pub mod board;
pub mod candidates;
pub mod features;
mod ladder;
mod mcts;
pub mod playout;
mod prior;
pub mod time;

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use self::board::Board;
use self::mcts::{Tree, Walker};
use self::time::{MoveTime, Progress};
use crate::game::{Game, Side, Square};
use crate::go::{Go, Move, PASS};
use crate::search::{SearchInfo, SearchResult};

/// Level 6's playout "cap": none that a move time reaches (about 80,000 playouts a second
/// would take over four days).
pub const LEVEL6_PLAYOUTS: u64 = 30_000_000_000;

/// Playouts a level may spend on a move (the move time caps every level too) and the
/// threads it uses.
pub fn level_budget(level: u8) -> (u64, usize) {
    match level {
        0 | 1 => (60, 1),
        2 => (400, 1),
        3 => (2_000, 1),
        4 => (6_000, 1),
        5 => (24_000, 1),
        // the strongest level: no cap, the move time decides
        _ => (LEVEL6_PLAYOUTS, 1),
    }
}

/// The Go CPU at one level, keeping its trees between moves. `Send`.
pub struct GoCpu {
    level: u8,
    threads: usize,
    trees: Vec<Tree>,
    cleanup: bool,
    resign: bool,
    own: Vec<f32>,
    own_size: u8,
    last_pos: Option<Go>,
    playouts: u64,
    elapsed: Duration,
    reused: u64,
    /// A playout cap set by [`GoCpu::set_playouts`] instead of the level's.
    playout_cap: Option<u64>,
}

/// Nodes each tree may hold (about 28 bytes each: 112 MB). A long 9×9 search makes about 19
/// nodes a playout while the tree is young; past a quarter of this the tree expands more slowly
/// (see `Tree::iterate`), so level 6's 70,000-playout searches and the reused trees no longer
/// reach the limit, where they had stopped growing at 2,000,000.
const MAX_NODES: usize = 4_000_000;

/// [`MAX_NODES`], or `QI_GO_NODES` for experiments.
fn max_nodes() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| {
        std::env::var("QI_GO_NODES")
            .ok()
            .and_then(|s| s.parse().ok())
            .filter(|&n| n >= 10_000)
            .unwrap_or(MAX_NODES)
    })
}

impl GoCpu {
    /// A player at `level` (clamped to 1..=6).
    pub fn new(level: u8) -> GoCpu {
        let level = level.clamp(1, 6);
        let hw = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        GoCpu {
            level,
            threads: level_budget(level).1.min(hw).max(1),
            trees: Vec::new(),
            cleanup: false,
            resign: false,
            own: Vec::new(),
            own_size: 0,
            last_pos: None,
            playouts: 0,
            elapsed: Duration::ZERO,
            reused: 0,
            playout_cap: None,
        }
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    pub fn set_level(&mut self, level: u8) {
        let threads = self.threads;
        *self = GoCpu::new(level);
        self.threads = self.threads.min(threads.max(1));
    }

    /// Caps the playouts a move (`None`: the level's cap), for matches between budgets (GTP
    /// `qi-playouts`).
    pub fn set_playouts(&mut self, cap: Option<u64>) {
        self.playout_cap = cap;
    }

    /// The threads a search uses.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Limits the search threads (1 = the caller's thread only).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Clean-up mode (GTP `kgs-genmove_cleanup`): the CPU passes only when the board as it
    /// stands wins under Tromp-Taylor scoring, so it captures dead stones first; no
    /// resignation.
    pub fn set_cleanup(&mut self, on: bool) {
        self.cleanup = on;
    }

    /// Forgets the trees of the previous game.
    pub fn new_game(&mut self) {
        self.trees.clear();
        self.last_pos = None;
    }

    /// Whether the last [`GoCpu::choose`] found the game clearly lost (the app may resign).
    pub fn resigns(&self) -> bool {
        self.resign
    }

    /// Playouts the last search found already in its trees (kept from the move before).
    pub fn reused_playouts(&self) -> u64 {
        self.reused
    }

    /// Playouts and time of the last search.
    pub fn last_playouts(&self) -> (u64, Duration) {
        (self.playouts, self.elapsed)
    }

    /// Who owns each point at the end of the last search's playouts: `y * size + x`, +1
    /// always Black .. −1 always White. Empty before the first search.
    pub fn ownership(&self) -> Vec<f32> {
        self.own.clone()
    }

    /// The dead stones of `pos` by the last search's ownership (stones mostly owned by the
    /// other side at the end of the playouts), sorted; the app's dead-stone estimate.
    pub fn dead_stones(&self, pos: &Go) -> Vec<Square> {
        dead_from_ownership(pos, &self.own)
    }

    /// Runs `playouts` playouts from `pos` (no move choice) to refresh the ownership map and
    /// dead stones, e.g. after two passes.
    pub fn analyse(&mut self, pos: &Go, playouts: u64, seed: u64) -> Vec<f32> {
        let mut t = Tree::new(seed, 400_000);
        t.without_replies();
        t.set_root(pos);
        let b = Board::from_go(pos, PASS);
        let mut pl = b.clone();
        pl.passes = 0;
        for _ in 0..playouts.max(1) {
            t.iterate(&pl, 4);
        }
        self.own = ownership_of(std::slice::from_ref(&t), pos.size());
        self.own_size = pos.size();
        self.own.clone()
    }

    /// Chooses a move for `pos` within `movetime`. `seed` varies the playouts; `on_info` hears
    /// about the search about four times a second and at the end. `best` is `None` only when
    /// the game is over.
    pub fn choose(
        &mut self,
        pos: &Go,
        movetime: Duration,
        stop: &Arc<AtomicBool>,
        seed: u64,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<Move> {
        self.choose_timed(pos, MoveTime::fixed(movetime), stop, seed, on_info)
    }

    /// [`GoCpu::choose`] with the time given as a [`MoveTime`] (from a clock by
    /// [`time::allocate`]): at least `min`, `target` for a settled choice, up to `max` for a
    /// close one.
    pub fn choose_timed(
        &mut self,
        pos: &Go,
        mt: MoveTime,
        stop: &Arc<AtomicBool>,
        seed: u64,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<Move> {
        let start = Instant::now();
        self.resign = false;
        if std::env::var_os("QI_GO_NO_REUSE").is_some() {
            self.new_game(); // an experiment: every search starts with empty trees
        }
        if pos.is_over() {
            return SearchResult {
                best: None,
                score: 0,
                info: SearchInfo::default(),
            };
        }
        let last = self
            .last_pos
            .as_ref()
            .map(|prev| last_move(prev, pos))
            .unwrap_or(PASS);
        let budget = self
            .playout_cap
            .unwrap_or_else(|| level_budget(self.level).0)
            .max(1);
        let threads = self.threads.max(1);
        // one tree; more threads share it
        if self.trees.is_empty() {
            self.trees.push(Tree::new(seed ^ 0x9E37_79B9, max_nodes()));
        }
        self.trees.truncate(1);
        for t in self.trees.iter_mut() {
            t.rng = board::Fast::new(seed.wrapping_mul(31).wrapping_add(7));
            t.set_root(pos);
        }
        self.reused = self
            .trees
            .iter()
            .map(|t| t.nodes.first().map_or(0, |r| r.visits as u64))
            .sum();
        let size = pos.size() as usize;
        let stones = pos.piece_counts();
        let placed = (stones[0] + stones[1]) as usize;
        let expand_after = if size <= 9 {
            2
        } else if size <= 13 {
            3
        } else {
            4
        };
        let mut root = Board::from_go(pos, last);
        if let Some(prev) = self.last_pos.as_ref() {
            root.last2 = move_before_last(prev, pos);
        }
        // the tree decides about passes: a finished game is not played out from here
        if root.passes >= 2 {
            root.passes = 1;
        }
        if prior::owner_priors_on() {
            self.trees[0].seed_owner(&root, 300);
        }
        self.trees[0].boost_root(&root, root_prior_factor(&root));
        let deadline = crate::search::deadline_after(start, mt.max);
        let exact_stop = budget > 30_000;
        let total = if threads == 1 {
            let t = &mut self.trees[0];
            let mut n = 0u64;
            let mut next_report = Instant::now() + Duration::from_millis(250);
            while n < budget {
                t.iterate(&root, expand_after);
                n += 1;
                if n.is_multiple_of(16) {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let now = Instant::now();
                    if now >= deadline {
                        break;
                    }
                    if n.is_multiple_of(256) && stop_now(t, n, now - start, &mt) {
                        break;
                    }
                    // level 6 also stops when the playouts left cannot change the most
                    // visited move (the same move, sooner)
                    if exact_stop
                        && n.is_multiple_of(256)
                        && budget_binds(n, budget, now - start, &mt)
                        && lead(t) as u64 > budget - n
                    {
                        break;
                    }
                    if now >= next_report {
                        on_info(&info_of(std::slice::from_ref(t), pos, n, start));
                        next_report = now + Duration::from_millis(250);
                    }
                }
            }
            n
        } else {
            run_shared(
                &mut self.trees[0],
                &Shared {
                    root: &root,
                    expand_after,
                    budget,
                    threads,
                    seed,
                    start,
                    deadline,
                    mt: &mt,
                    stop,
                },
                &mut |t: &Tree, n| on_info(&info_of(std::slice::from_ref(t), pos, n, start)),
            )
        };
        self.playouts = total;
        self.elapsed = start.elapsed();
        self.own = ownership_of(&self.trees, pos.size());
        self.own_size = pos.size();
        self.last_pos = Some(pos.clone());

        let merged = merge_root(&self.trees);
        let me = pos.side_to_move();
        let info = info_of(&self.trees, pos, total, start);
        if std::env::var_os("QI_GO_DEBUG").is_some() {
            eprintln!(
                "  tree nodes {:?} (cap {}), reused playouts {}, playouts {} in {:.2} s",
                self.trees.iter().map(|t| t.nodes.len()).collect::<Vec<_>>(),
                max_nodes(),
                self.reused,
                total,
                self.elapsed.as_secs_f64()
            );
            let mut v = merged.clone();
            v.sort_by_key(|m| std::cmp::Reverse(m.1));
            for m in v.iter().take(8) {
                eprintln!(
                    "  {} visits {} value {:.3}",
                    pos.move_to_text(m.0),
                    m.1,
                    m.2
                );
            }
            // the root children named in QI_GO_DEBUG_MOVES (e.g. `A10,K13`), with their
            // prior-included games and AMAF statistics
            if let Ok(list) = std::env::var("QI_GO_DEBUG_MOVES") {
                for c in self.trees[0].root_children() {
                    let name = pos.move_to_text(c.mv);
                    if list.split(',').any(|t| t.eq_ignore_ascii_case(&name)) {
                        eprintln!("  watch {name} {c:?}");
                    }
                }
            }
            for c in self.trees[0].root_children() {
                if pos.capture_count(c.mv as usize) > 0 {
                    eprintln!("  capture {} {:?}", pos.move_to_text(c.mv), c);
                }
            }
        }
        let mut best = merged
            .iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
            .map(|m| m.0)
            .unwrap_or(PASS);
        let best_rate = merged
            .iter()
            .find(|m| m.0 == best)
            .map(|m| m.2)
            .unwrap_or(0.5);
        let moves_left = merged.iter().any(|m| m.0 != PASS);
        if !moves_left {
            best = PASS;
        } else if pos.consecutive_passes() >= 1 && best != PASS {
            // the opponent passed: pass too when the board as it stands wins
            let margin = if self.cleanup {
                pos.area_score().margin()
            } else {
                pos.score_with_dead(&self.dead_stones(pos)).margin()
            };
            let mine = if me == Side::Black { margin } else { -margin };
            if mine > 0.0 {
                best = PASS;
            }
        }
        if best == PASS && self.cleanup && pos.consecutive_passes() == 0 && moves_left {
            // in clean-up mode a pass must not lose the board as it stands
            let margin = pos.area_score().margin();
            let mine = if me == Side::Black { margin } else { -margin };
            if mine <= 0.0 {
                best = merged
                    .iter()
                    .filter(|m| m.0 != PASS)
                    .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)))
                    .map(|m| m.0)
                    .unwrap_or(PASS);
            }
        }
        self.resign = !self.cleanup
            && best_rate < 0.08
            && total >= 2_000
            && placed * 3 >= size * size
            && budget >= 2_000;
        let mut info = info;
        info.pv = std::iter::once(pos.move_to_text(best))
            .chain(
                self.trees[0]
                    .principal_variation(12)
                    .into_iter()
                    .skip(1)
                    .map(|m| move_text(pos, m)),
            )
            .collect();
        info.depth = info.pv.len() as u32;
        on_info(&info);
        SearchResult {
            best: Some(best),
            score: info.score,
            info,
        }
    }
}

fn move_text(pos: &Go, m: Move) -> String {
    pos.move_to_text(m)
}

/// The move that led from `prev` to `pos`: the one new stone of the side that just moved, or
/// a pass.
fn last_move(prev: &Go, pos: &Go) -> Move {
    let gap = pos.history_len() as i64 - prev.history_len() as i64;
    if !(1..=2).contains(&gap) {
        return PASS;
    }
    new_stone(prev, pos, pos.side_to_move().other())
}

/// The move before the last when `prev` is two moves before `pos` (the search before, in a
/// game): the one new stone of the side to move, or a pass.
fn move_before_last(prev: &Go, pos: &Go) -> Move {
    if pos.history_len() != prev.history_len() + 2 {
        return PASS;
    }
    new_stone(prev, pos, pos.side_to_move())
}

/// The one stone of `side` on `pos` that is not on `prev`, or a pass (none, or several).
fn new_stone(prev: &Go, pos: &Go, side: Side) -> Move {
    let mut found = PASS;
    for p in pos.points() {
        if pos.stone_at(p) == Some(side) && prev.stone_at(p) != Some(side) {
            if found != PASS {
                return PASS;
            }
            found = p as Move;
        }
    }
    found
}

/// How many times its move model's virtual wins the root's children get once more (see
/// [`mcts::Tree::boost_root`]) in `root`: on 13×13 and larger while fewer stones than the
/// board has lines are down, where light playouts (and their AMAF values, which like the
/// centre of an empty board) hardly tell the open moves apart. `QI_GO_ROOT_PRIOR` sets it.
fn root_prior_factor(root: &Board) -> f32 {
    static F: std::sync::OnceLock<f32> = std::sync::OnceLock::new();
    let f = *F.get_or_init(|| {
        std::env::var("QI_GO_ROOT_PRIOR")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2.0)
    });
    if prior::fuseki_applies(root) { f } else { 0.0 }
}

/// How many more visits the most visited root move of `t` has than the second.
fn lead(t: &Tree) -> u32 {
    let (mut a, mut b) = (0u32, 0u32);
    for c in t.root_children() {
        if c.visits > a {
            b = a;
            a = c.visits;
        } else if c.visits > b {
            b = c.visits;
        }
    }
    a - b
}

/// What the threads of one search over a shared tree need to know.
struct Shared<'a> {
    root: &'a Board,
    expand_after: u32,
    budget: u64,
    threads: usize,
    seed: u64,
    start: Instant,
    deadline: Instant,
    mt: &'a MoveTime,
    stop: &'a AtomicBool,
}

/// Virtual losses a thread puts on the nodes it walks through until its playout is back, so
/// that the other threads spread out instead of all playing out the same line.
const VIRTUAL_LOSS: f32 = 2.0;

/// Runs `s.threads` threads (the caller's one of them) over the one tree `tree`: each walks
/// down and back up under a lock and plays its playouts outside it. Returns the playouts run.
fn run_shared(tree: &mut Tree, s: &Shared, report: &mut dyn FnMut(&Tree, u64)) -> u64 {
    let size = s.root.size as usize;
    let count = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    let shared = Mutex::new(tree);
    let work = |k: usize, report: &mut dyn FnMut(&Tree, u64)| {
        let mut w = Walker::new(s.seed.wrapping_mul(31).wrapping_add(k as u64 + 7));
        let mut own = vec![0i32; size * size];
        let mut own_games = 0u32;
        let mut mine = 0u64;
        let mut next_report = Instant::now() + Duration::from_millis(250);
        let lock = || shared.lock().unwrap_or_else(|e| e.into_inner());
        while !done.load(Ordering::Relaxed) {
            if count.fetch_add(1, Ordering::Relaxed) >= s.budget {
                break;
            }
            let (mut b, terminal) = lock().descend(s.root, s.expand_after, &mut w, VIRTUAL_LOSS);
            let score = match terminal {
                Some(x) => x,
                None => {
                    own_games += 1;
                    w.playout(&mut b, Some(&mut own))
                }
            };
            lock().backup(&mut w, score, &b, VIRTUAL_LOSS);
            mine += 1;
            if mine.is_multiple_of(16) {
                if s.stop.load(Ordering::Relaxed) {
                    break;
                }
                let now = Instant::now();
                if now >= s.deadline {
                    break;
                }
                if k == 0 && mine.is_multiple_of(128) {
                    let n = count.load(Ordering::Relaxed).min(s.budget);
                    let t = lock();
                    if stop_now(&t, n, now - s.start, s.mt)
                        || (s.budget > 30_000
                            && budget_binds(n, s.budget, now - s.start, s.mt)
                            && lead(&t) as u64 > s.budget - n)
                    {
                        break;
                    }
                    if now >= next_report {
                        report(&t, n);
                        next_report = now + Duration::from_millis(250);
                    }
                }
            }
        }
        // the others stop when one does (time, stop flag, budget or a settled choice)
        done.store(true, Ordering::Relaxed);
        let mut t = lock();
        if t.own.len() == own.len() {
            for (a, b) in t.own.iter_mut().zip(&own) {
                *a += b;
            }
            t.own_games += own_games;
        }
        mine
    };
    let work = &work;
    std::thread::scope(|sc| {
        let handles: Vec<_> = (1..s.threads)
            .map(|k| sc.spawn(move || work(k, &mut |_, _| {})))
            .collect();
        let n0 = work(0, report);
        let rest: Vec<u64> = handles.into_iter().map(|h| h.join().unwrap_or(0)).collect();
        if std::env::var_os("QI_GO_DEBUG").is_some() {
            eprintln!("  playouts per thread {n0} {rest:?}");
        }
        n0 + rest.iter().sum::<u64>()
    })
}

/// Whether the playout budget ends the search of `n` playouts in `spent` before its time
/// does: only then may it stop once the playouts left cannot change the most visited move.
fn budget_binds(n: u64, budget: u64, spent: Duration, mt: &MoveTime) -> bool {
    let rate = n as f64 / spent.as_secs_f64().max(1e-3);
    rate * mt.max.saturating_sub(spent).as_secs_f64() > budget.saturating_sub(n) as f64
}

/// Whether the search of `t`, `n` playouts in `spent`, stops now under `mt` (see
/// [`time::should_stop`]).
fn stop_now(t: &Tree, n: u64, spent: Duration, mt: &MoveTime) -> bool {
    if n < 500 && spent < mt.max {
        return false;
    }
    let children: Vec<(u32, f32)> = t
        .root_children()
        .iter()
        .filter(|c| !c.forbidden())
        .map(|c| (c.visits, if c.n > 0.0 { c.w / c.n } else { 0.5 }))
        .collect();
    let p = Progress {
        elapsed: spent,
        rate: n as f64 / spent.as_secs_f64().max(1e-3),
        lead: lead(t),
        close: time::is_close(&children),
    };
    time::should_stop(mt, &p)
}

/// Root moves over all trees: (move, visits, win rate of the mover).
fn merge_root(trees: &[Tree]) -> Vec<(Move, u32, f32)> {
    let mut out: Vec<(Move, u32, f32, f32)> = Vec::new();
    for t in trees {
        for c in t.root_children() {
            if c.forbidden() {
                continue; // superko
            }
            match out.iter_mut().find(|m| m.0 == c.mv) {
                Some(m) => {
                    m.1 += c.visits;
                    m.2 += c.w;
                    m.3 += c.n;
                }
                None => out.push((c.mv, c.visits, c.w, c.n)),
            }
        }
    }
    out.into_iter()
        .map(|(m, v, w, n)| (m, v, if n > 0.0 { w / n } else { 0.5 }))
        .collect()
}

fn info_of(trees: &[Tree], pos: &Go, playouts: u64, start: Instant) -> SearchInfo {
    let merged = merge_root(trees);
    let best = merged
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)));
    let rate = best.map(|m| m.2).unwrap_or(0.5);
    let pv: Vec<String> = trees[0]
        .principal_variation(12)
        .into_iter()
        .map(|m| pos.move_to_text(m))
        .collect();
    let elapsed = start.elapsed();
    SearchInfo {
        depth: pv.len() as u32,
        score: (rate * 10_000.0).round() as i32 - 5_000,
        nodes: playouts,
        nps: (playouts as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
        pv,
        elapsed,
        solved: Default::default(),
    }
}

fn ownership_of(trees: &[Tree], size: u8) -> Vec<f32> {
    let n = size as usize;
    let mut sum = vec![0i64; n * n];
    let mut games = 0u64;
    for t in trees {
        if t.own.len() == n * n {
            for (s, &o) in sum.iter_mut().zip(&t.own) {
                *s += o as i64;
            }
            games += t.own_games as u64;
        }
    }
    sum.into_iter()
        .map(|s| {
            if games == 0 {
                0.0
            } else {
                s as f32 / games as f32
            }
        })
        .collect()
}

/// Dead stones from an ownership map: chains whose points the other side owns on average.
pub fn dead_from_ownership(pos: &Go, own: &[f32]) -> Vec<Square> {
    let n = pos.size() as usize;
    if own.len() != n * n {
        return Vec::new();
    }
    let mut dead = Vec::new();
    let mut done = vec![false; crate::go::POINTS];
    for p in pos.points() {
        let Some(side) = pos.stone_at(p) else {
            continue;
        };
        if done[p] {
            continue;
        }
        let chain = pos.chain_points(p);
        let sign = if side == Side::Black { 1.0 } else { -1.0 };
        let mut sum = 0.0;
        for &s in &chain {
            done[s] = true;
            let sq = Go::square_of(s as Move).expect("a point");
            sum += own[sq.y as usize * n + sq.x as usize];
        }
        if sign * sum / (chain.len() as f32) < -0.3 {
            dead.extend(chain.iter().filter_map(|&s| Go::square_of(s as Move)));
        }
    }
    dead.sort();
    dead
}

#[cfg(test)]
mod tree_tests {
    use super::*;
    use crate::Game;

    #[test]
    fn the_root_knows_the_last_two_moves() {
        let mut prev = Go::new(9, 7.0).unwrap();
        for m in ["E5", "C3"] {
            let mv = prev.parse_move(m).unwrap();
            prev.make(mv);
        }
        let mut pos = prev.clone();
        let (own, theirs) = (pos.parse_move("G7").unwrap(), pos.parse_move("C7").unwrap());
        pos.make(own);
        pos.make(theirs);
        assert_eq!(last_move(&prev, &pos), theirs);
        assert_eq!(move_before_last(&prev, &pos), own);
        // one move apart: no move before the last is known
        let mut one = prev.clone();
        one.make(own);
        assert_eq!(last_move(&prev, &one), own);
        assert_eq!(move_before_last(&prev, &one), PASS);
        // a pass is no stone
        let mut passed = prev.clone();
        passed.make(PASS);
        passed.make(theirs);
        assert_eq!(move_before_last(&prev, &passed), PASS);
    }

    /// Walks a tree from its root position: every child's move must be legal where it is.
    fn check(t: &Tree, pos: &Go) -> Result<usize, String> {
        let mut stack = vec![(0usize, pos.clone())];
        let mut checked = 0;
        while let Some((i, g)) = stack.pop() {
            let nd = t.nodes[i];
            for c in nd.first as usize..(nd.first + nd.n_children as u32) as usize {
                let ch = t.nodes[c];
                if ch.forbidden() {
                    continue; // superko
                }
                if !g.is_legal(ch.mv) {
                    return Err(format!(
                        "node {c}: {} is not legal after {:?} (depth of node {i})",
                        g.move_to_text(ch.mv),
                        g.history_len()
                    ));
                }
                checked += 1;
                if ch.n_children > 0 && ch.visits > 50 {
                    let mut h = g.clone();
                    h.make(ch.mv);
                    stack.push((c, h));
                }
            }
        }
        Ok(checked)
    }

    /// A root move with more than 100,000 games (a long search, or a reused tree) is still a
    /// candidate: the superko mark once was "at least 10⁵ games", and level 6 at 2 s a move
    /// then played its second-best move and lost every game to level 5.
    #[test]
    fn a_much_visited_move_is_not_taken_for_a_forbidden_one() {
        let pos = Go::new(9, 7.0).unwrap();
        let mut t = Tree::new(3, 100_000);
        t.set_root(&pos);
        let root = Board::from_go(&pos, PASS);
        for _ in 0..50 {
            t.iterate(&root, 2);
        }
        let r = t.nodes[0];
        let best = (r.first as usize..(r.first + r.n_children as u32) as usize)
            .find(|&c| t.nodes[c].mv != PASS)
            .unwrap();
        let mv = t.nodes[best].mv;
        t.nodes[best].visits = 250_000;
        t.nodes[best].n = 250_000.0;
        t.nodes[best].w = 140_000.0;
        let merged = merge_root(std::slice::from_ref(&t));
        let top = merged.iter().max_by_key(|m| m.1).unwrap();
        assert_eq!(top.0, mv, "{merged:?}");
        assert!((top.2 - 0.56).abs() < 0.01);
        // a child the real rules forbid is still left out
        t.nodes[best].n = f32::INFINITY;
        assert!(t.nodes[best].forbidden());
        assert!(
            merge_root(std::slice::from_ref(&t))
                .iter()
                .all(|m| m.0 != mv)
        );
    }

    #[test]
    fn long_searches_with_reuse_keep_a_sound_tree() {
        let mut pos = Go::new(9, 7.0).unwrap();
        // 20,000 playouts a move: long searches with their trees kept (level 6's 96,000 would
        // make the test slow in a debug build)
        let mut cpu = GoCpu::new(6);
        cpu.set_playouts(Some(20_000));
        let mut other = GoCpu::new(3);
        let stop = Arc::new(AtomicBool::new(false));
        let mut reused = 0;
        for k in 0..10 {
            let r = cpu.choose(&pos, Duration::from_secs(60), &stop, k, &mut |_| {});
            // (a reply the search never visited leaves nothing to keep)
            if k > 0 && cpu.reused_playouts() > 0 {
                reused += 1;
            }
            for t in &cpu.trees {
                let n = check(t, &pos).unwrap_or_else(|e| panic!("move {k}: {e}"));
                assert!(n > 100);
            }
            pos.make(r.best.unwrap());
            // the opponent's move: the tree is reused two plies down
            let r = other.choose(&pos, Duration::from_secs(60), &stop, k, &mut |_| {});
            pos.make(r.best.unwrap());
        }
        assert!(reused >= 6, "the tree is reused: {reused} of 9 moves");
    }
}
