//! The Go CPU (Monte Carlo tree search): legal moves everywhere, tactics, eyes, passing,
//! clean-up, the stop flag, the move time, and GTP's genmove. Searches are bound by their
//! playout budgets (the move time given is only a cap far above them), so the results do not
//! depend on how fast or busy the machine is; the clock is tested on its own.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod common;

use qi_core::ai::go::GoCpu;
use qi_core::engine::gtp::GtpEngine;
use qi_core::go::{self, Go, PASS, is_eye_like};
use qi_core::{Game, Side};

/// A move of `level` with at most `playouts` playouts (the level's budget if `None`), on one
/// thread, the clock far away.
fn pick(pos: &Go, level: u8, playouts: Option<u64>, seed: u64) -> (go::Move, GoCpu) {
    let mut cpu = GoCpu::new(level);
    cpu.set_threads(1);
    cpu.set_playouts(playouts);
    let stop = Arc::new(AtomicBool::new(false));
    let r = cpu.choose(pos, FAR, &stop, seed, &mut |_| {});
    (r.best.expect("a move while the game goes on"), cpu)
}

/// A move time that never binds here.
const FAR: Duration = Duration::from_secs(600);

fn text(pos: &Go, mv: go::Move) -> String {
    pos.move_to_text(mv)
}

/// Random positions on three sizes: every move chosen is legal, and none fills an own eye.
#[test]
fn every_move_is_legal_and_keeps_eyes() {
    let mut state = 12345u64;
    let mut rnd = |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n
    };
    let mut cpu = GoCpu::new(1);
    let stop = Arc::new(AtomicBool::new(false));
    let mut checked = 0;
    for (i, size) in [9u8, 9, 9, 9, 13, 19, 7, 9].into_iter().enumerate() {
        let mut pos = Go::new(size, 7.0).unwrap();
        let mut moves = Vec::new();
        let plies = 10 + rnd((size as usize).pow(2));
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            let stones: Vec<_> = moves.iter().copied().filter(|&m| m != PASS).collect();
            if stones.is_empty() {
                break;
            }
            pos.make(stones[rnd(stones.len())]);
        }
        // a few CPU moves from here, each checked against the real rules
        for k in 0..12 {
            if pos.is_over() {
                break;
            }
            let r = cpu.choose(&pos, FAR, &stop, (i * 100 + k) as u64, &mut |_| {});
            let mv = r.best.unwrap();
            assert!(pos.is_legal(mv), "illegal {} in {:?}", text(&pos, mv), pos);
            if mv != PASS {
                assert!(
                    !is_eye_like(&pos, mv as usize, pos.side_to_move()),
                    "{} fills an own eye in {:?}",
                    text(&pos, mv),
                    pos
                );
            }
            assert_eq!(cpu.ownership().len(), (size as usize).pow(2));
            pos.make(mv);
            pos.check_consistency().unwrap();
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked}");
}

/// A five-stone White chain in atari that would escape to its wall below: Black captures it.
#[test]
fn captures_a_large_group() {
    let pos = Go::from_text(
        "9 7 b ........./........./..XXXXX../.XOOOOOX./...XXXXX./..O....../OOOOOOOOO/........./.........",
    )
    .unwrap();
    for seed in 1..=3 {
        let (mv, _) = pick(&pos, 4, None, seed);
        assert_eq!(text(&pos, mv), "C5", "seed {seed}");
    }
}

/// A three-stone Black chain in atari that can join a strong group: Black saves it.
#[test]
fn saves_its_group_in_atari() {
    let pos = Go::from_text(
        "9 7 b ........./........./........./...OOO.../..OXXXO../...OO.XX./......XX./........./.........",
    )
    .unwrap();
    assert!(pos.in_atari(Go::point_of(go::parse_vertex("E5", 9).unwrap())));
    for seed in 1..=3 {
        let (mv, _) = pick(&pos, 4, None, seed);
        assert_eq!(text(&pos, mv), "F4", "seed {seed}");
    }
}

/// A finished board of Black's with two single-point eyes: Black passes rather than fill one.
#[test]
fn passes_instead_of_filling_its_eyes() {
    let pos =
        Go::from_text("7 7 b XXXXXXX/X.XXXXX/XXXXXXX/XXXXXXX/XXXXX.X/XXXXXXX/XXXXXXX").unwrap();
    let (mv, cpu) = pick(&pos, 6, Some(4_000), 1);
    assert_eq!(mv, PASS);
    assert!(!cpu.resigns());
}

/// Black's wall and territory on the left, White's on the right, a dead White stone inside
/// Black's area. After White passes Black passes too (it wins with the stone counted dead),
/// but in clean-up mode it plays on until the board as it stands wins under Tromp-Taylor
/// scoring (by capturing the stone, or spoiling White's area while White keeps passing).
#[test]
fn passes_when_settled_and_cleans_up() {
    let pos =
        Go::from_text("7 0.5 b ...XO../...XO../...XO../.O.XO../...XO../...XO../...XO.. 0 0 1")
            .unwrap();
    let (mv, cpu) = pick(&pos, 5, None, 3);
    assert_eq!(mv, PASS, "normal mode passes");
    let dead = cpu.dead_stones(&pos);
    assert_eq!(dead, vec![go::parse_vertex("B4", 7).unwrap()]);
    // the end-of-game analysis: ownership and dead stones from playouts alone
    let mut fresh = GoCpu::new(6);
    let own = fresh.analyse(&pos, 2000, 9);
    assert_eq!(own.len(), 49);
    assert!(own[3 * 7 + 1] > 0.5, "B4 is Black's: {}", own[3 * 7 + 1]);
    assert!(own[3 * 7 + 6] < -0.5, "G4 is White's: {}", own[3 * 7 + 6]);
    assert_eq!(fresh.dead_stones(&pos), dead);

    let mut cpu = GoCpu::new(5);
    cpu.set_threads(1);
    cpu.set_playouts(Some(6_000));
    cpu.set_cleanup(true);
    let stop = Arc::new(AtomicBool::new(false));
    let mut p = pos.clone();
    let mut passed = None;
    for k in 0..12 {
        let r = cpu.choose(&p, FAR, &stop, k, &mut |_| {});
        let mv = r.best.unwrap();
        assert!(p.is_legal(mv));
        p.make(mv);
        if mv == PASS {
            passed = Some(k);
            break;
        }
        p.make(PASS); // White passes
    }
    // it plays on first (the board as it stands loses under Tromp-Taylor), and passes only
    // once the board as it stands wins
    assert!(matches!(passed, Some(k) if k > 0), "{passed:?}: {p:?}");
    assert!(p.area_score().margin() > 0.0, "{p:?}");
}

/// The stop flag, raised by another thread in the middle of a level-6 search that would run
/// for seconds (96,000 playouts on 19x19), ends it within 50 ms (one try in three, for a busy
/// machine), on one thread and on two; the move is still legal.
#[test]
fn stops_at_once() {
    let pos = Go::from_text(&format!(
        "19 7.5 b {}",
        [
            "...................",
            "...................",
            "...................",
            "...O...........X...",
            "...................",
            "...................",
            "...................",
            "...................",
            "...................",
            "...................",
            "...................",
            "...................",
            "...................",
            "...................",
            "...................",
            "...X...........O...",
            "...................",
            "...................",
            "...................",
        ]
        .join("/")
    ))
    .unwrap();
    for threads in [1, 2] {
        let mut times = Vec::new();
        for attempt in 0..3u64 {
            let stop = Arc::new(AtomicBool::new(false));
            let (mv, took) = std::thread::scope(|s| {
                let flag = stop.clone();
                let pos = &pos;
                let search = s.spawn(move || {
                    let mut cpu = GoCpu::new(6);
                    cpu.set_threads(threads);
                    let r = cpu.choose(pos, FAR, &flag, attempt, &mut |_| {});
                    (r.best, Instant::now())
                });
                std::thread::sleep(Duration::from_millis(150));
                assert!(!search.is_finished(), "the search ended before the stop");
                let raised = Instant::now();
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                let (mv, ended) = search.join().unwrap();
                (mv, ended.saturating_duration_since(raised))
            });
            assert!(pos.is_legal(mv.unwrap()));
            times.push(took);
            if took <= Duration::from_millis(50) {
                break;
            }
        }
        assert!(
            times.iter().any(|&t| t <= Duration::from_millis(50)),
            "{threads} threads: stopped after {times:?}"
        );
    }
    // a flag raised before the search: a legal move at once
    let stop = Arc::new(AtomicBool::new(true));
    let r = GoCpu::new(6).choose(&pos, FAR, &stop, 1, &mut |_| {});
    assert!(pos.is_legal(r.best.unwrap()));
}

/// The move time binds a level whose playouts would take longer: level 6 (96,000 playouts)
/// keeps to 200 ms, on one thread and on two, as measured around the call (overshoot at most
/// 10% or 20 ms, one try in five for a busy machine).
#[test]
fn keeps_to_the_move_time() {
    let pos = Go::from_text(
        "9 7 b ........./........./..X...O../........./....X..../........./..O...X../........./.........",
    )
    .unwrap();
    for threads in [1, 2] {
        common::keeps_budget(
            &format!("level 6, {threads} threads"),
            Duration::from_millis(200),
            || {
                let mut cpu = GoCpu::new(6);
                cpu.set_threads(threads);
                let stop = Arc::new(AtomicBool::new(false));
                let t = Instant::now();
                let r = cpu.choose(&pos, Duration::from_millis(200), &stop, 7, &mut |_| {});
                let took = t.elapsed();
                assert!(pos.is_legal(r.best.unwrap()));
                // the clock bound it, not the budget
                assert!(cpu.last_playouts().0 < 96_000);
                took
            },
        );
    }
}

/// Session 35, 19×19 against GNU Go level 10 at 5 s a move: level 6 (Black) ran its chain
/// J4-L6, in atari at M6, out along a ladder that caught it, fifteen moves from M6 to T12,
/// and lost by 210 points. In the position before the first escape (after White's L7) the
/// search played M6 with 2,000 playouts (seeds 1 and 2) and with its 6,656 at 5 s, as the
/// light playouts (which do not read ladders) keep the escaping chain alive and the AMAF
/// values outweigh the priors. The tree now leaves such escapes out (`QI_GO_LADDER_TREE=0`
/// keeps them; this test then fails).
#[test]
fn does_not_run_out_a_caught_ladder() {
    if std::env::var_os("QI_GO_LADDER").is_some() {
        return; // an experiment's setting, not the default this checks
    }
    let moves = "Q4 R16 D16 D4 C6 F3 C4 C3 B3 B4 C5 B2 D3 A3 E4 D2 E3 Q12 E2 F17 C14 D18 F16 G17 G16 H16 \
        H15 J16 J15 A7 K8 M15 K16 K17 L16 P17 M16 N15 N16 K14 K15 R6 O4 R9 Q6 S4 R5 R7 S5 M3 O16 \
        J3 O15 O2 Q2 Q14 O14 M13 N12 K12 F4 G3 G4 G13 K11 N13 O13 J12 L12 G11 L13 D12 L3 L4 K3 \
        K4 M2 L14 J2 H2 J4 H3 K2 H4 J5 H5 H6 G5 G6 L11 M12 K10 K13 J14 J13 J11 G14 C17 F5 M4 G2 \
        J6 K5 K6 L5 M5 L6 L7";
    let mut pos = Go::new(19, 7.0).unwrap();
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap();
        pos.make(mv);
    }
    assert_eq!(pos.side_to_move(), Side::Black);
    for seed in 1..=2 {
        let (mv, _) = pick(&pos, 6, Some(2000), seed);
        assert_ne!(
            text(&pos, mv),
            "M6",
            "seed {seed}: the escape into the ladder"
        );
    }
}

/// On an empty 19×19 and 13×13 board the CPU opens on the third or fourth line (or nearer the
/// centre), never on the first two. Level 4 is bound by its playout budget (6,000, one thread),
/// not by the clock, so the test gives the same moves however loaded the machine is.
#[test]
fn opens_with_sensible_shape() {
    for seed in 0..2u64 {
        for size in [13u8, 19] {
            let mut pos = Go::new(size, 7.5).unwrap();
            let mut cpu = GoCpu::new(4);
            let stop = Arc::new(AtomicBool::new(false));
            for k in 0..4 {
                let r = cpu.choose(&pos, FAR, &stop, seed * 10 + k, &mut |_| {});
                let mv = r.best.unwrap();
                let sq = Go::square_of(mv).expect("not a pass in the opening");
                let line = sq.x.min(sq.y).min(size - 1 - sq.x).min(size - 1 - sq.y);
                assert!(line >= 2, "{} on {size}x{size}", text(&pos, mv));
                pos.make(mv);
            }
        }
    }
}

/// Level 6 with 30,000 playouts, the window's two threads sharing one tree or one thread,
/// opens the empty 13×13 and 19×19 boards in a corner (both coordinates on the third to fifth
/// line). Light playouts hardly tell the open points apart, and their AMAF values like the
/// centre: without the root's opening boost (`QI_GO_ROOT_PRIOR=0`) these searches opened on
/// G9 and H6 (13×13, one thread), O10 (19×19, one thread) and K7 (19×19, two threads).
#[test]
fn long_searches_open_in_a_corner() {
    if std::env::var_os("QI_GO_ROOT_PRIOR").is_some() || std::env::var_os("QI_GO_PRIOR").is_some() {
        return; // an experiment's setting, not the default this checks
    }
    let stop = Arc::new(AtomicBool::new(false));
    for (size, threads, seeds) in [(13u8, 1, 1..=2), (19, 1, 1..=1), (19, 2, 1..=2)] {
        for seed in seeds {
            let pos = Go::new(size, 7.0).unwrap();
            let mut cpu = GoCpu::new(6);
            cpu.set_threads(threads);
            cpu.set_playouts(Some(30_000));
            let mv = cpu
                .choose(&pos, FAR, &stop, seed, &mut |_| {})
                .best
                .unwrap();
            let sq = Go::square_of(mv).expect("not a pass on the empty board");
            let line = |c: u8| c.min(size - 1 - c);
            assert!(
                (2..=4).contains(&line(sq.x)) && (2..=4).contains(&line(sq.y)),
                "{} on {size}x{size}, {threads} thread(s), seed {seed}",
                text(&pos, mv)
            );
        }
    }
}

/// The level's playout budget holds, and the search reports its statistics.
#[test]
fn levels_cap_playouts() {
    let pos = Go::new(9, 7.0).unwrap();
    let mut cpu = GoCpu::new(2);
    let stop = Arc::new(AtomicBool::new(false));
    let mut infos = 0;
    let r = cpu.choose(&pos, FAR, &stop, 5, &mut |_| infos += 1);
    let (n, _) = cpu.last_playouts();
    assert!((200..=400).contains(&n), "{n}");
    assert_eq!(r.info.nodes, n);
    assert!(infos >= 1);
    assert!((-5000..=5000).contains(&r.score));
    assert_eq!(
        r.info.pv.first().map(String::as_str),
        Some(text(&pos, r.best.unwrap()).as_str())
    );
    // a cap of its own replaces the level's (GTP qi-playouts)
    cpu.set_playouts(Some(700));
    cpu.new_game();
    cpu.choose(&pos, FAR, &stop, 5, &mut |_| {});
    let (n, _) = cpu.last_playouts();
    assert!((600..=700).contains(&n), "{n}");
}

/// GTP genmove answers with the search: it takes a large group in atari, and
/// `kgs-genmove_cleanup` is known.
#[test]
fn gtp_genmove_searches() {
    let mut e = GtpEngine::new();
    for l in [
        "boardsize 9",
        "komi 7",
        "qi-movetime 60000",
        "qi-level 4",
        "qi-threads 1",
    ] {
        assert_eq!(e.handle_line(l).unwrap(), "=\n\n", "{l}");
    }
    // the five-stone chain of `captures_a_large_group`
    let pos = Go::from_text(
        "9 7 b ........./........./..XXXXX../.XOOOOOX./...XXXXX./..O....../OOOOOOOOO/........./.........",
    )
    .unwrap();
    for p in pos.points() {
        if let Some(s) = pos.stone_at(p) {
            let c = if s == Side::Black { "b" } else { "w" };
            let v = text(&pos, p as go::Move);
            assert_eq!(e.handle_line(&format!("play {c} {v}")).unwrap(), "=\n\n");
        }
    }
    assert_eq!(e.handle_line("genmove b").unwrap(), "= C5\n\n");
    assert_eq!(
        e.handle_line("known_command kgs-genmove_cleanup").unwrap(),
        "= true\n\n"
    );
    let r = e.handle_line("kgs-genmove_cleanup w").unwrap();
    assert!(r.starts_with("= "), "{r}");
}

/// The tree of one move is kept for the next: after our move and the reply, the new root
/// already has playouts. And the CPU can move to a worker thread.
#[test]
fn reuses_the_tree_and_is_send() {
    fn send<T: Send>(_: &T) {}
    let mut pos = Go::new(9, 7.0).unwrap();
    let mut cpu = GoCpu::new(4);
    send(&cpu);
    let stop = Arc::new(AtomicBool::new(false));
    let r = cpu.choose(&pos, FAR, &stop, 1, &mut |_| {});
    assert_eq!(cpu.reused_playouts(), 0);
    let mv = r.best.unwrap();
    pos.make(mv);
    // the reply the search expected most
    let reply = r.info.pv.get(1).map(|t| pos.parse_move(t).unwrap());
    let reply = reply.filter(|&m| pos.is_legal(m) && m != PASS).unwrap();
    pos.make(reply);
    cpu.choose(&pos, FAR, &stop, 2, &mut |_| {});
    assert!(cpu.reused_playouts() > 0);
    let handle = std::thread::spawn(move || cpu.choose(&pos, FAR, &stop, 3, &mut |_| {}).best);
    assert!(handle.join().unwrap().is_some());
}

/// Two threads share one tree: the playouts add up to the cap (each thread runs some), the
/// tactics still come out right, the tree stays legal, and the ownership map is filled.
#[test]
fn two_threads_share_one_tree() {
    let pos = Go::from_text(
        "9 7 b ........./........./..XXXXX../.XOOOOOX./...XXXXX./..O....../OOOOOOOOO/........./.........",
    )
    .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    for seed in 1..=2 {
        let mut cpu = GoCpu::new(4);
        cpu.set_threads(2);
        let r = cpu.choose(&pos, FAR, &stop, seed, &mut |_| {});
        assert_eq!(text(&pos, r.best.unwrap()), "C5", "seed {seed}");
        let (n, _) = cpu.last_playouts();
        assert!((5_000..=6_001).contains(&n), "{n}");
        let own = cpu.ownership();
        assert_eq!(own.len(), 81);
        assert!(own.iter().all(|o| (-1.0..=1.0).contains(o)));
        // the captured chain's points end up Black's in most playouts
        let sq = go::parse_vertex("E6", 9).unwrap();
        let e6 = own[sq.y as usize * 9 + sq.x as usize];
        assert!(e6 > 0.3, "{e6}");
    }
    // a whole game of two-thread searches gives legal moves only
    let mut cpu = GoCpu::new(3);
    cpu.set_threads(2);
    let mut g = Go::new(9, 7.0).unwrap();
    let mut plies = 0;
    while !g.is_over() && plies < 120 {
        let r = cpu.choose(&g, FAR, &stop, plies, &mut |_| {});
        let mv = r.best.unwrap_or(PASS);
        assert!(g.is_legal(mv), "ply {plies}: {}", text(&g, mv));
        g.make(mv);
        plies += 1;
    }
}
