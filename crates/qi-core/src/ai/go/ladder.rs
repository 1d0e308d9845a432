//! Ladder reading on the light board ([`Board`]): whether a chain in atari that runs is
//! caught by a ladder (the attacker keeps it in atari until it has no liberty left), the
//! check Pachi's playouts and priors make before they escape from atari or give one.
//!
//! The reading is the simple ladder. The defender, to move with its chain in atari, extends
//! at the liberty or captures an attacking chain that is itself in atari (any chain next to
//! its own); a move that leaves its chain three or more liberties escapes, one that leaves one
//! liberty fails, and with two liberties the attacker tries an atari at each of them in turn.
//! The defender escapes when one of its moves does, the attacker catches when one of its
//! ataris does. Every step works on a copy of the board (the board has no undo), and a reading
//! gives up after [`BUDGET`] moves, counting an unfinished ladder as an escape (so that a
//! move is never dropped for a ladder that was not read out).

use super::board::{BORDER, Board, EMPTY};
use crate::go::{Move, neighbors};

/// Moves a reading may play before it gives up (a 9×9 ladder across the board takes about
/// 25; the wrong atari of each rung is refuted at once).
pub(crate) const BUDGET: u32 = 200;

/// Whether the side to move, extending its chain in atari at the point `p` (one of the
/// chain's liberties), is then caught in a ladder: `p` captures nothing, the chain has
/// exactly two liberties after it, and the attacker, to move, catches it. False when the
/// reading runs out of budget.
pub(crate) fn escape_caught(b: &Board, p: usize) -> bool {
    let me = b.to_move;
    if captures_at(b, p, me) || b.libs_after(p, me) != 2 || !b.legal(p) {
        return false;
    }
    let mut r = Reader { left: BUDGET };
    let mut nb = Box::new(b.clone());
    nb.play(p as Move);
    r.left -= 1;
    r.attacker_catches(&nb, p) == Some(true)
}

/// Whether the point `p` extends a chain of the side to move that is in atari into a ladder
/// that catches it ([`escape_caught`] where a chain of the mover next to `p` is in atari):
/// the escapes the search's tree leaves out ([`tree_prunes_caught_escapes`]).
pub(crate) fn runs_into_ladder(b: &Board, p: usize) -> bool {
    let me = b.to_move;
    neighbors(p)
        .into_iter()
        .any(|q| b.color[q] == me && b.atari(b.head_of(q)))
        && escape_caught(b, p)
}

/// Whether the search's tree leaves out the escapes that run into a ladder that catches them
/// (with the ladders in the priors; `QI_GO_LADDER_TREE=0` keeps them, weighed down by the
/// priors only). Session 35 found why weighing down is not enough: on 19×19 against GNU Go
/// level 10 the 5 s search (6,600 playouts at 1,750 a second under load) ran a caught ladder
/// out for 15 moves from the third line to the edge and lost by 210 points. The light
/// playouts do not read ladders, so the escaping chain often lives in them and the
/// escape's AMAF value (which rules a young node) is high; the hand-set priors' handful of
/// virtual losses do not outweigh thousands of AMAF samples, and the learnt model's weight,
/// which knows nothing of ladders, even favours the escape. With the hand-set priors the same
/// position played the escape too.
pub(crate) fn tree_prunes_caught_escapes() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("QI_GO_LADDER_TREE").map_or(true, |v| v != "0"))
}

/// Whether the chain through `s`, in atari with its owner to move, is caught in a ladder
/// (none of the owner's extensions and captures gets it out). False when the reading runs
/// out of budget.
pub(crate) fn caught(b: &Board, s: usize) -> bool {
    debug_assert_eq!(b.color[s], b.to_move);
    debug_assert!(b.atari(b.head_of(s)));
    let mut r = Reader { left: BUDGET };
    r.defender_escapes(b, s) == Some(false)
}

/// Whether the side to move, playing the point `p`, puts a chain of the opponent in atari
/// that is then caught in a ladder (a working ladder; a capture is no atari). `p` must be
/// legal.
pub(crate) fn atari_catches(b: &Board, p: usize) -> bool {
    let me = b.to_move;
    let opp = 3 - me;
    // the opponent chains next to p with two liberties (p one of them)
    let mut targets = [0usize; 4];
    let mut k = 0;
    let (chains, n) = b.chains_around(p);
    for &(q, h) in &chains[..n] {
        if b.color[q] != opp {
            continue;
        }
        if b.atari(h) {
            return false; // a capture
        }
        let mut l = [0u16; 4];
        if b.chain_libs(q, &mut l, 3) == 2 {
            targets[k] = q;
            k += 1;
        }
    }
    if k == 0 {
        return false;
    }
    let mut nb = b.clone();
    nb.play(p as Move);
    // an atari from a stone the opponent captures at once is no ladder
    if nb.atari(nb.head_of(p)) {
        return false;
    }
    for &q in &targets[..k] {
        if nb.color[q] == opp && nb.atari(nb.head_of(q)) && caught(&nb, q) {
            return true;
        }
    }
    false
}

/// Whether playing `p` for colour `c` captures an opposing chain.
fn captures_at(b: &Board, p: usize, c: u8) -> bool {
    neighbors(p).into_iter().any(|q| {
        let cq = b.color[q];
        cq != EMPTY && cq != BORDER && cq != c && b.atari(b.head_of(q))
    })
}

/// One reading and the moves it has left.
struct Reader {
    left: u32,
}

impl Reader {
    /// `b` after the move `m`, one move of the budget spent; `None` when it is spent already.
    /// The copy lives on the heap: a reading recurses once a move, and a board (about 9 KB)
    /// in each frame overflowed 2 MB stacks in long ladders.
    fn step(&mut self, b: &Board, m: usize) -> Option<Box<Board>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let mut nb = Box::new(b.clone());
        nb.play(m as Move);
        Some(nb)
    }

    /// The chain through `s` is in atari and its owner to move: does it get out? `None` when
    /// the budget ran out.
    fn defender_escapes(&mut self, b: &Board, s: usize) -> Option<bool> {
        let me = b.to_move;
        let opp = 3 - me;
        let h = b.head_of(s);
        let lib = b.atari_lib(h);
        // captures of attacking chains in atari next to the chain, then the extension
        let mut moves = [0u16; 8];
        let mut k = 0;
        b.for_chain(s, |t| {
            for q in neighbors(t) {
                if b.color[q] == opp {
                    let hq = b.head_of(q);
                    if b.atari(hq) {
                        let l = b.atari_lib(hq) as u16;
                        if k < moves.len() && !moves[..k].contains(&l) {
                            moves[k] = l;
                            k += 1;
                        }
                    }
                }
            }
        });
        let mut unknown = false;
        for &m in &moves[..k] {
            let m = m as usize;
            if !b.legal(m) {
                continue;
            }
            let nb = self.step(b, m)?;
            let mut l = [0u16; 4];
            match nb.chain_libs(s, &mut l, 3) {
                0 | 1 => {}
                2 => match self.attacker_catches(&nb, s) {
                    Some(false) => return Some(true),
                    None => unknown = true,
                    Some(true) => {}
                },
                _ => return Some(true),
            }
        }
        if !moves[..k].contains(&(lib as u16)) && b.legal(lib) {
            match b.libs_after(lib, me) {
                0 | 1 => {}
                2 => {
                    let nb = self.step(b, lib)?;
                    match self.attacker_catches(&nb, s) {
                        Some(false) => return Some(true),
                        None => unknown = true,
                        Some(true) => {}
                    }
                }
                _ => return Some(true),
            }
        }
        if unknown { None } else { Some(false) }
    }

    /// The chain through `s` has two liberties and the attacker is to move: does one of its
    /// two ataris catch it? `None` when the budget ran out.
    fn attacker_catches(&mut self, b: &Board, s: usize) -> Option<bool> {
        let mut l = [0u16; 4];
        let n = b.chain_libs(s, &mut l, 3);
        if n != 2 {
            return Some(n < 2);
        }
        let mut unknown = false;
        for &a in &l[..2] {
            let a = a as usize;
            if !b.legal(a) {
                continue;
            }
            let nb = self.step(b, a)?;
            if nb.color[s] == EMPTY {
                return Some(true); // cannot happen with two liberties, but a capture is a capture
            }
            if !nb.atari(nb.head_of(s)) {
                continue; // the atari captured stones next to the chain: no atari
            }
            match self.defender_escapes(&nb, s) {
                Some(false) => return Some(true),
                None => unknown = true,
                Some(true) => {}
            }
        }
        if unknown { None } else { Some(false) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::go::Go;

    /// The light board after `black` and `white` stones are placed (Black first, passes in
    /// between so that each list is played in full), with `to_move` to move.
    fn setup(black: &[&str], white: &[&str], to_move: crate::game::Side) -> (Go, Board) {
        setup_on(9, black, white, to_move)
    }

    /// [`setup`] on a board of `size`.
    fn setup_on(
        size: u8,
        black: &[&str],
        white: &[&str],
        to_move: crate::game::Side,
    ) -> (Go, Board) {
        let mut g = Go::new(size, 7.0).unwrap();
        let n = black.len().max(white.len());
        for i in 0..n {
            let b = black
                .get(i)
                .map_or(crate::go::PASS, |m| g.parse_move(m).unwrap());
            g.make(b);
            let w = white
                .get(i)
                .map_or(crate::go::PASS, |m| g.parse_move(m).unwrap());
            g.make(w);
        }
        if g.side_to_move() != to_move {
            g.make(crate::go::PASS);
        }
        let b = Board::from_go(&g, crate::go::PASS);
        (g, b)
    }

    fn pt(g: &Go, m: &str) -> usize {
        g.parse_move(m).unwrap() as usize
    }

    // The textbook ladder: Black's C3 in atari (White on B3, C4 and C2) runs out at D3,
    // where White's D2 leaves it two liberties (D4, E3); White chases it up and to the right
    // (atari at E3, Black D4, atari at D5, Black E4, ...) to the edge.
    //
    //   5 . . . . .
    //   4 . . O . .
    //   3 . O X . .       (X Black, O White)
    //   2 . . O O .
    //     A B C D E
    const LADDER_BLACK: [&str; 1] = ["C3"];
    const LADDER_WHITE: [&str; 4] = ["B3", "C4", "D2", "C2"];

    #[test]
    fn a_textbook_ladder_is_caught() {
        use crate::game::Side;
        let (g, b) = setup(&LADDER_BLACK, &LADDER_WHITE, Side::Black);
        let c3 = pt(&g, "C3");
        assert!(b.atari(b.head_of(c3)));
        assert_eq!(b.atari_lib(b.head_of(c3)), pt(&g, "D3"));
        assert_eq!(b.libs_after(pt(&g, "D3"), b.to_move), 2);
        assert!(caught(&b, c3), "the ladder catches C3");
        assert!(
            escape_caught(&b, pt(&g, "D3")),
            "extending at D3 runs into it"
        );
        // White's atari that starts it: without C2 Black's C3 has two liberties, C2 is the
        // atari
        let (g, b) = setup(&LADDER_BLACK, &LADDER_WHITE[..3], Side::White);
        assert!(
            atari_catches(&b, pt(&g, "C2")),
            "C2 starts a working ladder"
        );
        // an atari from afar is no atari, a move next to nothing catches nothing
        assert!(!atari_catches(&b, pt(&g, "G7")));
    }

    #[test]
    fn a_ladder_breaker_lets_the_chain_out() {
        use crate::game::Side;
        // a Black stone on the ladder's path (F6) breaks it
        let mut black = LADDER_BLACK.to_vec();
        black.push("F6");
        let (g, b) = setup(&black, &LADDER_WHITE, Side::Black);
        let c3 = pt(&g, "C3");
        assert!(!caught(&b, c3), "F6 breaks the ladder");
        assert!(!escape_caught(&b, pt(&g, "D3")));
        let (g, b) = setup(&black, &LADDER_WHITE[..3], Side::White);
        assert!(
            !atari_catches(&b, pt(&g, "C2")),
            "no working ladder with F6 there"
        );
        // a White stone there instead keeps it caught
        let mut white = LADDER_WHITE.to_vec();
        white.push("F6");
        let (_, b) = setup(&LADDER_BLACK, &white, Side::Black);
        assert!(caught(&b, c3));
    }

    #[test]
    fn the_chain_escapes_by_capturing_an_attacker() {
        use crate::game::Side;
        // As the textbook ladder, but White's B3 is itself in atari (Black on A3 and B4, its
        // last liberty B2): Black captures it at B2 and gets out (White cannot retake at B3,
        // a suicide, and an atari at D3 lets Black connect at B3). Without the captures the
        // reading would find the ladder: White's C4 is in atari too once Black runs to D4,
        // but only a capture takes it.
        let black = ["C3", "A3", "B4"];
        let (g, b) = setup(&black, &LADDER_WHITE, Side::Black);
        let c3 = pt(&g, "C3");
        assert!(b.atari(b.head_of(c3)));
        assert_eq!(b.atari_lib(b.head_of(c3)), pt(&g, "D3"));
        let b3 = pt(&g, "B3");
        assert!(b.atari(b.head_of(b3)));
        assert_eq!(b.atari_lib(b.head_of(b3)), pt(&g, "B2"));
        assert!(!caught(&b, c3), "capturing B3 gets out");
        // and White's atari at C2 that would start this ladder catches nothing
        let (g, b) = setup(&black, &LADDER_WHITE[..3], Side::White);
        assert!(!atari_catches(&b, pt(&g, "C2")));
    }

    /// The textbook ladder on 19×19 runs from C3 to the far corner, over 60 moves deep: the
    /// reading keeps its board copies off the stack, so that it fits the 2 MB of a test or
    /// task-pool thread (with a copy of about 9 KB a move in each frame, a Go test thread
    /// overflowed its stack now and then). Here it reads on a thread of 256 KB.
    #[test]
    fn a_long_ladder_is_read_on_a_small_stack() {
        use crate::game::Side;
        let (g, b) = setup_on(19, &LADDER_BLACK, &LADDER_WHITE, Side::Black);
        let c3 = pt(&g, "C3");
        let reading = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || (caught(&b, c3), escape_caught(&b, pt(&g, "D3"))))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(
            reading,
            (true, true),
            "the ladder catches C3 across the board"
        );
    }
}
