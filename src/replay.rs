//! Replaying a game record (reference report 002's 打谱): the record's game is loaded into the
//! board with the cursor at the start; the side panel and the keys step it forward and back, jump
//! to the first, the last or any move, play it automatically, and "play from here" turns the
//! replay into a game against the CPU or a friend from the move shown.
//!
//! Keys while replaying: ← / → one move, Home / End the first / last, Space autoplay.

use std::collections::BTreeMap;

use bevy::prelude::*;
use qi_core::records::{Record, RecordError};

use crate::game::{BoardReset, Match, MatchSetup, MovePlayed, Player, Status, side_name};
use crate::menus::InGame;
use crate::screens::Screen;
use crate::settings::Settings;

pub fn plugin(app: &mut App) {
    app.add_message::<ReplayStep>().add_systems(
        Update,
        (
            use_replay_keys,
            autoplay_replay.run_if(crate::board::board_idle),
            apply_replay_steps,
        )
            .chain()
            .in_set(crate::AppSet::Input)
            .run_if(in_state(Screen::Playing))
            .run_if(in_state(InGame::None)),
    );
}

/// The replay in progress (kept in [`Match::replay`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayState {
    /// Where the record came from (a file name), for the panel.
    pub source: String,
    /// The record's result as the file has it.
    pub result: Option<String>,
    /// Comments by ply (0: before the first move).
    pub comments: BTreeMap<usize, String>,
    pub autoplay: bool,
    /// Seconds since the last automatic step.
    pub since_step: f32,
    /// Seconds between two moves in autoplay.
    pub seconds_per_move: f32,
    /// The whole-game analysis, once made (or read from the record's comments).
    pub analysis: Option<qi_core::analysis::GameAnalysis>,
}

/// Seconds between two moves in autoplay, at first.
pub const AUTOPLAY_SECONDS: f32 = 1.2;

/// What the replay controls ask for.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum ReplayStep {
    First,
    Back,
    Forward,
    Last,
    To(usize),
    ToggleAutoplay,
    /// Seconds between moves in autoplay.
    Speed(f32),
    /// Go on playing from the move shown: against the CPU (the person takes the side to move)
    /// or two players on this machine.
    PlayFromHere {
        vs_cpu: bool,
    },
}

/// Why a record cannot be opened, in the player's language: the sentence names the move, the
/// property or the line at fault; the English detail behind it goes to the log.
pub fn record_error_text(e: &RecordError) -> String {
    use qi_core::records::MAX_RECORD_BYTES;
    match e {
        RecordError::NoSuchFile => t!("record-no-such-file"),
        RecordError::File(why) => crate::saves::read_error_text(why),
        RecordError::Empty => t!("record-empty"),
        RecordError::TooBig { bytes } => {
            t!("record-too-big", bytes = *bytes, max = MAX_RECORD_BYTES)
        }
        RecordError::NotARecord => t!("record-not-a-record"),
        RecordError::Syntax { format, line, .. } => {
            let format = format.extension().to_uppercase();
            match line {
                Some(line) => t!("record-syntax-line", format = format, line = *line),
                None => t!("record-syntax", format = format),
            }
        }
        RecordError::TooDeep { .. } => t!("record-too-deep"),
        RecordError::OtherGame { name, .. } => t!("record-other-game", name = name.as_str()),
        RecordError::BadSize { value, .. } => t!("record-bad-size", value = value.as_str()),
        RecordError::BadValue {
            property, value, ..
        } => t!(
            "record-bad-value",
            property = property.as_str(),
            value = value.as_str()
        ),
        RecordError::NotALine { node, .. } => t!("record-not-a-line", node = *node),
        RecordError::BadStart { .. } => t!("record-bad-start"),
        RecordError::BadMove { number, text, .. } => {
            t!("record-bad-move", n = *number, mv = text.as_str())
        }
    }
}

/// A record as a game to replay, the cursor before the first move. Players are people while
/// replaying: nothing moves but the controls.
pub fn replay_match(record: &Record, source: &str) -> Result<Match, RecordError> {
    let mut history = record.history()?;
    history.go_to(0);
    let kind = record.game;
    let setup = MatchSetup {
        kind,
        start_text: Some(record.start.clone()),
        players: [Player::Human; 2],
        names: [
            record
                .black
                .clone()
                .unwrap_or_else(|| side_name(kind, qi_core::Side::Black)),
            record
                .white
                .clone()
                .unwrap_or_else(|| side_name(kind, qi_core::Side::White)),
        ],
        clock: None,
    };
    let mut m = Match::with_history(setup, history);
    // a record that carries an analysis (written by Qi) opens with it
    let analysis = {
        let moves = m.history.all_moves().to_vec();
        let mut positions = vec![m.history.start().clone()];
        for &mv in &moves {
            let mut next = positions.last().expect("the start").clone();
            if next.play(mv).is_err() {
                break;
            }
            positions.push(next);
        }
        qi_core::analysis::from_comments(kind, &positions, &moves, &record.comments)
    };
    m.replay = Some(ReplayState {
        source: source.to_string(),
        result: record.result.clone(),
        comments: record.comments.clone(),
        seconds_per_move: AUTOPLAY_SECONDS,
        analysis,
        ..default()
    });
    Ok(m)
}

/// Applies one replay step to the game; returns the move to animate when it stepped forward by
/// one (with the position before it), or whether the board must be rebuilt, and the status line.
pub fn step(game: &mut Match, step: ReplayStep, cpu_level: u8) -> StepOutcome {
    let Some(replay) = game.replay.as_mut() else {
        return StepOutcome::Nothing;
    };
    let ply = game.history.ply();
    let last = game.history.all_moves().len();
    let target = match step {
        ReplayStep::First => 0,
        ReplayStep::Back => ply.saturating_sub(1),
        ReplayStep::Forward => (ply + 1).min(last),
        ReplayStep::Last => last,
        ReplayStep::To(n) => n.min(last),
        ReplayStep::ToggleAutoplay => {
            replay.autoplay = !replay.autoplay && ply < last;
            replay.since_step = 0.0;
            return StepOutcome::Nothing;
        }
        ReplayStep::Speed(s) => {
            replay.seconds_per_move = s.clamp(0.2, 5.0);
            return StepOutcome::Nothing;
        }
        ReplayStep::PlayFromHere { vs_cpu } => {
            let to_move = game.position().side_to_move();
            game.replay = None;
            game.history.truncate();
            let kind = game.kind();
            if vs_cpu {
                let mut players = [Player::Cpu { level: cpu_level }; 2];
                players[to_move.index()] = Player::Human;
                game.setup.players = players;
                game.setup.names[to_move.other().index()] =
                    crate::menus::new_game::cpu_name(cpu_level);
            } else {
                game.setup.players = [Player::Human; 2];
            }
            game.dirty = true;
            let text = t!(
                "status-play-on",
                n = game.history.ply(),
                side = side_name(kind, to_move)
            );
            info!(
                "qi: play from here at ply {} ({})",
                game.history.ply(),
                if vs_cpu { "vs CPU" } else { "two players" }
            );
            return StepOutcome::Rebuild(text);
        }
    };
    if target == ply {
        if step == ReplayStep::Forward {
            replay.autoplay = false;
        }
        return StepOutcome::Nothing;
    }
    if target == ply + 1 {
        let before = game.position().clone();
        let side = before.side_to_move();
        let Some(mv) = game.history.redo() else {
            return StepOutcome::Nothing;
        };
        let _ = side;
        return StepOutcome::Animate(MovePlayed::new(before, mv), replay_status(game));
    }
    game.history.go_to(target);
    StepOutcome::Rebuild(replay_status(game))
}

#[derive(Debug)]
pub enum StepOutcome {
    Nothing,
    Animate(MovePlayed, String),
    Rebuild(String),
}

fn replay_status(game: &Match) -> String {
    let ply = game.history.ply();
    let total = game.history.all_moves().len();
    let mut s = t!("replay-move-of", n = ply, total = total);
    if ply > 0 {
        let before = game.history.position_at(ply - 1);
        let mv = game.history.all_moves()[ply - 1];
        s += &t!(
            "replay-status-move",
            side = side_name(game.kind(), before.side_to_move()),
            mv = before.move_to_text(mv)
        );
    }
    if ply == total
        && let Some(r) = game.replay.as_ref().and_then(|r| r.result.as_ref())
    {
        let result = crate::games::record_result(game.kind(), r);
        s += &t!("replay-status-result", result = result);
    }
    s
}

fn use_replay_keys(
    keys: Res<ButtonInput<KeyCode>>,
    game: Option<Res<Match>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut steps: MessageWriter<ReplayStep>,
) {
    if game.is_none_or(|g| g.replay.is_none()) || egui.is_some_and(|e| e.wants_keyboard_input()) {
        return;
    }
    for (key, step) in [
        (KeyCode::ArrowLeft, ReplayStep::Back),
        (KeyCode::ArrowRight, ReplayStep::Forward),
        (KeyCode::Home, ReplayStep::First),
        (KeyCode::End, ReplayStep::Last),
        (KeyCode::Space, ReplayStep::ToggleAutoplay),
    ] {
        if keys.just_pressed(key) {
            steps.write(step);
        }
    }
}

fn autoplay_replay(
    time: Res<Time>,
    game: Option<ResMut<Match>>,
    mut steps: MessageWriter<ReplayStep>,
) {
    let Some(mut game) = game else { return };
    let Some(replay) = game.replay.as_mut() else {
        return;
    };
    if !replay.autoplay {
        return;
    }
    replay.since_step += time.delta_secs();
    let wait = replay.seconds_per_move;
    if replay.since_step >= wait {
        replay.since_step = 0.0;
        steps.write(ReplayStep::Forward);
    }
}

fn apply_replay_steps(
    mut steps: MessageReader<ReplayStep>,
    game: Option<ResMut<Match>>,
    settings: Res<Settings>,
    mut played: MessageWriter<MovePlayed>,
    mut reset: MessageWriter<BoardReset>,
    mut status: MessageWriter<Status>,
) {
    let Some(mut game) = game else { return };
    let mut rebuild = false;
    for &s in steps.read() {
        let level = settings.level(game.kind());
        match step(&mut game, s, level) {
            StepOutcome::Nothing => {}
            StepOutcome::Animate(m, text) => {
                info!("qi: replay at ply {}", game.history.ply());
                played.write(m);
                status.write(Status(text));
            }
            StepOutcome::Rebuild(text) => {
                info!("qi: replay at ply {}", game.history.ply());
                rebuild = true;
                status.write(Status(text));
            }
        }
    }
    if rebuild {
        reset.write(BoardReset);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> Record {
        let (_, text) = qi_core::records::SAMPLES
            .iter()
            .find(|(n, _)| n.contains(name))
            .unwrap();
        qi_core::records::import_text(text).unwrap()
    }

    #[test]
    fn steps_through_a_record_and_plays_on() {
        let rec = sample("othello-woc");
        let mut m = replay_match(&rec, "woc").unwrap();
        assert_eq!(m.history.ply(), 0);
        assert!(!m.human_to_move(), "no clicks count while replaying");
        assert!(matches!(
            step(&mut m, ReplayStep::Forward, 3),
            StepOutcome::Animate(..)
        ));
        assert_eq!(m.history.ply(), 1);
        assert!(matches!(
            step(&mut m, ReplayStep::Last, 3),
            StepOutcome::Rebuild(_)
        ));
        assert_eq!(m.history.ply(), rec.moves.len());
        assert!(matches!(
            step(&mut m, ReplayStep::Forward, 3),
            StepOutcome::Nothing
        ));
        step(&mut m, ReplayStep::To(20), 3);
        assert_eq!(m.history.ply(), 20);
        step(&mut m, ReplayStep::Back, 3);
        assert_eq!(m.history.ply(), 19);
        assert_eq!(m.history.moves().len(), 19);
        let to_move = m.position().side_to_move();
        step(&mut m, ReplayStep::PlayFromHere { vs_cpu: true }, 4);
        assert!(m.replay.is_none());
        assert_eq!(m.setup.players[to_move.index()], Player::Human);
        assert_eq!(
            m.setup.players[to_move.other().index()],
            Player::Cpu { level: 4 }
        );
        assert!(m.human_to_move());
        assert!(!m.history.can_redo(), "the record's later moves are gone");
        assert_eq!(m.history.ply(), 19);
    }
}
