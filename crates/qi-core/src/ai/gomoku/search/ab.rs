//! A second main search ([`super::Config::ab`], match setting `ab`, off by default): Qi's
//! board, evaluation, quick wins, exact defences and quiescence under the whole shape of
//! Rapfi's alpha-beta search (its `search<Rule, NT>` and `aspirationSearch`, read, not
//! copied), where sessions 19-49 had moved its parts into [`Search::pvs`] one at a time and
//! none of them had helped there (session 48: Rapfi's search with Qi's weights scored 13-18
//! points more against Rapfi than Qi's search did).
//!
//! What it has of Rapfi's: depths in fractions of a ply; every candidate, off the principal
//! variation cut by a move count of 3 + depth^1.32 (half that off an improving line); a
//! transposition table that marks positions that were on a principal variation; the node's
//! static evaluation (its parent's negated where the opponent threatens a four) and the
//! improvement over two plies; futility pruning of the node; the fail-high reduction;
//! pruning of moves without a shape of either side below 4.3 plies, and of far defences;
//! late-move reductions of ln(depth) × ln(move count) (0.75 of that under renju), more off an
//! improving line, less on the principal variation by the share of the root's window, plus
//! the position's complexity (the points with a shape of a two or more), less on a former
//! principal variation, more at odd plies that do not beat the root's alpha, more for a
//! defence far from the threat, less for a continued attack and for a point forbidden to
//! Black that White takes; a search again at full depth when a reduced one beats alpha; a
//! ply less for the later moves once one beat alpha; iterative deepening with aspiration
//! windows; with [`super::Config::history`] (match setting `history=1`) also its history
//! ordering (attacks and quiet moves apart, with its bonus and "gravity") and its counter
//! move, where no threat is to be answered. Left out, as they did not help Rapfi's search
//! with Qi's weights (session 49's switches) or need what Qi's board does not keep:
//! razoring, the null move, the extra reduction at cut nodes, singular and table-move
//! extensions, the history's part in the reductions and the policy-based terms. Rapfi's
//! margins are in its units (250 a logit); here they are 1.6 times as large. The root keeps
//! Qi's own steps (the immediate decisions, the VCF and VCT with their share of the time, the
//! defences against the opponent's, the check of a new best move), then deepens with this
//! search.
//!
//! Session 50's measurements, against Rapfi's classical evaluation at 1 s a move (`qi-engine
//! match gomoku`, the openings files, 40 games, `--seed 5001` unless said, two matches side
//! by side, load about 2):
//!
//! | `gomocup --set` | rule | W-D-L | score |
//! |---|---|---|---|
//! | `ab=1` (first build) | freestyle | 10-0-30 | 25% |
//! | `ab=1,range=3` (Rapfi's `square3_line4` candidates) | freestyle | 8-0-32 | 20% |
//! | `ab=1,avg2=1` | freestyle | 9-0-31 | 22.5% |
//! | `ab=1,vct=0,vctdefend=0,verify=0` (no VCT steps at the root) | freestyle | 7-0-33 | 17.5% |
//! | `ab=1` (1.16 M nodes a second instead of about 0.5 M: the complexity counted only where needed, no more candidates than the move count off the principal variation) | freestyle | 8-0-32 | 20% |
//! | the same | renju | 5-0-35 | 12.5% |
//! | `ab=1,order=1` with Rapfi's ordering tables on Qi's shapes (session 48's file, a build outside the repo) | freestyle | 7-0-33 | 17.5% |
//! | the same with `range=2` (7 × 7) | freestyle | 7-2-31 | 20% |
//! | `ab=1,p33=0` (a three-three point of the opponent's no longer narrows the moves to its answers, as in Rapfi) | freestyle | 11-0-29 | 27.5% |
//! | `ab=1,history=1` | freestyle | 9-2-29 | 25% |
//! | `ab=1,history=1,p33=0` | freestyle | 16-1-23 | 41.3% |
//! | the same, `--seed 5002` and `5003` (one match at a time for the last) | freestyle | 12-0-28, 11-0-29 | 30%, 27.5% (39-1-80, **32.9%**, in 120 games) |
//! | the same | renju | 8-0-32 (three wins as Black) | 20% |
//! | main's `gomocup` (`qi-s45-v`) | renju | 4-0-36 | 10% |
//! | main's `gomocup` starting new depths until its deadline (`spend=100`) | renju | 4-0-36 | 10% |
//!
//! Rapfi's own search with Qi's weights and Qi's candidate range (session 48's `rapfi-qw2`
//! build, Rapfi's ordering tables kept) scored 18-1-21 (46.3%) in freestyle on the same
//! openings, where session 48 had measured 10-1-29 (26.3%): 28-2-50 (36.3%) in 80 games, so
//! at the same candidate range Rapfi's search is well ahead of Qi's `pvs`, not level with it.
//!
//! So `qi-engine gomocup` plays freestyle with `ab=1,history=1,p33=0` since this session
//! (`AB_RULES`): 32.9% in 120 games against the old search's 22.8% in 160 (sessions 45-47),
//! a standard error of about 4 points, so above the 30% but not by much. Renju kept
//! `pvs` then: 8-0-32 there is above main's 4-0-36 of the same evening but no clear gain, and
//! far from 30%. Each part alone (the search, its history, `p33=0`) scored 20-27.5%; only the
//! three together did better.
//!
//! Session 51 added Rapfi's remaining search steps as settings, all off: its internal
//! iterative reductions on the principal variation ([`super::Config::iir`], `iir`), its
//! extensions but the singular one ([`super::Config::ext`], `ext`), its singular extension
//! with multi-cut ([`super::Config::singular`], `se`), its history in the reductions
//! ([`super::Config::hist_reduction`], `hred`) and its extension of the full-depth search
//! after a reduced one beat alpha ([`super::Config::lmr_ext`], `lmrext`). Against Rapfi at 1 s
//! a move (40 games a match unless said, two matches side by side, load about 2):
//!
//! | `gomocup --set` | rule, seed | W-D-L | score |
//! |---|---|---|---|
//! | `ab=1,history=1,p33=0` (session 50's freestyle default) | renju 5102 | 6-0-34 | 15% |
//! | **`ab=1,history=1`** (the narrowing to a three-three point's answers kept) | renju 5102, 5103, 5104 | 10-0-30 each | 25% |
//! | the same as `gomocup`'s renju default (no `--set`) | renju 5105, 5106 | 6-0-34, 8-0-32 | 17.5% (**44-0-156, 22%**, in 200 games) |
//! | `ab=1,history=1,iir=1` | renju 5102 | 6-0-34 | 15% |
//! | `ab=1,history=1,ext=1` | renju 5102 | 5-0-35 | 12.5% |
//! | `ab=1,history=1,se=1` (stopped) | renju 5102 | 0-0-12 | 0% |
//! | `ab=1,history=1,hred=1,lmrext=1` | renju 5102 | 8-0-32 | 20% |
//! | `hred=1,lmrext=1` (on the freestyle default) | freestyle 5004, 5005 | 15-1-24, 12-2-26 | 35.6% |
//! | the freestyle default (`ab=1,history=1,p33=0`) | freestyle 5004, 5005, 5006 | 12-1-27, 13-1-26, 12-1-27 | 32.1% |
//!
//! The singular extension cut the depth reached in 900 ms on a four-stone renju position from
//! 18 to 13 (two matches running beside it). So since session 51
//! `gomocup` searches renju with `ab=1,history=1` as well (`AB_RULES`; `p33=0` stays
//! freestyle's alone): 22% in 200 games where the old search had scored 14.2% in 240
//! (sessions 47, 49 and 50), still short of 30%. Freestyle's default has scored 76-4-160 (32.5%) in
//! 240 games (sessions 50-51). Every one of these renju matches played the file's 20 openings
//! with both colours; in each of the first three `ab=1,history=1` matches Qi won 3 of its 20
//! games as Black and 7 of 20 as White, in the last two 2 and 4, 2 and 6. `hred=1,lmrext=1` in freestyle
//! (35.6% against the default's 32.5% on the same seeds) is within the noise and stays off.
//!
//! Session 52 (a new machine, Rapfi rebuilt from its newest sources the same way) closed a gap
//! with Rapfi's `oppo4`: the opponent's open-four points (an open four or two fours) came from
//! the board's threat sets, which under renju hold Black's four-four and overline points too,
//! so a forbidden point made White's node skip its static evaluation and futility pruning and
//! prune far moves as if Black threatened a win. Rapfi counts no forbidden point there.
//! [`super::Config::open4_allowed`] (`f4=1`) counts only the points Black may play
//! ([`super::Engine::opp_open4`]); `f4=2` ([`super::Config::open4_eval`]) also leaves that bit
//! out of White's threat mask in the evaluation. Against Rapfi at 1 s a move (the renju
//! openings file, 40 games a match, two matches side by side, niced builds beside most of
//! them, load 2-6):
//!
//! | `gomocup` under renju | seeds | W-D-L | score |
//! |---|---|---|---|
//! | main (`ab=1,history=1`) | 5201, 5202 | 8-0-32, 8-0-32 (3 of 40 won as Black, 13 of 40 as White) | 20% |
//! | `f4=1` | 5203, 5204, 5207, 5208 | 12-0-27 (39 games: one more was Rapfi's forfeit when its process was killed by mistake), 8-0-32, 11-0-29, 7-0-33 | 38-0-121, 23.9% |
//! | `f4=2` | 5209 | 9-0-31 | 22.5% |
//! | `f4=1` with renju weights refitted on this search's games and principal variations (not shipped; the patterns module doc) | 5205, 5206 | 10-0-30, 6-0-34 | 20% |
//! | `f4=1` as `gomocup`'s default (no `--set`; load about 6, a cold app build beside them) | 5210, 5211 | 3-1-36, 9-0-31 | 15.6% |
//!
//! So `f4=1` scored 50-1-188 (21.1%) in 239 games against main's 20% in 80 this session and
//! 22% in 200 in session 51: no gain, within the noise (a standard error of about 2.6 points
//! at 239 games). It is the rule's own reading of the threat and lost nothing, so it is
//! `gomocup`'s default since (`--set f4=0` for the search before); renju stays below 30%.
//!
//! Session 53 (the same setting, load about 2, two matches side by side): new depths started
//! until the deadline instead of until 75% of the move's time (`--set spend=100`) scored
//! 7-0-33, 17-0-23, 9-0-31 and 11-0-29 (seeds 5312-5315): **44-0-116, 27.5% in 160 games**, 14
//! of 80 won as Black and 30 of 80 as White, where the default has scored 94-1-344 (21.5%) in
//! 439 games (sessions 51-52). About 1.5 standard errors apart, and the four matches from the
//! same openings ranged from 17.5% to 42.5%; Qi took 0.52-0.58 s a move against 0.50 s with
//! the default (Rapfi 0.68-0.73 s). Then both side by side in the same minutes on seed 5316:
//! `spend=100` 11-0-29, the default 10-0-30. So `spend=100` 55-0-145 (27.5%) in 200 games;
//! not made the default on this evidence (with the search before `ab`, `spend=100` had
//! scored 4-0-36); the lead to confirm with more paired games. Session 54 paired them three
//! times more (seeds 5401-5403, side by side, load about 2): `spend=100` 10-0-30, 10-0-30,
//! 7-0-33 (27-0-93, 22.5%), the default 10-0-30, 11-0-29, 9-0-31 (30-0-90, 25%). Qi took
//! 0.53-0.58 s a move with `spend=100`, 0.52 s with the default (Rapfi 0.67-0.72 s): few
//! moves end between 75% of the time and the deadline, so the setting changes little. Over
//! 320 games `spend=100` scored 82-0-238 (25.6%): the lead was noise, and 75% stays. The
//! Black-threat mask after Rapfi's FORBID class (21.2% in 80 games, not kept) is in the
//! patterns module doc.
//!
//! Session 56 (a new machine, Rapfi rebuilt from its newest sources the same way; two matches
//! side by side, load about 2, a cold CI build beside the first pair): main's renju default
//! 9-0-31 and 7-0-33 (seeds 5601-5602; 4 of 40 won as Black, 12 of 40 as White; Qi 0.51 s a
//! move, Rapfi 0.72 s). Without the threat searches at the root (`--set
//! vct=0,vctdefend=0,verify=0`: Rapfi has no such step, and the main search then has the
//! whole move) 10-0-30, 9-0-31, 8-0-32, 5-0-35 (seeds 5601-5604; 32-0-128, **20.0%** in 160
//! games, 13 of 80 won as Black; 0.55-0.57 s a move): no gain, so the root keeps them.
//! `hred=1,lmrext=1` under renju 9-0-31 (seed 5605; with session 51's 8-0-32, 21.3% in 80):
//! no gain either. A profile of `gomocup` under renju (perf, 26 positions of these games at
//! 1 s each) put about three quarters of the time in this search and a seventh in the root's
//! VCT steps; `Board::place` took 25%, the forbidden checks 10-12%, the table's probe 6%. A
//! prefetch of the child's table bucket after each move (the same nodes, checksum
//! `aaca2184ec8db8ce` at depth 9) showed no difference within the bench's spread on the
//! loaded machine (250-380 k nodes a second for both builds) and is not kept. Freestyle's
//! default, measured again: 9-0-31 and 9-0-31 (seeds 5605-5606, 22.5% in 80 games; 7 of 40
//! won as Black), against 32.5% in 240 games in sessions 50-51: with this Rapfi build
//! freestyle is below 30% as well.
//!
//! Session 57 (the same machine and Rapfi build, load about 2) measured freestyle's default
//! again: 13-0-27 and 11-0-29 (seeds 5607-5608; 11 of 40 won as Black, 13 of 40 as White),
//! so 42-0-118 (**26.3%**) in 160 games over sessions 56-57; a third match (seed 5609) was
//! lost with the machine before it ended. Rapfi, on positions of those games and on the same
//! loaded machine, reported 239-389 k nodes a second at nominal depths 14-28, about Qi's own
//! node rate: the gap is not raw speed. Rapfi's evaluation of every position of ten lost renju
//! games with Qi as Black (session 56's seed 5601) found no single blunder: Black's value
//! drifts from about +100-160 (Rapfi's units) at plies 3-12 to below zero by plies 16-24,
//! while Qi's own score for Black stays far higher (in one game +1196 in Rapfi's units at ply
//! 20 where Rapfi gave +42; in another +500-900 through plies 8-22 where Rapfi gave +45-250).
//! In the first of those the move Qi then played let White answer with a counter-four Qi's
//! principal variation did not foresee: a miss of the search in a tactical line, not of the
//! rules. Qi as Black in renju is over-optimistic, and loses slowly, not by one move.
//!
//! Session 58 (a new machine, Rapfi rebuilt from its newest sources the same way; two matches
//! side by side, a cold build and the whole test suite beside the first three pairs, load
//! 2-4). A relay timing each of `gomocup`'s answers in four renju games (0-0-4) found no time
//! left unused: a quarter of the moves are forced and take at most 11 ms, the others 0.69-0.90
//! s. Rapfi's default candidate range (`square3_line4`: within three points of a stone and
//! four along its lines; `--set range=3`) on freestyle's default scored 15-0-25, 15-0-25,
//! 16-0-24 and 13-3-24 (seeds 5812-5814, 5816): **59-3-98, 37.8% in 160 games** (29 of 80
//! won as Black, 30 of 80 as White), where the 5 × 5 range scored 11-0-29, 13-1-26, 11-3-26
//! and 15-1-24 (seeds 5811, 5813, 5814, 5816, the last three beside the wide range's):
//! 50-5-105, 32.8% in 160; within three alone (`range=2`, 7 × 7) 14-0-26 and 11-0-29 (31.3%
//! in 80). Every match plays the same 40 (opening, colour) pairs; the wide range's four
//! matches scored 36-40%, the narrow one's 27.5-38.8%. A lead of 5 points is about one
//! standard error, but it points where session 48's did (Rapfi's own search with these
//! weights lost 15 points in freestyle when narrowed to 5 × 5), and in no match did the wide
//! range do worse than 36%: so freestyle's default takes it since ([`super::super::WIDE_RULES`];
//! `--set range=0` for the 5 × 5). Qi took 0.40 s a move with it, 0.39 s without (Rapfi 0.54
//! s). Under renju (seed 5815, side by side) the wide range scored 11-0-29 (4 of 20 won as
//! Black) and the default 12-0-28 (1 of 20 as Black, 11 of 20 as White; 30%, against 21-22%
//! over sessions 51-56): no gain, so renju keeps 5 × 5.
//! The build with the wide range as freestyle's default, then, side by side on seed 5817:
//! 19-0-21 (47.5%; 9 of 20 won as Black) with it and 9-0-31 (22.5%) with `--set range=0`. In
//! all, the wide range **78-3-119 (39.8%) in 200 games**, the 5 × 5 59-5-136 (30.8%) in 200:
//! about two standard errors apart.
//!
//! Session 59 (the same machine and Rapfi build; two matches side by side, load about 2).
//! Rapfi (300 ms a position) valued the position before and after each of Qi's moves up to
//! the 40th stone in the 19 renju games Qi lost as Black in session 58's main match (seed
//! 5815): Rapfi would have played Qi's move at 101 of 224; Black's value fell by 37 (Rapfi's
//! units) on average at Qi's first move (ply 5, from about +100), by 65 a move at plies 6-11,
//! by about nothing at plies 12-17 and by 55-118 a move at plies 18-35: a steady loss, as
//! session 57 found, with two single moves of 650 or more. At the 44 moves other than
//! Rapfi's that lost 100 or more, `gomocup` at 1 s on the position after its own move and
//! after Rapfi's preferred its own in 23 and Rapfi's in 18: in part a misjudgement, in part
//! a choice its own search would not repeat. In one
//! game its search already counted Black lost at the 10th stone, where Rapfi gave -490 and
//! found White's mate two moves later. Against Rapfi at 1 s a move under renju (seed 5901
//! unless said): Rapfi's two-position average of the point sum (`avg2=1,savg=1`) 9-1-30;
//! Black's positive point weights at 60% while Qi plays Black (a less optimistic Black;
//! a build not kept) 6-0-34 (1 of 20 won as Black); Rapfi's candidate range
//! (`range=3`) 5-0-35; the margins' unit ([`super::Config::unit`], match setting `unit`, 160 by
//! the units alone) at 240 (less pruning) 4-0-36 and at 110 (more) 7-0-33; main 11-0-29
//! beside them. None kept. Main's renju default, seeds 5901-5905 (the last four beside
//! each other in pairs): 11-0-29, 10-0-30, 7-0-33, 7-0-33, 13-0-27, **48-0-152 (24.0%) in 200
//! games** (15 of 100 won as Black, 33 of 100 as White; Qi 0.49-0.54 s a move, Rapfi
//! 0.71-0.75 s), 25.0% in 240 with session 58's: the renju figure is where sessions 51-56
//! left it. Every variant above played seed 5901 alone, so it is to be read against main's
//! spread over the five seeds (17.5-32.5%): `range=3` and `unit=240` fell below it, the
//! others within it. Twice or three times the turn time lifted renju to only 32.5-35%
//! (sessions 44 and 54), and Qi as Black won 0-7 of 20 even then: what Black lacks is
//! knowledge of the position (the evaluation), not depth.
//!
//! Session 65: [`super::Config::answer33`] (`a33=1`: a quiet move that takes one of the
//! opponent's three-three points away and makes a three or more answers them too; the
//! `defence` module, which this search shares) had been measured against Rapfi only with the
//! search before this one. Under renju with this search: 8-0-32 and 8-0-32 (seeds 6511-6512,
//! side by side, load about 2; 5 of 40 won as Black), 20.0% in 80 games against main's 23.3%
//! in 120: not kept.

use super::*;

/// Rapfi's `Pattern4` classes of a point for one side, weakest first.
pub(super) const P_NONE: u8 = 0;
pub(super) const P_FORBID: u8 = 1;
pub(super) const P_L_FLEX2: u8 = 2;
pub(super) const P_K_BLOCK3: u8 = 3;
pub(super) const P_J_FLEX2_2X: u8 = 4;
pub(super) const P_I_BLOCK3_PLUS: u8 = 5;
pub(super) const P_H_FLEX3: u8 = 6;
pub(super) const P_G_FLEX3_PLUS: u8 = 7;
pub(super) const P_F_FLEX3_2X: u8 = 8;
pub(super) const P_E_BLOCK4: u8 = 9;
pub(super) const P_D_BLOCK4_PLUS: u8 = 10;
pub(super) const P_C_BLOCK4_FLEX3: u8 = 11;
pub(super) const P_B_FLEX4: u8 = 12;
pub(super) const P_A_FIVE: u8 = 13;

/// The class of a point from its four line shapes (one look-up in a table of
/// [`pattern4_of_lines`] by the shapes' key).
#[inline]
pub(super) fn pattern4(s: PointShape) -> u8 {
    static T: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let t = T.get_or_init(|| {
        let mut t = vec![P_NONE; 16_384];
        for (k, slot) in t.iter_mut().enumerate().take(10_000) {
            let lines = [
                (k / 1000) as u8,
                (k / 100 % 10) as u8,
                (k / 10 % 10) as u8,
                (k % 10) as u8,
            ];
            *slot = pattern4_of_lines(PointShape { lines });
        }
        t
    });
    t[s.key() & (16_384 - 1)]
}

/// The class of a point from its four line shapes, counted.
fn pattern4_of_lines(s: PointShape) -> u8 {
    use super::super::board::{B3, F2, F4, FIVE};
    let mut n = [0u8; 10];
    for l in s.lines {
        n[l as usize] += 1;
    }
    let (b4, f3, b3, f2) = (
        n[B4 as usize],
        n[F3 as usize],
        n[B3 as usize],
        n[F2 as usize],
    );
    if n[FIVE as usize] > 0 {
        P_A_FIVE
    } else if n[F4 as usize] > 0 || b4 >= 2 {
        P_B_FLEX4
    } else if b4 > 0 {
        if f3 > 0 {
            P_C_BLOCK4_FLEX3
        } else if b3 + f2 > 0 {
            P_D_BLOCK4_PLUS
        } else {
            P_E_BLOCK4
        }
    } else if f3 >= 2 {
        P_F_FLEX3_2X
    } else if f3 > 0 {
        if b3 + f2 > 0 {
            P_G_FLEX3_PLUS
        } else {
            P_H_FLEX3
        }
    } else if b3 >= 2 || (b3 > 0 && f2 > 0) {
        P_I_BLOCK3_PLUS
    } else if f2 >= 2 {
        P_J_FLEX2_2X
    } else if b3 > 0 {
        P_K_BLOCK3
    } else if f2 > 0 {
        P_L_FLEX2
    } else {
        P_NONE
    }
}

/// Below this depth a move without a shape of either side is not searched, nor a defence
/// far from both last stones.
const TRIVIAL_PRUNE_DEPTH: f32 = 4.3;

/// One ply of the line being searched (Rapfi's search stack entry).
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    /// The node's static evaluation ([`NO_EVAL`] where none).
    eval: i32,
    /// The classes of the move played from this node, for Black and White ([`pattern4`]).
    p4: [u8; 2],
    /// The move played from this node.
    mv: Option<Move>,
    /// The node is or was on a principal variation.
    tt_pv: bool,
    /// The move left out of the node's search (Rapfi's `skipMove`: the singular test).
    skip: Option<Move>,
    /// The extensions beyond one ply along the line (Rapfi's `extraExtension`).
    extra: f32,
}

impl Frame {
    pub(super) const EMPTY: Frame = Frame {
        eval: NO_EVAL,
        p4: [P_NONE; 2],
        mv: None,
        tt_pv: false,
        skip: None,
        extra: 0.0,
    };
}

/// The stack's slots below ply 0 (Rapfi reads up to four plies back).
pub(super) const BELOW: usize = 4;

/// Chebyshev distance of two moves; far (99) when either is missing.
#[inline]
fn dist(a: Move, b: Option<Move>) -> i32 {
    match b {
        Some(b) => {
            let dx = ((a & 31) as i32 - (b & 31) as i32).abs();
            let dy = ((a >> 5) as i32 - (b >> 5) as i32).abs();
            dx.max(dy)
        }
        None => 99,
    }
}

#[inline]
fn ln(x: f32) -> f32 {
    if x <= 1.0 { 0.0 } else { x.ln() }
}

/// Rapfi's move count: 3 + depth^1.32, halved off an improving line.
#[inline]
pub fn move_count_limit(depth: f32, improving: bool) -> usize {
    let d = depth.max(0.0) as i32;
    let mc = if d <= 0 {
        0
    } else {
        3 + (d as f32).powf(1.32) as usize
    };
    if improving { mc } else { mc / 2 }
}

/// Rapfi's futility margin (its scale per rule, less at a cut node the table does not know).
#[inline]
fn futility_margin(unit: f32, renju: bool, d: f32, no_tt_cut: bool, improving: bool) -> i32 {
    let scale = if renju { 80.0 } else { 63.0 } - 12.0 * no_tt_cut as i32 as f32;
    ((scale * (d - improving as i32 as f32)).max(0.0) * unit) as i32
}

/// Rapfi's history bonus for a cut at `depth`.
#[inline]
fn stat_bonus(depth: f32) -> i32 {
    ((25.0 * depth * depth + 105.0 * depth - 157.0) as i32).min(8927)
}

/// A history entry moved by `bonus`, kept within ±10,692 (the "gravity" of Stockfish's and
/// Rapfi's tables).
#[inline]
fn hist_add(e: &mut i16, bonus: i32) {
    let v = *e as i32;
    *e = (v + bonus - v * bonus.abs() / 10_692).clamp(-10_692, 10_692) as i16;
}

impl Search {
    /// Rapfi's margins are in units of 250 a logit, Qi's evaluation in 400: × 1.6
    /// ([`Config::unit`]).
    #[inline]
    fn unit(&self) -> f32 {
        self.cfg.unit as f32 / 100.0
    }

    /// [`Config::history`] with [`Config::ab`]: the candidates of `ply` by ordering score
    /// plus Rapfi's history (attacks a 128th, quiet moves a 256th) and 21 for the counter
    /// move of the opponent's last stone, the table's move first; the best `width` into
    /// `out`.
    fn ab_order(
        &mut self,
        e: &Engine,
        ply: usize,
        tt_move: Option<Move>,
        width: usize,
        out: &mut Vec<Move>,
    ) {
        out.clear();
        let me = e.side();
        let last = self.back(ply, 1).mv;
        let counter =
            last.map(|l| self.ab_counter[me.other().index()][l as usize & (HISTORY_SLOTS - 1)]);
        let hist = &self.ab_hist[me.index()];
        let cands = &self.cands[ply][..self.cand_len[ply]];
        let key = |c: &Cand| {
            if Some(c.mv) == tt_move {
                return (i32::MAX, c.mv);
            }
            let h = hist[c.mv as usize & (HISTORY_SLOTS - 1)];
            let mut k = c.order
                + if c.me & THREAT != 0 {
                    h[0] as i32 / 128
                } else {
                    h[1] as i32 / 256
                };
            if let Some((cm, cp4)) = counter
                && cm == c.mv
                && cp4 <= pattern4(e.b.shape(me, c.mv))
            {
                k += 21;
            }
            (k, c.mv)
        };
        best_first(
            cands.iter().map(key),
            width,
            |m| e.allowed(m),
            &mut self.top_buf,
            out,
        );
    }

    /// Rapfi's history after a node with a best move: a bonus for it (as an attack if it
    /// makes a three or more, else as a quiet move where the opponent threatens no four), a
    /// malus for the other attacks and quiet moves searched, and the counter move of the
    /// opponent's last stone.
    fn ab_history(
        &mut self,
        e: &Engine,
        ply: usize,
        depth: f32,
        best: Move,
        oppo4: bool,
        oppo5: bool,
    ) {
        let me = e.side();
        let s = me.index();
        let p4 = pattern4(e.b.shape(me, best));
        let bonus = stat_bonus(depth);
        let slot = |m: Move| m as usize & (HISTORY_SLOTS - 1);
        if p4 >= P_H_FLEX3 {
            hist_add(&mut self.ab_hist[s][slot(best)][0], bonus);
        } else if !oppo4 {
            hist_add(&mut self.ab_hist[s][slot(best)][1], bonus);
            for &(m, attack) in &self.ab_searched[ply] {
                if !attack {
                    hist_add(&mut self.ab_hist[s][slot(m)][1], -bonus);
                }
            }
        }
        for &(m, attack) in &self.ab_searched[ply] {
            if attack {
                hist_add(&mut self.ab_hist[s][slot(m)][0], -bonus);
            }
        }
        if !oppo5 && let Some(last) = self.back(ply, 1).mv {
            self.ab_counter[me.other().index()][slot(last)] = (best, p4);
        }
    }

    #[inline]
    fn frame(&mut self, ply: usize) -> &mut Frame {
        &mut self.ab_stack[ply + BELOW]
    }

    #[inline]
    fn back(&self, ply: usize, k: usize) -> Frame {
        self.ab_stack[ply + BELOW - k]
    }

    /// The classes of `m` for Black and White, with Black's forbidden point as
    /// [`P_FORBID`] under renju.
    #[inline]
    fn move_p4(&self, e: &Engine, m: Move) -> [u8; 2] {
        let (b, w) = (Side::Black, Side::White);
        let mut pb = pattern4(e.b.shape(b, m));
        if e.renju && e.b.black_may_be_forbidden(m) && !e.allowed_for(b, m) {
            pb = P_FORBID;
        }
        [pb, pattern4(e.b.shape(w, m))]
    }

    /// Rapfi's late-move reduction of the `count`-th move at `depth`.
    #[inline]
    fn ab_reduction(&self, renju: bool, depth: f32, count: usize) -> f32 {
        let f = if renju { 0.75 } else { 1.0 };
        f * ln(depth.floor()) * f * ln(count as f32)
    }

    /// The node of Rapfi's search at `depth` plies (fractions too) from `ply`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn ab(
        &mut self,
        e: &mut Engine,
        mut depth: f32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        pv: bool,
        cut: bool,
    ) -> i32 {
        if self.enter_node() {
            return 0;
        }
        let sc = Self::quick_scan(e);
        if sc.my_five.is_some() {
            return MATE - (ply as i32 + 1);
        }
        if sc.opp_fives >= 2 {
            return -(MATE - (ply as i32 + 2));
        }
        let oppo5 = sc.opp_fives == 1;
        if oppo5 && !e.allowed(sc.opp_five) {
            return -(MATE - (ply as i32 + 2));
        }
        let (me, op) = (e.side(), e.side().other());
        // (Rapfi's oppo4: a five or an open four of the opponent next move)
        let oppo4 = oppo5 || e.opp_open4(self.cfg.open4_allowed);
        if depth <= 0.0 {
            return self.qsearch(e, ply, alpha, beta, 0);
        }
        if ply >= MAX_PLY - 2 {
            return self.evaluate(e, &sc);
        }
        if !oppo5 && let Some(w) = self.quick_win(e, ply) {
            return w;
        }
        // mate distance pruning
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - (ply as i32 + 1));
        if alpha >= beta {
            return alpha;
        }
        let renju = e.renju;
        let key = e.hash();
        // (the singular test's search of the other moves neither reads nor writes the table)
        let skip = self.frame(ply).skip;
        let mut tt_move = None;
        let mut tt = None;
        if skip.is_none()
            && let Some(t) = self.tt.probe(key)
        {
            tt_move = t.mv.filter(|&m| e.allowed(m));
            tt = Some((from_tt(t.score, ply), t.bound, t.depth as f32, t.pv));
        }
        let tt_pv = if skip.is_some() {
            self.frame(ply).tt_pv
        } else {
            pv || tt.is_some_and(|t| t.3)
        };
        self.frame(ply).tt_pv = tt_pv;
        self.frame(ply + 1).tt_pv = false;
        if !pv
            && let Some((s, b, d, _)) = tt
            && d >= depth
            && match b {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s < beta,
            }
        {
            // (Rapfi's history of the table's move: a quiet move that cut or did not)
            if self.cfg.history
                && !oppo4
                && let Some(m) = tt_move
                && pattern4(e.b.shape(me, m)) < P_H_FLEX3
            {
                let bonus = stat_bonus(depth);
                let h = &mut self.ab_hist[me.index()][m as usize & (HISTORY_SLOTS - 1)][1];
                hist_add(h, if s >= beta { bonus } else { -bonus });
            }
            return s;
        }
        // the static evaluation, and the pruning by it
        let mut eval = NO_EVAL;
        let mut improvement = 0;
        if oppo4 {
            let parent = self.back(ply, 1).eval;
            self.frame(ply).eval = if parent == NO_EVAL { NO_EVAL } else { -parent };
        } else {
            let stat = self.evaluate(e, &sc);
            self.frame(ply).eval = stat;
            eval = stat;
            if let Some((s, b, _, _)) = tt
                && s.abs() < MATE_BOUND
                && match b {
                    Bound::Exact => true,
                    Bound::Lower => s > eval,
                    Bound::Upper => s < eval,
                }
            {
                eval = s;
            }
            let before = self.back(ply, 2).eval;
            improvement = if before == NO_EVAL { 1 } else { stat - before };
            // futility pruning (not after two fours of the side's own in a row)
            let attacking = self.back(ply, 2).p4[me.index()] >= P_E_BLOCK4
                && self.back(ply, 4).p4[me.index()] >= P_E_BLOCK4;
            if !pv
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
                && !attacking
                && eval
                    - futility_margin(
                        self.unit(),
                        renju,
                        depth - 1.0,
                        cut && tt.is_none(),
                        improvement > 0,
                    )
                    >= beta
            {
                return eval;
            }
        }
        // Rapfi's internal iterative reductions on the principal variation: less depth without
        // a table move, and where the table's move comes from a much shallower search
        if self.cfg.iir && pv && !oppo5 {
            match (tt_move, tt) {
                (None, _) => depth -= 0.32,
                (Some(_), Some((_, _, d, _))) if depth > 1.0 => {
                    depth -= ((depth - d) * 0.28).clamp(0.0, 3.6);
                }
                _ => {}
            }
            if depth <= 0.0 {
                return self.qsearch(e, ply, alpha, beta, 0);
            }
        }
        let likely_fail_high = !pv
            && cut
            && eval != NO_EVAL
            && eval
                >= beta
                    + ((-9.0 + 15.0 * depth.floor() + 87.0 * oppo4 as i32 as f32) * self.unit())
                        as i32;

        // the moves: the five's block alone, the exact defences with the side's own fours, or
        // every candidate, the table's move first
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        // (the complexity only once a reduction needs it)
        let mut complexity = -1.0;
        let limit = move_count_limit(depth, improvement > 0);
        if oppo5 {
            moves.push(sc.opp_five);
        } else {
            self.scan_with::<false>(e, ply);
            // (off the principal variation no more than the move count, and a few in case the
            // first ones all lose; the defences against a threat are all kept)
            let width = if pv { usize::MAX } else { limit + 4 };
            if self.cfg.history && !self.opp_threat(e, ply) {
                self.ab_order(e, ply, tt_move, width, &mut moves);
            } else {
                self.node_moves(e, ply, tt_move, width, &mut moves);
            }
        }
        self.ab_searched[ply].clear();
        let mut best = -INF;
        let mut best_move = None;
        let mut count = 0;
        let n = moves.len();
        for i in 0..n {
            let m = moves[i];
            if Some(m) == skip {
                continue;
            }
            count += 1;
            let p4 = self.move_p4(e, m);
            let (mine, theirs) = (p4[me.index()], p4[op.index()]);
            let important =
                mine >= P_J_FLEX2_2X || theirs >= P_H_FLEX3 || (renju && p4[0] == P_FORBID);
            let trivial = p4[0] == P_NONE && p4[1] == P_NONE;
            let dist_op = dist(m, self.back(ply, 1).mv);
            let dist_me = dist(m, self.back(ply, 2).mv);
            let distract = dist_me > if renju { 5 } else { 4 } && dist_op > 4;
            if best > -MATE_BOUND {
                if count >= limit {
                    continue;
                }
                if trivial && depth < TRIVIAL_PRUNE_DEPTH {
                    continue;
                }
                if oppo4 && depth < TRIVIAL_PRUNE_DEPTH && theirs < P_E_BLOCK4 && distract {
                    continue;
                }
            }
            let mut ext = 0.0;
            let mut singular_done = false;
            if !oppo5
                && self.cfg.singular
                && skip.is_none()
                && Some(m) == tt_move
                && depth >= 6.65
                && let Some((tv, tb, td, _)) = tt
                && tv.abs() < MATE_BOUND
                && tb != Bound::Upper
                && td >= depth - 2.03
            {
                // Rapfi's singular extension: are the other moves, searched shallower, all
                // below the table's score less a margin?
                singular_done = true;
                let former_pv = !pv && tt_pv;
                let scale = if renju { 0.94 } else { 0.91 } + former_pv as i32 as f32;
                let sbeta = (tv - (scale * depth * self.unit()) as i32).max(-MATE);
                let sdepth = depth - (depth * 0.54 - former_pv as i32 as f32);
                self.frame(ply).skip = Some(m);
                let v = self.ab(e, sdepth, ply, sbeta - 1, sbeta, false, cut);
                self.frame(ply).skip = None;
                self.ab_searched[ply].clear();
                if self.stopped {
                    self.moves[ply] = moves;
                    return 0;
                }
                if v < sbeta {
                    let double = (29.0 - (depth * 0.6).floor().min(9.0)) * self.unit();
                    ext = if !pv
                        && ((v as f32) < sbeta as f32 - double)
                        && self.back(ply, 1).extra < 10.8
                    {
                        2.0
                    } else {
                        1.0
                    };
                } else if sbeta >= beta {
                    // (multi-cut: the other moves beat beta as well)
                    self.moves[ply] = moves;
                    return beta;
                } else if tv >= beta {
                    ext = -1.5;
                }
            }
            ext += if oppo5 {
                if self.cfg.ext { 1.3 } else { 1.0 }
            } else if singular_done {
                0.0
            } else if self.cfg.ext && Some(m) == tt_move {
                let near4 = if mine >= P_E_BLOCK4 && dist_me <= 6 {
                    if dist_me <= 4 { 0.24 } else { 0.05 }
                } else {
                    0.0
                };
                if pv { 0.25 + near4 } else { 0.08 + near4 }
            } else {
                0.0
            };
            if likely_fail_high {
                if mine >= P_E_BLOCK4 {
                    if self.back(ply, 2).p4[me.index()] >= P_E_BLOCK4 {
                        ext += 1.0;
                    }
                } else {
                    ext -= 1.0;
                }
            }
            let new_depth = depth - 1.0 + ext;
            {
                let extra = self.back(ply, 1).extra + (ext - 1.0f32).max(0.0);
                let f = self.frame(ply);
                f.mv = Some(m);
                f.p4 = p4;
                f.extra = extra;
            }
            if depth >= 2.0 && count > 1 && complexity < 0.0 {
                // (Rapfi's complexity: the points with a two or more, of both sides)
                let mut n = 1u32;
                for c in self.cands(ply) {
                    let a = pattern4(e.b.shape(me, c.mv));
                    let b = pattern4(e.b.shape(op, c.mv));
                    n += (P_L_FLEX2..=P_D_BLOCK4_PLUS).contains(&a) as u32
                        + (P_L_FLEX2..=P_D_BLOCK4_PLUS).contains(&b) as u32;
                }
                complexity = (n as f32).ln();
            }
            self.path[ply] = Some(m);
            self.four_at[ply] = mine >= P_E_BLOCK4;
            let u = e.make(m);
            let mut value = -INF;
            if depth >= 2.0 && count > 1 {
                let mut r = self.ab_reduction(renju, depth, count);
                if pv {
                    let delta = (beta - alpha) as f32 / self.ab_root_delta.max(1) as f32;
                    r = (r - delta).max(0.0);
                } else if improvement <= 0 && r > 1.0 {
                    r += 1.0;
                }
                let cr = if renju {
                    if trivial {
                        if distract { 0.063 } else { 0.028 }
                    } else if !important {
                        0.023
                    } else {
                        0.007
                    }
                } else if trivial {
                    if distract { 0.0968 } else { 0.0385 }
                } else if !important {
                    0.0222
                } else {
                    0.0055
                };
                r += complexity * cr;
                if tt_pv {
                    r -= 0.97;
                }
                if ply & 1 == 1 && best >= -self.ab_root_alpha {
                    r += 0.98;
                }
                if oppo4 && theirs < P_E_BLOCK4 {
                    if dist_op > 4 {
                        r += 1.93;
                    }
                    if dist_me > 4 {
                        r += 0.96;
                    }
                }
                if !oppo4
                    && self.back(ply, 2).p4[me.index()] >= P_H_FLEX3
                    && (mine >= P_H_FLEX3 || (dist_me <= 4 && mine >= P_J_FLEX2_2X))
                {
                    r -= 0.53;
                }
                if renju && p4[0] == P_FORBID {
                    r -= 1.05;
                }
                if self.cfg.history && self.cfg.hist_reduction {
                    // (Rapfi's statScore: the attack and the quiet history of the move)
                    let h = self.ab_hist[me.index()][m as usize & (HISTORY_SLOTS - 1)];
                    let stat = h[0] as i32 + h[1] as i32 * 780 / 1024 - 3322;
                    r -= stat as f32 / if depth > 5.4 { 16_647.0 } else { 12_267.0 };
                }
                let d = (new_depth - r).min(new_depth + 1.0).max(1.0);
                value = -self.ab(e, d, ply + 1, -(alpha + 1), -alpha, false, true);
                if value > alpha && d < new_depth && !self.stopped {
                    let mut full = new_depth;
                    if self.cfg.lmr_ext {
                        // (Rapfi's lmrExtension, capped once the line's extensions pass 5)
                        let gap = new_depth - d;
                        let deeper = value > alpha + ((34.0 + 11.0 * gap) * self.unit()) as i32;
                        let even = value
                            > alpha
                                + ((if renju { 288.0 } else { 349.0 } + 26.0 * gap) * self.unit())
                                    as i32;
                        let shallower = value < best + (new_depth * self.unit()) as i32;
                        let mut x =
                            deeper as i32 as f32 + even as i32 as f32 - shallower as i32 as f32;
                        let extra = self.frame(ply).extra;
                        if extra >= 5.0 {
                            x = x.min(1.0);
                        } else {
                            self.frame(ply).extra = extra + (x - 1.0).max(0.0);
                        }
                        full += x;
                    }
                    if d < full {
                        value = -self.ab(e, full, ply + 1, -(alpha + 1), -alpha, false, !cut);
                    }
                }
            } else if !pv || count > 1 {
                value = -self.ab(e, new_depth, ply + 1, -(alpha + 1), -alpha, false, !cut);
            }
            if pv && (count == 1 || (value > alpha && value < beta)) && !self.stopped {
                value = -self.ab(e, new_depth, ply + 1, -beta, -alpha, true, false);
            }
            e.unmake(m, u);
            if self.stopped {
                self.moves[ply] = moves;
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(m);
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                    if depth > 2.0 && depth < 12.0 && value.abs() < (2000.0 * self.unit()) as i32 {
                        depth -= 1.0;
                    }
                }
            }
            // (the moves searched that are not the best so far, for the history)
            if self.cfg.history && best_move != Some(m) {
                if mine >= P_H_FLEX3 {
                    self.ab_searched[ply].push((m, true));
                } else if !oppo4 {
                    self.ab_searched[ply].push((m, false));
                }
            }
        }
        self.moves[ply] = moves;
        if self.cfg.history
            && let Some(b) = best_move
        {
            self.ab_history(e, ply, depth, b, oppo4, oppo5);
        }
        if count == 0 {
            // no move at all: lost where the opponent threatens, else nothing to play (in the
            // singular test: below its window)
            best = if skip.is_some() {
                alpha
            } else if oppo4 {
                -(MATE - (ply as i32 + 4))
            } else {
                0
            };
        } else if best == -INF {
            // every move pruned (cannot happen before one was searched: kept for safety)
            best = alpha;
        }
        // the principal-variation mark: a node that did not fail high takes it from a parent
        // on a principal variation, one that failed high keeps it only if its last child had
        // it (alpha is the best score unless the node failed high)
        let mut tt_pv = tt_pv;
        if best <= alpha {
            tt_pv = tt_pv || (self.back(ply, 1).tt_pv && depth > 3.0);
        } else if depth > 3.0 {
            tt_pv = tt_pv && self.ab_stack[ply + 1 + BELOW].tt_pv;
        }
        self.frame(ply).tt_pv = tt_pv;
        if skip.is_some() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv && best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store_pv(
            key,
            best_move,
            to_tt(best, ply),
            depth.max(0.0) as i16,
            bound,
            tt_pv,
        );
        best
    }

    /// One iteration at the root over `root` (each move with its score of the iteration,
    /// best first afterwards; a move that did not beat alpha gets `-INF`): the best move and
    /// score, and whether the iteration completed.
    fn ab_root(
        &mut self,
        e: &mut Engine,
        root: &mut [(Move, i32)],
        mut depth: f32,
        mut alpha: i32,
        beta: i32,
    ) -> (Option<Move>, i32, bool) {
        self.ab_root_delta = beta - alpha;
        self.ab_root_alpha = alpha;
        let me = e.side();
        let renju = e.renju;
        let oppo4 = e.opp_open4(self.cfg.open4_allowed);
        let sc = Self::quick_scan(e);
        self.frame(0).eval = if oppo4 || sc.opp_fives > 0 {
            NO_EVAL
        } else {
            self.evaluate(e, &sc)
        };
        self.frame(0).tt_pv = true;
        let mut best = -INF;
        let mut best_move = None;
        let mut complete = true;
        for (i, entry) in root.iter_mut().enumerate() {
            let m = entry.0;
            let count = i + 1;
            self.nodes += 1;
            let p4 = self.move_p4(e, m);
            {
                let f = self.frame(0);
                f.mv = Some(m);
                f.p4 = p4;
            }
            self.path[0] = Some(m);
            self.four_at[0] = p4[me.index()] >= P_E_BLOCK4;
            let new_depth = depth - 1.0;
            let u = e.make(m);
            let mut value = -INF;
            if depth >= 2.0 && count > 2 {
                let r = self.ab_reduction(renju, depth, count);
                let delta = (beta - alpha) as f32 / self.ab_root_delta.max(1) as f32;
                let mut r = (r - delta).max(0.0) - 0.97;
                if renju && p4[0] == P_FORBID {
                    r -= 1.05;
                }
                let d = (new_depth - r).min(new_depth + 1.0).max(1.0);
                value = -self.ab(e, d, 1, -(alpha + 1), -alpha, false, true);
                if value > alpha && d < new_depth && !self.stopped {
                    value = -self.ab(e, new_depth, 1, -(alpha + 1), -alpha, false, true);
                }
            } else if count > 1 {
                value = -self.ab(e, new_depth, 1, -(alpha + 1), -alpha, false, true);
            }
            if (count == 1 || value > alpha) && !self.stopped {
                value = -self.ab(e, new_depth, 1, -beta, -alpha, true, false);
            }
            e.unmake(m, u);
            if self.stopped {
                complete = false;
                break;
            }
            // (Config::verify) a move about to become the best is checked for the opponent's
            // VCF and VCT after it first
            if value > alpha && self.verify_on && value.abs() < MATE_BOUND {
                if let Some(lost) = self.verified(e, m) {
                    value = lost;
                }
                if self.stopped {
                    complete = false;
                    break;
                }
            }
            entry.1 = if count == 1 || value > alpha {
                value
            } else {
                -INF
            };
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(m);
                    self.ab_root_alpha = value;
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                    if depth > 2.0 && depth < 12.0 && value.abs() < (2000.0 * self.unit()) as i32 {
                        depth -= 1.0;
                    }
                }
            }
        }
        // the new best first, the others in their order (stable)
        root.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        if complete && let Some(b) = best_move {
            self.tt.store_pv(
                e.hash(),
                Some(b),
                to_tt(best, 0),
                depth as i16,
                Bound::Exact,
                true,
            );
        }
        (best_move, best, complete)
    }

    /// Iterative deepening over `root` with Rapfi's aspiration windows (from depth 5); the
    /// move to play.
    pub(super) fn ab_iterate(
        &mut self,
        e: &mut Engine,
        root: Vec<Move>,
        max_depth: i32,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Thought {
        for f in self.ab_stack.iter_mut() {
            *f = Frame::EMPTY;
        }
        let mut root: Vec<(Move, i32)> = root.into_iter().map(|m| (m, -INF)).collect();
        let mut best = root[0].0;
        let mut best_score = -INF;
        let mut info = SearchInfo::default();
        let mut prev = 0;
        'deepen: for depth in 1..=max_depth {
            let (mut alpha, mut beta, mut delta) = if depth >= 5 {
                let d = (16.0 * self.unit()) as i32;
                (prev - d, prev + d, d)
            } else {
                (-INF, INF, 0)
            };
            alpha = alpha.max(-INF);
            beta = beta.min(INF);
            let mut fail_high = 0;
            let value = loop {
                let d = (depth - fail_high / 3).max(1) as f32;
                let (b, v, complete) = self.ab_root(e, &mut root, d, alpha, beta);
                if let Some(b) = b {
                    best = b;
                    best_score = v;
                }
                if !complete {
                    break 'deepen;
                }
                if v <= alpha && alpha > -INF {
                    beta = (alpha + beta) / 2;
                    alpha = (v - delta).max(-INF);
                    fail_high = 0;
                } else if v >= beta && beta < INF {
                    beta = (v + delta).min(INF);
                    fail_high += 1;
                } else {
                    break v;
                }
                delta = delta * (3 + v.abs() / (1024.0 * self.unit()) as i32) / 4
                    + (6.0 * self.unit()) as i32;
            };
            prev = value;
            best = root[0].0;
            best_score = value;
            info = self.info(e, depth as u32, best_score, best);
            on_info(&info);
            if self.stopped || self.deepening_done(depth, best_score) {
                break;
            }
        }
        if best_score == -INF {
            best_score = 0;
        }
        let d = info.depth.max(1);
        self.finish(e, best, best_score, d, on_info)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::board::{B1, B2, B3, F1, F2, F4, FIVE};
    use super::*;

    fn shape(lines: &[u8]) -> PointShape {
        let mut s = PointShape::default();
        s.lines[..lines.len()].copy_from_slice(lines);
        s
    }

    #[test]
    fn pattern4_classes_points_as_rapfi_does() {
        for (lines, want) in [
            (&[FIVE, F2][..], P_A_FIVE),
            (&[F4][..], P_B_FLEX4),
            (&[B4, B4][..], P_B_FLEX4),
            (&[B4, F3][..], P_C_BLOCK4_FLEX3),
            (&[B4, B3][..], P_D_BLOCK4_PLUS),
            (&[B4, F2, B1][..], P_D_BLOCK4_PLUS),
            (&[B4, B2][..], P_E_BLOCK4),
            (&[F3, F3][..], P_F_FLEX3_2X),
            (&[F3, F2][..], P_G_FLEX3_PLUS),
            (&[F3, B2][..], P_H_FLEX3),
            (&[B3, B3][..], P_I_BLOCK3_PLUS),
            (&[B3, F2][..], P_I_BLOCK3_PLUS),
            (&[F2, F2][..], P_J_FLEX2_2X),
            (&[B3, B2][..], P_K_BLOCK3),
            (&[F2, F1][..], P_L_FLEX2),
            (&[B2, F1, B1][..], P_NONE),
        ] {
            assert_eq!(pattern4_of_lines(shape(lines)), want, "{lines:?}");
            assert_eq!(pattern4(shape(lines)), want, "{lines:?} (table)");
        }
        // (the order of the lines does not matter)
        assert_eq!(pattern4(shape(&[B2, B1, F3, B4])), P_C_BLOCK4_FLEX3);
        assert_eq!(move_count_limit(1.0, true), 4);
        assert_eq!(move_count_limit(10.0, true), 23);
        assert_eq!(move_count_limit(10.0, false), 11);
        assert_eq!(move_count_limit(0.5, true), 0);
    }

    /// `qi-engine gomocup`'s search settings with [`Config::ab`], to `depth`.
    fn ab_config(depth: u32, range: u8) -> Config {
        Config {
            patterns: true,
            prune: true,
            qvcf: true,
            select: true,
            ab: true,
            range,
            depth: Some(depth),
            time: None,
            ..Config::default()
        }
    }

    #[test]
    fn ab_search_answers_an_open_three() {
        // Black's open three f9 g9 h9 with White to move: at every depth and candidate range,
        // both rules, White answers on the three's row
        for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
            let g = super::super::tests::open_three(rule);
            for depth in [2, 5, 8] {
                for (range, history, extra) in [
                    (0, false, false),
                    (3, false, false),
                    (0, true, false),
                    (0, true, true),
                ] {
                    let cfg = Config {
                        history,
                        iir: extra,
                        ext: extra,
                        singular: extra,
                        hist_reduction: extra,
                        lmr_ext: extra,
                        vcf_root: 0,
                        vct_root: 0,
                        vcf_defend: 0,
                        vct_defend: 0,
                        verify: 0,
                        ..ab_config(depth, range)
                    };
                    let mut s = Search::new(cfg, 4);
                    let stop = Arc::new(AtomicBool::new(false));
                    let t = s.think(&g, &stop, &mut |_| {});
                    let m = t.best.unwrap();
                    let sq = move_square(m);
                    let what = format!(
                        "{rule:?} depth {depth} range {range} history {history} extra {extra}"
                    );
                    assert!(g.is_legal(m), "{what}");
                    assert!(sq.y == 8 && (3..=10).contains(&sq.x), "{what}: {sq:?}");
                    assert!(t.score.abs() < MATE_BOUND, "{what}: {}", t.score);
                    assert_eq!(t.info.depth, depth, "{what}");
                }
            }
        }
    }

    #[test]
    fn ab_search_plays_legal_moves_and_sees_a_four_three() {
        // random crowded positions of the three rules: the move is legal, and never a point
        // forbidden to Black under renju
        let mut rng = crate::rng::Rng::new(5001);
        let mut rnd = move |k: u64| rng.below(k);
        let mut played = 0;
        for i in 0..60 {
            let stones = 8 + rnd(30);
            let g = random_position(&mut rnd, i, stones, 3, 9);
            if g.outcome().is_some() {
                continue;
            }
            let cfg = Config {
                nodes: Some(3_000),
                history: i % 2 == 1,
                iir: i % 3 == 1,
                ext: i % 3 == 1,
                singular: i % 3 == 1,
                hist_reduction: i % 3 == 2,
                lmr_ext: i % 3 == 2,
                vcf_root: 2_000,
                vct_root: 0,
                vcf_defend: 1_000,
                vct_defend: 0,
                verify: 0,
                ..ab_config(30, (i % 4) as u8)
            };
            let mut s = Search::new(cfg, 4);
            let stop = Arc::new(AtomicBool::new(false));
            let m = s.think(&g, &stop, &mut |_| {}).best.unwrap();
            assert!(g.is_legal(m), "{} {}", g.to_text(), g.move_to_text(m));
            if g.rule() == GomokuRule::Renju && g.side_to_move() == Side::Black {
                assert!(g.is_forbidden(move_square(m)).is_none(), "{}", g.to_text());
            }
            played += 1;
        }
        assert!(played > 40, "{played}");
        // White's three-three point h9 (f9 g9 and h10 h11), Black's stones in the corners:
        // with no threat solver at the root the search finds the win within its depth
        let mut g = Gomoku::new(15, GomokuRule::Freestyle);
        for t in ["a1", "f9", "o1", "g9", "a15", "h10", "o15", "h11", "m3"] {
            let m = g.parse_move(t).unwrap();
            g.make(m);
        }
        let cfg = Config {
            vcf_root: 0,
            vct_root: 0,
            vcf_defend: 0,
            vct_defend: 0,
            verify: 0,
            ..ab_config(6, 0)
        };
        let mut s = Search::new(cfg, 4);
        let stop = Arc::new(AtomicBool::new(false));
        let t = s.think(&g, &stop, &mut |_| {});
        let best = g.move_to_text(t.best.unwrap());
        assert!(t.score > MATE_BOUND, "{} {best}", t.score);
    }

    #[test]
    fn ab_search_settings_of_rapfi_change_the_tree() {
        // each of the internal iterative reductions, the extensions, the singular extension
        // and the margins' unit changes the number of nodes of a fixed-depth search, so each
        // is wired in
        let g = super::super::tests::open_three(GomokuRule::Freestyle);
        let nodes = |f: &dyn Fn(&mut Config)| {
            let mut cfg = Config {
                history: true,
                vcf_root: 0,
                vct_root: 0,
                vcf_defend: 0,
                vct_defend: 0,
                verify: 0,
                ..ab_config(10, 0)
            };
            f(&mut cfg);
            let mut s = Search::new(cfg, 4);
            let stop = Arc::new(AtomicBool::new(false));
            let t = s.think(&g, &stop, &mut |_| {});
            assert_eq!(t.info.depth, 10);
            t.info.nodes
        };
        let base = nodes(&|_| {});
        let iir = nodes(&|c| c.iir = true);
        let ext = nodes(&|c| c.ext = true);
        let se = nodes(&|c| c.singular = true);
        let hred = nodes(&|c| c.hist_reduction = true);
        let lmrext = nodes(&|c| c.lmr_ext = true);
        assert!(
            iir != base && ext != base && se != base,
            "{base} {iir} {ext} {se}"
        );
        assert!(hred != base && lmrext != base, "{base} {hred} {lmrext}");
        let wide = nodes(&|c| c.unit = 240);
        let narrow = nodes(&|c| c.unit = 110);
        assert!(wide != base && narrow != base, "{base} {wide} {narrow}");
    }
}
