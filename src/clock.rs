//! Game clocks in the window: the time control the player picks (New game, Play online), the
//! clock of a local game (run here, frame by frame, stopped while a menu is open; a flag ends
//! the game "on time"), the clocks' text for the HUD, and the CPU's time budget under a clock.
//! The clock itself is `qi_core::clock::GameClock`; an online game's clock is the session's.

use std::time::Duration;

use bevy::prelude::*;
use bevy_egui::egui;
use qi_core::clock::{GameClock, SideTime, TimeControl, format_duration};
use qi_core::{GameResult, Reason, Side};

use crate::AppSet;
use crate::game::{BoardReset, GameEvent, Match, MovePlayed, Status};
use crate::menus::InGame;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        run_local_clock
            .in_set(AppSet::Follow)
            .run_if(in_state(Screen::Playing)),
    );
}

/// The kinds of time control offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockKind {
    None,
    Absolute,
    Fischer,
    ByoYomi,
}

/// The time control being chosen in a menu: the kind and each value, kept while the player
/// switches kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockChoice {
    pub kind: ClockKind,
    /// Main time in minutes (0 allowed for byo-yomi only).
    pub minutes: u32,
    /// Fischer increment in seconds.
    pub increment: u32,
    /// Byo-yomi: periods and their length in seconds.
    pub periods: u32,
    pub period: u32,
}

impl Default for ClockChoice {
    fn default() -> Self {
        ClockChoice {
            kind: ClockKind::None,
            minutes: 10,
            increment: 5,
            periods: 5,
            period: 30,
        }
    }
}

impl ClockChoice {
    pub fn control(&self) -> Option<TimeControl> {
        let main = Duration::from_secs(self.minutes as u64 * 60);
        let tc = match self.kind {
            ClockKind::None => return None,
            ClockKind::Absolute => TimeControl::Absolute { main },
            ClockKind::Fischer => TimeControl::Fischer {
                main,
                increment: Duration::from_secs(self.increment as u64),
            },
            ClockKind::ByoYomi => TimeControl::ByoYomi {
                main,
                periods: self.periods,
                period: Duration::from_secs(self.period as u64),
            },
        };
        tc.check().ok().map(|_| tc)
    }

    /// The next kind (`delta` ±1), for the menus' Left/Right keys.
    pub fn cycle(&mut self, delta: isize) {
        self.kind = crate::games::cycle(
            &[
                ClockKind::None,
                ClockKind::Absolute,
                ClockKind::Fischer,
                ClockKind::ByoYomi,
            ],
            self.kind,
            delta,
        );
    }
}

/// The time control's buttons and values; returns whether the player clicked one.
pub fn clock_choice_ui(ui: &mut egui::Ui, c: &mut ClockChoice) -> bool {
    let mut clicked = false;
    ui.horizontal_wrapped(|ui| {
        {
            for (k, label) in [
                (ClockKind::None, t!("clock-none")),
                (ClockKind::Absolute, t!("clock-absolute")),
                (ClockKind::Fischer, t!("clock-fischer")),
                (ClockKind::ByoYomi, t!("clock-byo-yomi")),
            ] {
                if ui
                    .add(egui::Button::new(label).selected(c.kind == k))
                    .clicked()
                {
                    c.kind = k;
                    clicked = true;
                }
            }
        }
        if c.kind == ClockKind::None {
            return;
        }
        {
            let min = if c.kind == ClockKind::ByoYomi { 0 } else { 1 };
            ui.label(t!("clock-minutes"));
            clicked |= ui
                .add(egui::DragValue::new(&mut c.minutes).range(min..=180))
                .changed();
            match c.kind {
                ClockKind::Fischer => {
                    ui.label(t!("clock-increment"));
                    clicked |= ui
                        .add(egui::DragValue::new(&mut c.increment).range(0..=120))
                        .changed();
                }
                ClockKind::ByoYomi => {
                    ui.label(t!("clock-periods"));
                    clicked |= ui
                        .add(egui::DragValue::new(&mut c.periods).range(1..=30))
                        .changed();
                    ui.label(t!("clock-period"));
                    clicked |= ui
                        .add(egui::DragValue::new(&mut c.period).range(1..=300))
                        .changed();
                }
                _ => {}
            }
        }
    });
    clicked
}

/// A side's time as the HUD shows it: `4:59`, `0:00 + 3 × 30` (byo-yomi) or `9.5`.
pub fn side_time_text(t: &SideTime, control: &TimeControl) -> String {
    match control {
        TimeControl::ByoYomi { .. } if t.in_byo_yomi() => t!(
            "clock-in-byo-yomi",
            time = format_duration(t.period),
            periods = t.periods
        ),
        _ => format_duration(t.main),
    }
}

/// Both sides' clock texts, and whose clock runs.
pub fn clock_texts(clock: &GameClock) -> ([String; 2], Option<Side>) {
    let text = |s: Side| side_time_text(&clock.remaining(s), &clock.control);
    ([text(Side::Black), text(Side::White)], clock.running())
}

/// How long the CPU may think for `side` under `clock`: a twentieth of its time left plus the
/// increment (or the byo-yomi period), at least 100 ms, and never more than `cap` (the
/// settings' time per move).
pub fn cpu_budget(clock: &GameClock, side: Side, cap: Duration) -> Duration {
    let t = clock.remaining(side);
    let bonus = match clock.control {
        TimeControl::Fischer { increment, .. } => increment,
        TimeControl::ByoYomi { .. } if t.periods > 0 => t.period,
        _ => Duration::ZERO,
    };
    // in byo-yomi only the period counts: spend most of it, never all of it
    let budget = if t.in_byo_yomi() {
        t.period.mul_f32(0.6)
    } else {
        t.main / 20 + bonus.mul_f32(if t.periods > 0 { 0.6 } else { 1.0 })
    };
    budget.max(Duration::from_millis(100)).min(cap)
}

/// Runs the clock of a local game: the side to move's time goes while no menu is open; a
/// move hands the clock over (adding the increment); undo hands it to the side to move; a
/// flag ends the game on time.
fn run_local_clock(
    time: Res<Time>,
    game: Option<ResMut<Match>>,
    in_game: Res<State<InGame>>,
    mut played: MessageReader<MovePlayed>,
    mut resets: MessageReader<BoardReset>,
    mut events: MessageWriter<GameEvent>,
    mut status: MessageWriter<Status>,
) {
    let moves = played.read().count();
    let reset = resets.read().count() > 0;
    let Some(mut game) = game else { return };
    if game.is_online() || game.replay.is_some() {
        return;
    }
    let Some(control) = game.setup.clock else {
        return;
    };
    let to_move = game.position().side_to_move();
    let over = game.is_over();
    let clock = game.clock.get_or_insert_with(|| GameClock::new(control));
    if over {
        clock.stop();
        return;
    }
    for _ in 0..moves {
        let _ = clock.press(Duration::ZERO);
    }
    if reset || clock.turn() != Some(to_move) {
        clock.start(to_move);
    }
    if *in_game.get() != InGame::None {
        return;
    }
    if let Some(side) = clock.advance(time.delta()) {
        let result = GameResult::win(side.other(), Reason::Time);
        info!(
            "qi: flag falls for {}; game over {}",
            game.kind().side_name(side),
            result.sgf()
        );
        game.final_result = Some(result);
        game.dirty = true;
        status.write(Status(crate::games::result_text(game.kind(), &result)));
        events.write(GameEvent::Over(result.outcome()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    #[test]
    fn the_choice_gives_the_control() {
        let mut c = ClockChoice::default();
        assert_eq!(c.control(), None);
        c.kind = ClockKind::Fischer;
        assert_eq!(
            c.control(),
            Some(TimeControl::Fischer {
                main: Duration::from_secs(600),
                increment: Duration::from_secs(5)
            })
        );
        c.kind = ClockKind::ByoYomi;
        c.minutes = 0;
        assert_eq!(
            c.control(),
            Some(TimeControl::ByoYomi {
                main: Duration::ZERO,
                periods: 5,
                period: Duration::from_secs(30)
            })
        );
        c.kind = ClockKind::Absolute;
        assert_eq!(c.control(), None, "absolute time of 0 minutes is no clock");
    }

    #[test]
    fn the_cpu_budget_follows_the_clock() {
        let s = Duration::from_secs;
        let cap = s(5);
        let mut c = GameClock::new(TimeControl::Fischer {
            main: s(60),
            increment: s(2),
        });
        assert_eq!(cpu_budget(&c, Side::Black, cap), s(5), "3 s + 2 s");
        c.start(Side::Black);
        c.advance(s(58));
        assert_eq!(
            cpu_budget(&c, Side::Black, cap),
            Duration::from_millis(2100)
        );
        let a = GameClock::new(TimeControl::Absolute {
            main: Duration::from_millis(500),
        });
        assert_eq!(cpu_budget(&a, Side::White, cap), Duration::from_millis(100));
        assert_eq!(
            cpu_budget(
                &GameClock::new(TimeControl::Absolute { main: s(600) }),
                Side::White,
                cap
            ),
            cap
        );
    }

    #[test]
    fn clock_panel_picks_a_kind() {
        let mut h = Harness::new_ui_state(
            |ui, c: &mut ClockChoice| {
                clock_choice_ui(ui, c);
            },
            ClockChoice::default(),
        );
        h.run();
        h.get_by_label("Byo-yomi").click();
        h.run();
        assert_eq!(h.state().kind, ClockKind::ByoYomi);
        h.get_by_label("Periods");
        h.get_by_label("Fischer").click();
        h.run();
        assert_eq!(h.state().kind, ClockKind::Fischer);
        h.get_by_label("Increment (s)");
    }
}
