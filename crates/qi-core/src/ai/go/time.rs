//! Time management for the Go search: how long a move may take ([`MoveTime`]), from a fixed
//! time a move or from a clock ([`allocate`]), and when a running search stops
//! ([`should_stop`]).
//!
//! A search runs at least [`MoveTime::min`], normally until [`MoveTime::target`], and on to
//! [`MoveTime::max`] while the choice is close (the most visited move is not the best valued
//! one, or the second has more than half its visits: a fight). Past `min` it stops as soon as
//! the most visited move can no longer be overtaken before `max`.
//!
//! - **A fixed time a move** (the match's `--movetime`, GTP `qi-movetime`, the app): the time
//!   not used is lost, so `min` is 75% of it and `target` = `max` = all of it.
//! - **Byo-yomi** (Japanese periods or a Canadian period of several stones): the period over
//!   its stones, less a margin for the reply; 75% of it at least, as above. A Canadian period
//!   of several stones lets a close move run on to twice its share while the other stones keep
//!   half a share each.
//! - **Main time** (absolute, Fischer, or main time before byo-yomi): the main time left over
//!   the moves still expected (half the empty points, at least 12), plus most of the increment
//!   and of a byo-yomi stone's share; a quarter more in the opening; `min` is 40% of it (time
//!   saved is spent later) and `max` up to three times it, never more than a quarter of the main
//!   time left (plus the increment and byo-yomi share): a reserve is always kept, so an absolute
//!   clock never runs out.

use std::time::Duration;

/// How long one search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// The search does not stop before this (the budget of playouts or the stop flag aside).
    pub min: Duration,
    /// A move whose choice is settled stops here.
    pub target: Duration,
    /// A close choice may run on to this; never later.
    pub max: Duration,
}

/// The shortest time a search is given.
const FLOOR: Duration = Duration::from_millis(20);

impl MoveTime {
    /// A fixed time a move: at least 75% of it, at most all of it.
    pub fn fixed(t: Duration) -> MoveTime {
        let t = t.min(crate::search::MAX_TIME);
        MoveTime {
            min: t.mul_f64(0.75),
            target: t,
            max: t,
        }
    }
}

/// A clock as a GTP controller or a match states it, for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Main time left (zero once in byo-yomi).
    pub main: Duration,
    /// Byo-yomi: the time of a period, or, in byo-yomi, what is left of the current one.
    pub period: Duration,
    /// Stones to play in that period (1 for Japanese byo-yomi); 0: no byo-yomi.
    pub stones: u32,
    /// Fischer increment a move.
    pub increment: Duration,
}

/// Time the reply takes to reach the controller (pipes, a network), kept back from every move.
const LAG: Duration = Duration::from_millis(60);

/// The time for the next move under `clock` on a board of `size` with `empty` empty points,
/// `ply` moves into the game. `None` when the clock gives no time at all (no main time, no
/// byo-yomi, no increment): the caller then uses its own move time.
pub fn allocate(clock: &Clock, size: u8, empty: usize, ply: usize) -> Option<MoveTime> {
    // a year at most of each: the sums below cannot overflow
    let cap_time = |d: Duration| d.min(crate::search::MAX_TIME);
    let clock = &Clock {
        main: cap_time(clock.main),
        period: cap_time(clock.period),
        stones: clock.stones,
        increment: cap_time(clock.increment),
    };
    let byo_share = if clock.stones > 0 {
        clock.period / clock.stones
    } else {
        Duration::ZERO
    };
    let floor = |d: Duration| d.max(FLOOR).min(crate::search::MAX_TIME);
    if clock.main.is_zero() && clock.increment.is_zero() {
        if clock.stones == 0 {
            return None;
        }
        // byo-yomi: each stone its share of the period, less the reply's margin
        let safe = byo_share.saturating_sub(LAG + byo_share / 50);
        let max = if clock.stones > 1 {
            // a close move may borrow from the period's other stones, which keep half a share
            let others = (byo_share / 2).saturating_mul(clock.stones - 1);
            (byo_share * 2)
                .min(clock.period.saturating_sub(others))
                .saturating_sub(LAG + byo_share / 50)
                .max(safe)
        } else {
            safe
        };
        return Some(MoveTime {
            min: floor(safe.mul_f64(0.75)),
            target: floor(safe),
            max: floor(max),
        });
    }
    // main time (absolute, Fischer, or before byo-yomi)
    let expected = (empty / 2).max(12) as u32;
    let extra = clock.increment.mul_f64(0.9) + byo_share.mul_f64(0.8);
    let mut target = clock.main / expected + extra;
    if (ply as u32) < (size as u32 * size as u32) / 6 {
        target = target.mul_f64(1.25); // the opening decides much of a game
    }
    let cap = clock.main / 4 + extra;
    // the reply's margin, or half the time when the clock is nearly out
    let lag = |d: Duration| d.saturating_sub(LAG.min(d / 2));
    let target = lag(target.min(cap));
    let max = lag(cap).min(target * 3).max(target);
    // a nearly empty clock plays at once rather than overrun
    let floor = |d: Duration| {
        d.max(FLOOR.min(clock.main / 50))
            .min(crate::search::MAX_TIME)
    };
    Some(MoveTime {
        min: floor(target.mul_f64(0.4)),
        target: floor(target),
        max: floor(max),
    })
}

/// Where a running search stands, for [`should_stop`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Time since the search started.
    pub elapsed: Duration,
    /// Playouts a second so far.
    pub rate: f64,
    /// Visits of the most visited root move minus those of the second.
    pub lead: u32,
    /// Whether the choice is close: the second move has more than half the first's visits, or
    /// a move with a fair share of the visits has a better win rate than the most visited.
    pub close: bool,
}

/// Whether a search with `p` done under `t` stops now.
pub fn should_stop(t: &MoveTime, p: &Progress) -> bool {
    if p.elapsed >= t.max {
        return true;
    }
    if p.elapsed < t.min {
        return false;
    }
    // the most visited move cannot be overtaken in the time left
    let more = p.rate * (t.max - p.elapsed).as_secs_f64();
    if p.lead as f64 > more * 1.2 {
        return true;
    }
    p.elapsed >= t.target && !p.close
}

/// Whether the root choice is close (see [`Progress::close`]): `children` are the root
/// moves' (visits, win rate of the mover).
pub fn is_close(children: &[(u32, f32)]) -> bool {
    let Some(&(bv, br)) = children.iter().max_by_key(|c| c.0) else {
        return false;
    };
    if bv < 100 {
        return true;
    }
    let second = children
        .iter()
        .map(|c| c.0)
        .filter(|&v| v < bv)
        .max()
        .unwrap_or(0);
    let ties = children.iter().filter(|c| c.0 == bv).count();
    ties > 1
        || second * 2 > bv
        || children
            .iter()
            .any(|&(v, r)| v < bv && v * 5 >= bv && r > br + 0.01)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_fixed_time_is_mostly_used() {
        let t = MoveTime::fixed(ms(2000));
        assert_eq!(t.max, ms(2000));
        assert_eq!(t.target, ms(2000));
        assert_eq!(t.min, ms(1500));
    }

    #[test]
    fn byo_yomi_of_one_stone_uses_nearly_all_of_it() {
        // what `qi-engine match --movetime 2000` sends: time_settings 0 2 1
        let c = Clock {
            period: ms(2000),
            stones: 1,
            ..Clock::default()
        };
        let t = allocate(&c, 9, 81, 0).unwrap();
        assert!(t.target >= ms(1800) && t.target < ms(2000), "{t:?}");
        assert_eq!(t.max, t.target);
        assert!(t.min >= ms(1400), "{t:?}");
    }

    #[test]
    fn a_canadian_period_lets_a_close_move_borrow() {
        let c = Clock {
            period: ms(50_000),
            stones: 25,
            ..Clock::default()
        };
        let t = allocate(&c, 19, 200, 150).unwrap();
        assert!(t.target < ms(2000) && t.target > ms(1800), "{t:?}");
        assert!(t.max > ms(3800) && t.max < ms(4000), "{t:?}");
        // the last stone of a period has only what is left
        let c = Clock {
            period: ms(3000),
            stones: 1,
            ..Clock::default()
        };
        let t = allocate(&c, 19, 200, 150).unwrap();
        assert!(t.max < ms(3000));
    }

    #[test]
    fn no_clock_gives_no_time() {
        assert_eq!(allocate(&Clock::default(), 9, 81, 0), None);
    }

    #[test]
    fn main_time_is_spread_with_more_in_the_opening() {
        let c = Clock {
            main: ms(60_000),
            ..Clock::default()
        };
        let opening = allocate(&c, 9, 79, 2).unwrap();
        let middle = allocate(&c, 9, 79, 30).unwrap();
        assert!(opening.target > middle.target);
        // 60 s over about 40 moves
        assert!(
            middle.target > ms(1300) && middle.target < ms(1600),
            "{middle:?}"
        );
        assert!(middle.max <= ms(15_000));
        assert!(middle.min < middle.target && middle.target <= middle.max);
    }

    #[test]
    fn an_absolute_clock_never_runs_out() {
        // a long 9×9 game (120 own moves) on 60 s: every move takes its target and 5 ms more
        // (the reply), a close one in three its max; the clock never reaches zero
        let mut left = ms(60_000);
        for k in 0..120usize {
            let c = Clock {
                main: left,
                ..Clock::default()
            };
            let empty = 81usize.saturating_sub(k / 2);
            let t = allocate(&c, 9, empty, 2 * k).unwrap();
            let used = if k % 3 == 0 { t.max } else { t.target } + ms(5);
            assert!(used < left, "move {k}: {t:?} with {left:?} left");
            left -= used;
        }
    }

    #[test]
    fn fischer_spends_the_increment() {
        let c = Clock {
            main: ms(1000),
            increment: ms(2000),
            ..Clock::default()
        };
        let t = allocate(&c, 9, 40, 40).unwrap();
        assert!(t.target > ms(1700) && t.max < ms(2300), "{t:?}");
    }

    #[test]
    fn huge_clocks_do_not_overflow() {
        let c = Clock {
            main: Duration::MAX,
            period: Duration::MAX,
            stones: u32::MAX,
            increment: Duration::MAX / 4,
        };
        let t = allocate(&c, 19, 361, 0).unwrap();
        assert!(t.max <= crate::search::MAX_TIME);
    }

    fn progress(elapsed: u64, lead: u32, close: bool) -> Progress {
        Progress {
            elapsed: ms(elapsed),
            rate: 20_000.0,
            lead,
            close,
        }
    }

    #[test]
    fn stopping() {
        let t = MoveTime {
            min: ms(800),
            target: ms(2000),
            max: ms(5000),
        };
        // never before min, even with an overwhelming lead
        assert!(!should_stop(&t, &progress(500, 1_000_000, false)));
        // past min: stops when the lead cannot be caught before max (3 s × 20,000/s × 1.2)
        assert!(should_stop(&t, &progress(2000, 80_000, true)));
        assert!(!should_stop(&t, &progress(1000, 20_000, false)));
        // at the target: a settled choice stops, a close one runs on
        assert!(should_stop(&t, &progress(2000, 20_000, false)));
        assert!(!should_stop(&t, &progress(2000, 500, true)));
        // at max it stops whatever
        assert!(should_stop(&t, &progress(5000, 0, true)));
    }

    #[test]
    fn close_choices() {
        assert!(is_close(&[(1000, 0.5), (600, 0.5)]));
        assert!(!is_close(&[(1000, 0.5), (400, 0.49)]));
        // a well-visited move with a clearly better win rate
        assert!(is_close(&[(1000, 0.5), (300, 0.55)]));
        // a barely visited one does not count
        assert!(!is_close(&[(1000, 0.5), (100, 0.6)]));
        assert!(is_close(&[(500, 0.5), (500, 0.5)]));
        assert!(!is_close(&[]));
    }
}
