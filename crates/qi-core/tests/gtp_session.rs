//! GTP sessions: in process through `run_gtp`, and `qi-engine gtp` as a child process fed
//! garbage among the commands.

use std::io::Cursor;
use std::time::{Duration, Instant};

mod common;

use qi_core::any::AnyPosition;
use qi_core::engine::gtp::{GtpEngine, run_gtp};
use qi_core::go::Go;
use qi_core::{Game, GameKind, Side};

/// Replies of a session, each without its trailing empty line.
fn session(input: &str) -> Vec<String> {
    let mut out = Vec::new();
    run_gtp(Cursor::new(input.as_bytes().to_vec()), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.is_empty() || text.ends_with("\n\n"), "{text:?}");
    text.split("\n\n")
        .filter(|s| !s.is_empty())
        .map(|s| s.to_string())
        .collect()
}

#[test]
fn basic_commands_and_ids() {
    let r = session(
        "1 protocol_version\nname\n2 version\nknown_command genmove\nknown_command fly\n# a comment\n\n3 list_commands\n",
    );
    assert_eq!(r[0], "=1 2");
    assert_eq!(r[1], "= Qi");
    assert!(r[2].starts_with("=2 0."), "{}", r[2]);
    assert_eq!(r[3], "= true");
    assert_eq!(r[4], "= false");
    assert!(r[5].starts_with("=3 protocol_version\n"));
    for c in ["list_stones", "loadsgf", "final_status_list", "time_left"] {
        assert!(
            r[5].lines().any(|l| l.trim_start_matches("=3 ") == c),
            "{c}"
        );
    }
    assert_eq!(r.len(), 6);
}

#[test]
fn play_undo_captures_and_errors() {
    let r = session(
        "boardsize 9\nclear_board\nkomi 6.5\nplay b E5\nplay w D5\nplay b d4\nplay w E4\nplay b C5\nplay w A1\nplay b D6\nlist_stones white\nlist_stones black\nplay w E5\nundo\nlist_stones black\nplay w D5\nplay b Z9\nplay purple E5\nboardsize 30\nkomi 6.25\nfoo bar\n10 undo\n",
    );
    let ok: Vec<&String> = r.iter().take(10).collect();
    assert!(ok.iter().all(|x| x.as_str() == "="), "{ok:?}");
    // D6 captured D5
    assert_eq!(r[10], "= A1 E4");
    assert_eq!(r[11], "= D4 C5 E5 D6");
    // E5 is occupied
    assert_eq!(r[12], "? illegal move");
    assert_eq!(r[13], "=");
    // undo took back D6: D5 is back
    assert_eq!(r[14], "= D4 C5 E5");
    assert_eq!(r[15], "? illegal move");
    assert!(r[16].starts_with("? syntax error"), "{}", r[16]);
    assert!(r[17].starts_with("? syntax error"), "{}", r[17]);
    assert_eq!(r[18], "? unacceptable size");
    assert!(r[19].starts_with("? komi"), "{}", r[19]);
    assert_eq!(r[20], "? unknown command 'foo'");
    assert_eq!(r[21], "=10");
}

#[test]
fn ko_is_refused_and_genmove_plays_legal_moves() {
    let mut e = GtpEngine::new();
    for l in [
        "boardsize 7",
        "qi-movetime 50",
        "play b C5",
        "play w D5",
        "play b B4",
        "play w C4",
        "play b C3",
        "play w D3",
        "play w E4",
        "play b D4",
    ] {
        assert_eq!(e.handle_line(l).unwrap(), "=\n\n", "{l}");
    }
    assert_eq!(e.handle_line("play w C4").unwrap(), "? illegal move\n\n");
    // the search plays legal moves for either colour, many times over
    let mut moves = 0;
    for i in 0..60 {
        let color = if i % 2 == 0 { "w" } else { "b" };
        let before = e.position().clone();
        let r = e.handle_line(&format!("genmove {color}")).unwrap();
        assert!(r.starts_with("= "), "{r}");
        if r == "= resign\n\n" {
            // the search may give up a clearly lost game
            moves += 1;
            continue;
        }
        let mv = before.parse_move(r[2..].trim()).unwrap();
        let mut p = before.clone();
        p.set_to_move(if color == "w" {
            Side::White
        } else {
            Side::Black
        });
        if p.is_over() {
            p.resume();
        }
        assert!(p.is_legal(mv), "{r}");
        moves += 1;
        e.position().check_consistency().unwrap();
    }
    assert_eq!(moves, 60);
    assert!(e.handle_line("final_score").unwrap().starts_with('='));
}

#[test]
fn genmove_saves_a_group_in_atari() {
    // (Capturing through GTP is tested in go_ai.rs on a position where the capture decides the
    // game; a capture in a game already won is not a move the search must prefer.)
    // A black stone in atari: black extends out of it. A fixed playout budget on one thread,
    // not a time limit, so a loaded machine gives the search the same work.
    let mut e = GtpEngine::new();
    e.handle_line("boardsize 9");
    e.handle_line("qi-level 4");
    e.handle_line("qi-threads 1");
    e.handle_line("qi-movetime 60000");
    for l in [
        "play b E5",
        "play w D5",
        "play b A9",
        "play w F5",
        "play b A8",
        "play w E6",
    ] {
        e.handle_line(l);
    }
    assert_eq!(e.handle_line("genmove b").unwrap(), "= E4\n\n");
}

#[test]
fn handicap_commands() {
    let r = session(
        "boardsize 19\nfixed_handicap 4\nfixed_handicap 2\nclear_board\nfixed_handicap 10\nplace_free_handicap 3\nclear_board\nset_free_handicap D4 Q16 D4\nset_free_handicap D4 Q16 K10\nlist_stones black\ngenmove w\nclear_board\nboardsize 9\nfixed_handicap 5\n",
    );
    assert_eq!(r[0], "=");
    assert_eq!(r[1], "= D4 Q16 Q4 D16");
    assert_eq!(r[2], "? board not empty");
    assert_eq!(r[3], "=");
    assert!(r[4].starts_with("? invalid number of stones"), "{}", r[4]);
    assert_eq!(r[5], "= D4 Q16 Q4");
    assert_eq!(r[6], "=");
    assert!(r[7].starts_with("? bad vertex list"), "{}", r[7]);
    assert_eq!(r[8], "=");
    assert_eq!(r[9], "= D4 K10 Q16");
    // White moves after the handicap
    assert!(r[10].starts_with("= "), "{}", r[10]);
    assert_eq!(r[13], "= C3 G7 G3 C7 E5");
}

#[test]
fn scoring_and_status_lists() {
    // black wall on E, white on F, a dead white stone at B5 and a dead black one at H5
    let mut cmds = String::from("boardsize 9\nkomi 7.5\n");
    for y in 1..=9 {
        cmds.push_str(&format!("play b E{y}\nplay w F{y}\n"));
    }
    cmds.push_str("play w B5\nplay b H5\nfinal_score\nfinal_status_list dead\nfinal_status_list seki\nfinal_status_list alive\nfinal_status_list happy\n");
    let r = session(&cmds);
    let n = r.len();
    assert_eq!(r[n - 5], "= B+1.5");
    assert_eq!(r[n - 4], "=\nB5\nH5");
    assert_eq!(r[n - 3], "=");
    assert_eq!(
        r[n - 2],
        "=\nE1 E2 E3 E4 E5 E6 E7 E8 E9\nF1 F2 F3 F4 F5 F6 F7 F8 F9"
    );
    assert!(r[n - 1].starts_with("? syntax error"));
}

#[test]
fn loadsgf_and_time_commands() {
    let file = format!(
        "{}/tests/data/sgf/gnugo_19x19.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let r = session(&format!(
        "loadsgf {file}\nlist_stones black\nloadsgf {file} 3\nlist_stones black\nlist_stones white\nloadsgf /no/such/file.sgf\ntime_settings 300 30 5\ntime_left b 120 0\ntime_left x 1 1\ntime_settings a b c\nshowboard\n"
    ));
    // after all moves (ending with Black's pass) it is White's turn
    assert_eq!(r[0], "= white");
    assert_eq!(r[1], "= F3 Q3 R9 Q16");
    // before move 3: B Q16 and W D4 played, Black to move
    assert_eq!(r[2], "= black");
    assert_eq!(r[3], "= Q16");
    assert_eq!(r[4], "= D4");
    assert!(r[5].starts_with("? cannot load file"), "{}", r[5]);
    assert_eq!(r[6], "=");
    assert_eq!(r[7], "=");
    assert!(r[8].starts_with("? syntax error"));
    assert!(r[9].starts_with("? syntax error"));
    assert!(r[10].starts_with("=\n   A B C"), "{}", r[10]);
    assert!(r[10].contains("19 . . ."));
}

#[test]
fn engine_binary_speaks_gtp_through_garbage() {
    let mut input =
        b"1 name\n\x01\x02garbage \xff\xfe line\n)(*&^\nboardsize 9\n\t\n2 play b E5\nplay b E5\n3 genmove w\n42\nplay\nlist_stones black\n7 name \xc3\x28\n".to_vec();
    // a 2 MB line, then the end of the session
    input.extend(std::iter::repeat_n(b'#', 2 << 20));
    input.extend_from_slice(b"\n99 quit\nname\n");
    let (code, out, err) = common::run_with_input(
        common::engine_path(),
        &["gtp"],
        &input,
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(0), "{err}");
    let text = String::from_utf8(out).unwrap();
    let r: Vec<&str> = text.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(r[0], "=1 Qi");
    assert_eq!(r[1], "? syntax error: the line is not UTF-8 text");
    assert!(r[2].starts_with("? unknown command"), "{}", r[2]);
    assert_eq!(r[3], "=");
    assert_eq!(r[4], "=2");
    assert_eq!(r[5], "? illegal move");
    let g = Go::new(9, 7.5).unwrap();
    let reply = r[6].strip_prefix("=3 ").unwrap();
    assert!(reply == "pass" || g.parse_move(reply).is_ok(), "{reply}");
    assert!(r[7].starts_with("?42 syntax error"), "{}", r[7]);
    assert!(r[8].starts_with("? syntax error"), "{}", r[8]);
    assert_eq!(r[9], "= E5");
    // the id of a line that is not UTF-8 is still read
    assert_eq!(r[10], "?7 syntax error: the line is not UTF-8 text");
    assert!(
        r[11].starts_with("? syntax error: the line is longer than"),
        "{}",
        r[11]
    );
    assert_eq!(r[12], "=99");
    // nothing after quit
    assert_eq!(r.len(), 13, "{text}");
}

/// Once `qi-level 1`, `time_left b 18446744073709551615 1`, `genmove b` panicked ("overflow
/// when adding duration to instant"); every time command saturates now.
#[test]
fn huge_times_do_not_overflow() {
    for setup in [
        &["time_left b 18446744073709551615 1"][..],
        &["time_left b 18446744073709551615 0"],
        &["time_settings 18446744073709551615 18446744073709551615 1"],
        &[
            "time_settings 0 18446744073709551615 0",
            "time_left b 99999999999999999999999 0",
        ],
        &["qi-movetime 18446744073709551615"],
    ] {
        let mut e = GtpEngine::new();
        for l in ["boardsize 9", "qi-level 1", "qi-threads 1"]
            .iter()
            .chain(setup)
        {
            assert!(e.handle_line(l).unwrap().starts_with('='), "{l}");
        }
        assert!(e.planned_move_time(Side::Black) <= qi_core::search::MAX_TIME);
        let r = e.handle_line("genmove b").unwrap();
        let g = Go::new(9, 7.5).unwrap();
        let mv = r.strip_prefix("= ").unwrap().trim();
        assert!(mv == "pass" || g.parse_move(mv).is_ok(), "{setup:?}: {r}");
    }
}

/// `time_settings`, `kgs-time_settings` and `time_left` set the time `genmove` takes: the
/// planned time follows the clock rule of `ai::go::time`, and a level-6 search (96,000
/// playouts, far more than fit in these times) keeps to it.
#[test]
fn time_commands_change_the_time_used() {
    let mut e = GtpEngine::new();
    for l in [
        "boardsize 9",
        "qi-level 6",
        "qi-threads 1",
        "qi-movetime 60000",
    ] {
        assert!(e.handle_line(l).unwrap().starts_with('='));
    }
    for l in ["play b E5", "play w C3", "play b G7", "play w G3"] {
        e.handle_line(l);
    }
    // no time settings: the move time, at least 75% of it used
    let t = e.planned_time(Side::Black);
    assert_eq!(t.max, Duration::from_secs(60));
    assert_eq!(t.target, Duration::from_secs(60));
    assert_eq!(t.min, Duration::from_secs(45));
    // 10 s main time and no byo-yomi, 77 empty points, 4 moves in (the opening: a quarter
    // more): 10 s / 38 moves × 1.25, less 60 ms for the reply; up to 3 times that
    e.handle_line("time_settings 10 0 0");
    let t = e.planned_time(Side::Black);
    assert_eq!(t.target.as_millis(), 268, "{t:?}");
    assert_eq!(t.max.as_millis(), 806, "{t:?}");
    timed_genmove(&mut e, t.max);
    // the time left for Black counts, not the settings
    e.handle_line("time_left b 5 0");
    let t = e.planned_time(Side::Black);
    assert!(t.target.as_millis() < 150, "{t:?}");
    // a byo-yomi period with no time left: the least a move gets
    e.handle_line("time_left b 0 1");
    assert_eq!(e.planned_move_time(Side::Black).as_millis(), 20);
    // 1 s for 4 stones: a quarter of it less 60 ms and 2%; a close move may take twice that
    e.handle_line("time_left b 1 4");
    let t = e.planned_time(Side::Black);
    assert_eq!(t.target.as_millis(), 185, "{t:?}");
    assert_eq!(t.max.as_millis(), 435, "{t:?}");
    timed_genmove(&mut e, t.max);
    // White has no time_left yet: the main time rule as above
    assert_eq!(e.planned_time(Side::White).target.as_millis(), 268);
    // what `qi-engine match --movetime 2000` sends: 2 s byo-yomi for one stone, nearly all
    // of it used
    e.handle_line("time_settings 0 2 1");
    let t = e.planned_time(Side::Black);
    assert_eq!(t.target.as_millis(), 1900, "{t:?}");
    assert_eq!(t.max, t.target);
    assert!(t.min.as_millis() >= 1400, "{t:?}");
    // KGS: Japanese byo-yomi, 5 periods of 10 s: in byo-yomi each move gets its period
    assert!(
        e.handle_line("kgs-time_settings byoyomi 0 10 5")
            .unwrap()
            .starts_with('=')
    );
    assert_eq!(e.planned_time(Side::Black).target.as_millis(), 9740);
    e.handle_line("time_left b 10 3"); // 3 periods left
    assert_eq!(e.planned_time(Side::Black).max.as_millis(), 9740);
    assert!(
        e.handle_line("kgs-time_settings absolute 600")
            .unwrap()
            .starts_with('=')
    );
    assert!(e.planned_time(Side::Black).target > Duration::from_secs(10));
    assert!(
        e.handle_line("kgs-time_settings none")
            .unwrap()
            .starts_with('=')
    );
    assert_eq!(e.planned_move_time(Side::Black), Duration::from_secs(60));
    assert!(
        e.handle_line("kgs-time_settings fischer 10 1")
            .unwrap()
            .starts_with('?')
    );
}

/// `genmove b` keeps to `budget` (one try in five, for a busy machine).
fn timed_genmove(e: &mut GtpEngine, budget: Duration) {
    common::keeps_budget("genmove", budget, || {
        let t = Instant::now();
        let r = e.handle_line("genmove b").unwrap();
        let took = t.elapsed();
        assert!(r.starts_with("= "), "{r}");
        e.handle_line("undo");
        took
    });
}

/// Undo goes back move by move through a long game (positions are rebuilt from the ones kept
/// every 64 moves): the position after each undo is the one a fresh session reaches by playing
/// the moves up to there; passes after the end of the game are played on, as GTP does.
#[test]
fn undo_through_a_long_game() {
    let start = AnyPosition::from_text(
        GameKind::Go,
        &format!("9 7.5 b {}", ["........."; 9].join("/")),
    )
    .unwrap();
    let line = common::play_line(start, 150, |i, n| (i * 7919 + 13) % n);
    let mut moves: Vec<(char, String)> = Vec::new();
    let mut side = 'b';
    for t in line.move_texts() {
        moves.push((side, t));
        side = if side == 'b' { 'w' } else { 'b' };
    }
    // and passes past the end of the game
    for _ in 0..70 {
        moves.push((side, "pass".into()));
        side = if side == 'b' { 'w' } else { 'b' };
    }
    let board_after = |k: usize| {
        let mut f = GtpEngine::new();
        f.handle_line("boardsize 9");
        for (c, m) in &moves[..k] {
            assert_eq!(f.handle_line(&format!("play {c} {m}")).unwrap(), "=\n\n");
        }
        (f.handle_line("showboard").unwrap(), f.position().clone())
    };
    let mut e = GtpEngine::new();
    e.handle_line("boardsize 9");
    for (c, m) in &moves {
        assert_eq!(
            e.handle_line(&format!("play {c} {m}")).unwrap(),
            "=\n\n",
            "{c} {m}"
        );
    }
    let mut k = moves.len();
    for back in [1, 5, 64, 1, 30, 60] {
        for _ in 0..back {
            assert_eq!(e.handle_line("undo").unwrap(), "=\n\n");
        }
        k -= back;
        let (board, pos) = board_after(k);
        assert_eq!(
            e.handle_line("showboard").unwrap(),
            board,
            "after {k} moves"
        );
        assert_eq!(e.position(), &pos, "after {k} moves (superko history too)");
    }
    while k > 0 {
        assert_eq!(e.handle_line("undo").unwrap(), "=\n\n");
        k -= 1;
    }
    assert!(e.handle_line("undo").unwrap().starts_with("? cannot undo"));
    assert_eq!(e.position(), &Go::new(9, 7.5).unwrap());
}

/// `loadsgf` has the record size cap of every record (8 MiB) and the SGF depth cap: a bigger
/// file or a longer line of play is refused with a clear error, one at the cap loads.
#[test]
fn loadsgf_caps_size_and_depth() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.sgf");
    let mut text = String::from("(;GM[1]SZ[9]C[");
    text.push_str(&"x".repeat(qi_core::records::MAX_RECORD_BYTES));
    text.push_str("])");
    std::fs::write(&big, &text).unwrap();
    let mut e = GtpEngine::new();
    let r = e
        .handle_line(&format!("loadsgf {}", big.display()))
        .unwrap();
    assert!(r.starts_with("? cannot load file"), "{r}");
    assert!(
        r.contains(&qi_core::records::MAX_RECORD_BYTES.to_string()),
        "{r}"
    );

    let passes = |n: usize| {
        let mut s = String::from("(;GM[1]FF[4]SZ[9]");
        for i in 0..n {
            s.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
        }
        s + ")"
    };
    let max = qi_core::sgf::MAX_SGF_DEPTH;
    let deep = dir.path().join("deep.sgf");
    std::fs::write(&deep, passes(max)).unwrap();
    let r = e
        .handle_line(&format!("loadsgf {}", deep.display()))
        .unwrap();
    assert!(
        r.starts_with("? cannot load file") && r.contains(&max.to_string()),
        "{r}"
    );
    std::fs::write(&deep, passes(max - 1)).unwrap();
    let r = e
        .handle_line(&format!("loadsgf {}", deep.display()))
        .unwrap();
    // an odd number of passes: White to move
    assert_eq!(r, "= white\n\n");
    for _ in 0..max - 1 {
        assert_eq!(e.handle_line("undo").unwrap(), "=\n\n");
    }
    assert!(e.handle_line("undo").unwrap().starts_with('?'));
}

#[test]
fn interim_policy_passes_when_won_and_keeps_its_eyes() {
    use qi_core::go::InterimPolicy;
    // Black leads the settled walls position by 1.5; after White's pass Black passes too
    let rows = ["....XO..."; 9].join("/");
    let mut g = Go::from_text(&format!("9 7.5 w {rows}")).unwrap();
    g.make(g.pass_move().unwrap());
    assert_eq!(InterimPolicy::new(1).choose(&g), qi_core::go::PASS);
    // with komi 10.5 Black is behind and plays on
    g.set_komi(10.5).unwrap();
    assert_ne!(InterimPolicy::new(1).choose(&g), qi_core::go::PASS);
    // the only empty points are Black's two eyes: Black passes rather than fill one
    let g = Go::from_text("5 0.5 b .XXXX/XXXXX/XXXXX/XXXXX/XXXX.").unwrap();
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    assert_eq!(legal.len(), 3);
    for seed in 0..5 {
        assert_eq!(InterimPolicy::new(seed).choose(&g), qi_core::go::PASS);
    }
}

/// `qi-seed` sets the seed of the next searches: two engines with the same seed and a playout
/// budget (not a clock) play the same move, other seeds give other moves, and a bad argument is
/// an error.
#[test]
fn qi_seed_makes_budgeted_searches_repeatable() {
    let run = |seed: u64| {
        let mut e = GtpEngine::new();
        let seed = format!("qi-seed {seed}");
        for l in [
            "boardsize 9",
            "qi-level 1",
            "qi-threads 1",
            "qi-movetime 60000",
            &seed,
            "play b E5",
        ] {
            assert!(e.handle_line(l).unwrap().starts_with('='), "{l}");
        }
        e.handle_line("genmove w").unwrap()
    };
    assert_eq!(run(12345), run(12345));
    let moves: std::collections::HashSet<String> = (1..=8).map(run).collect();
    assert!(moves.len() > 1, "the seed changes the search: {moves:?}");
    let mut e = GtpEngine::new();
    assert!(e.handle_line("qi-seed x").unwrap().starts_with('?'));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(100))]

    /// Any bytes (not UTF-8, control bytes, long lines) through a GTP session: every reply is
    /// `=` or `?` and ends in an empty line, and the session ends at the end of the input.
    #[test]
    fn random_bytes_through_gtp(
        lines in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3000), 0..20),
    ) {
        let mut input = Vec::new();
        for l in &lines {
            input.extend_from_slice(l);
            input.push(b'\n');
        }
        let mut out = Vec::new();
        run_gtp(Cursor::new(input), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        proptest::prop_assert!(text.is_empty() || text.ends_with("\n\n"));
        for reply in text.split("\n\n").filter(|r| !r.is_empty()) {
            proptest::prop_assert!(reply.starts_with('=') || reply.starts_with('?'), "{reply}");
        }
    }
}

/// `undo` after `loadsgf` comes back to the loaded position exactly, the side to move the file
/// gives included, also when that position is one kept for undo (the 64th move) or the start.
#[test]
fn undo_after_loadsgf_returns_to_the_loaded_position() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("passes.sgf");
    // 64 passes taking turns, then White again
    let mut text = String::from("(;GM[1]FF[4]SZ[9]");
    for i in 0..64 {
        text.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    text.push_str(";W[ee])");
    std::fs::write(&file, text).unwrap();
    for (stop, side) in [(65, "white"), (1, "black")] {
        let mut e = GtpEngine::new();
        let r = e
            .handle_line(&format!("loadsgf {} {stop}", file.display()))
            .unwrap();
        assert_eq!(r, format!("= {side}\n\n"));
        let loaded = e.position().clone();
        assert_eq!(e.handle_line(&format!("play {side} C3")).unwrap(), "=\n\n");
        assert_eq!(e.handle_line("undo").unwrap(), "=\n\n");
        assert_eq!(e.position(), &loaded, "loadsgf … {stop}");
    }
}
