//! The nasty inputs of `tests/data/nasty/` (see its README) through every engine protocol and
//! every record and save reader, plus large inputs made here: nothing panics, hangs or
//! overflows a stack, and each engine still answers afterwards.

use std::path::PathBuf;
use std::time::Duration;

mod common;

use qi_core::engine::gtp::GtpEngine;
use qi_core::engine::nboard::parse_ggf;
use qi_core::history::History;
use qi_core::records::{MAX_RECORD_BYTES, import_file, import_text};
use qi_core::saves::SaveGame;
use qi_core::sgf::{GameRecord, MAX_SGF_DEPTH, parse_collection};
use qi_core::storage::load_or_default;

fn nasty_dir() -> PathBuf {
    PathBuf::from(format!("{}/tests/data/nasty", env!("CARGO_MANIFEST_DIR")))
}

/// Every file of the corpus but the README: (name, path, bytes).
fn corpus() -> Vec<(String, PathBuf, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(nasty_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != "README.md")
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                p,
                bytes,
            )
        })
        .collect();
    v.sort();
    assert!(v.len() >= 30, "{} files", v.len());
    v
}

/// Runs `f` on a thread with a 2 MB stack, the size of the app's worker threads.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// Every file through the record readers, the save reader, the GGF reader, RON files and GTP
/// `loadsgf`: an error or a value, never a panic; whatever imports replays and writes back.
#[test]
fn corpus_through_the_readers() {
    on_small_stack(|| {
        let dir = tempfile::tempdir().unwrap();
        let mut gtp = GtpEngine::new();
        for (name, path, bytes) in corpus() {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            if let Ok(rec) = import_text(&text) {
                rec.history()
                    .unwrap_or_else(|e| panic!("{name}: imports but {e}"));
                rec.export().unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            match import_file(&path) {
                Ok(rec) => assert!(rec.history().is_ok(), "{name}"),
                Err(e) => assert!(e.contains(&name), "{name}: {e}"),
            }
            if std::str::from_utf8(&bytes).is_err() {
                let e = import_file(&path).unwrap_err();
                assert!(e.contains("UTF-8"), "{name}: {e}");
            }
            if let Ok(rec) = GameRecord::from_sgf(&text) {
                let back = GameRecord::from_sgf(&rec.to_sgf()).unwrap();
                assert_eq!(back, rec, "{name}");
                let _ = rec.replay_go();
                let _ = rec.replay_reversi();
                let _ = rec.replay_gomoku();
            }
            let _ = parse_collection(&text);
            if let Ok(loaded) = SaveGame::load_text(&text) {
                assert!(loaded.history.ply() <= loaded.save.moves.len(), "{name}");
            }
            let _ = parse_ggf(&text);
            let ron = dir.path().join("history.ron");
            std::fs::write(&ron, &bytes).unwrap();
            let _ = load_or_default::<History>(&ron);
            let r = gtp
                .handle_line(&format!("loadsgf {}", path.display()))
                .unwrap();
            assert!(r.starts_with('=') || r.starts_with('?'), "{name}: {r}");
            assert_eq!(gtp.handle_line("name").unwrap(), "= Qi\n\n", "{name}");
        }
        // what the corpus is for, checked where it matters
        let read = |n: &str| std::fs::read_to_string(nasty_dir().join(n)).unwrap();
        let e = GameRecord::from_sgf(&read("long-main-line.sgf")).unwrap_err();
        assert!(e.to_string().contains(&MAX_SGF_DEPTH.to_string()), "{e}");
        for n in ["deep-parens.sgf", "deep-variations.sgf"] {
            let e = parse_collection(&read(n)).unwrap_err();
            assert!(
                e.to_string().contains("nested") || e.to_string().contains("more than"),
                "{n}: {e}"
            );
        }
        let e = parse_collection(&read("deep-parens-unclosed.sgf")).unwrap_err();
        assert!(e.to_string().contains("no game tree"), "{e}");
        let e = parse_collection(&format!("(;{}", read("deep-parens-unclosed.sgf"))).unwrap_err();
        assert!(e.to_string().contains("nested"), "{e}");
        assert!(import_text(&read("long-main-line-unclosed.sgf")).is_err());
        assert_eq!(
            import_text(&read("bom-crlf.sgf")).unwrap().moves,
            ["E5", "C7"]
        );
        assert_eq!(
            import_text(&read("bom-crlf.pgn")).unwrap().moves,
            ["f2", "b2"]
        );
        assert!(SaveGame::load_text(&read("deep.ron")).is_err());
        let e = SaveGame::load_text(&read("save-newer.ron")).unwrap_err();
        assert!(e.to_string().contains("newer"), "{e}");
    });
}

/// Inputs too big for the corpus, made here: a record one byte over the cap (refused at once,
/// through the text and the file readers), a 2 MB line of nested variations under the cap, and
/// random bytes that are not UTF-8.
#[test]
fn large_inputs_through_the_readers() {
    on_small_stack(|| {
        let over = format!("(;GM[1]SZ[9]C[{}])", "x".repeat(MAX_RECORD_BYTES));
        let e = import_text(&over).unwrap_err();
        assert!(e.to_string().contains("more than"), "{e}");
        assert!(
            parse_collection(&over)
                .unwrap_err()
                .to_string()
                .contains("more than")
        );
        assert!(SaveGame::load_text(&over).is_err());
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("big.sgf");
        std::fs::write(&file, &over).unwrap();
        let e = import_file(&file).unwrap_err();
        assert!(e.contains("more than"), "{e}");
        // a long but legal record: 1,000,000 empty variations under the root
        let wide = format!("(;GM[1]SZ[9]{})", "(;)".repeat(1_000_000));
        let trees = parse_collection(&wide).unwrap();
        assert_eq!(trees[0].children.len(), 1_000_000);
        // random bytes, not UTF-8, a megabyte
        let mut rng = qi_core::search::Rng::new(99);
        let bytes: Vec<u8> = (0..1 << 20).map(|_| rng.next_u64() as u8).collect();
        std::fs::write(&file, &bytes).unwrap();
        assert!(import_file(&file).unwrap_err().contains("UTF-8"));
        let text = String::from_utf8_lossy(&bytes);
        let _ = import_text(&text);
        let _ = SaveGame::load_text(&text);
    });
}

/// The whole corpus as input lines, then the protocol's own command file, then a question the
/// engine must still answer and a clean end: exit code 0 within two minutes, no panic.
fn replay(protocol: &str, commands: &str, probe: &[u8], answer: &str) {
    let mut input = Vec::new();
    for (_, _, bytes) in corpus() {
        input.extend_from_slice(&bytes);
        input.push(b'\n');
    }
    input.extend_from_slice(&std::fs::read(nasty_dir().join(commands)).unwrap());
    input.extend_from_slice(probe);
    let (code, out, err) = common::run_with_input(
        common::engine_path(),
        &[protocol],
        &input,
        Duration::from_secs(120),
    );
    let out = String::from_utf8_lossy(&out);
    assert!(!err.contains("panicked"), "{protocol}: {err}");
    assert_eq!(code, Some(0), "{protocol}: {err}");
    assert!(
        out.lines().any(|l| l.starts_with(answer)),
        "{protocol}: no '{answer}' in the last lines {:?}",
        out.lines().rev().take(5).collect::<Vec<_>>()
    );
}

#[test]
fn corpus_through_uai() {
    replay(
        "uai",
        "uai-commands.txt",
        b"stop\nisready\nquit\n",
        "readyok",
    );
}

#[test]
fn corpus_through_nboard() {
    replay(
        "nboard",
        "nboard-commands.txt",
        b"ping 424242\nquit\n",
        "pong 424242",
    );
}

#[test]
fn corpus_through_gtp() {
    replay(
        "gtp",
        "gtp-commands.txt",
        b"424242 name\nquit\n",
        "=424242 Qi",
    );
}

#[test]
fn corpus_through_gomocup() {
    replay(
        "gomocup",
        "gomocup-commands.txt",
        b"ABOUT\r\nEND\r\n",
        "name=\"Qi\"",
    );
}
