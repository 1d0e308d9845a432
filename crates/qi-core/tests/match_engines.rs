//! `qi-engine match` against external engines: a second `qi-engine` process through each
//! protocol, and tiny fake engines (shell scripts) that play an illegal move, answer garbage,
//! stay silent or die. Every run has a deadline, and the referee's own reads time out, so no
//! test can hang.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const QI: &str = env!("CARGO_BIN_EXE_qi-engine");

/// Runs `qi-engine match …`, killing it after `limit`; returns (exit code, stdout, stderr).
fn run_match(args: &[&str], limit: Duration) -> (i32, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_path = dir.path().join("out");
    let err_path = dir.path().join("err");
    let mut child = Command::new(QI)
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("start qi-engine match");
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "qi-engine match {args:?} ran past {limit:?}; stderr so far:\n{}",
                std::fs::read_to_string(&err_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status.code().unwrap_or(-1),
        std::fs::read_to_string(&out_path).unwrap(),
        std::fs::read_to_string(&err_path).unwrap(),
    )
}

/// The W/D/L numbers of the result line.
fn wdl(out: &str) -> (u32, u32, u32) {
    let line = out
        .lines()
        .find(|l| l.starts_with("W/D/L "))
        .unwrap_or_else(|| panic!("no W/D/L line in {out}"));
    let v: Vec<u32> = line[6..]
        .split_whitespace()
        .next()
        .unwrap()
        .split('/')
        .map(|n| n.parse().unwrap())
        .collect();
    (v[0], v[1], v[2])
}

const LIMIT: Duration = Duration::from_secs(240);

/// The time margin for the matches against a second Qi process: they test the protocols, not
/// the clock, and Qi's NBoard engine solves endgames exactly (up to 10 s) whatever the move
/// time, which a loaded machine stretches.
const MARGIN: &str = "30000";

/// [`run_match`] with the long [`MARGIN`].
fn protocol_match(args: &[&str], limit: Duration) -> (i32, String, String) {
    let mut v = args.to_vec();
    v.extend(["--margin", MARGIN]);
    run_match(&v, limit)
}

fn qi(proto: &str) -> String {
    format!("{proto}:{QI} {proto}")
}

#[test]
fn ataxx_over_uai_against_a_second_process() {
    let a = qi("uai");
    let (code, out, err) = protocol_match(
        &[
            "ataxx",
            "--a",
            &a,
            "--b",
            "level=2",
            "--games",
            "2",
            "--movetime",
            "20",
        ],
        LIMIT,
    );
    assert_eq!(code, 0, "{err}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 2, "{out}");
    assert!(!out.contains("faults"), "{out}\n{err}");
    assert!(out.contains("A(uai:"), "{out}");
}

#[test]
fn reversi_over_nboard_against_a_second_process() {
    let a = qi("nboard");
    let (code, out, err) = protocol_match(
        &[
            "reversi",
            "--a",
            &a,
            "--a-init",
            "set depth 2",
            "--b",
            "level=2",
            "--games",
            "2",
            "--movetime",
            "50",
        ],
        LIMIT,
    );
    assert_eq!(code, 0, "{err}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 2, "{out}");
    assert!(!out.contains("faults"), "{out}\n{err}");
}

#[test]
fn gomoku_over_gomocup_against_a_second_process() {
    let a = qi("gomocup");
    let (code, out, err) = protocol_match(
        &[
            "gomoku",
            "--a",
            &a,
            "--b",
            "level=2",
            "--games",
            "2",
            "--movetime",
            "50",
            "--openings",
            "2",
            "--size",
            "11",
        ],
        LIMIT,
    );
    assert_eq!(code, 0, "{err}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 2, "{out}");
    assert!(!out.contains("faults"), "{out}\n{err}");
}

#[test]
fn go_over_gtp_against_a_second_process_and_two_gtp_engines() {
    let a = qi("gtp");
    let (code, out, err) = protocol_match(
        &[
            "go",
            "--a",
            &a,
            "--a-init",
            "qi-playouts 150",
            "--b",
            "level=6,playouts=150",
            "--games",
            "2",
            "--movetime",
            "100",
            "--size",
            "7",
            "--komi",
            "7",
            "--openings",
            "2",
        ],
        LIMIT,
    );
    assert_eq!(code, 0, "{err}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 2, "{out}");
    assert!(!out.contains("faults"), "{out}\n{err}");
    // both sides external
    let (code, out, err) = protocol_match(
        &[
            "go",
            "--a",
            &a,
            "--a-init",
            "qi-playouts 100",
            "--b",
            &a,
            "--b-init",
            "qi-playouts 100",
            "--games",
            "2",
            "--size",
            "5",
            "--komi",
            "0.5",
        ],
        LIMIT,
    );
    assert_eq!(code, 0, "{err}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 2, "{out}");
}

#[test]
fn a_protocol_must_fit_the_game() {
    let a = qi("uai");
    let (code, _, err) = run_match(&["reversi", "--a", &a, "--games", "2"], LIMIT);
    assert_eq!(code, 2);
    assert!(err.contains("nboard"), "{err}");
    let (code, _, err) = run_match(
        &["ataxx", "--a", "uai:/nonexistent/engine", "--games", "2"],
        LIMIT,
    );
    assert_eq!(code, 2);
    assert!(err.contains("cannot start"), "{err}");
}

#[test]
fn sprt_and_clock_are_reported() {
    let (code, out, err) = run_match(
        &[
            "ataxx",
            "--a",
            "level=2",
            "--b",
            "level=1",
            "--games",
            "4",
            "--tc",
            "2+0.05",
            "--sprt",
            "elo0=0,elo1=50,alpha=0.05,beta=0.05",
            "--openings",
            "2-4",
        ],
        LIMIT,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2+0.05 s"), "{out}");
    assert!(out.contains("2-4 random plies"), "{out}");
    assert!(out.contains("SPRT elo0=0 elo1=50"), "{out}");
}

#[cfg(unix)]
mod fakes {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// Writes an executable shell script and returns (its dir guard, its path).
    fn script(body: &str) -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("engine.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let p = path.to_string_lossy().into_owned();
        (dir, p)
    }

    /// A UAI engine that answers `go` with `reply` (or with nothing, or by exiting).
    fn uai_fake(on_go: &str) -> (tempfile::TempDir, String) {
        script(&format!(
            r#"while read -r line; do
  case "$line" in
    uai) echo "id name Fake"; echo uaiok ;;
    isready) echo readyok ;;
    go*) {on_go} ;;
    quit) exit 0 ;;
  esac
done
"#
        ))
    }

    /// Runs two games of the fake as A against Qi level 1 and checks that A lost both by a
    /// fault described by `what`.
    fn both_forfeited(game: &str, a: &str, what: &str) -> String {
        let (code, out, err) = run_match(
            &[
                game,
                "--a",
                a,
                "--b",
                "level=1",
                "--games",
                "2",
                "--movetime",
                "50",
                "--margin",
                "300",
                "--size",
                "9",
                "--openings",
                "0",
            ],
            LIMIT,
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(wdl(&out), (0, 0, 2), "{out}\n{err}");
        assert!(out.contains("games lost by faults: A 2, B 0"), "{out}");
        assert_eq!(err.matches("loses by a fault").count(), 2, "{err}");
        assert!(err.contains(what), "expected '{what}' in:\n{err}");
        err
    }

    #[test]
    fn an_illegal_uai_move_loses() {
        // a1 holds an o piece at the start, and x moves first: never legal for x at the start,
        // and for o the game ends with an illegal-move fault too
        let (_d, p) = uai_fake("echo 'bestmove a1'");
        both_forfeited("ataxx", &format!("uai:{p}"), "illegal move: a1");
    }

    #[test]
    fn uai_garbage_loses() {
        let (_d, p) = uai_fake("echo 'info depth 1'; echo 'bestmove zz99'");
        both_forfeited("ataxx", &format!("uai:{p}"), "garbage: move 'zz99'");
    }

    #[test]
    fn a_silent_uai_engine_loses_on_the_deadline() {
        let (_d, p) = uai_fake("echo 'info string thinking forever'");
        both_forfeited("ataxx", &format!("uai:{p}"), "no answer in time");
    }

    #[test]
    fn a_uai_engine_that_dies_loses() {
        let (_d, p) = uai_fake("exit 3");
        let err = both_forfeited("ataxx", &format!("uai:{p}"), "crashed");
        assert!(err.contains("exit status: 3"), "{err}");
    }

    #[test]
    fn nboard_illegal_move_loses() {
        let (_d, p) = script(
            r#"while read -r line; do
  case "$line" in
    ping*) echo "pong ${line#ping }" ;;
    go) echo "=== a1/0.0/0.1" ;;
    quit) exit 0 ;;
  esac
done
"#,
        );
        both_forfeited("reversi", &format!("nboard:{p}"), "illegal move: a1");
    }

    #[test]
    fn gtp_refusal_and_garbage_lose() {
        // answers every command with success, genmove with a vertex off the 9x9 board
        let (_d, p) = script(
            r#"while read -r line; do
  case "$line" in
    genmove*|kgs-genmove*) printf '= Z99\n\n' ;;
    known_command*) printf '= false\n\n' ;;
    quit) printf '=\n\n'; exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
"#,
        );
        both_forfeited("go", &format!("gtp:{p}"), "garbage: move 'Z99'");
    }

    #[test]
    fn gomocup_engine_that_dies_loses() {
        let (_d, p) = script(
            r#"while read -r line; do
  case "$line" in
    START*) echo OK ;;
    DONE) exit 1 ;;
  esac
done
"#,
        );
        both_forfeited("gomoku", &format!("gomocup:{p}"), "crashed");
    }
}
