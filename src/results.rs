//! The players' results: every finished game is added to the history file in the data folder
//! (one entry per person who played it: date, game, opponent, result, score, moves, CPU level),
//! which the Records screen lists with win/draw/loss totals per game and CPU level.

use bevy::prelude::*;
use qi_core::Side;
use qi_core::history::{GameResultEntry, History};

use crate::game::{GameEvent, Match, Player};

pub fn plugin(app: &mut App) {
    app.add_systems(PreStartup, load_history.after(crate::saves::open_store))
        .add_systems(Update, record_finished_game.in_set(crate::AppSet::Present));
}

/// The results so far and where they are kept.
#[derive(Resource, Clone, Debug, Default)]
pub struct PlayerHistory {
    pub history: History,
    pub path: Option<std::path::PathBuf>,
    /// Why the file could not be read, if it could not (shown on the Records screen).
    pub problem: Option<qi_core::storage::LoadProblem>,
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

/// The history entries of a finished game: one per game a person played. Against the CPU,
/// the person's; between two people on this machine, one entry from the first side's view (the
/// same game is not counted as both a win and a loss); none for CPU against CPU or a replayed
/// record.
pub fn entries_of(game: &Match) -> Vec<GameResultEntry> {
    if game.replay.is_some() {
        return Vec::new();
    }
    let Some(result) = game.result() else {
        return Vec::new();
    };
    let Some(side) = Side::BOTH
        .into_iter()
        .find(|s| game.setup.players[s.index()] == Player::Human)
    else {
        return Vec::new();
    };
    let cpu_level = match game.setup.players[side.other().index()] {
        Player::Cpu { level } => Some(level),
        Player::Human | Player::Remote => None,
    };
    vec![GameResultEntry::of_result(
        game.kind(),
        side,
        [&game.setup.names[0], &game.setup.names[1]],
        result,
        game.history.ply() as u32,
        cpu_level,
    )]
}

/// Adds a game to the results when it ends (once per ending).
fn record_finished_game(
    mut events: MessageReader<GameEvent>,
    game: Option<Res<Match>>,
    history: Option<ResMut<PlayerHistory>>,
    mut recorded: Local<Option<(u64, usize)>>,
) {
    if !events.read().any(|e| matches!(e, GameEvent::Over(_))) {
        return;
    }
    let (Some(game), Some(mut history)) = (game, history) else {
        return;
    };
    let key = (game.position().hash(), game.history.ply());
    if *recorded == Some(key) {
        return;
    }
    *recorded = Some(key);
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
    if let Some(path) = history.path.clone()
        && let Err(e) = history.history.save(&path)
    {
        warn!("qi: cannot write the history: {e}");
    }
}
