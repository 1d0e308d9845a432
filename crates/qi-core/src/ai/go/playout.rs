//! The playout policy: answer the last move (capture it when it is in atari, save own chains it
//! put in atari; then, nine times in ten, the two-liberty answers of [`two_lib_answers`]), then
//! the last good reply to it (learnt from the playouts won, forgotten when it loses), then the
//! Mogo-style 3×3 shape patterns around it, otherwise a random move that fills no own eye and
//! puts no chain of two or more stones into atari.

use std::sync::OnceLock;

use super::board::{BORDER, Board, EMPTY, Fast, has};
use crate::go::{Move, PASS, STRIDE, neighbors};

/// The 3×3 shapes (Gelly et al., "Modification of UCT with patterns in Monte-Carlo Go", as
/// Pachi lists them), rows from the top, the centre the candidate point: `X` a stone of one
/// colour, `O` of the other, `.` empty, `x` not `X`, `o` not `O`, `#` off the board, `?` any.
/// Every rotation and reflection counts, and so does swapping the colours.
const PATTERNS: [&str; 13] = [
    "XOX...???", // hane: enclosing hane
    "XO....?.?", // hane: non-cutting hane
    "XO?X..x.?", // hane: magari
    ".O.X.....", // katatsuke or diagonal attachment
    "XO?O.o?o?", // cut: unprotected cut
    "XO?O.X???", // cut: peeped cut
    "?X?O.Oooo", // cut: de
    "OX?o.O???", // cut: keima
    "X.?O.?###", // side: chase
    "OX?X.O###", // side: block side cut
    "?X?x.O###", // side: block side connection
    "?XOx.x###", // side: sagari
    "?OXX.O###", // side: cut
];

/// The offset `(row, column)` under symmetry `sym` (0-7: bit 0 mirrors the columns, bit 1 the
/// rows, bit 2 swaps rows and columns).
pub(crate) fn turned((r, c): (i32, i32), sym: usize) -> (i32, i32) {
    let (mut r, mut c) = (r, c);
    if sym & 1 != 0 {
        c = -c;
    }
    if sym & 2 != 0 {
        r = -r;
    }
    if sym & 4 != 0 {
        std::mem::swap(&mut r, &mut c);
    }
    (r, c)
}

/// Offsets (row, column) of the eight neighbours in the order they are coded.
pub(crate) const CELLS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The neighbourhood code of `p`: two bits per neighbour (0 empty, 1 Black, 2 White, 3 off
/// the board), top row first (the top row is the one with higher `y`).
#[inline(always)]
pub(crate) fn code3(b: &Board, p: usize) -> usize {
    let c = &b.color;
    (c[p + STRIDE - 1] as usize)
        | (c[p + STRIDE] as usize) << 2
        | (c[p + STRIDE + 1] as usize) << 4
        | (c[p - 1] as usize) << 6
        | (c[p + 1] as usize) << 8
        | (c[p - STRIDE - 1] as usize) << 10
        | (c[p - STRIDE] as usize) << 12
        | (c[p - STRIDE + 1] as usize) << 14
}

fn table() -> &'static [u64; 1024] {
    static T: OnceLock<Box<[u64; 1024]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([0u64; 1024]);
        for pat in PATTERNS {
            let g: Vec<u8> = pat.bytes().collect();
            for sym in 0..8 {
                for swap in [false, true] {
                    // the pattern char for each coded cell under this symmetry
                    let mut cells = [b'?'; 8];
                    for (i, &cell) in CELLS.iter().enumerate() {
                        let (rr, cc) = turned(cell, sym);
                        let ch = g[((rr + 1) * 3 + cc + 1) as usize];
                        cells[i] = if swap {
                            match ch {
                                b'X' => b'O',
                                b'O' => b'X',
                                b'x' => b'o',
                                b'o' => b'x',
                                o => o,
                            }
                        } else {
                            ch
                        };
                    }
                    expand(&cells, 0, 0, &mut t);
                }
            }
        }
        t
    })
}

fn expand(cells: &[u8; 8], i: usize, code: usize, t: &mut [u64; 1024]) {
    if i == 8 {
        t[code >> 6] |= 1 << (code & 63);
        return;
    }
    // X is Black (1) and O White (2) here; the colour swap covers the other way round
    let options: &[usize] = match cells[i] {
        b'X' => &[1],
        b'O' => &[2],
        b'.' => &[0],
        b'#' => &[3],
        b'x' => &[0, 2, 3],
        b'o' => &[0, 1, 3],
        _ => &[0, 1, 2, 3],
    };
    for &v in options {
        expand(cells, i + 1, code | v << (2 * i), t);
    }
}

/// Whether the empty point `p` completes one of the shape patterns.
#[inline(always)]
pub(crate) fn matches_pattern(b: &Board, p: usize) -> bool {
    let c = code3(b, p);
    table()[c >> 6] & (1 << (c & 63)) != 0
}

/// Forces the pattern table to be built (so the first search does not pay for it).
pub(crate) fn init() {
    table();
    gammas();
}

/// Whether playing `p` for the side to move puts a chain of two or more stones (or one that
/// captures nothing and has one liberty) into atari: a move the playouts avoid.
#[inline]
pub(crate) fn bad_self_atari(b: &Board, p: usize, c: u8) -> bool {
    let mut free = 0;
    let mut own = false;
    for q in neighbors(p) {
        let cq = b.color[q];
        if cq == EMPTY {
            free += 1;
        } else if cq == c {
            own = true;
        }
    }
    if free >= 2 {
        return false;
    }
    if b.libs_after(p, c) >= 2 {
        return false;
    }
    // a lone stone in atari is a throw-in (it may kill an eye); a bigger chain is a waste
    own
}

/// Moves that answer the last move, into `out`: its chain's capture, and escapes for own
/// chains next to it in atari (captures of their attackers, or extensions to two liberties;
/// with `ladders`, not an extension to two liberties that a ladder catches,
/// [`super::ladder::escape_caught`]).
pub(crate) fn tactical_answers(b: &Board, out: &mut Vec<u16>, ladders: bool) {
    out.clear();
    if b.last == PASS {
        return;
    }
    let me = b.to_move;
    let l = b.last as usize;
    if b.color[l] == 3 - me {
        let h = b.head_of(l);
        if b.atari(h) {
            let lib = b.atari_lib(h);
            if b.legal(lib) {
                out.push(lib as u16);
            }
        }
    }
    // opposing chains our own previous move put in atari and the opponent left there
    let l2 = b.last2 as usize;
    if b.last2 != PASS && b.color[l2] == me {
        for q in neighbors(l2) {
            if b.color[q] == 3 - me {
                let h = b.head_of(q);
                if b.atari(h) {
                    let lib = b.atari_lib(h);
                    if b.legal(lib) && !has(out, lib as u16) {
                        out.push(lib as u16);
                    }
                }
            }
        }
    }
    for q in neighbors(l) {
        if b.color[q] != me {
            continue;
        }
        let h = b.head_of(q);
        if !b.atari(h) {
            continue;
        }
        // capture a neighbour of the chain in atari
        b.for_chain(q, |s| {
            for r in neighbors(s) {
                if b.color[r] == 3 - me {
                    let hr = b.head_of(r);
                    if b.atari(hr) {
                        let lib = b.atari_lib(hr);
                        if b.legal(lib) && !has(out, lib as u16) {
                            out.push(lib as u16);
                        }
                    }
                }
            }
        });
        let lib = b.atari_lib(h);
        if b.legal(lib) && !has(out, lib as u16) {
            let libs = b.libs_after(lib, me);
            // escape_caught is false for an extension that captures
            if libs >= 3 || (libs == 2 && !(ladders && super::ladder::escape_caught(b, lib))) {
                out.push(lib as u16);
            }
        }
    }
}

/// Whether the chain through `g` (colour `c`, two liberties `l0` and `l1`) is safe from an
/// atari that matters: it can connect to a friendly chain with more liberties at one liberty
/// and connect or get out at the other (Pachi's `miai_2lib`).
fn miai_2lib(b: &Board, g: usize, c: u8, l0: usize, l1: usize) -> bool {
    let hg = b.head_of(g);
    let (mut can_connect, mut can_pull_out) = (false, false);
    for q in neighbors(l0) {
        let cq = b.color[q];
        if cq == EMPTY && q != l1 {
            can_pull_out = true;
        } else if cq == c && b.head_of(q) != hg && !short(b, q) {
            can_connect = true;
        }
    }
    for q in neighbors(l1) {
        if q == l0 {
            continue;
        }
        let cq = b.color[q];
        if cq == EMPTY && can_connect {
            return true;
        }
        if cq == c && b.head_of(q) != hg && !short(b, q) {
            return can_connect || can_pull_out;
        }
    }
    false
}

/// Whether the chain through `q` is in atari (Pachi asks for more than one liberty).
fn short(b: &Board, q: usize) -> bool {
    b.atari(b.head_of(q))
}

/// Moves about chains with two liberties next to the last move, into `out`: an atari on the
/// last move's chain when it has two liberties and no miai to live by (from a point that is
/// no self-atari), and for own chains next to it with two liberties the liberty that gives
/// three or more (Pachi's `local_2lib_check`, simplified).
pub(crate) fn two_lib_answers(b: &Board, out: &mut Vec<u16>) {
    out.clear();
    if b.last == PASS {
        return;
    }
    let me = b.to_move;
    let l = b.last as usize;
    let mut libs = [0u16; 4];
    if b.color[l] == 3 - me && b.chain_libs(l, &mut libs, 3) == 2 {
        let (l0, l1) = (libs[0] as usize, libs[1] as usize);
        if !miai_2lib(b, l, 3 - me, l0, l1) {
            for x in [l0, l1] {
                if b.legal(x) && b.libs_after(x, me) >= 2 && !b.is_eye(x, me) {
                    out.push(x as u16);
                }
            }
        }
    }
    let (chains, k) = b.chains_around(l);
    for &(q, _) in &chains[..k] {
        if b.color[q] != me {
            continue;
        }
        let mut libs = [0u16; 4];
        if b.chain_libs(q, &mut libs, 3) != 2 {
            continue;
        }
        for &x in &libs[..2] {
            let x = x as usize;
            if b.legal(x) && b.libs_after(x, me) >= 3 && !b.is_eye(x, me) && !has(out, x as u16) {
                out.push(x as u16);
            }
        }
    }
}

/// The vital point of a three-point eye space next to the last move: an empty region of
/// exactly three points walled in by one colour (and the edge) whose middle point touches the
/// other two. The owner makes two eyes there, the other side kills by taking it first
/// (Pachi's nakade check, for the three-point shapes only). `PASS` when there is none.
pub(crate) fn nakade_point(b: &Board) -> Move {
    if b.last == PASS {
        return PASS;
    }
    let l = b.last as usize;
    for e in neighbors(l) {
        if b.color[e] != EMPTY {
            continue;
        }
        // the empty region through e, given up past three points
        let mut region = [0usize; 4];
        let mut n = 1;
        region[0] = e;
        let mut i = 0;
        let mut wall = 0u8;
        while i < n && n <= 3 {
            let p = region[i];
            for q in neighbors(p) {
                match b.color[q] {
                    EMPTY => {
                        if !region[..n].contains(&q) {
                            if n == 4 {
                                n = 5;
                                break;
                            }
                            region[n] = q;
                            n += 1;
                        }
                    }
                    BORDER => {}
                    c => wall |= c,
                }
            }
            i += 1;
        }
        if n != 3 || (wall != 1 && wall != 2) {
            continue;
        }
        for k in 0..3 {
            let m = region[k];
            let touches = neighbors(m)
                .into_iter()
                .filter(|q| region[..3].contains(q))
                .count();
            if touches == 2 && b.legal(m) {
                return m as Move;
            }
        }
    }
    PASS
}

/// Pattern moves around the last move (its eight neighbours), into `out`.
pub(crate) fn pattern_answers(b: &Board, out: &mut Vec<u16>) {
    out.clear();
    if b.last == PASS {
        return;
    }
    let l = b.last as usize;
    let me = b.to_move;
    for p in [
        l - STRIDE - 1,
        l - STRIDE,
        l - STRIDE + 1,
        l - 1,
        l + 1,
        l + STRIDE - 1,
        l + STRIDE,
        l + STRIDE + 1,
    ] {
        if b.color[p] == EMPTY
            && matches_pattern(b, p)
            && b.legal(p)
            && !b.is_eye(p, me)
            && !bad_self_atari(b, p, me)
        {
            out.push(p as u16);
        }
    }
}

/// One playout move for the side to move.
pub(crate) fn choose(b: &Board, rng: &mut Fast, buf: &mut Vec<u16>, replies: &[u16]) -> Move {
    let me = b.to_move;
    if b.last != PASS {
        tactical_answers(b, buf, ladder_playouts_on());
        if !buf.is_empty() {
            return buf[rng.below(buf.len() as u32) as usize];
        }
        if two_libs_on() && rng.below(10) < 9 {
            two_lib_answers(b, buf);
            if !buf.is_empty() {
                return buf[rng.below(buf.len() as u32) as usize];
            }
        }
        if nakade_on() && rng.below(10) < 8 {
            let m = nakade_point(b);
            if m != PASS {
                return m;
            }
        }
        // the last good reply to the last move
        if let Some(&r) = replies.get(reply_index(me, b.last)) {
            let p = r as usize;
            if r != 0
                && b.color[p] == EMPTY
                && b.legal(p)
                && !b.is_eye(p, me)
                && !bad_self_atari(b, p, me)
            {
                return r as Move;
            }
        }
        if rng.below(16) < 15 {
            pattern_answers(b, buf);
            if !buf.is_empty() {
                return buf[rng.below(buf.len() as u32) as usize];
            }
        }
    }
    let e = b.empties();
    let n = e.len();
    if n == 0 {
        return PASS;
    }
    if let Some(&(k, ref g)) = gammas() {
        // `k` candidates drawn at random, one chosen in proportion to its learnt 3×3 weight
        let g = &g[(me == 2) as usize];
        let mut cand = [(0usize, 0.0f32); 16];
        let mut m = 0;
        let mut total = 0.0f32;
        for _ in 0..2 * k {
            let p = e[rng.below(n as u32) as usize] as usize;
            if b.legal(p) && !b.is_eye(p, me) && !bad_self_atari(b, p, me) {
                let w = g[code3(b, p)];
                cand[m] = (p, w);
                total += w;
                m += 1;
                if m == k {
                    break;
                }
            }
        }
        if m > 0 {
            let mut r = (rng.below(1 << 24) as f32 / (1 << 24) as f32) * total;
            for &(p, w) in &cand[..m] {
                if r < w {
                    return p as Move;
                }
                r -= w;
            }
            return cand[m - 1].0 as Move;
        }
    }
    let start = rng.below(n as u32) as usize;
    for i in 0..n {
        let p = e[(start + i) % n] as usize;
        if b.legal(p) && !b.is_eye(p, me) && !bad_self_atari(b, p, me) {
            return p as Move;
        }
    }
    PASS
}

/// 3×3 weights by absolute neighbourhood code ([`code3`]), for Black and for White to move.
pub(crate) type Gammas = [Box<[f32]>; 2];

/// The learnt 3×3 weights the playouts' random moves follow, by mover, with the number of
/// candidates drawn for each (`QI_GO_PLAYOUT_GAMMA=<k>`, 1-16, an experiment; off by default):
/// `k` legal points that fill no own eye and are no big self-atari are drawn at random and one
/// is played in proportion to its weight ([`super::features::pattern_gammas`] of
/// [`super::features::playout_model`]).
pub(crate) fn gammas() -> Option<&'static (usize, Gammas)> {
    static G: OnceLock<Option<(usize, Gammas)>> = OnceLock::new();
    G.get_or_init(|| {
        let k: usize = std::env::var("QI_GO_PLAYOUT_GAMMA").ok()?.parse().ok()?;
        if !(1..=16).contains(&k) {
            return None;
        }
        let m = super::features::playout_model()?;
        Some((k, super::features::pattern_gammas(&m)))
    })
    .as_ref()
}

/// Whether the playouts use last good replies (`QI_GO_NO_LGR=1` switches them off, for
/// matches against the policy without them).
pub(crate) fn replies_on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("QI_GO_NO_LGR").is_none())
}

/// Whether the playouts answer two-liberty chains ([`two_lib_answers`]; `QI_GO_NO_2LIB=1`
/// switches it off, for matches against the policy without it).
pub(crate) fn two_libs_on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("QI_GO_NO_2LIB").is_none())
}

/// Whether the playouts take the vital point of three-point eye spaces ([`nakade_point`]):
/// only with `QI_GO_NAKADE=1`, an experiment not yet measured in matches.
pub(crate) fn nakade_on() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("QI_GO_NAKADE").is_some())
}

/// Which parts of the search read ladders ([`super::ladder`]): `QI_GO_LADDER=both`,
/// `playout` (the playouts only), `off`; anything else or unset: the tree priors only (the
/// setting that won its matches, see the module doc of [`super`]).
fn ladder_mode() -> (bool, bool) {
    static MODE: OnceLock<(bool, bool)> = OnceLock::new();
    *MODE.get_or_init(|| match std::env::var("QI_GO_LADDER").as_deref() {
        Ok("both") => (true, true),
        Ok("playout") => (true, false),
        Ok("off") => (false, false),
        _ => (false, true),
    })
}

/// Whether the playouts leave out escapes into a ladder that catches them.
pub(crate) fn ladder_playouts_on() -> bool {
    ladder_mode().0
}

/// Whether the tree priors weigh ladders (caught escapes against, working ladders for).
pub(crate) fn ladder_priors_on() -> bool {
    ladder_mode().1
}

/// Where the reply of `colour` to the move `prev` is kept in a last-good-reply table (two
/// colours × [`crate::go::POINTS`]).
#[inline(always)]
pub(crate) fn reply_index(colour: u8, prev: Move) -> usize {
    (colour as usize - 1) * crate::go::POINTS + prev as usize
}

/// Last good reply with forgetting (Baier and Drake): after a game `seq` whose result for
/// Black is `score`, each move of the winner becomes its colour's reply to the move before it,
/// and a loser's move that was the stored reply is forgotten.
pub(crate) fn learn_replies(replies: &mut [u16], seq: &[(u16, u8)], score: f32) {
    if replies.is_empty() {
        return; // switched off
    }
    let winner = if score > 0.0 {
        1
    } else if score < 0.0 {
        2
    } else {
        return;
    };
    for w in seq.windows(2) {
        let (prev, _) = w[0];
        let (mv, col) = w[1];
        if prev == PASS || mv == PASS {
            continue;
        }
        let i = reply_index(col, prev);
        if col == winner {
            replies[i] = mv;
        } else if replies[i] == mv {
            replies[i] = 0;
        }
    }
}

/// Plays the game out from `b`; every move goes into `seq` with its colour. Returns the area
/// score from Black's side (komi included) and adds each point's owner (+1 Black, −1 White) to
/// `own` when given.
pub(crate) fn playout(
    b: &mut Board,
    rng: &mut Fast,
    seq: &mut Vec<(u16, u8)>,
    buf: &mut Vec<u16>,
    replies: &mut [u16],
    own: Option<&mut [i32]>,
) -> f32 {
    let limit = 3 * (b.size as u32).pow(2) + 20;
    let mut k = 0;
    while b.passes < 2 && k < limit {
        let mv = choose(b, rng, buf, replies);
        seq.push((mv, b.to_move));
        b.play(mv);
        k += 1;
    }
    if let Some(own) = own {
        let n = b.size as usize;
        for y in 0..n {
            for x in 0..n {
                let p = (y + 1) * STRIDE + x + 1;
                let o = match b.owner_at(p) {
                    1 => 1,
                    2 => -1,
                    _ => 0,
                };
                own[y * n + x] += o;
            }
        }
    }
    let score = b.playout_score();
    learn_replies(replies, seq, score);
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn ladders_are_read_in_the_priors_only_by_default() {
        // the setting the matches chose (priors 65.6% in 48 games; both parts 46.2%)
        if std::env::var_os("QI_GO_LADDER").is_none() {
            assert_eq!(ladder_mode(), (false, true));
            assert!(ladder_priors_on() && !ladder_playouts_on());
        }
    }

    #[test]
    fn good_replies_are_learnt_and_forgotten() {
        let mut r = vec![0u16; 2 * crate::go::POINTS];
        // Black 30, White 31, Black 32, White 33; Black wins
        let seq = [(30, 1), (31, 2), (32, 1), (33, 2)];
        learn_replies(&mut r, &seq, 5.0);
        assert_eq!(r[reply_index(1, 31)], 32, "the winner's reply is kept");
        assert_eq!(r[reply_index(2, 30)], 0, "the loser's is not");
        // White wins a game where Black answered 31 with 32 again: forgotten
        learn_replies(&mut r, &seq, -5.0);
        assert_eq!(r[reply_index(1, 31)], 0);
        assert_eq!(r[reply_index(2, 30)], 31);
        // a jigo teaches nothing; passes are no moves to answer
        learn_replies(&mut r, &[(0, 1), (40, 2)], 0.0);
        learn_replies(&mut r, &[(0, 1), (40, 2)], -1.0);
        assert_eq!(r[reply_index(2, 0)], 0);
    }

    #[test]
    fn a_stored_reply_is_played() {
        let g = crate::go::Go::new(9, 7.0).unwrap();
        let mut b = Board::from_go(&g, PASS);
        let e5 = g.parse_move("E5").unwrap();
        b.play(e5);
        let d4 = g.parse_move("D4").unwrap();
        let mut r = vec![0u16; 2 * crate::go::POINTS];
        r[reply_index(b.to_move, e5)] = d4;
        let mut rng = Fast::new(1);
        let mut buf = Vec::new();
        for _ in 0..20 {
            let mv = choose(&b, &mut rng, &mut buf, &r);
            // no capture or escape to play: the reply comes before the patterns
            assert_eq!(mv, d4);
        }
    }

    fn board_after(moves: &[&str]) -> (crate::go::Go, Board) {
        let mut g = crate::go::Go::new(9, 7.0).unwrap();
        let mut last = PASS;
        for m in moves {
            let mv = g.parse_move(m).unwrap();
            g.make(mv);
            last = mv;
        }
        let b = Board::from_go(&g, last);
        (g, b)
    }

    #[test]
    fn a_two_liberty_chain_is_put_in_atari_and_an_own_one_extended() {
        // White's E5 (last move) has two liberties, F5 and E4, and nothing to connect to
        let (g, b) = board_after(&["D5", "A1", "E6", "E5"]);
        let mut out = Vec::new();
        two_lib_answers(&b, &mut out);
        let mut got: Vec<u16> = out.clone();
        got.sort();
        let mut want = vec![g.parse_move("F5").unwrap(), g.parse_move("E4").unwrap()];
        want.sort();
        assert_eq!(got, want);
        // Black's chain D5-E5 with two liberties (D4, E4) after White's D6: both extend it
        // to three liberties
        let (g, b) = board_after(&["D5", "E6", "E5", "F5", "A9", "C5", "A8", "D6"]);
        two_lib_answers(&b, &mut out);
        assert!(!out.is_empty());
        for &x in &out {
            assert!(g.is_legal(x));
            assert!(
                b.libs_after(x as usize, b.to_move) >= 3,
                "{}",
                g.move_to_text(x)
            );
        }
        assert!(out.contains(&g.parse_move("D4").unwrap()), "{out:?}");
        assert!(out.contains(&g.parse_move("E4").unwrap()), "{out:?}");
        // a chain with a miai of connections is not put in atari: White's E5 (liberties F5
        // and E4) connects to White's safe G5/F4 at F5 and to E3 at E4
        let (g, b) = board_after(&[
            "D5", "E3", "E6", "G5", "A1", "F4", "A2", "E7", "A3", "D3", "A4", "E5",
        ]);
        two_lib_answers(&b, &mut out);
        let l = b.last as usize;
        let mut libs = [0u16; 4];
        assert_eq!(b.chain_libs(l, &mut libs, 3), 2);
        for m in ["F5", "E4"] {
            assert!(!out.contains(&g.parse_move(m).unwrap()), "{m} in {out:?}");
        }
    }

    #[test]
    fn the_vital_point_of_a_three_point_eye_space_is_found() {
        // White walls in A1-B1-C1 with D1 last: B1 kills (and would live for White)
        let (g, b) = board_after(&["J9", "A2", "J8", "B2", "J7", "C2", "J6", "D1"]);
        assert_eq!(nakade_point(&b), g.parse_move("B1").unwrap());
        // four empty points: no three-point shape
        let (_, b) = board_after(&["J9", "A2", "J8", "B2", "J7", "C2", "J6", "D2", "J5", "E1"]);
        assert_eq!(nakade_point(&b), PASS);
        // a wall of both colours is no eye space
        let (_, b) = board_after(&["J9", "A2", "J8", "B2", "D1", "C2"]);
        assert_eq!(nakade_point(&b), PASS);
    }

    /// Every move of the policy is legal by the real rules (simple ko aside from positional
    /// superko) and never a self-atari of two or more stones that captures nothing, over
    /// playouts from random positions on three sizes.
    #[test]
    fn the_policy_plays_legal_moves_and_no_big_self_atari() {
        let mut rng = Fast::new(99);
        let mut buf = Vec::new();
        let mut moves = Vec::new();
        for (game, size) in [9u8, 9, 9, 13, 19, 7].into_iter().enumerate() {
            let mut g = crate::go::Go::new(size, 7.0).unwrap();
            let mut b = Board::from_go(&g, PASS);
            let mut replies = vec![0u16; 2 * crate::go::POINTS];
            for ply in 0..(size as usize).pow(2) * 2 {
                if g.is_over() {
                    break;
                }
                // a random move now and then, so that the positions vary
                let mv = if rng.below(4) == 0 {
                    g.legal_moves(&mut moves);
                    moves[rng.below(moves.len() as u32) as usize]
                } else {
                    let mv = choose(&b, &mut rng, &mut buf, &replies);
                    if mv != PASS {
                        let p = mv as usize;
                        assert!(
                            g.is_legal(mv) || g.liberties_after(p) > 0,
                            "game {game} ply {ply}: {} illegal",
                            g.move_to_text(mv)
                        );
                        let captures = neighbors(p)
                            .into_iter()
                            .any(|q| b.color[q] == 3 - b.to_move && b.atari(b.head_of(q)));
                        assert!(
                            captures || !bad_self_atari(&b, p, b.to_move),
                            "game {game} ply {ply}: {} is a self-atari",
                            g.move_to_text(mv)
                        );
                        assert!(!b.is_eye(p, b.to_move), "fills an own eye");
                    }
                    if !g.is_legal(mv) {
                        break; // superko: the light board does not know it
                    }
                    mv
                };
                // learn some replies as the playouts would
                if ply % 7 == 0 && mv != PASS {
                    replies[reply_index(3 - b.to_move, mv)] = 0;
                }
                g.make(mv);
                b.play(mv);
            }
        }
    }
}
