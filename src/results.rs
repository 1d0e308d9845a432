//! The players' results: every finished game is added to the history file in the data folder
//! (one entry per person who played it: date, game, opponent, result, score, moves, CPU level),
//! which the Records screen lists with win/draw/loss totals per game and CPU level.

use bevy::prelude::*;
use qi_core::history::{GameOutcome, GameResultEntry, History};
use qi_core::{Outcome, Side};

use crate::game::{Match, Player};
use crate::menus::Menu;

pub fn plugin(app: &mut App) {
    app.add_systems(PreStartup, load_history.after(crate::saves::open_store))
        .add_systems(OnEnter(Menu::GameOver), record_finished_game);
}

/// The results so far and where they are kept.
#[derive(Resource, Clone, Debug, Default)]
pub struct PlayerHistory {
    pub history: History,
    pub path: Option<std::path::PathBuf>,
    /// Why the file could not be read, if it could not (shown on the Records screen).
    pub problem: Option<String>,
}

fn load_history(mut commands: Commands, store: Option<Res<crate::saves::Store>>) {
    let Some(store) = store else {
        commands.insert_resource(PlayerHistory::default());
        return;
    };
    let path = store.0.dir().join(qi_core::storage::HISTORY_FILE);
    let (history, problem) = History::load(&path);
    if let Some(p) = &problem {
        warn!("qi: history: {p}");
    }
    commands.insert_resource(PlayerHistory {
        history,
        path: Some(path),
        problem,
    });
}

/// Who won a finished game and its score as text (`40-24`, `B+3.5`, `W+R`).
pub fn outcome_of(game: &Match) -> Option<(Outcome, String)> {
    let pos = game.position();
    if let Some(result) = &game.final_result {
        let outcome = match result.split_once('+') {
            Some(("B", _)) => Outcome::Win(Side::Black),
            Some(("W", _)) => Outcome::Win(Side::White),
            _ => Outcome::Draw,
        };
        return Some((outcome, result.clone()));
    }
    let outcome = pos.outcome()?;
    let score = match pos.as_go() {
        Some(go) if go.resigned().is_some() => match outcome {
            Outcome::Win(Side::Black) => "B+R".to_string(),
            Outcome::Win(Side::White) => "W+R".to_string(),
            Outcome::Draw => "Draw".to_string(),
        },
        Some(_) => pos.area_result().unwrap_or_default(),
        None => {
            let [b, w] = pos.piece_counts();
            format!("{b}-{w}")
        }
    };
    Some((outcome, score))
}

/// The history entries of a finished game: one for each person who played it (none for CPU
/// against CPU, none for a replayed record).
pub fn entries_of(game: &Match) -> Vec<GameResultEntry> {
    if game.replay.is_some() {
        return Vec::new();
    }
    let Some((outcome, score)) = outcome_of(game) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for side in Side::BOTH {
        if game.setup.players[side.index()] != Player::Human {
            continue;
        }
        let other = side.other();
        let result = match outcome {
            Outcome::Draw => GameOutcome::Draw,
            Outcome::Win(s) if s == side => GameOutcome::Win,
            Outcome::Win(_) => GameOutcome::Loss,
        };
        let cpu_level = match game.setup.players[other.index()] {
            Player::Cpu { level } => Some(level),
            Player::Human => None,
        };
        out.push(GameResultEntry::new(
            game.kind(),
            &game.setup.names[side.index()],
            &game.setup.names[other.index()],
            result,
            &score,
            game.history.ply() as u32,
            cpu_level,
        ));
    }
    out
}

fn record_finished_game(game: Option<Res<Match>>, history: Option<ResMut<PlayerHistory>>) {
    let (Some(game), Some(mut history)) = (game, history) else {
        return;
    };
    let entries = entries_of(&game);
    if entries.is_empty() {
        return;
    }
    for e in entries {
        info!(
            "qi: result {} {:?} against {} ({})",
            e.player, e.result, e.opponent, e.score
        );
        history.history.record(e);
    }
    if let Some(path) = history.path.clone() {
        if let Err(e) = history.history.save(&path) {
            warn!("qi: cannot write the history: {e}");
        }
    }
}
