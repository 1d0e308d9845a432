//! Save slots, the autosave, Continue and record export in the window, over `qi_core::saves`.
//! All file work happens here, asked for with [`FileRequest`] messages and answered with
//! [`FileOutcome`] messages: the menus never touch a file. The game is autosaved after every
//! move and on quit; the slot list is read when a slot menu asks for it.

use std::path::PathBuf;

use bevy::prelude::*;
use qi_core::saves::{
    Clocks, LoadedGame, PlayerInfo, PlayerKind, SaveError, SaveGame, SaveStore, SlotInfo,
};

use crate::cli::Args;
use crate::game::{BoardReset, Match, MatchSetup, MovePlayed, Player};
use crate::menus::LoadMatch;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.add_message::<FileRequest>()
        .add_message::<FileOutcome>()
        .init_resource::<SlotList>()
        .init_resource::<Autosave>()
        .add_systems(PreStartup, open_store)
        .add_systems(Startup, check_autosave)
        .add_systems(Update, handle_file_requests.in_set(crate::AppSet::Apply))
        .add_systems(
            Update,
            autosave_after_moves
                .in_set(crate::AppSet::Present)
                .run_if(in_state(Screen::Playing)),
        )
        .add_systems(Last, autosave_on_exit);
}

/// Where saves go, and the slots there.
#[derive(Resource, Clone, Debug)]
pub struct Store(pub SaveStore);

/// The slots as last read (a slot menu asks for a fresh read with [`FileRequest::ListSlots`]).
#[derive(Resource, Clone, Debug, Default)]
pub struct SlotList(pub Vec<SlotInfo>);

/// Whether Continue can resume the autosave, and a message for the player about it, shown once
/// (a damaged autosave is set aside and the player is told).
#[derive(Resource, Clone, Debug, Default)]
pub struct Autosave {
    pub available: bool,
    pub notice: Option<String>,
    /// Why the last autosave failed (the status line says it once, not after every move).
    pub failed: Option<String>,
}

/// File work the menus ask for.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum FileRequest {
    ListSlots,
    /// Save the game in a slot; an occupied slot needs `overwrite`.
    Save {
        slot: usize,
        overwrite: bool,
    },
    Load(usize),
    Delete(usize),
    Continue,
    /// Write the game's record (SGF/PGN) into `records/`.
    ExportRecord,
}

/// What came of a [`FileRequest`].
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum FileOutcome {
    Saved(usize),
    /// The slot holds a save: ask before overwriting it.
    NeedsOverwrite(usize),
    Exported(PathBuf),
    Deleted(usize),
    /// Something went wrong; the message says what, for the player.
    Failed(String),
}

pub fn open_store(mut commands: Commands, args: Option<Res<Args>>) {
    let dir = qi_core::storage::data_dir(args.as_ref().and_then(|a| a.save_dir.as_deref()));
    info!("qi: saves in {}", dir.display());
    commands.insert_resource(Store(SaveStore::new(dir)));
}

/// At start: is there an autosave to continue? A damaged one is set aside (never overwritten)
/// and the player is told once, on the main menu.
fn check_autosave(store: Option<Res<Store>>, mut autosave: ResMut<Autosave>) {
    let Some(store) = store else { return };
    let path = store.0.autosave_path();
    match store.0.load_autosave() {
        Ok(_) => autosave.available = true,
        Err(SaveError::Empty) => autosave.available = false,
        Err(e) => {
            autosave.available = false;
            let kept = qi_core::storage::keep_bad_file(&path);
            let msg = match kept {
                Ok(bad) => t!(
                    "autosave-bad-kept",
                    why = save_error_text(&e),
                    path = bad.display().to_string()
                ),
                Err(io) => t!(
                    "autosave-bad",
                    why = save_error_text(&e),
                    io = io.to_string()
                ),
            };
            warn!("qi: autosave: {msg}");
            autosave.notice = Some(msg);
        }
    }
}

fn player_info(p: Player, name: &str) -> PlayerInfo {
    match p {
        Player::Human | Player::Remote => PlayerInfo::human(name),
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
        clock: None,
    };
    let mut m = Match::with_history(setup, loaded.history);
    m.elapsed = save.clocks.elapsed_secs as f32;
    m
}

#[allow(clippy::too_many_arguments)]
fn handle_file_requests(
    mut requests: MessageReader<FileRequest>,
    mut outcomes: MessageWriter<FileOutcome>,
    mut loads: MessageWriter<LoadMatch>,
    mut status: MessageWriter<crate::game::Status>,
    store: Option<Res<Store>>,
    mut slots: ResMut<SlotList>,
    mut autosave: ResMut<Autosave>,
    mut game: Option<ResMut<Match>>,
) {
    let Some(store) = store else {
        requests.clear();
        return;
    };
    let store = &store.0;
    for r in requests.read() {
        match r {
            FileRequest::ListSlots => slots.0 = store.list(),
            FileRequest::Save { slot, overwrite } => {
                let Some(g) = game.as_deref_mut() else {
                    continue;
                };
                match store.save(*slot, &save_of(g), *overwrite) {
                    Ok(()) => {
                        g.dirty = false;
                        info!("qi: saved slot {slot}");
                        status.write(crate::game::Status(t!("status-saved", slot = *slot)));
                        outcomes.write(FileOutcome::Saved(*slot));
                    }
                    Err(e) if e.needs_confirmation() => {
                        outcomes.write(FileOutcome::NeedsOverwrite(*slot));
                    }
                    Err(e) => {
                        warn!("qi: cannot save in slot {slot}: {e}");
                        outcomes.write(FileOutcome::Failed(t!(
                            "error-save-slot",
                            slot = *slot,
                            why = save_error_text(&e)
                        )));
                    }
                }
                slots.0 = store.list();
            }
            FileRequest::Load(slot) => match store.load(*slot) {
                Ok(loaded) => {
                    info!("qi: loaded slot {slot}");
                    let mut m = match_of(loaded);
                    m.dirty = false;
                    loads.write(LoadMatch(Box::new(m)));
                }
                Err(e) => {
                    warn!("qi: cannot load slot {slot}: {e}");
                    outcomes.write(FileOutcome::Failed(t!(
                        "error-load-slot",
                        slot = *slot,
                        why = save_error_text(&e)
                    )));
                }
            },
            FileRequest::Delete(slot) => {
                match store.delete(*slot) {
                    Ok(_) => {
                        info!("qi: deleted slot {slot}");
                        outcomes.write(FileOutcome::Deleted(*slot));
                    }
                    Err(e) => {
                        outcomes.write(FileOutcome::Failed(t!(
                            "error-delete-slot",
                            slot = *slot,
                            why = save_error_text(&e)
                        )));
                    }
                }
                slots.0 = store.list();
            }
            FileRequest::Continue => match store.load_autosave() {
                Ok(loaded) => {
                    info!("qi: continue the autosave");
                    loads.write(LoadMatch(Box::new(match_of(loaded))));
                }
                Err(e) => {
                    warn!("qi: cannot continue: {e}");
                    autosave.available = false;
                    outcomes.write(FileOutcome::Failed(t!(
                        "error-continue",
                        why = save_error_text(&e)
                    )));
                }
            },
            FileRequest::ExportRecord => {
                let Some(g) = game.as_deref() else { continue };
                match export_record(store, g) {
                    Ok(path) => {
                        status.write(crate::game::Status(t!(
                            "record-saved",
                            path = path.display().to_string()
                        )));
                        outcomes.write(FileOutcome::Exported(path));
                    }
                    Err(e) => {
                        warn!("qi: record not written: {e}");
                        outcomes.write(FileOutcome::Failed(t!(
                            "error-save-record",
                            why = disk_error_text(&e)
                        )));
                    }
                }
            }
        }
    }
}

fn autosave_after_moves(
    mut played: MessageReader<MovePlayed>,
    mut resets: MessageReader<BoardReset>,
    game: Option<Res<Match>>,
    store: Option<Res<Store>>,
    mut autosave: ResMut<Autosave>,
    mut status: MessageWriter<crate::game::Status>,
) {
    let moved = played.read().count() > 0;
    let changed = moved || resets.read().count() > 0;
    let (Some(game), Some(store)) = (game, store) else {
        return;
    };
    // a replayed record is not the player's game: the autosave keeps the last real one
    // an online game has its own autosave (crate::online)
    if changed && game.replay.is_none() && !game.is_online() {
        match store.0.save_autosave(&save_of(&game)) {
            Ok(()) => {
                autosave.available = true;
                autosave.failed = None;
            }
            Err(e) => {
                warn!("qi: autosave failed: {e}");
                let why = save_error_text(&e);
                // said after a move (a new game's own line would hide it at once)
                if moved && autosave.failed.as_ref() != Some(&why) {
                    status.write(crate::game::Status(t!(
                        "autosave-failed",
                        why = why.as_str()
                    )));
                    autosave.failed = Some(why);
                }
            }
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
    if let (Some(game), Some(store)) =
        (game.filter(|g| g.replay.is_none() && !g.is_online()), store)
    {
        match store.0.save_autosave(&save_of(&game)) {
            Ok(()) => info!("qi: autosaved on quit"),
            Err(e) => warn!("qi: autosave failed: {e}"),
        }
    }
}

/// A file name part from a player's name: letters and digits kept, the rest `_`, at most 24.
fn file_part(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .take(24)
        .collect();
    if s.is_empty() { "player".into() } else { s }
}

/// The record's file name: date and time, game, players (`2026-11-23-1405-go-Ann-vs-CPU_3.sgf`).
pub fn record_file_name(game: &Match, unix: u64, ext: &str) -> String {
    let stamp = qi_core::storage::format_utc(unix)
        .replace([' ', ':'], "-")
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '-')
        .collect::<String>()
        .trim_end_matches('-')
        .to_string();
    format!(
        "{stamp}-{}-{}-vs-{}.{ext}",
        game.kind().name(),
        file_part(&game.setup.names[0]),
        file_part(&game.setup.names[1])
    )
}

/// Writes the game's record (SGF for Go, Reversi and Gomoku; PGN for Ataxx) into the
/// `records` folder beside the saves; returns the file written.
pub fn export_record(
    store: &SaveStore,
    game: &Match,
) -> Result<PathBuf, qi_core::storage::DiskError> {
    let mut record = qi_core::records::Record::from_history(
        &game.history,
        &game.setup.names[0],
        &game.setup.names[1],
    );
    if let Some(result) = game.result() {
        record.result = Some(result.sgf());
    }
    // a replayed record is saved whole, with its comments and its analysis
    if let Some(r) = &game.replay {
        record.moves = game.history.all_move_texts();
        record.comments = r.comments.clone();
        record.result = r.result.clone().or(record.result);
    }
    let (_, format) = record
        .export()
        .map_err(qi_core::storage::DiskError::other)?;
    let dir = store.dir().join("records");
    std::fs::create_dir_all(&dir).map_err(|e| {
        qi_core::storage::DiskError::of(&e, qi_core::storage::DiskAction::CreateFolder, &dir)
    })?;
    let now = qi_core::storage::now_unix();
    let mut path = dir.join(record_file_name(game, now, format.extension()));
    // two records in one minute get a number
    let mut n = 2;
    while path.exists() {
        let name = record_file_name(game, now, format.extension());
        let (stem, ext) = name.rsplit_once('.').unwrap_or((&name, ""));
        path = dir.join(format!("{stem}-{n}.{ext}"));
        n += 1;
    }
    record.export_file(&path)?;
    info!("qi: record written to {}", path.display());
    Ok(path)
}

/// Why a file is not a save this version can use, in the player's language (it was the core's
/// English whatever the window's language); the parser's or the system's detail stays as it is.
pub fn unreadable_text(u: &qi_core::saves::Unreadable) -> String {
    use qi_core::saves::Unreadable;
    match u {
        Unreadable::File(why) => read_error_text(why),
        Unreadable::Empty => t!("unreadable-empty"),
        Unreadable::TooBig { bytes, max } => t!("unreadable-too-big", bytes = *bytes, max = *max),
        Unreadable::Newer { format } => t!(
            "unreadable-newer",
            format = *format,
            max = qi_core::saves::SAVE_VERSION
        ),
        Unreadable::Damaged(why) => t!("unreadable-damaged", why = why.as_str()),
        Unreadable::FormatZero => t!("unreadable-format-zero"),
        Unreadable::BadStart(why) => t!("unreadable-bad-start", why = why.as_str()),
        Unreadable::BadMove(m) => t!("unreadable-bad-move", n = m.n, mv = m.text.as_str()),
        Unreadable::CursorPast { cursor, moves } => {
            t!("unreadable-cursor", cursor = *cursor, moves = *moves)
        }
    }
}

/// Why a file could not be written, in the player's language: what Qi was doing to which
/// file, and why (for a failure other than a refusal, a full or read-only disk or a missing
/// folder, in the system's own words).
pub fn disk_error_text(e: &qi_core::storage::DiskError) -> String {
    use qi_core::storage::{DiskAction, DiskProblem};
    let path = e.path.as_str();
    let doing = match e.action {
        DiskAction::Write => t!("disk-doing-write", path = path),
        DiskAction::CreateFolder => t!("disk-doing-create-folder", path = path),
        DiskAction::Delete => t!("disk-doing-delete", path = path),
        DiskAction::SetAside => t!("disk-doing-set-aside", path = path),
        DiskAction::Encode => t!("disk-doing-encode"),
    };
    let why = match e.problem {
        DiskProblem::Denied => t!("disk-denied"),
        DiskProblem::Full => t!("disk-full"),
        DiskProblem::ReadOnly => t!("disk-read-only"),
        DiskProblem::NoFolder => t!("disk-no-folder"),
        DiskProblem::Other => e.system.clone(),
    };
    t!("disk-failed", doing = doing, why = why)
}

/// Why a file cannot be read as text, in the player's language (only the system's own words
/// for a rare failure stay as it gives them).
pub fn read_error_text(e: &qi_core::storage::ReadError) -> String {
    use qi_core::storage::{MAX_FILE_BYTES, ReadError};
    match e {
        ReadError::Denied => t!("read-denied"),
        ReadError::Io(why) => t!("read-io", why = why.as_str()),
        ReadError::Folder => t!("read-folder"),
        ReadError::NotAFile => t!("read-not-a-file"),
        ReadError::TooBig { bytes } => t!("read-too-big", bytes = *bytes, max = MAX_FILE_BYTES),
        ReadError::NotUtf8 { at } => t!("read-not-utf8", at = *at),
    }
}

/// Why a settings or history file gave way to the defaults, in the player's language.
pub fn load_problem_text(p: &qi_core::storage::LoadProblem) -> String {
    use qi_core::storage::LoadFailure;
    let why = match &p.why {
        LoadFailure::File(e) => read_error_text(e),
        LoadFailure::Invalid(e) => t!("unreadable-damaged", why = e.as_str()),
    };
    match &p.kept {
        Ok(kept) => t!(
            "load-problem-kept",
            name = p.name.as_str(),
            why = why,
            kept = kept.as_str()
        ),
        Err(e) => t!(
            "load-problem-not-kept",
            name = p.name.as_str(),
            why = why,
            error = e.as_str()
        ),
    }
}

/// A slot's reason for the list: just why the file cannot be used.
pub fn slot_reason(e: &SaveError) -> String {
    match e {
        SaveError::Unreadable(u) => unreadable_text(u),
        other => save_error_text(other),
    }
}

/// Why a save could not be used, in the player's language (the detail of a damaged file or of
/// the disk's refusal is the system's own text).
pub fn save_error_text(e: &SaveError) -> String {
    match e {
        SaveError::NoSuchSlot(n) => t!(
            "save-error-no-slot",
            slot = *n,
            count = qi_core::saves::SLOT_COUNT
        ),
        SaveError::Empty => t!("save-error-empty"),
        SaveError::Unreadable(why) => t!("save-error-unreadable", why = unreadable_text(why)),
        SaveError::Occupied { unreadable: false } => t!("save-error-occupied"),
        SaveError::Occupied { unreadable: true } => t!("save-error-occupied-unreadable"),
        SaveError::Io(why) => disk_error_text(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_names_say_date_game_and_players() {
        let setup = MatchSetup {
            kind: qi_core::GameKind::Go,
            start_text: None,
            players: [Player::Human, Player::Cpu { level: 3 }],
            names: ["Ann Lee".into(), "CPU 3".into()],
            clock: None,
        };
        let m = Match::new(setup).unwrap();
        let name = record_file_name(&m, 1_795_443_940, "sgf");
        assert!(name.ends_with("-go-Ann_Lee-vs-CPU_3.sgf"), "{name}");
        assert!(name.starts_with("2026-"), "{name}");
    }
}
