//! The playout board: Go with simple ko only (superko is checked at the search root against the
//! real rules), chains as circular lists with pseudo-liberty counts plus the sum and the sum of
//! squares of their liberty indices (a chain is in atari exactly when `sum² == count · squares`),
//! and an incremental list of empty points, so a playout move costs a few dozen operations.

use crate::game::Side;
use crate::go::{Go, Move, PASS, POINTS, STRIDE, neighbors};

pub(crate) const EMPTY: u8 = 0;
pub(crate) const BORDER: u8 = 3;

/// Colour code of a side's stones (1 Black, 2 White).
#[inline(always)]
pub(crate) fn code(side: Side) -> u8 {
    side as u8 + 1
}

/// The playouts' random generator: the core's one fast generator.
pub(crate) use crate::rng::FastRng as Fast;

/// Whether the short list `l` holds `x`: a loop the compiler inlines (the slice's `contains`
/// was a call of its own, 7% of a 19×19 search's profile).
#[inline(always)]
pub(crate) fn has(l: &[u16], x: u16) -> bool {
    let mut i = 0;
    while i < l.len() {
        if l[i] == x {
            return true;
        }
        i += 1;
    }
    false
}

/// The light board of the playouts and of the search tree.
#[derive(Clone)]
pub struct Board {
    pub(crate) size: u8,
    pub(crate) komi: f32,
    pub(crate) color: [u8; POINTS],
    head: [u16; POINTS],
    next: [u16; POINTS],
    /// Pseudo-liberties, their index sum and square sum, at each chain's head.
    libs: [u16; POINTS],
    lsum: [u32; POINTS],
    lsq: [u32; POINTS],
    size_of: [u16; POINTS],
    empty: [u16; 361],
    empty_at: [u16; POINTS],
    n_empty: usize,
    /// Colour to move (1 or 2).
    pub(crate) to_move: u8,
    /// The point the side to move may not take (simple ko), or 0.
    pub(crate) ko: u16,
    pub(crate) last: Move,
    pub(crate) last2: Move,
    pub(crate) passes: u8,
    pub(crate) moves: u32,
}

impl Board {
    /// The board of `pos` (its stones, side to move, passes in a row and last move).
    pub fn from_go(pos: &Go, last: Move) -> Board {
        let mut b = Board {
            size: pos.size(),
            komi: pos.komi(),
            color: [BORDER; POINTS],
            head: [0; POINTS],
            next: [0; POINTS],
            libs: [0; POINTS],
            lsum: [0; POINTS],
            lsq: [0; POINTS],
            size_of: [0; POINTS],
            empty: [0; 361],
            empty_at: [0; POINTS],
            n_empty: 0,
            to_move: code(crate::game::Game::side_to_move(pos)),
            ko: 0,
            last,
            last2: PASS,
            passes: pos.consecutive_passes(),
            moves: 0,
        };
        for p in pos.points() {
            b.color[p] = match pos.stone_at(p) {
                None => EMPTY,
                Some(s) => code(s),
            };
        }
        b.rebuild();
        b
    }

    fn rebuild(&mut self) {
        self.n_empty = 0;
        let n = self.size as usize;
        for y in 0..n {
            for x in 0..n {
                let p = (y + 1) * STRIDE + x + 1;
                if self.color[p] == EMPTY {
                    self.empty_at[p] = self.n_empty as u16;
                    self.empty[self.n_empty] = p as u16;
                    self.n_empty += 1;
                }
            }
        }
        let mut seen = [false; POINTS];
        for y in 0..n {
            for x in 0..n {
                let p = (y + 1) * STRIDE + x + 1;
                if self.color[p] == EMPTY || self.color[p] == BORDER || seen[p] {
                    continue;
                }
                let c = self.color[p];
                let mut stack = vec![p];
                let mut members = Vec::new();
                seen[p] = true;
                let (mut l, mut s, mut q2) = (0u16, 0u32, 0u32);
                while let Some(s0) = stack.pop() {
                    members.push(s0);
                    for q in neighbors(s0) {
                        if self.color[q] == EMPTY {
                            l += 1;
                            s += q as u32;
                            q2 += (q * q) as u32;
                        } else if self.color[q] == c && !seen[q] {
                            seen[q] = true;
                            stack.push(q);
                        }
                    }
                }
                for (i, &m) in members.iter().enumerate() {
                    self.head[m] = p as u16;
                    self.next[m] = members[(i + 1) % members.len()] as u16;
                }
                self.libs[p] = l;
                self.lsum[p] = s;
                self.lsq[p] = q2;
                self.size_of[p] = members.len() as u16;
            }
        }
    }

    #[inline(always)]
    pub(crate) fn empties(&self) -> &[u16] {
        &self.empty[..self.n_empty]
    }

    #[inline(always)]
    pub(crate) fn head_of(&self, p: usize) -> usize {
        self.head[p] as usize
    }

    /// The distinct chains next to the point `p`: a stone of each and the chain's head, at
    /// most four, in neighbour order.
    #[inline(always)]
    pub(crate) fn chains_around(&self, p: usize) -> ([(usize, usize); 4], usize) {
        let mut out = [(0usize, 0usize); 4];
        let mut k = 0;
        for q in neighbors(p) {
            let c = self.color[q];
            if c == EMPTY || c == BORDER {
                continue;
            }
            let h = self.head_of(q);
            if out[..k].iter().any(|&(_, o)| o == h) {
                continue;
            }
            out[k] = (q, h);
            k += 1;
        }
        (out, k)
    }

    /// Whether the chain with head `h` has exactly one liberty.
    #[inline(always)]
    pub(crate) fn atari(&self, h: usize) -> bool {
        let l = self.libs[h] as u64;
        let s = self.lsum[h] as u64;
        l > 0 && s * s == l * self.lsq[h] as u64
    }

    /// The only liberty of a chain in atari.
    #[inline(always)]
    pub(crate) fn atari_lib(&self, h: usize) -> usize {
        (self.lsum[h] / self.libs[h] as u32) as usize
    }

    /// Stones in the chain with head `h`.
    #[inline(always)]
    pub(crate) fn chain_size(&self, h: usize) -> u16 {
        self.size_of[h]
    }

    /// Stones of the chain through `p`.
    pub(crate) fn for_chain(&self, p: usize, mut f: impl FnMut(usize)) {
        let mut s = p;
        loop {
            f(s);
            s = self.next[s] as usize;
            if s == p {
                break;
            }
        }
    }

    /// Up to `max` distinct liberties of the chain through `p`, into `out`; returns the count.
    pub(crate) fn chain_libs(&self, p: usize, out: &mut [u16; 4], max: usize) -> usize {
        // a chain in atari has its liberty in the sums: no walk (the same answer)
        let h = self.head[p] as usize;
        if self.atari(h) {
            out[0] = self.atari_lib(h) as u16;
            return 1;
        }
        let mut n = 0;
        let mut s = p;
        loop {
            for q in neighbors(s) {
                if self.color[q] == EMPTY && !has(&out[..n], q as u16) {
                    out[n] = q as u16;
                    n += 1;
                    if n >= max {
                        return n;
                    }
                }
            }
            s = self.next[s] as usize;
            if s == p {
                return n;
            }
        }
    }

    /// Whether `c` may play on the empty point `p` (no suicide, no simple ko).
    #[inline]
    pub(crate) fn legal_for(&self, p: usize, c: u8) -> bool {
        if self.color[p] != EMPTY {
            return false;
        }
        if c == self.to_move && p == self.ko as usize {
            return false;
        }
        for q in neighbors(p) {
            let cq = self.color[q];
            if cq == EMPTY {
                return true;
            }
            if cq == BORDER {
                continue;
            }
            let at = self.atari(self.head[q] as usize);
            if (cq == c) != at {
                // own chain with another liberty, or an opposing chain captured
                return true;
            }
        }
        false
    }

    #[inline]
    pub(crate) fn legal(&self, p: usize) -> bool {
        self.legal_for(p, self.to_move)
    }

    /// Whether `p` is an eye of `c`: all neighbours `c` or border, and not false by diagonals
    /// (the one eye test of both boards, [`crate::go::shape::is_eye`]).
    #[inline]
    pub(crate) fn is_eye(&self, p: usize, c: u8) -> bool {
        crate::go::shape::is_eye(&self.color, p, c)
    }

    /// Liberties (counted up to 3) the chain `c` forms by playing `p`, captures included.
    pub(crate) fn libs_after(&self, p: usize, c: u8) -> usize {
        let mut seen = [0u16; 8];
        let mut n = 0;
        let add = |seen: &mut [u16; 8], n: &mut usize, q: usize| {
            if q != p && !has(&seen[..*n], q as u16) && *n < 8 {
                seen[*n] = q as u16;
                *n += 1;
            }
        };
        for q in neighbors(p) {
            let cq = self.color[q];
            if cq == EMPTY {
                add(&mut seen, &mut n, q);
            } else if cq == c {
                let mut l = [0u16; 4];
                let k = self.chain_libs(q, &mut l, 4);
                for &x in &l[..k] {
                    add(&mut seen, &mut n, x as usize);
                }
            } else if cq != BORDER && self.atari(self.head[q] as usize) {
                add(&mut seen, &mut n, q);
            }
            if n >= 3 {
                return 3;
            }
        }
        n
    }

    #[inline(always)]
    fn add_lib(&mut self, h: usize, p: usize) {
        self.libs[h] += 1;
        self.lsum[h] += p as u32;
        self.lsq[h] += (p * p) as u32;
    }

    #[inline(always)]
    fn remove_lib(&mut self, h: usize, p: usize) {
        self.libs[h] -= 1;
        self.lsum[h] -= p as u32;
        self.lsq[h] -= (p * p) as u32;
    }

    #[inline(always)]
    fn remove_empty(&mut self, p: usize) {
        let i = self.empty_at[p] as usize;
        self.n_empty -= 1;
        let last = self.empty[self.n_empty];
        self.empty[i] = last;
        self.empty_at[last as usize] = i as u16;
    }

    #[inline(always)]
    fn add_empty(&mut self, p: usize) {
        self.empty_at[p] = self.n_empty as u16;
        self.empty[self.n_empty] = p as u16;
        self.n_empty += 1;
    }

    /// Plays a legal move (or [`PASS`]) for the side to move; returns the stones captured.
    pub fn play(&mut self, mv: Move) -> u32 {
        self.last2 = self.last;
        self.last = mv;
        self.moves += 1;
        let me = self.to_move;
        self.to_move = 3 - me;
        self.ko = 0;
        if mv == PASS {
            self.passes += 1;
            return 0;
        }
        self.passes = 0;
        let p = mv as usize;
        debug_assert_eq!(self.color[p], EMPTY);
        self.color[p] = me;
        self.remove_empty(p);
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.size_of[p] = 1;
        self.libs[p] = 0;
        self.lsum[p] = 0;
        self.lsq[p] = 0;
        let nb = neighbors(p);
        for q in nb {
            let cq = self.color[q];
            if cq == EMPTY {
                self.add_lib(p, q);
            } else if cq != BORDER {
                let h = self.head[q] as usize;
                self.remove_lib(h, p);
            }
        }
        let mut h = p;
        for q in nb {
            if self.color[q] == me {
                let hq = self.head[q] as usize;
                if hq != h {
                    h = self.merge(h, hq);
                }
            }
        }
        let opp = 3 - me;
        let mut taken = 0;
        let mut last_taken = 0;
        for q in nb {
            if self.color[q] == opp {
                let hq = self.head[q] as usize;
                if self.libs[hq] == 0 {
                    taken += self.remove_chain(hq);
                    last_taken = q;
                }
            }
        }
        if taken == 1 && self.size_of[h] == 1 && self.atari(h) {
            self.ko = last_taken as u16;
        }
        taken
    }

    /// Joins two chains; returns the new head.
    fn merge(&mut self, a: usize, b: usize) -> usize {
        let (big, small) = if self.size_of[a] >= self.size_of[b] {
            (a, b)
        } else {
            (b, a)
        };
        crate::go::shape::splice_chains(&mut self.head, &mut self.next, big, small);
        self.size_of[big] += self.size_of[small];
        self.libs[big] += self.libs[small];
        self.lsum[big] += self.lsum[small];
        self.lsq[big] += self.lsq[small];
        big
    }

    fn remove_chain(&mut self, h: usize) -> u32 {
        let mut s = h;
        loop {
            self.color[s] = EMPTY;
            self.add_empty(s);
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        let mut s = h;
        loop {
            for q in neighbors(s) {
                let cq = self.color[q];
                if cq == 1 || cq == 2 {
                    let hq = self.head[q] as usize;
                    self.add_lib(hq, s);
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        self.size_of[h] as u32
    }

    /// Who owns `p` at the end of a playout: its stone's colour, or for an empty point the
    /// one colour among its neighbours (1 Black, 2 White, 0 neither), as [`Board::playout_score`]
    /// counts it.
    #[inline]
    pub fn owner_at(&self, p: usize) -> u8 {
        match self.color[p] {
            c @ (1 | 2) => c,
            EMPTY => {
                let mut seen = 0u8;
                for q in neighbors(p) {
                    let c = self.color[q];
                    if c == 1 || c == 2 {
                        seen |= c;
                    }
                }
                if seen == 3 { 0 } else { seen }
            }
            _ => 0,
        }
    }

    /// Area score from Black's side, komi included: stones plus empty points whose neighbours
    /// are all one colour (after a playout nearly every empty point is such an eye).
    pub fn playout_score(&self) -> f32 {
        let mut s = 0i32;
        let n = self.size as usize;
        for y in 0..n {
            for x in 0..n {
                match self.owner_at((y + 1) * STRIDE + x + 1) {
                    1 => s += 1,
                    2 => s -= 1,
                    _ => {}
                }
            }
        }
        s as f32 - self.komi
    }

    /// The exact area score (Tromp-Taylor: empty regions reaching only one colour), from
    /// Black's side with komi.
    pub fn area_score(&self) -> f32 {
        let mut s = 0i32;
        let mut seen = [false; POINTS];
        let n = self.size as usize;
        let mut stack = Vec::new();
        for y in 0..n {
            for x in 0..n {
                let p = (y + 1) * STRIDE + x + 1;
                match self.color[p] {
                    1 => s += 1,
                    2 => s -= 1,
                    EMPTY if !seen[p] => {
                        let mut reach = 0u8;
                        let mut count = 0;
                        seen[p] = true;
                        stack.push(p);
                        while let Some(e) = stack.pop() {
                            count += 1;
                            for q in neighbors(e) {
                                match self.color[q] {
                                    EMPTY if !seen[q] => {
                                        seen[q] = true;
                                        stack.push(q);
                                    }
                                    c @ (1 | 2) => reach |= c,
                                    _ => {}
                                }
                            }
                        }
                        if reach == 1 {
                            s += count;
                        } else if reach == 2 {
                            s -= count;
                        }
                    }
                    _ => {}
                }
            }
        }
        s as f32 - self.komi
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// The light board agrees with the real rules over random games: stones, legality (the
    /// only difference being superko beyond simple ko), atari, liberties after a move and the
    /// area score.
    #[test]
    fn agrees_with_the_rules() {
        let mut rng = Fast::new(7);
        for (game, size) in [5u8, 7, 9, 9, 13, 19, 9, 7].into_iter().enumerate() {
            let mut g = Go::new(size, 6.5).unwrap();
            let mut b = Board::from_go(&g, PASS);
            let mut moves = Vec::new();
            for ply in 0..(size as usize).pow(2) * 3 {
                let side = g.side_to_move();
                let c = code(side);
                assert_eq!(b.to_move, c);
                for p in g.points() {
                    let want = match g.stone_at(p) {
                        None => EMPTY,
                        Some(s) => code(s),
                    };
                    assert_eq!(b.color[p], want, "game {game} ply {ply} point {p}");
                    if want != EMPTY {
                        assert_eq!(b.atari(b.head_of(p)), g.in_atari(p), "atari at {p}");
                        if g.in_atari(p) {
                            assert_eq!(b.atari_lib(b.head_of(p)), g.liberty_points(p)[0]);
                        }
                        continue;
                    }
                    let light = b.legal(p);
                    let real = g.is_legal_point(p);
                    if light && !real {
                        // only positional superko may forbid what simple ko allows
                        assert!(g.liberties_after(p) > 0, "game {game} ply {ply} at {p}");
                    }
                    assert!(!real || light, "game {game} ply {ply}: {p} wrongly illegal");
                    if real {
                        assert_eq!(
                            b.libs_after(p, c),
                            (g.liberties_after(p) as usize).min(3),
                            "liberties after {p}"
                        );
                    }
                }
                assert_eq!(b.area_score(), g.area_score().margin());
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // mostly stones, a pass now and then
                let mv = if moves.len() > 1 && rng.below(40) != 0 {
                    moves[rng.below(moves.len() as u32 - 1) as usize]
                } else {
                    PASS
                };
                g.make(mv);
                b.play(mv);
            }
        }
    }
}
