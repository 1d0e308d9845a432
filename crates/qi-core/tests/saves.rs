//! Save slots and the autosave: round trips for every game, the list, overwrite protection,
//! corrupt / truncated / newer-version / illegal-move files, atomic writes (failures, two writers
//! at once, symbolic links, permissions), RON files that cannot be read, and random bytes.

use std::fs;
use std::path::Path;

mod common;

use proptest::prelude::*;
use qi_core::GameKind;
use qi_core::any::{AnyPosition, GameHistory};
use qi_core::history::History;
use qi_core::saves::{
    Clocks, PlayerInfo, SAVE_VERSION, SLOT_COUNT, SaveError, SaveGame, SaveStore, SlotState,
};
use qi_core::storage::{atomic_write, load_or_default, save_ron};

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
        SlotState::Unreadable(SaveError::Unreadable(why)) => why.to_string(),
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
        Err(SaveError::Unreadable(why)) => assert!(why.to_string().contains("move 3 (a1)")),
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

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Writes that fail (in ways that fail for root too, as CI runs) leave what was there as it was
/// and no temporary file behind.
#[test]
fn a_failed_write_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("slot-1.ron");
    atomic_write(&path, b"old").unwrap();

    // the target is a folder with a file in it: the rename over it fails after the temporary
    // file was written; the folder and its file are untouched, the temporary file is gone
    let folder = dir.path().join("slot-2.ron");
    fs::create_dir(&folder).unwrap();
    fs::write(folder.join("inside"), b"kept").unwrap();
    assert!(atomic_write(&folder, b"new").is_err());
    assert_eq!(fs::read(folder.join("inside")).unwrap(), b"kept");
    assert_eq!(names(dir.path()), ["slot-1.ron", "slot-2.ron"]);

    // the target's folder is a file: nothing can be created there
    let file_as_dir = dir.path().join("plain-file");
    fs::write(&file_as_dir, "x").unwrap();
    assert!(atomic_write(&file_as_dir.join("settings.ron"), b"new").is_err());
    assert!(save_ron(&file_as_dir.join("settings.ron"), &History::default()).is_err());
    assert_eq!(fs::read_to_string(&file_as_dir).unwrap(), "x");

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
    let store = SaveStore::new(&file_as_dir);
    let save = SaveGame::new(&game(GameKind::Ataxx, 2), players(), Clocks::default());
    assert!(matches!(store.save(1, &save, true), Err(SaveError::Io(_))));
    assert!(matches!(store.save_autosave(&save), Err(SaveError::Io(_))));
    assert_eq!(fs::read_to_string(&file_as_dir).unwrap(), "x");

    // a successful write replaces the file and leaves no temporary file behind
    atomic_write(&path, b"new").unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"new");
    assert_eq!(
        names(dir.path()),
        ["plain-file", "slot-1.ron", "slot-2.ron"]
    );
}

/// A folder that cannot be written (for users other than root, who may write anyway) keeps the
/// old file; with root the write goes through, atomically. Either way no temporary file is
/// left and the file holds one whole version.
#[test]
fn read_only_folder_keeps_the_old_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.ron");
    atomic_write(&path, b"old").unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o555)).unwrap();
    let result = atomic_write(&path, b"new");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    match result {
        Err(_) => assert_eq!(fs::read(&path).unwrap(), b"old"),
        Ok(()) => assert_eq!(fs::read(&path).unwrap(), b"new"),
    }
    assert_eq!(names(dir.path()), ["settings.ron"]);
}

/// Two threads saving one file at the same time each write through a temporary file of their
/// own (the name used to be per process, so they shared one and one rename failed or the file
/// mixed both): every write succeeds and the file always holds one writer's whole text.
#[test]
fn two_writers_of_one_file_do_not_share_a_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("autosave.ron");
    let texts: Vec<Vec<u8>> = (0..4u8)
        .map(|k| std::iter::repeat_n(b'a' + k, 256 * 1024).collect())
        .collect();
    std::thread::scope(|s| {
        for t in &texts {
            let path = &path;
            s.spawn(move || {
                for _ in 0..25 {
                    atomic_write(path, t).unwrap();
                }
            });
        }
        // meanwhile the file is always one whole text
        for _ in 0..200 {
            if let Ok(now) = fs::read(&path) {
                assert!(texts.contains(&now), "a mixed file of {} bytes", now.len());
            }
        }
    });
    let last = fs::read(&path).unwrap();
    assert!(texts.contains(&last));
    assert_eq!(names(dir.path()), ["autosave.ron"]);
}

/// A save slot that is a symbolic link is written through to the file it points to (the link
/// stays a link), and a file keeps its permissions (they used to be reset to 644).
#[test]
fn symlinked_slots_and_permissions_are_kept() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = tempfile::tempdir().unwrap();
    let store = SaveStore::new(dir.path().join("saves"));
    let elsewhere = dir.path().join("synced");
    fs::create_dir_all(&elsewhere).unwrap();
    fs::create_dir_all(store.dir()).unwrap();
    let real = elsewhere.join("my-slot.ron");
    let a = SaveGame::new(&game(GameKind::Reversi, 5), players(), Clocks::default());
    let b = SaveGame::new(&game(GameKind::Reversi, 9), players(), Clocks::default());
    fs::write(&real, a.to_ron().unwrap()).unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
    // a relative link, as a person makes one
    symlink("../synced/my-slot.ron", store.slot_path(1).unwrap()).unwrap();
    assert_eq!(store.load(1).unwrap().save, a);
    store.save(1, &b, true).unwrap();
    let link = fs::symlink_metadata(store.slot_path(1).unwrap()).unwrap();
    assert!(link.file_type().is_symlink(), "the slot is still a link");
    assert_eq!(store.load(1).unwrap().save, b);
    assert_eq!(
        SaveGame::from_ron(&fs::read_to_string(&real).unwrap()).unwrap(),
        b
    );
    let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(names(&elsewhere), ["my-slot.ron"], "no temporary file left");

    // a plain file keeps its mode too
    let plain = store.slot_path(2).unwrap();
    store.save(2, &a, false).unwrap();
    fs::set_permissions(&plain, fs::Permissions::from_mode(0o640)).unwrap();
    store.save(2, &b, true).unwrap();
    assert_eq!(
        fs::metadata(&plain).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert_eq!(store.load(2).unwrap().save, b);

    // a link to a file that does not exist yet: the file is made where it points
    let later = elsewhere.join("later.ron");
    symlink(&later, store.slot_path(3).unwrap()).unwrap();
    store.save(3, &a, false).unwrap();
    assert!(
        fs::symlink_metadata(store.slot_path(3).unwrap())
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        SaveGame::from_ron(&fs::read_to_string(&later).unwrap()).unwrap(),
        a
    );

    // a loop of links is an error, not a hang
    let (x, y) = (dir.path().join("x.ron"), dir.path().join("y.ron"));
    symlink(&y, &x).unwrap();
    symlink(&x, &y).unwrap();
    assert!(atomic_write(&x, b"data").is_err());
}

/// RON files of a core type (the player history; the app's settings are tested in the app):
/// a missing file gives the defaults and no message, a file from before a field existed still
/// reads, and a damaged one gives the defaults, a message, and is kept beside the original
/// under a name of its own (a second one the same second gets another).
#[test]
fn ron_files_round_trip_and_bad_files_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data").join("history.ron");
    let (h, msg) = load_or_default::<History>(&path);
    assert_eq!((h, msg), (History::default(), None));

    let mut mine = History::default();
    mine.record(qi_core::history::GameResultEntry::new(
        GameKind::Go,
        "Ann",
        "CPU",
        qi_core::history::GameOutcome::Win,
        "B+3.5",
        120,
        Some(4),
    ));
    save_ron(&path, &mine).unwrap();
    assert_eq!(load_or_default::<History>(&path), (mine, None));

    // written before `results` existed: it reads, with no results
    fs::write(&path, "(version: 1)").unwrap();
    let (h, msg) = load_or_default::<History>(&path);
    assert_eq!(msg, None);
    assert!(h.results.is_empty());

    // damaged: defaults, a message, the bad file kept beside it
    fs::write(&path, "(version: \"one\", results: [").unwrap();
    let (h, msg) = load_or_default::<History>(&path);
    assert_eq!(h, History::default());
    let msg = msg.expect("a message for the player");
    assert_eq!(msg.name, "history.ron");
    assert!(
        matches!(msg.why, qi_core::storage::LoadFailure::Invalid(_)),
        "{msg}"
    );
    assert!(msg.to_string().contains("defaults"), "{msg}");
    assert!(!path.exists(), "moved aside, not left to be overwritten");
    let kept = names(path.parent().unwrap());
    assert_eq!(kept.len(), 1);
    assert!(kept[0].starts_with("history.ron.bad-"), "{kept:?}");
    assert_eq!(msg.kept.as_ref(), Ok(&kept[0]), "{msg}");
    assert!(msg.to_string().contains(&kept[0]), "{msg}");
    assert_eq!(
        fs::read_to_string(path.parent().unwrap().join(&kept[0])).unwrap(),
        "(version: \"one\", results: ["
    );
    // a second bad file the same second gets its own name; bytes that are not UTF-8 say so
    fs::write(&path, [0xffu8, 0x00]).unwrap();
    let (_, msg) = load_or_default::<History>(&path);
    let msg = msg.unwrap();
    assert_eq!(
        msg.why,
        qi_core::storage::LoadFailure::File(qi_core::storage::ReadError::NotUtf8 { at: 0 })
    );
    assert!(msg.to_string().contains("UTF-8"), "{msg}");
    assert_eq!(names(path.parent().unwrap()).len(), 2);
    // deep nesting: an error, not a stack overflow
    fs::write(&path, "(".repeat(1_000_000)).unwrap();
    let (h, msg) = load_or_default::<History>(&path);
    assert_eq!(h, History::default());
    assert!(msg.is_some());
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
    #![proptest_config(ProptestConfig::with_cases(150))]

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

    /// Large, deeply nested and binary saves: RON brackets repeated up to 30,000 times, bytes
    /// that are not UTF-8, and a real save's text among them.
    #[test]
    fn large_deep_and_binary_saves_never_panic(
        pieces in proptest::collection::vec((0usize..10, 1usize..30_000), 1..6),
        binary in proptest::collection::vec(any::<u8>(), 0..2048),
    ) {
        let real = SaveGame::new(&game(GameKind::Go, 6), players(), Clocks::default())
            .to_ron()
            .unwrap();
        let tokens: [&[u8]; 10] = [
            b"(", b"[", b"{", b")", b"]", b"\"", b"version: 1, ", b"\xff", b"\x00",
            real.as_bytes(),
        ];
        let mut bytes = Vec::new();
        for (t, n) in pieces {
            // the real save at most three times over
            let times = if t == 9 { n.min(3) } else { n };
            for _ in 0..times {
                bytes.extend_from_slice(tokens[t]);
            }
        }
        bytes.extend_from_slice(&binary);
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(loaded) = SaveGame::load_text(&text) {
            prop_assert!(loaded.history.ply() <= loaded.save.moves.len());
        }
        let (store_dir, store) = store();
        std::fs::create_dir_all(store.dir()).unwrap();
        std::fs::write(store.slot_path(1).unwrap(), &bytes).unwrap();
        let _ = store.slot_info(1);
        drop(store_dir);
    }
}
