//! Real-window tests under Xvfb (Vulkan on Mesa lavapipe): the README's test command runs them.
//! Each checks what must be on the screen by the pixels of the app's own screenshots: the
//! colours of known board points, the menu panel over the dimmed screen.

mod common;

use std::time::Duration;

use bevy::math::Vec2;
use common::{Qi, Xvfb, count_color, fresh_dir, near, out_dir, pixel, png_summary, square_pixel};
use qi::theme::palette;
use qi_core::{GameKind, Square};

fn rgb(c: bevy_egui::egui::Color32) -> [u8; 3] {
    [c.r(), c.g(), c.b()]
}

/// The colour a square shows in a screenshot, a little left of its centre (where the small
/// marks for the last move and the legal moves do not reach, and a piece still covers).
fn square_color(
    shot: &std::path::Path,
    window: Vec2,
    kind: GameKind,
    size: (u8, u8),
    sq: Square,
) -> [u8; 3] {
    let (x, y) = square_pixel(window, kind, size, sq);
    let cell = qi::board::BoardLayout::for_game(qi::games::ui_of(kind), size, window).cell;
    pixel(shot, (x - 0.27 * cell) as u32, y as u32)
}

/// Checks the colour of squares in a screenshot of the first window size: each `(square,
/// colour, tolerance)`.
fn expect_squares(
    shot: &std::path::Path,
    kind: GameKind,
    size: (u8, u8),
    want: &[(Square, [u8; 3], u8)],
) {
    let w = Vec2::new(1200.0, 800.0);
    for &(sq, color, tol) in want {
        let c = square_color(shot, w, kind, size, sq);
        assert!(
            near(c, color, tol),
            "{kind} {sq:?}: {c:?}, expected {color:?}"
        );
    }
}

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
    let (w, h, _) = png_summary(&shot);
    assert_eq!((w, h), (1200, 800));
    // the opaque menu panel is there, over the dimmed window
    let panel = count_color(&shot, rgb(palette::ui().panel));
    assert!(panel > 20_000, "the menu panel covers {panel} pixels");
    let corner = pixel(&shot, 5, 5);
    assert!(near(corner, [9, 10, 12], 4), "dimmed corner: {corner:?}");
    println!("screenshot: {}", shot.display());
}

/// The player's path through the real window: New game by keys — Enter on the Board row starts
/// (defect 3) — Ataxx with blocked squares vs the CPU, a move by clicking two cells, the CPU's
/// reply, a screenshot whose pixels show the pieces where the game has them.
#[test]
fn new_game_by_keys_then_a_clicked_ataxx_move_and_the_cpu_reply() {
    let x = Xvfb::start();
    let dir = fresh_dir("ataxx-vs-cpu");
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
    qi.wait_for_log("qi: drawn screen Title menu Main", Duration::from_secs(30));
    // Main menu: "New game" is first. In the panel: down to the Board row, the next layout
    // ("Four blocks"), and Enter starts from there.
    qi.keys(&["Return"]);
    qi.wait_for_log("menu NewGame", Duration::from_secs(30));
    qi.keys(&["Down", "Right", "Return"]);
    let line = qi.wait_for_log("qi: new game ataxx", Duration::from_secs(30));
    assert!(line.contains("2-1-2"), "the blocked layout: {line}");
    qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(30));
    qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
    // a click before the first frame of the board can be lost on a loaded machine
    qi.wait_for_log(
        "qi: drawn screen Playing menu None",
        Duration::from_secs(30),
    );
    // Red owns g1: pick it up, then jump to e1.
    qi.click_square(GameKind::Ataxx, (7, 7), Square::new(6, 0));
    qi.wait_for_log("selected g1", Duration::from_secs(20));
    qi.click_square(GameKind::Ataxx, (7, 7), Square::new(4, 0));
    let line = qi.wait_for_log("qi: move 1 Red", Duration::from_secs(30));
    assert!(line.ends_with("g1e1"), "{line}");
    let reply = qi.wait_for_log("qi: move 2 Blue", Duration::from_secs(60));
    qi.wait_for_log("qi: board at rest at ply 2", Duration::from_secs(30));
    let shot = qi.screenshot(&dir);
    expect_squares(
        &shot,
        GameKind::Ataxx,
        (7, 7),
        &[
            (Square::new(4, 0), rgb(palette::RED_PIECE), 28),
            (Square::new(6, 0), rgb(palette::SLATE_BOARD.cell), 16),
            (Square::new(2, 2), rgb(palette::SLATE_BOARD.blocked), 16),
            (Square::new(0, 6), rgb(palette::RED_PIECE), 28),
        ],
    );
    println!("CPU replied: {reply}; screenshot {}", shot.display());
}

/// One clicked move in each other game, started from the command line, with the CPU's reply;
/// the screenshot has the stone or disc on the point clicked.
#[test]
fn one_clicked_move_in_reversi_gomoku_and_go() {
    let cases: [(&str, (u8, u8), Square, &str); 3] = [
        ("reversi", (8, 8), Square::new(3, 2), "qi: move 1 Black d3"),
        ("gomoku", (15, 15), Square::new(7, 7), "qi: move 1 Black h8"),
        ("go", (19, 19), Square::new(3, 3), "qi: move 1 Black D4"),
    ];
    for (game, size, sq, expect) in cases {
        let x = Xvfb::start();
        let dir = fresh_dir(game);
        let mut qi = Qi::start(
            &x,
            game,
            &[
                "--game",
                game,
                "--mode",
                "cpu",
                "--screenshot-dir",
                dir.to_str().unwrap(),
            ],
        );
        qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(240));
        qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
        // a click before the first frame of the board can be lost on a loaded machine
        qi.wait_for_log(
            "qi: drawn screen Playing menu None",
            Duration::from_secs(30),
        );
        let kind: GameKind = game.parse().unwrap();
        qi.click_square(kind, size, sq);
        qi.wait_for_log(expect, Duration::from_secs(30));
        qi.wait_for_log("qi: move 2 White", Duration::from_secs(60));
        qi.wait_for_log("qi: board at rest at ply 2", Duration::from_secs(30));
        let shot = qi.screenshot(&dir);
        let c = square_color(&shot, Vec2::new(1200.0, 800.0), kind, size, sq);
        // a black disc, or a shaded black stone (lighter towards its highlight)
        assert!(c.iter().all(|v| *v < 90), "{game}: {c:?} at the move");
        drop(qi);
        drop(x);
    }
}

/// Saves a game in slot 3 from the pause menu by keys, quits, starts qi again on the same data
/// folder, and loads slot 3 from the main menu: the game goes on at the same move.
#[test]
fn save_in_slot_3_quit_restart_and_load_it() {
    let x = Xvfb::start();
    let saves = fresh_dir("slot3-saves");
    let mut qi = Qi::start_with_saves(
        &x,
        "slot3-first",
        &["--game", "reversi", "--mode", "two"],
        &saves,
    );
    qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(240));
    qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
    // a click before the first frame of the board can be lost on a loaded machine
    qi.wait_for_log(
        "qi: drawn screen Playing menu None",
        Duration::from_secs(30),
    );
    qi.click_square(GameKind::Reversi, (8, 8), Square::new(3, 2));
    qi.wait_for_log("qi: move 1 Black d3", Duration::from_secs(30));
    qi.wait_for_log("qi: board at rest at ply 1", Duration::from_secs(30));
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
    qi.wait_for_log("qi: drawn screen Title menu Main", Duration::from_secs(30));
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
    qi.wait_for_log("qi: board at rest at ply 1", Duration::from_secs(30));
    qi.click_square(GameKind::Reversi, (8, 8), Square::new(2, 2));
    qi.wait_for_log("qi: move 2 White c3", Duration::from_secs(30));
}

/// Defect 1: Pause → Load a slot made the board vanish and clicks did nothing. Here a Go game
/// is replaced from the pause menu by a Reversi game saved in a slot: the screenshot shows the
/// Reversi board and its discs, and a click plays.
#[test]
fn load_from_the_pause_menu_shows_the_board_and_clicks_play() {
    let x = Xvfb::start();
    let saves = fresh_dir("pause-load-saves");
    let dir = fresh_dir("pause-load");
    // first run: a Reversi position saved in slot 1
    let mut qi = Qi::start_with_saves(
        &x,
        "pause-load-first",
        &["--game", "reversi", "--mode", "two"],
        &saves,
    );
    qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(240));
    qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
    // a click before the first frame of the board can be lost on a loaded machine
    qi.wait_for_log(
        "qi: drawn screen Playing menu None",
        Duration::from_secs(30),
    );
    qi.click_square(GameKind::Reversi, (8, 8), Square::new(3, 2));
    qi.wait_for_log("qi: move 1 Black d3", Duration::from_secs(30));
    qi.keys(&["Escape"]);
    qi.wait_for_log("menu Pause", Duration::from_secs(20));
    qi.keys(&["Down", "Return"]);
    qi.wait_for_log("menu Save", Duration::from_secs(20));
    qi.keys(&["Return"]);
    qi.wait_for_log("qi: saved slot 1", Duration::from_secs(20));
    drop(qi);
    // second run: a Go game, then Pause → Load → slot 1 → Yes
    let mut qi = Qi::start_with_saves(
        &x,
        "pause-load-second",
        &[
            "--game",
            "go",
            "--mode",
            "two",
            "--screenshot-dir",
            dir.to_str().unwrap(),
        ],
        &saves,
    );
    qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(240));
    qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
    qi.keys(&["Escape"]);
    qi.wait_for_log("menu Pause", Duration::from_secs(20));
    qi.keys(&["Down", "Down", "Down", "Return"]);
    qi.wait_for_log("menu Load", Duration::from_secs(20));
    qi.keys(&["Return"]);
    qi.wait_for_log("menu ConfirmLoad", Duration::from_secs(20));
    qi.keys(&["Up", "Return"]);
    qi.wait_for_log("qi: loaded slot 1", Duration::from_secs(20));
    qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(20));
    qi.wait_for_log("qi: board at rest at ply 1", Duration::from_secs(30));
    let shot = qi.screenshot(&dir);
    expect_squares(
        &shot,
        GameKind::Reversi,
        (8, 8),
        &[
            (Square::new(3, 2), rgb(palette::BLACK_PIECE), 30),
            (Square::new(0, 0), rgb(palette::GREEN_BOARD.cell), 16),
        ],
    );
    qi.click_square(GameKind::Reversi, (8, 8), Square::new(2, 2));
    qi.wait_for_log("qi: move 2 White c3", Duration::from_secs(30));
}

/// Defect 2: a smaller window cropped the board. At 900×600 the whole board shows, centred in
/// the room beside the side panel, and clicks land on the squares drawn.
#[test]
fn the_board_scales_with_the_window() {
    let x = Xvfb::start();
    let dir = fresh_dir("resize");
    let mut qi = Qi::start(
        &x,
        "resize",
        &[
            "--game",
            "reversi",
            "--mode",
            "two",
            "--screenshot-dir",
            dir.to_str().unwrap(),
        ],
    );
    qi.wait_for_log("qi: screen Playing menu None", Duration::from_secs(240));
    qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
    qi.resize(900, 600);
    let w = Vec2::new(900.0, 600.0);
    let shot = qi.screenshot(&dir);
    let (sw, sh, _) = png_summary(&shot);
    assert_eq!((sw, sh), (900, 600));
    // every corner square of the board is inside the window and drawn as a board square
    for sq in [
        Square::new(0, 0),
        Square::new(7, 0),
        Square::new(0, 7),
        Square::new(7, 7),
    ] {
        let (px, py) = square_pixel(w, GameKind::Reversi, (8, 8), sq);
        assert!(
            px > 0.0 && py > 0.0 && px < 900.0 && py < 600.0,
            "{sq:?} at {px},{py}"
        );
        let c = square_color(&shot, w, GameKind::Reversi, (8, 8), sq);
        assert!(near(c, rgb(palette::GREEN_BOARD.cell), 16), "{sq:?}: {c:?}");
    }
    let layout = qi::board::BoardLayout::for_game(qi::games::ui_of(GameKind::Reversi), (8, 8), w);
    assert!(
        layout.cell >= 50.0,
        "the board fills the room: cell {}",
        layout.cell
    );
    // a click at the scaled d3 plays d3
    qi.click_square_in(w, GameKind::Reversi, (8, 8), Square::new(3, 2));
    qi.wait_for_log("qi: move 1 Black d3", Duration::from_secs(30));
    // F11: fullscreen and back
    qi.keys(&["F11"]);
    qi.wait_for_log(
        "qi: window mode BorderlessFullscreen",
        Duration::from_secs(20),
    );
    qi.keys(&["F11"]);
    qi.wait_for_log("qi: window mode Windowed", Duration::from_secs(20));
}

/// The window in Chinese, as a new player sees it: the main menu, New game by keys (Go, two
/// players), a stone, two passes (P), the score confirmed (Enter), the game-over panel, and the
/// game analysed from there.
/// The app checks that every character of the Chinese texts has a glyph in the fonts it
/// loaded, and logs it; the screenshots are kept for a look.
#[test]
fn a_go_game_in_chinese_from_the_main_menu_to_the_game_over_panel() {
    let x = Xvfb::start();
    let dir = fresh_dir("zh-go");
    let mut qi = Qi::start(
        &x,
        "zh-go",
        &[
            "--lang",
            "zh-CN",
            "--screenshot-dir",
            dir.to_str().unwrap(),
            "--animation-speed",
            "0",
        ],
    );
    qi.wait_for_log("qi: language zh-CN", Duration::from_secs(240));
    qi.wait_for_log("qi: drawn screen Title menu Main", Duration::from_secs(30));
    let glyphs = qi.wait_for_log("qi: glyphs zh-CN", Duration::from_secs(30));
    assert!(glyphs.contains("zh-CN: all"), "{glyphs}");
    let menu = qi.screenshot(&dir);
    // "新对局" (New game) is selected when there is nothing to continue
    qi.keys(&["Return"]);
    qi.wait_for_log(
        "qi: drawn screen Title menu NewGame",
        Duration::from_secs(30),
    );
    let new_game = qi.screenshot(&dir);
    // Game row: three to the right is 围棋; two rows down, Mode: one to the right is 双人对战
    qi.keys(&["Right", "Right", "Right", "Down", "Down", "Right", "Return"]);
    let line = qi.wait_for_log("qi: new game go", Duration::from_secs(30));
    assert!(line.contains("[Human, Human]"), "two players: {line}");
    qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
    // a click before the first frame of the board can be lost on a loaded machine
    qi.wait_for_log(
        "qi: drawn screen Playing menu None",
        Duration::from_secs(30),
    );
    qi.click_square(GameKind::Go, (19, 19), Square::new(3, 3));
    qi.wait_for_log("qi: move 1 Black D4", Duration::from_secs(30));
    qi.wait_for_log("qi: board at rest at ply 1", Duration::from_secs(30));
    qi.keys(&["p"]);
    qi.wait_for_log("qi: move 2 White pass", Duration::from_secs(30));
    qi.keys(&["p"]);
    qi.wait_for_log("qi: move 3 Black pass", Duration::from_secs(30));
    qi.wait_for_log("qi: marking dead stones", Duration::from_secs(30));
    qi.keys(&["Return"]);
    let over = qi.wait_for_log("qi: game over", Duration::from_secs(30));
    assert!(over.contains("B+"), "Black's stone owns the board: {over}");
    qi.wait_for_log(
        "qi: drawn screen Playing menu GameOver",
        Duration::from_secs(30),
    );
    let game_over = qi.screenshot(&dir);
    // 分析本局 (Analyse the game), third on the panel: the game becomes a replay at its last
    // move and the engine goes over its positions
    qi.keys(&["Down", "Down", "Return"]);
    let done = qi.wait_for_log("qi: analysis done", Duration::from_secs(120));
    assert!(done.contains("4 positions"), "{done}");
    qi.wait_for_log(
        "qi: drawn screen Playing menu None",
        Duration::from_secs(30),
    );
    let analysed = qi.screenshot(&dir);
    for shot in [&menu, &new_game, &game_over, &analysed] {
        let (w, h, colours) = png_summary(shot);
        assert!(
            w >= 800 && h >= 600 && colours > 50,
            "{}: {w}×{h}, {colours} colours",
            shot.display()
        );
    }
    assert!(!qi.log_text().contains("qi: glyphs zh-CN: missing"));
    println!(
        "screenshots: {} {} {} {}",
        menu.display(),
        new_game.display(),
        game_over.display(),
        analysed.display()
    );
}

/// Online play in the real window: Main menu → Play online → Reversi → Host on a port typed
/// into the panel; the test joins that port over loopback with `qi_net` as the opponent. The
/// window's click goes to the opponent, the opponent's move and chat arrive in the window, the
/// HUD names the opponent, and the opponent's resignation ends the game in the window, which
/// writes the online autosave and the record.
#[test]
fn an_online_game_hosted_in_the_window() {
    use qi_net::{Action, JoinTarget, NetEvent, NetGame};
    let x = Xvfb::start();
    let dir = fresh_dir("online-host");
    let mut qi = Qi::start(
        &x,
        "online-host",
        &[
            "--screenshot-dir",
            dir.to_str().unwrap(),
            "--animation-speed",
            "2",
        ],
    );
    let saves = out_dir().join("online-host-saves");
    qi.wait_for_log("qi: drawn screen Title menu Main", Duration::from_secs(240));
    // "Play online" is the fourth button of the main menu (Continue is disabled): by keys,
    // which do not depend on where the menu's buttons are
    qi.keys(&["Down", "Down", "Return"]);
    qi.wait_for_log(
        "qi: drawn screen Title menu Online",
        Duration::from_secs(30),
    );
    // Host tab: Reversi, then a port of this run in the port field, then "Host the game"
    qi.click(424, 339);
    let port = 20000 + (std::process::id() % 20000) as u16;
    qi.click(400, 483);
    qi.keys(&[
        "End",
        "BackSpace",
        "BackSpace",
        "BackSpace",
        "BackSpace",
        "BackSpace",
    ]);
    qi.xdotool(&["type", "--delay", "80", &port.to_string()]);
    qi.click(600, 526);
    qi.wait_for_log(
        &format!("qi: online listening on port {port}"),
        Duration::from_secs(30),
    );
    let waiting = qi.screenshot(&dir);
    // the test is the opponent
    let peer = NetGame::join("Tester", JoinTarget::Address(format!("127.0.0.1:{port}")));
    let wait_peer = |what: &str, pred: &dyn Fn(&NetEvent) -> bool| {
        let t0 = std::time::Instant::now();
        loop {
            if peer.poll().iter().any(pred) {
                return;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "the opponent: no {what}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait_peer("game", &|e| {
        matches!(e, NetEvent::Game(qi_core::net::Event::Joined { .. }))
    });
    qi.wait_for_log("qi: online playing against Tester", Duration::from_secs(30));
    qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
    // a click before the first frame of the board can be lost on a loaded machine
    qi.wait_for_log(
        "qi: drawn screen Playing menu None",
        Duration::from_secs(30),
    );
    // the window plays d3 for Black: it reaches the opponent
    qi.click_square(GameKind::Reversi, (8, 8), Square::new(3, 2));
    qi.wait_for_log("qi: move 1 Black d3", Duration::from_secs(30));
    wait_peer(
        "d3",
        &|e| matches!(e, NetEvent::Game(qi_core::net::Event::OpponentMoved { text, .. }) if text == "d3"),
    );
    // the opponent answers c3 and says hello: both arrive in the window
    peer.send(Action::MoveText("c3".into())).unwrap();
    qi.wait_for_log("qi: move 2 White c3", Duration::from_secs(30));
    qi.wait_for_log("qi: board at rest at ply 2", Duration::from_secs(30));
    peer.send(Action::Chat("good game".into())).unwrap();
    qi.wait_for_log(
        "qi: online chat from Tester: good game",
        Duration::from_secs(30),
    );
    let playing = qi.screenshot(&dir);
    // c3 is White's on the window's board now
    let white = square_color(
        &playing,
        qi::board::WINDOW,
        GameKind::Reversi,
        (8, 8),
        Square::new(2, 2),
    );
    assert!(
        white.iter().all(|&v| v > 150),
        "c3 shows a white disc: {white:?} ({})",
        playing.display()
    );
    peer.send(Action::Resign).unwrap();
    qi.wait_for_log("qi: online game over B+R", Duration::from_secs(30));
    qi.wait_for_log(
        "qi: drawn screen Playing menu GameOver",
        Duration::from_secs(30),
    );
    let over = qi.screenshot(&dir);
    assert!(saves.join(qi::online::ONLINE_SAVE).exists());
    let records: Vec<_> = std::fs::read_dir(saves.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    println!(
        "screenshots: {} {} {}",
        waiting.display(),
        playing.display(),
        over.display()
    );
}

/// Joining in the real window, in Chinese: Play online → 加入 → an address typed into the
/// panel → Enter; the test hosts a Gomoku game with `qi_net` and plays Black. Its move
/// arrives in the window, the window's click goes back, and the host's resignation ends the
/// game in the window.
#[test]
fn joining_an_online_game_by_address_in_chinese() {
    use qi_net::{Action, HostVia, NetEvent, NetGame};
    let setup = qi_core::net::Setup {
        game: GameKind::Gomoku,
        start: qi_core::any::AnyPosition::start(GameKind::Gomoku)
            .unwrap()
            .to_text(),
        host_side: qi_core::Side::Black,
        clock: None,
    };
    let host = NetGame::host(
        setup,
        "Tester",
        HostVia::Lan {
            port: 0,
            advertise: false,
        },
    )
    .unwrap();
    let port = host.local_addr().unwrap().port();
    let wait_host = |what: &str, pred: &dyn Fn(&NetEvent) -> bool| {
        let t0 = std::time::Instant::now();
        loop {
            if host.poll().iter().any(pred) {
                return;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "the host: no {what}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    let x = Xvfb::start();
    let dir = fresh_dir("online-join");
    let mut qi = Qi::start(
        &x,
        "online-join",
        &[
            "--lang",
            "zh-CN",
            "--screenshot-dir",
            dir.to_str().unwrap(),
            "--animation-speed",
            "2",
        ],
    );
    qi.wait_for_log("qi: drawn screen Title menu Main", Duration::from_secs(240));
    qi.keys(&["Down", "Down", "Return"]);
    qi.wait_for_log(
        "qi: drawn screen Title menu Online",
        Duration::from_secs(30),
    );
    // the Join tab, then the address field: emptied, the host's address typed, and Join
    qi.click(330, 275);
    qi.click(450, 429);
    let mut keys = vec!["End"];
    keys.extend(std::iter::repeat_n("BackSpace", 20));
    qi.keys(&keys);
    qi.xdotool(&["type", "--delay", "80", &format!("127.0.0.1:{port}")]);
    let join = qi.screenshot(&dir);
    // Enter in the field joins (as 加入这个地址 does)
    qi.keys(&["Return"]);
    qi.wait_for_log("qi: online playing against Tester", Duration::from_secs(30));
    wait_host("joiner", &|e| {
        matches!(e, NetEvent::Game(qi_core::net::Event::Joined { .. }))
    });
    qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
    host.send(Action::MoveText("h8".into())).unwrap();
    qi.wait_for_log("qi: move 1 Black h8", Duration::from_secs(30));
    qi.wait_for_log("qi: board at rest at ply 1", Duration::from_secs(30));
    qi.click_square(GameKind::Gomoku, (15, 15), Square::new(8, 8));
    let line = qi.wait_for_log("qi: move 2 White", Duration::from_secs(30));
    wait_host("the window's move", &|e| {
        matches!(
            e,
            NetEvent::Game(qi_core::net::Event::OpponentMoved { ply: 1, .. })
        )
    });
    let playing = qi.screenshot(&dir);
    host.send(Action::Resign).unwrap();
    qi.wait_for_log("qi: online game over W+R", Duration::from_secs(30));
    qi.wait_for_log(
        "qi: drawn screen Playing menu GameOver",
        Duration::from_secs(30),
    );
    let over = qi.screenshot(&dir);
    let glyphs = qi.wait_for_log("qi: glyphs zh-CN", Duration::from_secs(5));
    assert!(glyphs.contains("zh-CN: all"), "{glyphs}");
    println!(
        "{line}\nscreenshots: {} {} {}",
        join.display(),
        playing.display(),
        over.display()
    );
}

/// The openings browser in the real window: main menu → Openings → down the Othello tree to
/// the Tiger → Enter steps through it; at its last move the side panel names the opening, and
/// the board has the discs of the line.
#[test]
fn the_openings_browser_steps_through_the_tiger() {
    let x = Xvfb::start();
    let dir = fresh_dir("openings");
    let mut qi = Qi::start(&x, "openings", &["--screenshot-dir", dir.to_str().unwrap()]);
    qi.wait_for_log("qi: screen Title menu Main", Duration::from_secs(240));
    qi.wait_for_log("qi: drawn screen Title menu Main", Duration::from_secs(30));
    // New game (Continue is disabled) → Load → Play online → Openings
    qi.keys(&["Down", "Down", "Down", "Return"]);
    qi.wait_for_log(
        "qi: drawn screen Title menu Openings",
        Duration::from_secs(30),
    );
    let browser = qi.screenshot(&dir);
    // Perpendicular → Ganglion → No-Cat → Swallow → No-Cat (continuation) → Tiger
    qi.keys(&["Down", "Down", "Down", "Down", "Down", "Down", "Return"]);
    let line = qi.wait_for_log("qi: opening reversi", Duration::from_secs(30));
    assert!(line.ends_with("f5 d6 c3 d3 c4 (step through)"), "{line}");
    qi.wait_for_log("qi: board at rest at ply 0", Duration::from_secs(30));
    qi.keys(&["End"]);
    qi.wait_for_log(
        "qi: opening reached Tiger at ply 5",
        Duration::from_secs(30),
    );
    qi.wait_for_log("qi: board at rest at ply 5", Duration::from_secs(30));
    let shot = qi.screenshot(&dir);
    expect_squares(
        &shot,
        GameKind::Reversi,
        (8, 8),
        &[
            (Square::new(2, 3), rgb(palette::BLACK_PIECE), 40),
            (Square::new(3, 5), rgb(palette::WHITE_PIECE), 40),
        ],
    );
    println!("browser {}, Tiger {}", browser.display(), shot.display());
}
