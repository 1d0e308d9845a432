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
    qi.click_square((7, 7), Square::new(6, 0));
    qi.wait_for_log("selected g1", Duration::from_secs(20));
    qi.click_square((7, 7), Square::new(4, 2));
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
        qi.click_square(size, sq);
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
