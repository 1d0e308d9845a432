//! The board shapes both Go boards share — the rules board ([`super::Go`]) and the light
//! playout board of the AI (`crate::ai::go::board`) — written once: the eye test and the
//! splicing of two chains' circular stone lists. Both boards use the same point layout
//! ([`super::STRIDE`], a border ring) and colour codes (0 empty, 1 Black, 2 White, 3 border).

use super::{POINTS, STRIDE, neighbors};

const BORDER: u8 = 3;

/// Whether the empty point `p` is an eye of colour `c`: every neighbour is `c` or the border,
/// and the opponent holds too few diagonals to make it false (none for a point on the edge,
/// at most one inside the board).
#[inline(always)]
pub fn is_eye(color: &[u8; POINTS], p: usize, c: u8) -> bool {
    let mut edge = 0;
    for q in neighbors(p) {
        let cq = color[q];
        if cq == BORDER {
            edge = 1;
        } else if cq != c {
            return false;
        }
    }
    let opp = 3 - c;
    let mut bad = 0;
    for q in [
        p - STRIDE - 1,
        p - STRIDE + 1,
        p + STRIDE - 1,
        p + STRIDE + 1,
    ] {
        let cq = color[q];
        if cq == opp {
            bad += 1;
        } else if cq == BORDER {
            edge = 1;
        }
    }
    bad + edge < 2
}

/// Joins chain `gone` to chain `keep` in the circular lists: every stone of `gone` gets `keep`
/// as its head, and the two rings become one. The caller adds up its own per-chain counts.
#[inline(always)]
pub fn splice_chains(head: &mut [u16; POINTS], next: &mut [u16; POINTS], keep: usize, gone: usize) {
    let mut s = gone;
    loop {
        head[s] = keep as u16;
        s = next[s] as usize;
        if s == gone {
            break;
        }
    }
    next.swap(keep, gone);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::go::Go;

    fn point(g: &Go, t: &str) -> usize {
        Go::point_of(Go::square_of(g.parse_move(t).unwrap()).unwrap())
    }

    #[test]
    fn eyes_true_and_false() {
        // A1: a corner eye of Black. D5: an eye with one White diagonal inside the board (still
        // an eye). J5: on the edge with one White diagonal (a false eye).
        let g = Go::from_text(
            "9 7.5 b ........./........./........./...XO..OX/..X.X..X./...X....X/........./X......../.X.......",
        )
        .unwrap();
        let color = g.colors();
        assert!(is_eye(color, point(&g, "A1"), 1));
        assert!(!is_eye(color, point(&g, "A1"), 2));
        assert!(is_eye(color, point(&g, "D5"), 1));
        assert!(!is_eye(color, point(&g, "J5"), 1));
        assert!(!is_eye(color, point(&g, "F5"), 1), "an open point");
    }

    #[test]
    fn two_rings_become_one() {
        let mut head = [0u16; POINTS];
        let mut next = [0u16; POINTS];
        // ring 10 -> 11 -> 10 and ring 20 -> 21 -> 22 -> 20
        for (a, b) in [(10, 11), (11, 10), (20, 21), (21, 22), (22, 20)] {
            next[a] = b as u16;
        }
        for p in [10, 11] {
            head[p] = 10;
        }
        for p in [20, 21, 22] {
            head[p] = 20;
        }
        splice_chains(&mut head, &mut next, 10, 20);
        let mut ring = vec![10usize];
        let mut s = next[10] as usize;
        while s != 10 {
            ring.push(s);
            s = next[s] as usize;
        }
        ring.sort();
        assert_eq!(ring, vec![10, 11, 20, 21, 22]);
        assert!(ring.iter().all(|&p| head[p] == 10));
    }
}
