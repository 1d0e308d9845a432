//! Real-window tests under Xvfb (Vulkan on Mesa lavapipe): the README's test command runs them.

mod common;

use std::time::Duration;

use common::{Qi, Xvfb, out_dir, png_summary};

#[test]
fn starts_shows_the_main_menu_saves_a_screenshot_and_exits() {
    let x = Xvfb::start();
    let shot = out_dir().join("main-menu.png");
    let _ = std::fs::remove_file(&shot);
    let mut qi = Qi::start(
        &x,
        "main-menu",
        &[
            "--screenshot",
            shot.to_str().unwrap(),
            "--exit-after-screenshot",
        ],
    );
    let status = qi.wait_exit(Duration::from_secs(240));
    let log = qi.log_text();
    assert!(status.success(), "qi failed: {status}\n{log}");
    assert!(log.contains("qi: screen Title menu Main"), "{log}");
    assert!(log.contains("qi: quit after screenshot"), "{log}");
    let (w, h, colors) = png_summary(&shot);
    assert_eq!((w, h), (1200, 800));
    assert!(colors > 20, "the screenshot looks empty ({colors} colours)");
    println!("screenshot: {}", shot.display());
}

/// The player's path through the real window: New game by keys, Ataxx vs the CPU, a move by
/// clicking two cells, the CPU's reply, a screenshot.
#[test]
fn new_game_by_keys_then_a_clicked_ataxx_move_and_the_cpu_reply() {
    use qi_core::Square;
    let x = Xvfb::start();
    let dir = out_dir().join("ataxx-vs-cpu");
    let _ = std::fs::remove_dir_all(&dir);
    let mut qi = Qi::start(
        &x,
        "ataxx-vs-cpu",
        &[
            "--screenshot-dir",
            dir.to_str().unwrap(),
            "--animation-speed",
            "2",
        ],
    );
    qi.wait_for_log("qi: screen Title menu Main", Duration::from_secs(240));
    std::thread::sleep(Duration::from_secs(2));
    // Main menu: "New game" is first. In the panel: five rows down to Start (defaults: Ataxx,
    // classic start, vs CPU, you play Red, level 3).
    qi.keys(&["Return"]);
    qi.wait_for_log("menu NewGame", Duration::from_secs(30));
    qi.keys(&["Down", "Down", "Down", "Down", "Down", "Return"]);
    qi.wait_for_log("qi: new game ataxx", Duration::from_secs(30));
    qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(30));
    std::thread::sleep(Duration::from_secs(2));
    // Red owns g1: pick it up, then jump to e3.
    qi.click_square(qi_core::GameKind::Ataxx, (7, 7), Square::new(6, 0));
    qi.wait_for_log("selected g1", Duration::from_secs(20));
    qi.click_square(qi_core::GameKind::Ataxx, (7, 7), Square::new(4, 2));
    let line = qi.wait_for_log("qi: move 1 Red", Duration::from_secs(30));
    assert!(line.ends_with("g1e3"), "{line}");
    let reply = qi.wait_for_log("qi: move 2 Blue", Duration::from_secs(60));
    qi.wait_for_log("qi: cpu move", Duration::from_secs(5));
    std::thread::sleep(Duration::from_secs(2));
    qi.keys(&["F12"]);
    qi.wait_for_log("qi: screenshot", Duration::from_secs(20));
    std::thread::sleep(Duration::from_secs(3));
    let shot = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "png"))
        .expect("a screenshot");
    let (_, _, colors) = png_summary(&shot);
    assert!(colors > 20);
    println!("CPU replied: {reply}; screenshot {}", shot.display());
}

/// One clicked move in each other game, started from the command line, with the CPU's reply
/// where the game has a CPU.
#[test]
fn one_clicked_move_in_reversi_gomoku_and_go() {
    use qi_core::Square;
    let cases: [(&str, &str, (u8, u8), Square, &str, bool); 3] = [
        (
            "reversi",
            "cpu",
            (8, 8),
            Square::new(3, 2),
            "qi: move 1 Black d3",
            true,
        ),
        (
            "gomoku",
            "cpu",
            (15, 15),
            Square::new(7, 7),
            "qi: move 1 Black h8",
            true,
        ),
        (
            "go",
            if qi_core::any::AnyCpu::available(qi_core::GameKind::Go) {
                "cpu"
            } else {
                "two"
            },
            (19, 19),
            Square::new(3, 3),
            "qi: move 1 Black D4",
            qi_core::any::AnyCpu::available(qi_core::GameKind::Go),
        ),
    ];
    for (game, mode, size, sq, expect, cpu) in cases {
        let x = Xvfb::start();
        let dir = out_dir().join(game);
        let _ = std::fs::remove_dir_all(&dir);
        let mut qi = Qi::start(
            &x,
            game,
            &[
                "--game",
                game,
                "--mode",
                mode,
                "--screenshot-dir",
                dir.to_str().unwrap(),
            ],
        );
        qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(240));
        std::thread::sleep(Duration::from_secs(2));
        qi.click_square(game.parse().unwrap(), size, sq);
        qi.wait_for_log(expect, Duration::from_secs(30));
        if cpu {
            qi.wait_for_log("qi: move 2 White", Duration::from_secs(60));
        }
        std::thread::sleep(Duration::from_secs(1));
        qi.keys(&["F12"]);
        qi.wait_for_log("qi: screenshot", Duration::from_secs(20));
        std::thread::sleep(Duration::from_secs(2));
        drop(qi);
        drop(x);
    }
}

/// Saves a game in slot 3 from the pause menu by keys, quits, starts qi again on the same data
/// folder, and loads slot 3 from the main menu: the game goes on at the same move.
#[test]
fn save_in_slot_3_quit_restart_and_load_it() {
    use qi_core::Square;
    let x = Xvfb::start();
    let saves = out_dir().join("slot3-saves");
    let _ = std::fs::remove_dir_all(&saves);
    let mut qi = Qi::start_with_saves(
        &x,
        "slot3-first",
        &["--game", "reversi", "--mode", "two"],
        &saves,
    );
    qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(240));
    std::thread::sleep(Duration::from_secs(2));
    qi.click_square(qi_core::GameKind::Reversi, (8, 8), Square::new(3, 2));
    qi.wait_for_log("qi: move 1 Black d3", Duration::from_secs(30));
    std::thread::sleep(Duration::from_secs(1));
    // Esc: pause menu; "Save game" is second; the slot list starts at slot 1.
    qi.keys(&["Escape"]);
    qi.wait_for_log("menu Pause", Duration::from_secs(20));
    qi.keys(&["Down", "Return"]);
    qi.wait_for_log("menu Save", Duration::from_secs(20));
    qi.keys(&["Down", "Down", "Return"]);
    qi.wait_for_log("qi: saved slot 3", Duration::from_secs(20));
    assert!(saves.join("slot-3.ron").exists());
    // Quit: pause menu, Up wraps to Quit, then Yes (No is preselected).
    qi.keys(&["Escape"]);
    qi.wait_for_log("menu Pause", Duration::from_secs(20));
    qi.keys(&["Up", "Return"]);
    qi.wait_for_log("menu ConfirmQuit", Duration::from_secs(20));
    qi.keys(&["Up", "Return"]);
    qi.wait_for_log("qi: quit", Duration::from_secs(20));
    let status = qi.wait_exit(Duration::from_secs(30));
    assert!(status.success(), "{status}");
    drop(qi);

    let mut qi = Qi::start_with_saves(&x, "slot3-second", &[], &saves);
    qi.wait_for_log("qi: screen Title menu Main", Duration::from_secs(240));
    std::thread::sleep(Duration::from_secs(2));
    // Continue (the autosave) is first now; Load is third. The slot list selects the first
    // slot that can be loaded: slot 3.
    qi.keys(&["Down", "Down", "Return"]);
    qi.wait_for_log("menu Load", Duration::from_secs(20));
    qi.keys(&["Return"]);
    qi.wait_for_log("qi: loaded slot 3", Duration::from_secs(20));
    let line = qi.wait_for_log(
        "qi: new game reversi (loaded at ply 1)",
        Duration::from_secs(20),
    );
    println!("{line}");
    // the game goes on: White answers with c3 (legal after d3)
    std::thread::sleep(Duration::from_secs(2));
    qi.click_square(qi_core::GameKind::Reversi, (8, 8), Square::new(2, 2));
    qi.wait_for_log("qi: move 2 White c3", Duration::from_secs(30));
}
