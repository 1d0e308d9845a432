//! Save slots and the autosave: round trips for every game, the list, overwrite protection,
//! corrupt / truncated / newer-version / illegal-move files, atomic writes, settings files that
//! cannot be read, and random bytes.

use std::fs;
use std::path::Path;

mod common;

use proptest::prelude::*;
use qi_core::GameKind;
use qi_core::any::{AnyPosition, GameHistory};
use qi_core::saves::{
    Clocks, PlayerInfo, SAVE_VERSION, SLOT_COUNT, SaveError, SaveGame, SaveStore, SlotState,
};
use qi_core::storage::{atomic_write, load_or_default, save_ron, temp_path};

/// A game of `kind` with `n` moves: always the first legal move that is not a pass (a pass
/// when it is the only one), so the line is deterministic.
fn game(kind: GameKind, n: usize) -> GameHistory {
    let start = match kind {
        GameKind::Go => AnyPosition::from_text(
            GameKind::Go,
            "9 6.5 b ........./........./........./........./........./........./........./........./.........",
        )
        .unwrap(),
        _ => AnyPosition::start(kind).unwrap(),
    };
    common::play_line(start, n, |i, _| i * 37 + 11)
}

fn players() -> [PlayerInfo; 2] {
    [PlayerInfo::human("Ann"), PlayerInfo::cpu("CPU", 4)]
}

fn store() -> (tempfile::TempDir, SaveStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = SaveStore::new(dir.path().join("saves"));
    (dir, store)
}

#[test]
fn save_then_load_gives_the_same_game_for_every_game() {
    let (_dir, store) = store();
    for (slot, kind) in GameKind::ALL.into_iter().enumerate() {
        let slot = slot + 1;
        let mut h = game(kind, 24);
        assert_eq!(h.ply(), 24, "{kind}");
        // two moves undone: they must come back as redo moves
        h.undo();
        h.undo();
        let clocks = Clocks {
            elapsed_secs: 93.5,
            side_secs: [50.25, 43.25],
        };
        let save = SaveGame::new(&h, players(), clocks);
        store.save(slot, &save, false).unwrap();
        let loaded = store.load(slot).unwrap();
        assert_eq!(
            loaded.history, h,
            "{kind}: the replayed game is the saved one"
        );
        assert_eq!(loaded.save, save, "{kind}: every field comes back");
        assert_eq!(loaded.save.clocks, clocks);
        assert_eq!(loaded.history.ply(), 22);
        let mut redo = loaded.history.clone();
        assert!(redo.redo().is_some() && redo.redo().is_some() && redo.redo().is_none());

        let info = store.slot_info(slot);
        let SlotState::Ok(sum) = info.state else {
            panic!("{kind}: slot {slot} should be readable: {:?}", info.state)
        };
        assert_eq!(sum.game, kind);
        assert_eq!(sum.players, players());
        assert_eq!(sum.move_count, 22);
        assert_eq!(sum.score, h.current().piece_counts());
        assert_eq!(sum.position, *h.current());
        assert_eq!(sum.position_text(), h.current().to_text());
        assert!(sum.saved_at_text.ends_with("UTC"));
    }
    let list = store.list();
    assert_eq!(list.len(), SLOT_COUNT);
    assert!(list[4..].iter().all(|s| s.state == SlotState::Empty));
    assert_eq!(
        list.iter().map(|s| s.slot).collect::<Vec<_>>(),
        (1..=9).collect::<Vec<_>>()
    );
}

#[test]
fn go_keeps_superko_history_through_a_save() {
    // the history of positions is rebuilt by the replay, so a ko retake stays illegal
    let (_dir, store) = store();
    let start = AnyPosition::from_text(GameKind::Go, "5 0.5 b ...../...../...../...../..... 0 0 0")
        .unwrap();
    let mut h = GameHistory::new(start);
    // Black surrounds C2 on three sides, White D2; Black plays into D2, White takes it at C2
    for m in ["C1", "D1", "B2", "E2", "C3", "D3", "D2", "C2"] {
        let mv = h.current().parse_move(m).unwrap();
        h.play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    // Black may not retake at D2 at once
    let retake = h.current().parse_move("D2").unwrap();
    assert!(!h.current().is_legal(retake), "ko");
    store
        .save(1, &SaveGame::new(&h, players(), Clocks::default()), false)
        .unwrap();
    let back = store.load(1).unwrap().history;
    assert!(!back.current().is_legal(retake), "still ko after loading");
}

#[test]
fn occupied_slots_are_overwritten_only_when_asked() {
    let (_dir, store) = store();
    let a = SaveGame::new(&game(GameKind::Ataxx, 5), players(), Clocks::default());
    let b = SaveGame::new(&game(GameKind::Reversi, 7), players(), Clocks::default());
    store.save(2, &a, false).unwrap();
    let e = store.save(2, &b, false).unwrap_err();
    assert_eq!(e, SaveError::Occupied { unreadable: false });
    assert!(e.needs_confirmation());
    assert_eq!(
        store.load(2).unwrap().save,
        a,
        "the first save is untouched"
    );
    store.save(2, &b, true).unwrap();
    assert_eq!(store.load(2).unwrap().save, b);

    assert_eq!(store.save(0, &a, true), Err(SaveError::NoSuchSlot(0)));
    assert_eq!(store.save(10, &a, true), Err(SaveError::NoSuchSlot(10)));
    assert!(matches!(store.load(5), Err(SaveError::Empty)));

    assert_eq!(store.delete(2), Ok(true));
    assert_eq!(store.delete(2), Ok(false));
    assert_eq!(store.slot_info(2).state, SlotState::Empty);
}

fn write_slot(store: &SaveStore, slot: usize, text: &str) {
    fs::create_dir_all(store.dir()).unwrap();
    fs::write(store.slot_path(slot).unwrap(), text).unwrap();
}

fn unreadable_reason(store: &SaveStore, slot: usize) -> String {
    match store.slot_info(slot).state {
        SlotState::Unreadable(why) => why,
        other => panic!("slot {slot} should be unreadable, is {other:?}"),
    }
}

#[test]
fn bad_files_are_listed_as_unreadable_and_kept() {
    let (_dir, store) = store();
    let good = SaveGame::new(&game(GameKind::Reversi, 12), players(), Clocks::default());
    let text = good.to_ron().unwrap();

    // corrupt
    write_slot(&store, 1, "this is not a save {{{");
    // truncated in the middle
    write_slot(&store, 2, &text[..text.len() / 2]);
    // newer version
    write_slot(
        &store,
        3,
        &text.replace(
            &format!("version: {SAVE_VERSION}"),
            &format!("version: {}", SAVE_VERSION + 1),
        ),
    );
    // an illegal move: Reversi's 3rd move changed to a1
    let mut tampered = good.clone();
    let third = tampered.moves[2].clone();
    tampered.moves[2] = "a1".to_string();
    write_slot(&store, 4, &tampered.to_ron().unwrap());
    // empty file, and binary garbage
    write_slot(&store, 5, "");
    fs::write(store.slot_path(6).unwrap(), [0xff, 0xfe, 0x00, 0x41]).unwrap();
    // a move that is not a move at all
    let mut garbled = good.clone();
    garbled.moves[0] = "zz99".into();
    write_slot(&store, 7, &garbled.to_ron().unwrap());
    // a cursor past the moves
    let mut cursor = good.clone();
    cursor.cursor = 99;
    write_slot(&store, 8, &cursor.to_ron().unwrap());

    let why = unreadable_reason(&store, 1);
    assert!(why.contains("damaged or truncated"), "{why}");
    let why = unreadable_reason(&store, 2);
    assert!(why.contains("damaged or truncated"), "{why}");
    let why = unreadable_reason(&store, 3);
    assert!(why.contains("newer version"), "{why}");
    let why = unreadable_reason(&store, 4);
    assert!(
        why.contains("move 3 (a1) is illegal"),
        "{why} (was {third})"
    );
    let why = unreadable_reason(&store, 5);
    assert!(why.contains("empty"), "{why}");
    let why = unreadable_reason(&store, 6);
    assert!(why.contains("UTF-8"), "{why}");
    let why = unreadable_reason(&store, 7);
    assert!(why.contains("move 1 (zz99) cannot be read"), "{why}");
    let why = unreadable_reason(&store, 8);
    assert!(why.contains("cursor"), "{why}");

    // load says the same, and nothing was deleted or changed
    match store.load(4) {
        Err(SaveError::Unreadable(why)) => assert!(why.contains("move 3 (a1)")),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        fs::read_to_string(store.slot_path(1).unwrap()).unwrap(),
        "this is not a save {{{"
    );

    // saving over an unreadable file asks first, then keeps the bad file aside
    let e = store.save(1, &good, false).unwrap_err();
    assert_eq!(e, SaveError::Occupied { unreadable: true });
    assert_eq!(
        fs::read_to_string(store.slot_path(1).unwrap()).unwrap(),
        "this is not a save {{{"
    );
    store.save(1, &good, true).unwrap();
    assert_eq!(store.load(1).unwrap().save, good);
    let kept: Vec<_> = fs::read_dir(store.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("slot-1.ron.bad-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(
        fs::read_to_string(store.dir().join(&kept[0])).unwrap(),
        "this is not a save {{{"
    );
}

#[test]
fn autosave_round_trip_and_continue() {
    let (_dir, store) = store();
    assert!(!store.has_autosave());
    assert!(matches!(store.load_autosave(), Err(SaveError::Empty)));
    let mut h = game(GameKind::Gomoku, 3);
    store
        .save_autosave(&SaveGame::new(&h, players(), Clocks::default()))
        .unwrap();
    assert!(store.has_autosave());
    // after every move: the autosave is simply replaced
    let mv = h.current().legal_moves()[10];
    h.play(mv).unwrap();
    store
        .save_autosave(&SaveGame::new(&h, players(), Clocks::default()))
        .unwrap();
    assert_eq!(store.load_autosave().unwrap().history, h);
    // a damaged autosave: no "Continue", and the next autosave keeps the bad one aside
    fs::write(store.autosave_path(), "(version: 1, game: Go").unwrap();
    assert!(!store.has_autosave());
    store
        .save_autosave(&SaveGame::new(&h, players(), Clocks::default()))
        .unwrap();
    assert!(store.has_autosave());
    assert!(fs::read_dir(store.dir()).unwrap().any(|e| {
        e.unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with("autosave.ron.bad-")
    }));
    assert_eq!(store.clear_autosave(), Ok(true));
    assert!(!store.has_autosave());
    assert_eq!(store.clear_autosave(), Ok(false));
}

#[test]
fn a_failed_write_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slot-1.ron");
    atomic_write(&path, b"old").unwrap();

    // the temporary file cannot be created (a folder is in its way): error, old file intact
    let tmp = temp_path(&path).unwrap();
    fs::create_dir(&tmp).unwrap();
    assert!(atomic_write(&path, b"new").is_err());
    assert_eq!(fs::read(&path).unwrap(), b"old");
    fs::remove_dir(&tmp).unwrap();

    // a folder that does not exist
    let missing = dir.path().join("no/such/folder/slot-1.ron");
    assert!(atomic_write(&missing, b"new").is_err());
    assert!(!missing.exists());

    // a value that cannot be serialised: error before anything is written
    struct Fails;
    impl serde::Serialize for Fails {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no"))
        }
    }
    assert!(save_ron(&path, &Fails).is_err());
    assert_eq!(fs::read(&path).unwrap(), b"old");

    // the store's folder is a file: saving fails with an error, nothing panics
    let file_as_dir = dir.path().join("plain-file");
    fs::write(&file_as_dir, "x").unwrap();
    let store = SaveStore::new(&file_as_dir);
    let save = SaveGame::new(&game(GameKind::Ataxx, 2), players(), Clocks::default());
    assert!(matches!(store.save(1, &save, true), Err(SaveError::Io(_))));
    assert_eq!(fs::read_to_string(&file_as_dir).unwrap(), "x");

    // a successful write replaces the file and leaves no temporary file behind
    atomic_write(&path, b"new").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"new");
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn read_only_folder_keeps_the_old_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.ron");
    atomic_write(&path, b"old").unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o555)).unwrap();
    let result = atomic_write(&path, b"new");
    // root ignores folder permissions; then the write succeeds, atomically, and that is fine
    let probe = fs::write(dir.path().join("probe"), b"");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    if probe.is_err() {
        assert!(result.is_err(), "writing into a read-only folder fails");
        assert_eq!(fs::read(&path).unwrap(), b"old");
    } else {
        assert_eq!(fs::read(&path).unwrap(), b"new");
    }
}

/// The app's settings, as its `src/settings.rs` has them.
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
struct Settings {
    volume: f32,
    mute: bool,
    animation_speed: f32,
    show_legal_moves: bool,
    eval_bar: bool,
    default_level: [u8; 4],
    cpu_time_ms: [u32; 4],
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            volume: 0.6,
            mute: false,
            animation_speed: 1.0,
            show_legal_moves: true,
            eval_bar: true,
            default_level: [3; 4],
            cpu_time_ms: [1000, 1000, 1000, 2000],
        }
    }
}

#[test]
fn settings_round_trip_and_bad_file_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data").join("settings.ron");
    // no file: defaults, no message
    let (s, msg) = load_or_default::<Settings>(&path);
    assert_eq!(s, Settings::default());
    assert_eq!(msg, None);

    let mine = Settings {
        volume: 0.25,
        mute: true,
        default_level: [1, 2, 5, 6],
        ..Settings::default()
    };
    save_ron(&path, &mine).unwrap();
    assert_eq!(load_or_default::<Settings>(&path), (mine, None));

    // a file from before a field existed still reads, the field at its default
    fs::write(&path, "(volume: 0.5, mute: true)").unwrap();
    let (s, msg) = load_or_default::<Settings>(&path);
    assert_eq!(msg, None);
    assert_eq!(
        (s.volume, s.mute, s.cpu_time_ms),
        (0.5, true, [1000, 1000, 1000, 2000])
    );

    // a damaged file: defaults, a message, and the bad file kept beside it
    fs::write(&path, "(volume: \"loud\", mute: tru").unwrap();
    let (s, msg) = load_or_default::<Settings>(&path);
    assert_eq!(s, Settings::default());
    let msg = msg.expect("a message for the player");
    assert!(
        msg.contains("settings.ron") && msg.contains("defaults"),
        "{msg}"
    );
    assert!(
        !path.exists(),
        "the bad file was moved aside, not left to be overwritten"
    );
    let kept: Vec<_> = fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(kept.len(), 1);
    assert!(kept[0].starts_with("settings.ron.bad-"), "{kept:?}");
    assert!(msg.contains(&kept[0]), "{msg}");
    assert_eq!(
        fs::read_to_string(path.parent().unwrap().join(&kept[0])).unwrap(),
        "(volume: \"loud\", mute: tru"
    );
    // a second bad file the same second gets its own name
    fs::write(&path, [0xffu8, 0x00]).unwrap();
    let (_, msg) = load_or_default::<Settings>(&path);
    assert!(msg.unwrap().contains("UTF-8"));
    assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 2);
}

#[test]
fn default_data_dir_is_qis() {
    let d = qi_core::storage::default_data_dir();
    if let Some(d) = d {
        assert!(
            d.to_string_lossy().to_lowercase().contains("qi"),
            "{}",
            d.display()
        );
    }
    assert_eq!(
        qi_core::storage::data_dir(Some(Path::new("/tmp/x"))),
        Path::new("/tmp/x")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic_as_a_save(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = SaveGame::load_text(&text);
    }

    #[test]
    fn damaged_real_saves_never_panic(cut in 0usize..2000, flip in 0usize..2000, byte in any::<u8>()) {
        let save = SaveGame::new(&game(GameKind::Ataxx, 9), players(), Clocks::default());
        let mut bytes = save.to_ron().unwrap().into_bytes();
        let n = bytes.len();
        bytes[flip % n] = byte;
        bytes.truncate(cut % (n + 1));
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(loaded) = SaveGame::load_text(&text) {
            // whatever loads is a legal game
            prop_assert!(loaded.history.ply() <= loaded.save.moves.len());
        }
    }
}
