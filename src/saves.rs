//! Save slots, the autosave and Continue in the window, over `qi_core::saves`: the game is
//! autosaved after every move, the pause menu saves into one of nine slots (asking before it
//! overwrites), and the main menu loads a slot or continues the autosave.

use bevy::prelude::*;
use qi_core::saves::{Clocks, LoadedGame, PlayerInfo, PlayerKind, SaveError, SaveGame, SaveStore};

use crate::cli::Args;
use crate::game::{BoardReset, Match, MatchSetup, MovePlayed, Player};
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.add_systems(PreStartup, open_store)
        .add_systems(
            Update,
            autosave_after_moves.run_if(in_state(Screen::Playing)),
        )
        .add_systems(Last, autosave_on_exit);
}

/// Where saves go, and the slots there.
#[derive(Resource, Clone, Debug)]
pub struct Store(pub SaveStore);

pub fn open_store(mut commands: Commands, args: Option<Res<Args>>) {
    let dir = qi_core::storage::data_dir(args.as_ref().and_then(|a| a.save_dir.as_deref()));
    info!("qi: saves in {}", dir.display());
    commands.insert_resource(Store(SaveStore::new(dir)));
}

fn player_info(p: Player, name: &str) -> PlayerInfo {
    match p {
        Player::Human => PlayerInfo::human(name),
        Player::Cpu { level } => PlayerInfo::cpu(name, level),
    }
}

/// The game as a save file.
pub fn save_of(game: &Match) -> SaveGame {
    let players = [
        player_info(game.setup.players[0], &game.setup.names[0]),
        player_info(game.setup.players[1], &game.setup.names[1]),
    ];
    SaveGame::new(
        &game.history,
        players,
        Clocks {
            elapsed_secs: game.elapsed as f64,
            side_secs: [0.0; 2],
        },
    )
}

/// A loaded save as the game to play on.
pub fn match_of(loaded: LoadedGame) -> Match {
    let save = loaded.save;
    let players = save.players.clone().map(|p| match p.kind {
        PlayerKind::Human => Player::Human,
        PlayerKind::Cpu { level } => Player::Cpu { level },
    });
    let names = save.players.map(|p| p.name);
    let setup = MatchSetup {
        kind: save.game,
        start_text: Some(save.start.clone()),
        players,
        names,
    };
    let mut m = Match::with_history(setup, loaded.history);
    m.elapsed = save.clocks.elapsed_secs as f32;
    m.status = "Game loaded".into();
    m
}

/// Saves the game into a slot (1-9); an occupied slot needs `overwrite`.
pub fn save_to_slot(
    store: &SaveStore,
    game: &mut Match,
    slot: usize,
    overwrite: bool,
) -> Result<(), SaveError> {
    store.save(slot, &save_of(game), overwrite)?;
    game.dirty = false;
    game.status = format!("Saved in slot {slot}");
    info!("qi: saved slot {slot}");
    Ok(())
}

fn autosave_after_moves(
    mut played: MessageReader<MovePlayed>,
    mut resets: MessageReader<BoardReset>,
    game: Option<Res<Match>>,
    store: Option<Res<Store>>,
) {
    let changed = played.read().count() + resets.read().count() > 0;
    let (Some(game), Some(store)) = (game, store) else {
        return;
    };
    // a replayed record is not the player's game: the autosave keeps the last real one
    if changed && game.replay.is_none() {
        if let Err(e) = store.0.save_autosave(&save_of(&game)) {
            warn!("qi: autosave failed: {e}");
        }
    }
}

fn autosave_on_exit(
    mut exits: MessageReader<AppExit>,
    game: Option<Res<Match>>,
    store: Option<Res<Store>>,
) {
    if exits.read().count() == 0 {
        return;
    }
    if let (Some(game), Some(store)) = (game.filter(|g| g.replay.is_none()), store) {
        match store.0.save_autosave(&save_of(&game)) {
            Ok(()) => info!("qi: autosaved on quit"),
            Err(e) => warn!("qi: autosave failed: {e}"),
        }
    }
}

/// Writes the game's record (SGF for Go, Reversi and Gomoku; PGN for Ataxx) into the
/// `records` folder beside the saves; returns the file written.
pub fn export_record(store: &SaveStore, game: &Match) -> Result<std::path::PathBuf, String> {
    let mut record = qi_core::records::Record::from_history(
        &game.history,
        &game.setup.names[0],
        &game.setup.names[1],
    );
    if let Some(result) = &game.final_result {
        record.result = Some(result.clone());
    }
    let (_, format) = record.export()?;
    let ext = match format {
        qi_core::records::RecordFormat::Sgf => "sgf",
        qi_core::records::RecordFormat::Pgn => "pgn",
    };
    let dir = store.dir().join("records");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let stamp = qi_core::storage::now_unix();
    let path = dir.join(format!("{}-{stamp}.{ext}", game.kind().name()));
    record.export_file(&path)?;
    info!("qi: record written to {}", path.display());
    Ok(path)
}
