//! Game clocks, for online games and as an option for local ones: absolute time, Fischer
//! increment and Japanese byo-yomi. A [`GameClock`] is a plain value driven by the elapsed time
//! its owner tells it ([`GameClock::advance`], [`GameClock::press`]), so it is tested without
//! sleeping and saved with the game (it is serde).
//!
//! ```
//! use std::time::Duration;
//! use qi_core::clock::{GameClock, TimeControl};
//! use qi_core::Side;
//!
//! let s = Duration::from_secs;
//! let mut clock = GameClock::new(TimeControl::Fischer { main: s(60), increment: s(2) });
//! clock.start(Side::Black);
//! clock.press(s(10)).unwrap(); // Black thought 10 s: 60 - 10 + 2
//! assert_eq!(clock.remaining(Side::Black).main, s(52));
//! assert_eq!(clock.running(), Some(Side::White));
//! assert_eq!(clock.advance(s(61)), Some(Side::White)); // White's flag falls
//! ```

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::game::Side;

/// How much time each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControl {
    /// `main` for the whole game.
    Absolute { main: Duration },
    /// `main`, and `increment` added after each move.
    Fischer { main: Duration, increment: Duration },
    /// Japanese byo-yomi: `main`, then `periods` periods of `period` each. A move made within a
    /// period keeps it whole for the next move; a period that runs out is used up.
    ByoYomi {
        main: Duration,
        periods: u32,
        period: Duration,
    },
}

impl TimeControl {
    /// Whether the control can be played at all (some time to think, at least one period).
    pub fn check(&self) -> Result<(), String> {
        match *self {
            TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => {
                if main.is_zero() {
                    return Err("the main time must be more than 0".into());
                }
            }
            TimeControl::ByoYomi {
                main,
                periods,
                period,
            } => {
                if periods == 0 || period.is_zero() {
                    if main.is_zero() {
                        return Err("byo-yomi needs main time or periods of some length".into());
                    }
                    if periods > 0 || !period.is_zero() {
                        return Err("byo-yomi periods need a count and a length".into());
                    }
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = |d: Duration| format_duration(d);
        match *self {
            TimeControl::Absolute { main } => write!(f, "{}", t(main)),
            TimeControl::Fischer { main, increment } => {
                write!(f, "{} + {}", t(main), t(increment))
            }
            TimeControl::ByoYomi {
                main,
                periods,
                period,
            } => write!(f, "{} + {periods} × {}", t(main), t(period)),
        }
    }
}

/// `m:ss`, or `h:mm:ss` from an hour, or `s.d` under ten seconds (rounded down: a clock that
/// shows 0.0 has run out).
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 10_000 {
        return format!("{}.{}", ms / 1000, (ms % 1000) / 100);
    }
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// One side's time left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideTime {
    /// Main time left (with Fischer, the increments added).
    pub main: Duration,
    /// Byo-yomi periods left, the current one included (0 without byo-yomi).
    pub periods: u32,
    /// Time left in the current byo-yomi period (the period's length until main time is spent).
    pub period: Duration,
}

impl SideTime {
    /// Nothing left: the flag has fallen.
    pub fn is_out(&self) -> bool {
        self.main.is_zero() && (self.periods == 0 || self.period.is_zero())
    }

    /// Whether the side is in byo-yomi (main time spent, periods left).
    pub fn in_byo_yomi(&self) -> bool {
        self.main.is_zero() && self.periods > 0
    }

    /// All the time this side could still use on its current move.
    pub fn total(&self) -> Duration {
        if self.periods == 0 {
            self.main
        } else {
            self.main + self.period
        }
    }
}

/// Why [`GameClock::press`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockError {
    /// The clock is not running (not started, paused, or a flag fell).
    NotRunning,
    /// The side's time ran out during this move: the flag fell.
    Flag(Side),
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::NotRunning => f.write_str("the clock is not running"),
            ClockError::Flag(s) => write!(f, "{s:?}'s time ran out"),
        }
    }
}

/// Both sides' clocks. Exactly one runs at a time (or none: before the first move, paused, or
/// after a flag).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameClock {
    pub control: TimeControl,
    /// `[black, white]`.
    sides: [SideTime; 2],
    /// Whose clock runs (kept while paused, so that [`GameClock::resume`] knows).
    turn: Option<Side>,
    paused: bool,
    flag: Option<Side>,
}

impl GameClock {
    /// Both sides with the control's full time, nothing running.
    pub fn new(control: TimeControl) -> GameClock {
        let full = match control {
            TimeControl::Absolute { main } | TimeControl::Fischer { main, .. } => SideTime {
                main,
                periods: 0,
                period: Duration::ZERO,
            },
            TimeControl::ByoYomi {
                main,
                periods,
                period,
            } => SideTime {
                main,
                periods,
                period,
            },
        };
        GameClock {
            control,
            sides: [full; 2],
            turn: None,
            paused: false,
            flag: None,
        }
    }

    /// Starts (or hands over to) `side`'s clock.
    pub fn start(&mut self, side: Side) {
        if self.flag.is_none() {
            self.turn = Some(side);
            self.paused = false;
        }
    }

    /// The side whose clock is running now (`None` when paused, stopped or flagged).
    pub fn running(&self) -> Option<Side> {
        if self.paused || self.flag.is_some() {
            None
        } else {
            self.turn
        }
    }

    /// The side to move as far as the clock knows, running or paused.
    pub fn turn(&self) -> Option<Side> {
        self.turn
    }

    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Stops the running clock without handing it over (a dropped link, a dialog).
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Starts again the clock that was running when paused.
    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// Stops both clocks for good (the game is over).
    pub fn stop(&mut self) {
        self.turn = None;
        self.paused = false;
    }

    /// The side whose flag fell, if one did.
    pub fn flagged(&self) -> Option<Side> {
        self.flag
    }

    pub fn remaining(&self, side: Side) -> SideTime {
        self.sides[side.index()]
    }

    /// Sets a side's time (a clock resynchronised from the other player).
    pub fn set_remaining(&mut self, side: Side, time: SideTime) {
        self.sides[side.index()] = time;
    }

    /// Takes `elapsed` off the running side; returns that side if its flag falls now.
    pub fn advance(&mut self, elapsed: Duration) -> Option<Side> {
        let side = self.running()?;
        let period = match self.control {
            TimeControl::ByoYomi { period, .. } => period,
            _ => Duration::ZERO,
        };
        if Self::spend(&mut self.sides[side.index()], elapsed, period) {
            self.flag = Some(side);
            return Some(side);
        }
        None
    }

    /// Takes `spent` off `t` (main time first, then byo-yomi periods of `period_len`); `true`
    /// when nothing is left.
    fn spend(t: &mut SideTime, mut spent: Duration, period_len: Duration) -> bool {
        let from_main = spent.min(t.main);
        t.main -= from_main;
        spent -= from_main;
        if !t.main.is_zero() {
            return false;
        }
        if t.periods == 0 {
            return true;
        }
        loop {
            if spent < t.period {
                t.period -= spent;
                return false;
            }
            // This period ran out: it is used up, the next one starts whole.
            spent -= t.period;
            t.periods -= 1;
            if t.periods == 0 {
                t.period = Duration::ZERO;
                return true;
            }
            t.period = period_len;
        }
    }

    /// The running side finished its move after `spent` more time: takes it off, adds the
    /// increment or renews the byo-yomi period, and starts the other side's clock.
    pub fn press(&mut self, spent: Duration) -> Result<Side, ClockError> {
        let side = self.running().ok_or(ClockError::NotRunning)?;
        if let Some(s) = self.advance(spent) {
            return Err(ClockError::Flag(s));
        }
        let t = &mut self.sides[side.index()];
        match self.control {
            TimeControl::Absolute { .. } => {}
            TimeControl::Fischer { increment, .. } => t.main += increment,
            TimeControl::ByoYomi { period, .. } => {
                if t.main.is_zero() && t.periods > 0 {
                    t.period = period;
                }
            }
        }
        let next = side.other();
        self.turn = Some(next);
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn absolute_time_runs_only_for_the_side_to_move_and_flags_at_zero() {
        let mut c = GameClock::new(TimeControl::Absolute { main: s(10) });
        assert_eq!(c.advance(s(5)), None, "nothing runs before start");
        assert_eq!(c.remaining(Side::Black).main, s(10));
        c.start(Side::Black);
        assert_eq!(c.press(s(4)), Ok(Side::White));
        assert_eq!(c.remaining(Side::Black).main, s(6));
        assert_eq!(c.remaining(Side::White).main, s(10));
        assert_eq!(c.advance(s(9)), None);
        assert_eq!(c.press(ms(500)), Ok(Side::Black));
        assert_eq!(c.remaining(Side::White).main, ms(500));
        assert_eq!(c.advance(ms(5999)), None);
        assert_eq!(
            c.advance(ms(1)),
            Some(Side::Black),
            "exactly zero is a flag"
        );
        assert_eq!(c.flagged(), Some(Side::Black));
        assert_eq!(c.running(), None);
        assert_eq!(c.press(s(0)), Err(ClockError::NotRunning));
        assert!(c.remaining(Side::Black).is_out());
        assert!(!c.remaining(Side::White).is_out());
    }

    #[test]
    fn fischer_adds_the_increment_after_each_move_and_a_slow_move_flags() {
        let mut c = GameClock::new(TimeControl::Fischer {
            main: s(10),
            increment: s(3),
        });
        c.start(Side::Black);
        c.press(s(1)).unwrap();
        assert_eq!(c.remaining(Side::Black).main, s(12));
        c.press(s(2)).unwrap();
        assert_eq!(c.remaining(Side::White).main, s(11));
        // A move that takes longer than the time left flags; the increment does not save it.
        assert_eq!(c.press(s(12)), Err(ClockError::Flag(Side::Black)));
        assert_eq!(c.flagged(), Some(Side::Black));
    }

    #[test]
    fn byo_yomi_keeps_a_period_for_a_quick_move_and_uses_it_up_when_it_runs_out() {
        let mut c = GameClock::new(TimeControl::ByoYomi {
            main: s(5),
            periods: 3,
            period: s(10),
        });
        c.start(Side::Black);
        // Black spends the main time and 4 s of the first period.
        c.press(s(9)).unwrap();
        let b = c.remaining(Side::Black);
        assert_eq!(
            (b.main, b.periods, b.period),
            (s(0), 3, s(10)),
            "period renewed"
        );
        assert!(b.in_byo_yomi());
        c.press(s(1)).unwrap();
        // 25 s: two whole periods run out, 5 s into the third.
        assert_eq!(c.advance(s(25)), None);
        let b = c.remaining(Side::Black);
        assert_eq!((b.periods, b.period), (1, s(5)));
        c.press(s(1)).unwrap();
        assert_eq!(
            c.remaining(Side::Black).period,
            s(10),
            "last period renewed"
        );
        c.press(s(0)).unwrap();
        assert_eq!(c.press(s(10)), Err(ClockError::Flag(Side::Black)));
        assert!(c.remaining(Side::Black).is_out());
        // White never left main time.
        assert_eq!(c.remaining(Side::White).main, s(4));
    }

    #[test]
    fn byo_yomi_without_main_time_starts_in_the_periods() {
        let mut c = GameClock::new(TimeControl::ByoYomi {
            main: s(0),
            periods: 1,
            period: s(30),
        });
        c.start(Side::White);
        c.press(s(29)).unwrap();
        assert_eq!(c.remaining(Side::White).period, s(30));
        c.press(s(0)).unwrap();
        assert_eq!(c.advance(s(30)), Some(Side::White));
    }

    #[test]
    fn pause_stops_the_clock_and_resume_goes_on_with_the_same_side() {
        let mut c = GameClock::new(TimeControl::Absolute { main: s(60) });
        c.start(Side::White);
        c.advance(s(10));
        c.pause();
        assert_eq!(c.running(), None);
        assert_eq!(c.advance(s(100)), None);
        assert_eq!(c.press(s(1)), Err(ClockError::NotRunning));
        c.resume();
        assert_eq!(c.running(), Some(Side::White));
        assert_eq!(c.remaining(Side::White).main, s(50));
    }

    #[test]
    fn a_clock_survives_a_save_as_it_was() {
        let mut c = GameClock::new(TimeControl::ByoYomi {
            main: s(1),
            periods: 5,
            period: s(20),
        });
        c.start(Side::Black);
        c.advance(ms(3500));
        c.pause();
        let text = ron::to_string(&c).unwrap();
        let back: GameClock = ron::from_str(&text).unwrap();
        assert_eq!(back, c);
        assert_eq!(back.remaining(Side::Black).period, ms(17500));
    }

    #[test]
    fn checks_and_shows_time_controls() {
        assert!(TimeControl::Absolute { main: s(0) }.check().is_err());
        assert!(
            TimeControl::ByoYomi {
                main: s(0),
                periods: 0,
                period: s(0)
            }
            .check()
            .is_err()
        );
        assert!(
            TimeControl::ByoYomi {
                main: s(60),
                periods: 0,
                period: s(0)
            }
            .check()
            .is_ok()
        );
        let t = TimeControl::ByoYomi {
            main: s(600),
            periods: 5,
            period: s(30),
        };
        assert_eq!(t.to_string(), "10:00 + 5 × 0:30");
        assert_eq!(format_duration(ms(9999)), "9.9");
        assert_eq!(format_duration(s(3725)), "1:02:05");
    }
}
