//! Headless app tests: the app's own plugins on MinimalPlugins (no window, no GPU), driving the
//! flows through messages and checking the core state, the entities, the resources and the
//! screens. Each defect of the window that a new player met has a test here (or in the panel's
//! own egui_kittest tests) that failed before its fix.

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use qi::board::{Anim, CellClicked, CellTile, Marker, Piece};
use qi::cli::Args;
use qi::game::{
    Match, MatchSetup, MoveRequest, Player, RedoRequest, Selection, StatusLine, UndoRequest,
};
use qi::menus::{InGame, Menu, StartMatch};
use qi::screens::Screen;
use qi::settings::Settings;
use qi_core::{GameKind, Side, Square};

/// One app at a time: CPU tests must not share the two cores with the others.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

struct Headless(App, #[allow(dead_code)] std::sync::MutexGuard<'static, ()>);

impl std::ops::Deref for Headless {
    type Target = App;
    fn deref(&self) -> &App {
        &self.0
    }
}

impl std::ops::DerefMut for Headless {
    fn deref_mut(&mut self) -> &mut App {
        &mut self.0
    }
}

fn headless() -> Headless {
    let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    Headless(new_app(), turn)
}

fn fresh_dir() -> std::path::PathBuf {
    // Saves go to a folder of this test run, never the player's data folder.
    static RUN: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = RUN.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("app-saves-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn new_app() -> App {
    new_app_in(fresh_dir())
}

fn new_app_in(dir: std::path::PathBuf) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin));
    app.insert_resource(Args {
        save_dir: Some(dir),
        // English whatever the machine's locale; the Chinese test asks for its language
        lang: Some(qi::i18n::Lang::EnUs),
        ..Args::default()
    });
    app.add_plugins(qi::plugin);
    app.update();
    app.update();
    app
}

/// An app with animations off (so a move settles in a frame or two) and, for the games given,
/// the CPU's time per move in milliseconds.
fn headless_without_animations(cpu_ms: &[(GameKind, u32)]) -> Headless {
    let mut app = headless();
    let mut settings = Settings {
        animation_speed: 0.0,
        cpu_vs_cpu_delay: 0.0,
        ..Default::default()
    };
    for &(kind, ms) in cpu_ms {
        settings.game_mut(kind).cpu_time_ms = ms;
    }
    app.insert_resource(settings);
    app
}

/// A game between two people, animations off.
fn two_players(kind: GameKind) -> Headless {
    let mut app = headless_without_animations(&[]);
    start(&mut app, kind, None, [Player::Human, Player::Human]);
    app
}

fn start(app: &mut App, kind: GameKind, fen: Option<&str>, players: [Player; 2]) {
    let setup = MatchSetup {
        kind,
        start_text: fen.map(str::to_string),
        players,
        names: ["A".into(), "B".into()],
        clock: None,
    };
    app.world_mut().write_message(StartMatch(setup));
    for _ in 0..3 {
        app.update();
    }
}

/// The folder the app saves into (a fresh one per test).
fn save_dir(app: &App) -> std::path::PathBuf {
    app.world()
        .resource::<qi::saves::Store>()
        .0
        .dir()
        .to_path_buf()
}

fn count<C: Component>(app: &mut App) -> usize {
    app.world_mut().query::<&C>().iter(app.world()).count()
}

fn markers(app: &mut App) -> Vec<(Marker, String)> {
    app.world_mut()
        .query::<(&Marker, &Name)>()
        .iter(app.world())
        .map(|(m, n)| (*m, n.to_string()))
        .collect()
}

fn pieces(app: &mut App) -> Vec<Piece> {
    let mut v: Vec<Piece> = app
        .world_mut()
        .query::<&Piece>()
        .iter(app.world())
        .copied()
        .collect();
    v.sort_by_key(|p| (p.square.y, p.square.x));
    v
}

/// Runs frames until no piece animates (animations off in these tests, so one or two frames).
fn settle(app: &mut App) {
    for _ in 0..10 {
        app.update();
        if count::<Anim>(app) == 0 {
            app.update();
            return;
        }
    }
    panic!("animations did not finish");
}

fn play(app: &mut App, text: &str) {
    let mv = app
        .world()
        .resource::<Match>()
        .position()
        .parse_move(text)
        .unwrap();
    app.world_mut().write_message(MoveRequest(mv));
    app.update();
}

/// A key pressed and released, as the window would send it.
fn press_key(app: &mut App, code: KeyCode, key: bevy::input::keyboard::Key) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::KeyboardInput;
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code: code,
            logical_key: key.clone(),
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
    }
}

/// Replays the example record whose name starts with `prefix`, as the Records screen does;
/// returns the record.
fn replay_sample(app: &mut App, prefix: &str) -> qi_core::records::Record {
    let (name, text) = qi_core::records::SAMPLES
        .iter()
        .find(|(n, _)| n.starts_with(prefix))
        .unwrap();
    let rec = qi_core::records::import_text(text).unwrap();
    let m = qi::replay::replay_match(&rec, name).unwrap();
    app.world_mut()
        .write_message(qi::menus::LoadMatch(Box::new(m)));
    for _ in 0..3 {
        app.update();
    }
    rec
}

fn status(app: &App) -> String {
    app.world().resource::<StatusLine>().0.clone()
}

fn in_game(app: &App) -> InGame {
    *app.world().resource::<State<InGame>>().get()
}

fn set_in_game(app: &mut App, s: InGame) {
    app.world_mut().resource_mut::<NextState<InGame>>().set(s);
    app.update();
    app.update();
}

#[test]
fn menu_to_game_to_game_over() {
    let mut app = headless();
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Title
    );
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::Main);
    app.insert_resource(Settings {
        animation_speed: 0.0,
        ..Default::default()
    });
    // x to move can end the game at once: one clone onto the last empty square.
    start(
        &mut app,
        GameKind::Ataxx,
        Some("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/oooooo1 o 0 30"),
        [Player::Human, Player::Human],
    );
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Playing
    );
    assert_eq!(in_game(&app), InGame::None);
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::None);
    assert_eq!(count::<CellTile>(&mut app), 49);
    assert_eq!(count::<Piece>(&mut app), 48);
    play(&mut app, "g1");
    settle(&mut app);
    app.update();
    assert!(app.world().resource::<Match>().is_over());
    assert_eq!(in_game(&app), InGame::GameOver);
    // leaving the game despawns the board
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Title);
    app.update();
    app.update();
    assert_eq!(count::<CellTile>(&mut app), 0);
    assert_eq!(count::<Piece>(&mut app), 0);
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::Main);
}

#[test]
fn a_move_changes_core_state_entities_and_animates() {
    let mut app = headless();
    start(
        &mut app,
        GameKind::Reversi,
        None,
        [Player::Human, Player::Human],
    );
    assert_eq!(count::<Piece>(&mut app), 4);
    assert_eq!(count::<CellTile>(&mut app), 64);
    play(&mut app, "d3");
    app.update();
    let g = app.world().resource::<Match>();
    assert_eq!(g.history.ply(), 1);
    assert_eq!(g.position().piece_counts(), [4, 1]);
    // a new disc on d3 and the d4 disc turning: both animate
    assert!(count::<Anim>(&mut app) >= 1, "the move starts an animation");
    assert_eq!(count::<Piece>(&mut app), 5);
    let p = pieces(&mut app);
    let d4 = p.iter().find(|p| p.square == Square::new(3, 3)).unwrap();
    assert_eq!(
        d4.side,
        Side::Black,
        "the flipped disc's entity changed side"
    );
    // illegal: refused, nothing changes
    play(&mut app, "a1");
    app.update();
    assert_eq!(app.world().resource::<Match>().history.ply(), 1);
    assert_eq!(status(&app), "a1 is not a legal move");
}

#[test]
fn undo_restores_the_entities() {
    let mut app = two_players(GameKind::Ataxx);
    let before = pieces(&mut app);
    play(&mut app, "g1e3");
    settle(&mut app);
    assert_ne!(pieces(&mut app), before);
    app.world_mut().write_message(UndoRequest);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Match>().history.ply(), 0);
    assert_eq!(pieces(&mut app), before);
}

/// Defect 4: undo and redo dropped the legal-move dots and the last-move mark.
#[test]
fn undo_and_redo_keep_the_legal_dots_and_the_last_move_mark() {
    let mut app = two_players(GameKind::Reversi);
    play(&mut app, "d3");
    settle(&mut app);
    play(&mut app, "c3");
    settle(&mut app);
    let has = |m: &[(Marker, String)], k: Marker| m.iter().filter(|(x, _)| *x == k).count();
    let before = markers(&mut app);
    assert_eq!(has(&before, Marker::LastMove), 1);
    assert!(has(&before, Marker::Legal) > 0);
    for _ in 0..3 {
        for (ply, what) in [(1, "undo"), (2, "redo")] {
            if ply == 1 {
                app.world_mut().write_message(UndoRequest);
            } else {
                app.world_mut().write_message(RedoRequest);
            }
            settle(&mut app);
            let now = markers(&mut app);
            assert_eq!(app.world().resource::<Match>().history.ply(), ply);
            assert_eq!(
                has(&now, Marker::LastMove),
                1,
                "last move after {what}: {now:?}"
            );
            assert!(
                has(&now, Marker::Legal) > 0,
                "legal dots after {what}: {now:?}"
            );
        }
    }
}

#[test]
fn ataxx_clicks_select_then_move() {
    let mut app = two_players(GameKind::Ataxx);
    // x (Red) owns a7 and g1. Click g1, then e3: a jump.
    app.world_mut()
        .write_message(CellClicked(Square::new(6, 0)));
    app.update();
    assert_eq!(
        app.world().resource::<Selection>().0,
        Some(Square::new(6, 0))
    );
    app.update();
    let jump_markers = markers(&mut app)
        .iter()
        .filter(|(m, _)| *m == Marker::JumpTarget)
        .count();
    assert_eq!(
        jump_markers, 5,
        "g1 has five jump targets on an empty board"
    );
    app.world_mut()
        .write_message(CellClicked(Square::new(4, 2)));
    app.update();
    settle(&mut app);
    let g = app.world().resource::<Match>();
    assert_eq!(g.history.move_texts(), vec!["g1e3"]);
    assert_eq!(app.world().resource::<Selection>().0, None);
    // Blue clicks an empty square next to its piece: a clone at once.
    app.world_mut()
        .write_message(CellClicked(Square::new(5, 6))); // f7, next to o on g7
    app.update();
    settle(&mut app);
    assert_eq!(
        app.world().resource::<Match>().history.move_texts(),
        vec!["g1e3", "f7"]
    );
}

/// Defect 8: Esc dropped the selection but the status still said "Selected g1: choose where
/// it goes".
#[test]
fn esc_drops_the_selection_and_the_status_says_so() {
    let mut app = two_players(GameKind::Ataxx);
    app.world_mut()
        .write_message(CellClicked(Square::new(6, 0)));
    app.update();
    app.update();
    assert!(status(&app).starts_with("Selected g1"), "{}", status(&app));
    press_key(
        &mut app,
        KeyCode::Escape,
        bevy::input::keyboard::Key::Escape,
    );
    assert_eq!(app.world().resource::<Selection>().0, None);
    assert_eq!(in_game(&app), InGame::None, "the first Esc does not pause");
    assert!(!status(&app).contains("Selected"), "{}", status(&app));
}

/// Session 36 (seen in Xvfb): Gomoku showed a Pass button that was always greyed (the game
/// has no pass) and P did nothing there; now it has no Pass button and P pauses, as in Ataxx
/// and Reversi. Go keeps both: the button, and P passes.
#[test]
fn p_pauses_gomoku_and_passes_go() {
    let mut app = two_players(GameKind::Gomoku);
    assert!(!hud_view(&app).has_pass, "Gomoku has no pass");
    press_key(
        &mut app,
        KeyCode::KeyP,
        bevy::input::keyboard::Key::Character("p".into()),
    );
    app.update();
    assert_eq!(in_game(&app), InGame::Pause, "P pauses Gomoku");
    drop(app);
    let mut app = two_players(GameKind::Go);
    assert!(hud_view(&app).has_pass);
    press_key(
        &mut app,
        KeyCode::KeyP,
        bevy::input::keyboard::Key::Character("p".into()),
    );
    settle(&mut app);
    assert_eq!(in_game(&app), InGame::None, "P does not pause Go");
    assert_eq!(
        app.world().resource::<Match>().history.ply(),
        1,
        "Black passed"
    );
}

/// The CPU's reply arrives through its task on the async pool while frames go on: the window
/// never waits for the search.
#[test]
fn cpu_moves_arrive_through_the_task_while_frames_go_on() {
    let mut app = headless_without_animations(&[(GameKind::Ataxx, 300)]);
    start(
        &mut app,
        GameKind::Ataxx,
        None,
        [Player::Cpu { level: 6 }, Player::Cpu { level: 5 }],
    );
    let mut thinking_frames = 0;
    let mut frames = 0;
    while app.world().resource::<Match>().history.ply() < 3 {
        assert!(frames < 20_000, "the CPUs did not play three plies");
        app.update();
        frames += 1;
        if app.world().resource::<qi::cpu::Thinking>().is_thinking() {
            thinking_frames += 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // a search that blocked the frame would leave about one frame per move
    assert!(
        thinking_frames > 20,
        "frames ran while the CPU thought ({thinking_frames})"
    );
}

/// Undo while the CPU thinks stops the search thread, and its answer is never played.
#[test]
fn undo_stops_the_cpu_search() {
    let mut app = reversi_against_cpu(5000, 6);
    play(&mut app, "d3");
    for _ in 0..5 {
        app.update();
    }
    assert!(app.world().resource::<qi::cpu::Thinking>().is_thinking());
    // the search thread has started working
    let t0 = std::time::Instant::now();
    while app
        .world()
        .resource::<qi::cpu::Thinking>()
        .searches_running()
        == 0
    {
        assert!(t0.elapsed() < std::time::Duration::from_secs(10));
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    app.world_mut().write_message(UndoRequest);
    app.update();
    app.update();
    assert!(!app.world().resource::<qi::cpu::Thinking>().is_thinking());
    assert_eq!(app.world().resource::<Match>().history.ply(), 0);
    // the thread ends long before its 5 s would have run out
    let t0 = std::time::Instant::now();
    while app
        .world()
        .resource::<qi::cpu::Thinking>()
        .searches_running()
        > 0
    {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(3),
            "the stopped search thread is still running"
        );
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<Match>().history.ply(),
        0,
        "the stopped search's move is not played"
    );
}

/// Defect 6: the CPU's reply animated on top of the player's move. Its move waits until the
/// board is at rest.
#[test]
fn the_cpu_waits_for_the_players_move_to_land() {
    let mut app = headless();
    let mut settings = Settings {
        animation_speed: 0.05, // very slow: the player's flip takes seconds
        ..Default::default()
    };
    settings.game_mut(GameKind::Reversi).cpu_time_ms = 100;
    app.insert_resource(settings);
    start(
        &mut app,
        GameKind::Reversi,
        None,
        [Player::Human, Player::Cpu { level: 1 }],
    );
    play(&mut app, "d3");
    let t0 = std::time::Instant::now();
    let mut saw_pending_while_animating = false;
    while app.world().resource::<Match>().history.ply() < 2 {
        assert!(t0.elapsed() < std::time::Duration::from_secs(60));
        let animating = count::<Anim>(&mut app) > 0;
        let ply_before = app.world().resource::<Match>().history.ply();
        app.update();
        let ply_after = app.world().resource::<Match>().history.ply();
        if animating && ply_after > ply_before {
            panic!("the CPU moved while the player's move was still animating");
        }
        if animating && !app.world().resource::<qi::cpu::Thinking>().is_thinking() {
            saw_pending_while_animating = true;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(
        saw_pending_while_animating,
        "the CPU's answer was ready while the board still moved, and it waited"
    );
}

/// Defect 5: the eval bar showed the last game's numbers at a new game, and showed in games
/// between two people.
#[test]
fn the_eval_bar_starts_empty_and_stays_out_of_games_between_people() {
    let mut app = reversi_against_cpu(300, 4);
    play(&mut app, "d3");
    let t0 = std::time::Instant::now();
    while app.world().resource::<Match>().history.ply() < 2 {
        assert!(t0.elapsed() < std::time::Duration::from_secs(30));
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(
        app.world()
            .resource::<qi::cpu::Thinking>()
            .last_info()
            .is_some()
    );
    // a new game between two people: no numbers from the last game
    start(
        &mut app,
        GameKind::Reversi,
        None,
        [Player::Human, Player::Human],
    );
    assert!(
        app.world()
            .resource::<qi::cpu::Thinking>()
            .last_info()
            .is_none(),
        "the last game's evaluation is forgotten"
    );
}

/// After an undo the eval bar showed nothing until the CPU searched again: it shows the
/// finished search of the position reached, or of the one before it.
#[test]
fn an_undo_keeps_the_eval_of_the_position_it_returns_to() {
    let mut app = reversi_against_cpu(300, 4);
    let score = |app: &App| {
        app.world()
            .resource::<qi::cpu::Thinking>()
            .last_info()
            .map(|(info, side, _)| (info.score, info.nodes, side))
    };
    play(&mut app, "d3");
    wait_for_ply(&mut app, 2);
    let first = score(&app).expect("the CPU's search at ply 1 is shown");
    let legal = app.world().resource::<Match>().position().legal_moves();
    let mine = app
        .world()
        .resource::<Match>()
        .position()
        .move_to_text(legal[0]);
    play(&mut app, &mine);
    wait_for_ply(&mut app, 4);
    // an undo or a redo, then the ply reached and the bar's score there
    let step = |app: &mut Headless, undo: bool| {
        if undo {
            app.world_mut().write_message(UndoRequest);
        } else {
            app.world_mut().write_message(RedoRequest);
        }
        app.update();
        app.update();
        (app.world().resource::<Match>().history.ply(), score(app))
    };
    assert_eq!(
        step(&mut app, true),
        (2, Some(first)),
        "back at ply 2, the bar shows the search that chose the move leading there"
    );
    // back to the start, where nobody searched, and forward again
    assert_eq!(
        step(&mut app, true),
        (0, None),
        "nothing was searched at the start"
    );
    assert_eq!(
        step(&mut app, false),
        (2, Some(first)),
        "a redo from the start recalls it too"
    );
}

/// Go: two passes start dead-stone marking with the estimate shown; a click toggles exactly
/// the group clicked, the score follows; confirming ends the game with that score.
#[test]
fn go_dead_stone_marking_after_two_passes() {
    use qi::games::go::DeadMarking;
    let mut app = headless_without_animations(&[]);
    let start_text = qi_core::go::Go::new(9, 7.5).unwrap();
    start(
        &mut app,
        GameKind::Go,
        Some(&qi_core::Game::to_text(&start_text)),
        [Player::Human, Player::Human],
    );
    // Black builds a wall on the fifth column, White a lone stone deep in Black's side.
    for mv in [
        "E1", "H8", "E2", "B5", "E3", "H2", "E4", "H3", "E5", "H4", "E6", "H5", "E7", "H6", "E8",
        "H7", "E9", "H9",
    ] {
        play(&mut app, mv);
    }
    settle(&mut app);
    assert!(!app.world().resource::<Match>().is_over());
    play(&mut app, "pass");
    play(&mut app, "pass");
    settle(&mut app);
    assert!(app.world().resource::<Match>().is_over());
    assert!(
        app.world().get_resource::<DeadMarking>().is_some(),
        "two passes start the marking"
    );
    assert_eq!(app.world().resource::<Match>().result(), None);
    app.update();
    assert_ne!(
        in_game(&app),
        InGame::GameOver,
        "no game-over panel while marking"
    );
    let b5 = Square::new(1, 4);
    let was_dead = app.world().resource::<DeadMarking>().0.contains(&b5);
    let black_stones: Vec<Square> = app.world().resource::<DeadMarking>().0.clone();
    app.world_mut().write_message(CellClicked(b5));
    app.update();
    let now = app.world().resource::<DeadMarking>().0.clone();
    assert_eq!(now.contains(&b5), !was_dead);
    // exactly the group clicked changed: the wall is untouched
    let changed: Vec<&Square> = now
        .iter()
        .filter(|s| !black_stones.contains(s))
        .chain(black_stones.iter().filter(|s| !now.contains(s)))
        .collect();
    assert_eq!(changed, vec![&b5], "one click toggles the lone stone only");
    if !now.contains(&b5) {
        app.world_mut().write_message(CellClicked(b5));
        app.update();
    }
    app.update();
    // the area map: B5 (dead White stone) and Black's side count for Black; the columns
    // between the two walls touch both colours and count for nobody
    let area: Vec<(Marker, String)> = markers(&mut app)
        .into_iter()
        .filter(|(m, _)| matches!(m, Marker::AreaBlack | Marker::AreaWhite))
        .collect();
    let has = |m: Marker, sq: &str| area.iter().any(|(k, n)| *k == m && n.ends_with(sq));
    assert!(has(Marker::AreaBlack, " b5"), "{area:?}");
    assert!(has(Marker::AreaBlack, " a1"), "{area:?}");
    assert!(
        !has(Marker::AreaBlack, " f1") && !has(Marker::AreaWhite, " f1"),
        "{area:?}"
    );
    assert!(!has(Marker::AreaWhite, " b5"), "{area:?}");
    app.world_mut().write_message(qi::game::ConfirmScoring);
    app.update();
    app.update();
    let result = app.world().resource::<Match>().result().unwrap();
    assert_eq!(result.winner, Some(Side::Black), "{result:?}");
    assert!(result.sgf().starts_with("B+"), "{}", result.sgf());
    settle(&mut app);
    assert_eq!(in_game(&app), InGame::GameOver);
}

/// Moves are autosaved; a game saved in slot 3 loads back exactly (board entities included),
/// and an occupied slot is not overwritten without asking.
#[test]
fn save_in_slot_3_then_load_it_back() {
    use qi::saves::{FileOutcome, FileRequest, Store, match_of};
    let mut app = two_players(GameKind::Reversi);
    play(&mut app, "d3");
    play(&mut app, "c5");
    settle(&mut app);
    let store = app.world().resource::<Store>().0.clone();
    assert!(store.has_autosave(), "moves are autosaved");
    let saved_pieces = pieces(&mut app);
    let saved_texts = app.world().resource::<Match>().history.move_texts();
    app.world_mut().write_message(FileRequest::Save {
        slot: 3,
        overwrite: false,
    });
    app.update();
    assert!(!app.world().resource::<Match>().dirty);
    assert!(store.load(3).is_ok());
    // again: the slot is taken, the app asks
    set_in_game(&mut app, InGame::Save);
    app.world_mut().write_message(FileRequest::Save {
        slot: 3,
        overwrite: false,
    });
    app.update();
    app.update();
    assert_eq!(in_game(&app), InGame::ConfirmOverwrite);
    assert_eq!(
        app.world().resource::<qi::menus::confirm::PendingSlot>().0,
        3
    );
    let _ = FileOutcome::Saved(3);
    set_in_game(&mut app, InGame::None);
    let next = {
        let pos = app.world().resource::<Match>().position().clone();
        pos.move_to_text(pos.legal_moves()[0])
    };
    play(&mut app, &next);
    settle(&mut app);
    assert_ne!(pieces(&mut app), saved_pieces);
    app.world_mut().write_message(FileRequest::Load(3));
    for _ in 0..4 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<Match>().history.move_texts(),
        saved_texts
    );
    assert_eq!(
        pieces(&mut app),
        saved_pieces,
        "the board entities are rebuilt from the loaded game"
    );
    // The autosave continues exactly where the last move left the game.
    let auto = match_of(store.load_autosave().unwrap());
    assert_eq!(auto.history.move_texts(), saved_texts);
}

/// Defect 1: Pause → Load a slot made the board, coordinates and pieces vanish (a game of
/// another kind too), and clicks did nothing.
#[test]
fn loading_from_the_pause_menu_keeps_the_board() {
    use qi::saves::FileRequest;
    let mut app = two_players(GameKind::Reversi);
    play(&mut app, "d3");
    settle(&mut app);
    app.world_mut().write_message(FileRequest::Save {
        slot: 2,
        overwrite: false,
    });
    app.update();
    // now an Ataxx game, then Pause → Load → slot 2 (Reversi) → Yes
    start(
        &mut app,
        GameKind::Ataxx,
        None,
        [Player::Human, Player::Human],
    );
    assert_eq!(count::<CellTile>(&mut app), 49);
    set_in_game(&mut app, InGame::Pause);
    set_in_game(&mut app, InGame::Load);
    app.world_mut().write_message(FileRequest::Load(2));
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(in_game(&app), InGame::None);
    assert_eq!(app.world().resource::<Match>().kind(), GameKind::Reversi);
    assert_eq!(count::<CellTile>(&mut app), 64, "the board is there");
    assert_eq!(count::<Piece>(&mut app), 5, "the pieces are there");
    // and a click plays
    app.world_mut()
        .write_message(CellClicked(Square::new(2, 2))); // c3 for White
    app.update();
    settle(&mut app);
    assert_eq!(app.world().resource::<Match>().history.ply(), 2);
}

/// Settings survive a restart; a settings file that cannot be read gives the defaults and is
/// kept beside the new one; the older file format (arrays by game) is converted.
#[test]
fn settings_are_written_and_read_back_and_a_bad_file_is_kept() {
    let mut app = headless();
    let dir = save_dir(&app);
    app.world_mut().resource_mut::<Settings>().volume = 0.25;
    app.update();
    app.update();
    let file = dir.join("settings.ron");
    assert!(std::fs::read_to_string(&file).unwrap().contains("0.25"));
    // a new app on the same folder reads it
    let again = new_app_in(dir.clone());
    assert_eq!(again.world().resource::<Settings>().volume, 0.25);
    // a damaged file: defaults, and the bad file kept
    std::fs::write(&file, "(volume: \"loud\"").unwrap();
    let third = new_app_in(dir.clone());
    assert_eq!(*third.world().resource::<Settings>(), Settings::default());
    let kept = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("settings.ron.bad")
        });
    assert!(kept, "the unreadable settings file is kept beside");
    // a file in the old format keeps the player's choices
    std::fs::write(
        &file,
        "(volume: 0.4, default_level: [1, 2, 3, 4], cpu_time_ms: [500, 600, 700, 800])",
    )
    .unwrap();
    let fourth = new_app_in(dir);
    let s = fourth.world().resource::<Settings>();
    assert_eq!(s.volume, 0.4);
    assert_eq!(s.level(GameKind::Reversi), 2);
    assert_eq!(s.cpu_time_ms(GameKind::Go), 800);
}

/// New game opened on Ataxx whatever was played, and at level 3 whatever the settings said: it
/// opens on the game played last (after a restart too), at the level of that game's CPU last
/// started, and the options chosen there are the ones offered next time. A game started
/// without New game (`qi --game go --level 2`) had left New game at the settings' level.
#[test]
fn new_game_opens_on_the_last_game_and_its_level() {
    let mut app = headless();
    let dir = save_dir(&app);
    app.world_mut()
        .resource_mut::<Settings>()
        .game_mut(GameKind::Go)
        .level = 5;
    // as `qi --game go --mode cpu --level 2` starts it
    start(
        &mut app,
        GameKind::Go,
        None,
        [Player::Human, Player::Cpu { level: 2 }],
    );
    let open_new_game = |app: &mut App| {
        app.world_mut()
            .resource_mut::<NextState<Screen>>()
            .set(Screen::Title);
        app.update();
        app.update();
        app.world_mut()
            .resource_mut::<NextState<Menu>>()
            .set(Menu::NewGame);
        app.update();
        app.update();
        let m = app.world().resource::<qi::menus::new_game::NewGameModel>();
        (m.kind, m.level)
    };
    assert_eq!(open_new_game(&mut app), (GameKind::Go, 2));
    // a 9×9 game started from New game: its options are kept for next time
    let mut model = app
        .world()
        .resource::<qi::menus::new_game::NewGameModel>()
        .clone();
    model.options_mut().size = 9;
    // and who plays: two players, or the CPU with the player as the second colour
    model.mode = qi::menus::new_game::Mode::TwoPlayers;
    model.color = qi::menus::new_game::ColorChoice::Second;
    let setup = model.setup();
    qi::menus::new_game::remember_choices(
        &mut app.world_mut().resource_mut::<Settings>(),
        &model,
        &setup,
    );
    // the settings file keeps it all for the next start
    app.update();
    let mut again = new_app_in(dir);
    assert_eq!(
        again.world().resource::<Settings>().last_game(),
        Some(GameKind::Go)
    );
    assert_eq!(open_new_game(&mut again), (GameKind::Go, 2));
    let reopened = again
        .world()
        .resource::<qi::menus::new_game::NewGameModel>();
    assert_eq!(
        (reopened.mode, reopened.color),
        (
            qi::menus::new_game::Mode::TwoPlayers,
            qi::menus::new_game::ColorChoice::Second
        )
    );
    let go = again
        .world()
        .resource::<qi::menus::new_game::NewGameModel>()
        .setup();
    assert!(
        go.start_text
            .as_deref()
            .is_some_and(|t| t.starts_with("9 ")),
        "{:?}",
        go.start_text
    );
    // another game started counts too; Reversi has its own level
    start(
        &mut again,
        GameKind::Reversi,
        None,
        [Player::Human, Player::Human],
    );
    assert_eq!(open_new_game(&mut again), (GameKind::Reversi, 3));
    // a renju game on 19×19 that New game did not start (`--fen`, a slot, a record): New game
    // offers that rule and size, not the freestyle 15×15 chosen there last
    let mut renju = qi_core::gomoku::Gomoku::new(19, qi_core::gomoku::GomokuRule::Renju);
    for t in ["j10", "k10", "k11"] {
        let m = qi_core::Game::parse_move(&renju, t).unwrap();
        qi_core::Game::make(&mut renju, m);
    }
    start(
        &mut again,
        GameKind::Gomoku,
        Some(&qi_core::Game::to_text(&renju)),
        [Player::Human, Player::Cpu { level: 6 }],
    );
    assert_eq!(open_new_game(&mut again), (GameKind::Gomoku, 6));
    let offered = again
        .world()
        .resource::<qi::menus::new_game::NewGameModel>()
        .setup();
    assert_eq!(
        offered.start_text,
        Some(qi_core::Game::to_text(&qi_core::gomoku::Gomoku::new(
            19,
            qi_core::gomoku::GomokuRule::Renju
        ))),
        "an empty 19×19 renju board"
    );
    // and after a restart too
    again.update();
    let third = new_app_in(save_dir(&again));
    assert_eq!(
        third
            .world()
            .resource::<Settings>()
            .game(GameKind::Gomoku)
            .options
            .map(|o| (o.size, o.variant)),
        Some((19, 2))
    );
}

/// "Save the record" writes a record named by date, game and players that imports back to the
/// same moves.
#[test]
fn the_record_of_a_game_is_written_and_reads_back() {
    let mut app = two_players(GameKind::Ataxx);
    play(&mut app, "g2");
    play(&mut app, "a1c3");
    settle(&mut app);
    let store = app.world().resource::<qi::saves::Store>().0.clone();
    let path = qi::saves::export_record(&store, app.world().resource::<Match>()).unwrap();
    assert_eq!(path.extension().unwrap(), "pgn");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    assert!(name.ends_with("-ataxx-A-vs-B.pgn"), "{name}");
    let rec = qi_core::records::import_file(&path).unwrap();
    assert_eq!(rec.moves, vec!["g2", "a1c3"]);
    // the Records list shows it by its title
    let mut model = qi::menus::records::RecordsModel::default();
    model.refresh(Some(&store.dir().join("records")));
    assert!(
        model
            .titles
            .iter()
            .any(|t| t.starts_with("Ataxx · A vs B · ") && t.contains("2 moves")),
        "{:?}",
        model.titles
    );
}

/// A record from the Records screen replays step by step (entities follow the position), is
/// never autosaved, and "play from here" turns it into a game against the CPU.
#[test]
fn a_record_replays_and_play_from_here_vs_cpu() {
    use qi::replay::ReplayStep;
    let mut app = headless_without_animations(&[(GameKind::Reversi, 200)]);
    let rec = replay_sample(&mut app, "othello-woc");
    assert_eq!(
        count::<Piece>(&mut app),
        4,
        "the replay starts before move 1"
    );
    for _ in 0..3 {
        app.world_mut().write_message(ReplayStep::Forward);
        app.update();
        settle(&mut app);
    }
    assert_eq!(app.world().resource::<Match>().history.ply(), 3);
    // the keys step too: Right forward, Left back
    use bevy::input::keyboard::Key;
    press_key(&mut app, KeyCode::ArrowRight, Key::ArrowRight);
    settle(&mut app);
    assert_eq!(app.world().resource::<Match>().history.ply(), 4);
    press_key(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    settle(&mut app);
    assert_eq!(app.world().resource::<Match>().history.ply(), 3);
    assert!(status(&app).starts_with("Move 3 of"), "{}", status(&app));
    // three moves: 4 + 3 discs on the board
    assert_eq!(count::<Piece>(&mut app), 7);
    app.world_mut().write_message(ReplayStep::Last);
    app.update();
    settle(&mut app);
    // the file's RE[W+4] in words: a margin of discs, not SGF's letters
    assert_eq!(
        hud_view(&app).replay.and_then(|r| r.result).as_deref(),
        Some("White wins by 4 discs")
    );
    assert!(
        status(&app).ends_with("result White wins by 4 discs"),
        "{}",
        status(&app)
    );
    let g = app.world().resource::<Match>();
    assert_eq!(g.history.ply(), rec.moves.len());
    let [b, w] = g.position().piece_counts();
    assert_eq!(count::<Piece>(&mut app) as u32, b + w);
    // defect 4: after End the last move is marked
    assert!(
        markers(&mut app)
            .iter()
            .any(|(m, _)| *m == Marker::LastMove)
    );
    app.world_mut().write_message(ReplayStep::To(10));
    app.update();
    settle(&mut app);
    let human = app.world().resource::<Match>().position().side_to_move();
    assert!(!app.world().resource::<Match>().human_to_move());
    let store = app.world().resource::<qi::saves::Store>().0.clone();
    assert!(!store.has_autosave(), "a replay is not the player's game");
    app.world_mut()
        .write_message(ReplayStep::PlayFromHere { vs_cpu: true });
    app.update();
    settle(&mut app);
    let g = app.world().resource::<Match>();
    assert!(g.replay.is_none());
    assert_eq!(g.history.ply(), 10);
    assert_eq!(g.setup.players[human.index()], Player::Human);
    assert!(g.setup.players[human.other().index()].is_cpu());
    // defect 4: after Play from here the legal dots and the last move are shown
    let now = markers(&mut app);
    assert!(now.iter().any(|(m, _)| *m == Marker::Legal), "{now:?}");
    assert!(now.iter().any(|(m, _)| *m == Marker::LastMove), "{now:?}");
    let mv = app.world().resource::<Match>().position().legal_moves()[0];
    app.world_mut().write_message(MoveRequest(mv));
    let t0 = std::time::Instant::now();
    while app.world().resource::<Match>().history.ply() < 12 {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(30),
            "the CPU answered"
        );
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(store.has_autosave(), "the game played on is autosaved");
}

/// A finished game is added to the players' history file.
#[test]
fn a_finished_game_is_recorded_in_the_history() {
    let mut app = headless_without_animations(&[]);
    start(
        &mut app,
        GameKind::Ataxx,
        Some("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/oooooo1 o 0 30"),
        [Player::Cpu { level: 2 }, Player::Human],
    );
    // o (White, the person) fills the last square and loses 21-28
    play(&mut app, "g1");
    settle(&mut app);
    app.update();
    assert_eq!(in_game(&app), InGame::GameOver);
    let path = app
        .world()
        .resource::<qi::results::PlayerHistory>()
        .path
        .clone()
        .unwrap();
    let (history, problem) = qi_core::history::History::load(&path);
    assert_eq!(problem, None);
    assert_eq!(history.results.len(), 1, "one person played");
    let e = &history.results[0];
    assert_eq!(e.player, "B");
    assert_eq!(e.opponent, "A");
    assert_eq!(e.result, qi_core::history::GameOutcome::Loss);
    assert_eq!(e.score, "28-21");
    assert_eq!(e.cpu_level, Some(2));
    assert_eq!(e.moves, 1);
    let t = history.totals_for(Some("B"), GameKind::Ataxx, Some(2));
    assert_eq!(t.played(), 1);
}

/// Defects 9 and 10: Gomoku's result read "White wins 9-9" (a stone count) and the history
/// stored "9-9"; a game between two people was recorded twice (a win and a loss).
#[test]
fn a_gomoku_game_between_two_people_is_recorded_once_as_five_in_a_row() {
    let mut app = two_players(GameKind::Gomoku);
    for mv in ["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"] {
        play(&mut app, mv);
    }
    settle(&mut app);
    app.update();
    let g = app.world().resource::<Match>();
    let r = g.result().unwrap();
    assert_eq!(
        r.describe(GameKind::Gomoku),
        "Black wins with five in a row"
    );
    assert!(status(&app).contains("five in a row"), "{}", status(&app));
    let path = app
        .world()
        .resource::<qi::results::PlayerHistory>()
        .path
        .clone()
        .unwrap();
    let (history, _) = qi_core::history::History::load(&path);
    assert_eq!(history.results.len(), 1, "{:?}", history.results);
    assert_eq!(history.results[0].score, "five in a row");
    assert_eq!(
        history.results[0].result,
        qi_core::history::GameOutcome::Win
    );
    // the panel, left and opened again, records nothing more
    set_in_game(&mut app, InGame::None);
    app.world_mut()
        .write_message(qi::menus::game_over::ShowResult);
    app.update();
    app.update();
    assert_eq!(in_game(&app), InGame::GameOver);
    let (history, _) = qi_core::history::History::load(&path);
    assert_eq!(history.results.len(), 1);
}

/// Go: a player resigns; the game is over with `W+R`, the game-over panel opens, and Undo
/// takes the resignation back.
#[test]
fn go_resignation_and_taking_it_back() {
    let mut app = headless_without_animations(&[]);
    start(&mut app, GameKind::Go, None, [Player::Human, Player::Human]);
    play(&mut app, "E5");
    settle(&mut app);
    resign_black(&mut app);
    let g = app.world().resource::<Match>();
    assert!(g.is_over());
    assert_eq!(g.result().map(|r| r.sgf()).as_deref(), Some("W+R"));
    assert!(
        status(&app).contains("White wins by resignation"),
        "{}",
        status(&app)
    );
    assert_eq!(in_game(&app), InGame::GameOver);
    let g = undo_after_game_over(&mut app);
    assert_eq!(g.history.ply(), 1);
}

/// Black resigns, and the app settles.
fn resign_black(app: &mut App) {
    app.world_mut()
        .write_message(qi::game::ResignRequest(Side::Black));
    app.update();
    settle(app);
}

/// Leaves the game-over panel, presses Undo and checks that the game goes on.
fn undo_after_game_over(app: &mut App) -> &Match {
    set_in_game(app, InGame::None);
    app.world_mut().write_message(UndoRequest);
    app.update();
    let g = app.world().resource::<Match>();
    assert!(!g.is_over(), "undo takes the resignation back");
    g
}

fn hud_view(app: &App) -> qi::hud::HudView {
    qi::hud::HudView::of(
        app.world().resource::<Match>(),
        app.world().resource::<StatusLine>(),
        app.world().resource::<qi::game::ScoreView>(),
    )
}

/// Go: resigning before the first move can be taken back too (the HUD's Undo is enabled).
#[test]
fn go_resignation_at_move_zero_can_be_undone() {
    let mut app = headless_without_animations(&[]);
    start(&mut app, GameKind::Go, None, [Player::Human, Player::Human]);
    resign_black(&mut app);
    assert!(app.world().resource::<Match>().is_over());
    assert_eq!(app.world().resource::<Match>().history.ply(), 0);
    assert!(hud_view(&app).can_undo, "Undo offered after a resignation");
    undo_after_game_over(&mut app);
    assert!(!hud_view(&app).can_undo, "nothing left to undo");
}

/// Go: the HUD's area count appears once both colours are on the board.
#[test]
fn go_area_count_waits_for_both_colours() {
    let mut app = headless_without_animations(&[]);
    start(&mut app, GameKind::Go, None, [Player::Human, Player::Human]);
    play(&mut app, "E5");
    settle(&mut app);
    let line = hud_view(&app).info_line.unwrap();
    assert_eq!(line, "Komi 7.5\nCaptures: Black 0, White 0");
    play(&mut app, "C3");
    settle(&mut app);
    let line = hud_view(&app).info_line.unwrap();
    assert!(line.contains("Area now"), "{line}");
}

/// Session 36 (seen in the window): neither Go's komi nor Gomoku's rule was shown anywhere
/// in a game, so a renju game looked like freestyle until Black had a forbidden point, and a
/// Go player could not see the komi the score is counted with. The side panel says both, in a
/// game and in a replay.
#[test]
fn the_side_panel_says_the_komi_and_the_gomoku_rule() {
    use qi_core::Game as _;
    let mut app = headless_without_animations(&[]);
    start(
        &mut app,
        GameKind::Go,
        Some(&qi_core::go::Go::new(13, 6.5).unwrap().to_text()),
        [Player::Human, Player::Human],
    );
    let line = hud_view(&app).info_line.unwrap();
    assert!(line.starts_with("Komi 6.5\nCaptures"), "{line}");
    for (rule, name) in [
        (qi_core::gomoku::GomokuRule::Renju, "Rule: Renju"),
        (qi_core::gomoku::GomokuRule::Freestyle, "Rule: Freestyle"),
    ] {
        start(
            &mut app,
            GameKind::Gomoku,
            Some(&qi_core::gomoku::Gomoku::new(15, rule).to_text()),
            [Player::Human, Player::Human],
        );
        assert_eq!(hud_view(&app).info_line.as_deref(), Some(name));
    }
    // and the replay panel, which had neither: the renju example, and the 1846 game's komi
    for (file, want) in [
        ("gomoku-example-renju", "Rule: Renju"),
        ("go-1846", "Komi 0\nCaptures: Black 0, White 0"),
    ] {
        let _ = replay_sample(&mut app, file);
        let replay = hud_view(&app).replay.expect("replaying");
        assert_eq!(replay.info_line.as_deref(), Some(want), "{file}");
    }
}

/// Defect 11: a ko retake said only "d5 is not a legal move"; it says why, and the ko point
/// is marked on the board.
#[test]
fn a_ko_retake_is_explained_and_marked() {
    let mut app = headless_without_animations(&[]);
    start(
        &mut app,
        GameKind::Go,
        Some(
            "9 7.5 b ........./........./........./...XO..../..XO.O.../...XO..../........./........./.........",
        ),
        [Player::Human, Player::Human],
    );
    play(&mut app, "E5"); // Black takes the ko
    settle(&mut app);
    assert!(
        markers(&mut app)
            .iter()
            .any(|(m, n)| *m == Marker::Ko && n.ends_with(" d5")),
        "{:?}",
        markers(&mut app)
    );
    app.world_mut()
        .write_message(CellClicked(Square::new(3, 4))); // White retakes on D5
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Match>().history.ply(), 1);
    assert!(status(&app).contains("ko"), "{}", status(&app));
    // typed, the same retake gets the same words (it said "Illegal move: D5 is not legal here")
    let clicked = status(&app);
    app.world_mut().resource_mut::<StatusLine>().0.clear();
    play(&mut app, "D5");
    app.update();
    assert_eq!(app.world().resource::<Match>().history.ply(), 1);
    assert_eq!(status(&app), clicked);
}

/// An illegal move typed in the move box was refused in other words than the same move clicked
/// ("Illegal move: c5 is not legal here", in English whatever the window's language).
#[test]
fn a_typed_illegal_move_is_refused_in_the_words_of_a_click() {
    let mut app = two_players(GameKind::Reversi);
    for (text, sq) in [("a1", Square::new(0, 0)), ("d4", Square::new(3, 3))] {
        app.world_mut().write_message(CellClicked(sq));
        app.update();
        app.update();
        let clicked = status(&app);
        app.world_mut().resource_mut::<StatusLine>().0.clear();
        play(&mut app, text);
        app.update();
        assert_eq!(app.world().resource::<Match>().history.ply(), 0);
        assert_eq!(status(&app), clicked, "{text}");
    }
    assert_eq!(status(&app), "d4 is taken");
}

/// A Reversi game from the start, the person Black against the CPU at `level`, which
/// thinks `ms` milliseconds a move.
fn reversi_against_cpu(ms: u32, level: u8) -> Headless {
    let mut app = headless_without_animations(&[(GameKind::Reversi, ms)]);
    start(
        &mut app,
        GameKind::Reversi,
        None,
        [Player::Human, Player::Cpu { level }],
    );
    app
}

/// Runs frames until the game reaches `n` moves (the CPU's answers arrive from a task).
fn wait_for_ply(app: &mut App, n: usize) {
    let t0 = std::time::Instant::now();
    while app.world().resource::<Match>().history.ply() < n {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(20),
            "still at move {}",
            app.world().resource::<Match>().history.ply()
        );
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    settle(app);
}

/// With the CPU moving first, Undo took back its first move and the CPU played it again: the
/// CPU's opening move is not the person's to take back, so Undo is off until they have moved.
#[test]
fn undo_never_takes_back_only_the_cpus_first_move() {
    let mut app = headless_without_animations(&[(GameKind::Gomoku, 50)]);
    start(
        &mut app,
        GameKind::Gomoku,
        None,
        [Player::Cpu { level: 1 }, Player::Human],
    );
    wait_for_ply(&mut app, 1);
    let first = app.world().resource::<Match>().history.moves()[0];
    assert!(
        !hud_view(&app).can_undo,
        "Undo is off after the CPU's first move"
    );
    app.world_mut().write_message(UndoRequest);
    app.update();
    app.update();
    assert_eq!(status(&app), "Nothing to undo");
    let g = app.world().resource::<Match>();
    assert_eq!(g.history.ply(), 1, "the CPU's move stays");
    assert_eq!(g.history.moves()[0], first);
    assert!(
        !g.history.can_redo(),
        "nothing was taken back to play again"
    );
    // once the person has moved and the CPU answered, Undo goes back to the person's turn
    play(&mut app, "a1");
    wait_for_ply(&mut app, 3);
    assert!(hud_view(&app).can_undo);
    app.world_mut().write_message(UndoRequest);
    app.update();
    app.update();
    let g = app.world().resource::<Match>();
    assert_eq!(g.history.ply(), 1);
    assert_eq!(g.history.moves()[0], first);
    assert!(g.human_to_move());
}

/// Defect 16: "back to move 4" while the HUD said "Move 5": one numbering everywhere.
#[test]
fn move_numbers_agree() {
    let mut app = two_players(GameKind::Reversi);
    for mv in ["d3", "c3", "c4", "e3", "f2"] {
        play(&mut app, mv);
    }
    settle(&mut app);
    assert_eq!(hud_view(&app).ply, 5);
    assert!(status(&app).starts_with("Move 5:"), "{}", status(&app));
    app.world_mut().write_message(UndoRequest);
    app.update();
    app.update();
    assert_eq!(hud_view(&app).ply, 4);
    assert_eq!(status(&app), "Undone: back to move 4");
}

/// Defect 15: a damaged autosave was set aside without a word and Continue was greyed.
#[test]
fn a_damaged_autosave_is_kept_and_the_player_is_told() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = fresh_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("autosave.ron"), "(version: 1, game: Chess").unwrap();
    let mut app = new_app_in(dir.clone());
    app.update();
    let notice = app
        .world()
        .resource::<qi::menus::main_menu::MainMenuModel>()
        .notice
        .clone()
        .or_else(|| app.world().resource::<qi::saves::Autosave>().notice.clone())
        .expect("the player is told");
    assert!(notice.contains("could not be continued"), "{notice}");
    assert!(!app.world().resource::<qi::saves::Autosave>().available);
    let kept = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("autosave.ron.bad")
        });
    assert!(kept, "the damaged file is kept");
}

/// CPU against CPU: a level per side, and the game can be paused and stepped.
#[test]
fn cpu_against_cpu_pauses_and_steps() {
    use qi::hud::CpuControl;
    let mut app = headless_without_animations(&[(GameKind::Reversi, 100)]);
    start(
        &mut app,
        GameKind::Reversi,
        None,
        [Player::Cpu { level: 1 }, Player::Cpu { level: 2 }],
    );
    app.world_mut().write_message(CpuControl::Pause);
    app.update();
    for _ in 0..50 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // at most the move in flight lands; then nothing moves
    let paused_at = app.world().resource::<Match>().history.ply();
    for _ in 0..60 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        app.world().resource::<Match>().history.ply(),
        paused_at,
        "paused"
    );
    app.world_mut().write_message(CpuControl::Step);
    let t0 = std::time::Instant::now();
    while app.world().resource::<Match>().history.ply() == paused_at {
        assert!(t0.elapsed() < std::time::Duration::from_secs(20));
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    for _ in 0..60 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        app.world().resource::<Match>().history.ply(),
        paused_at + 1,
        "one step is one move"
    );
}

/// The CPU keeps the time per move the settings give it (overshoot at most 10% or 20 ms, in the
/// best of three moves, so a busy machine's hiccup does not decide it).
#[test]
fn the_cpu_keeps_its_time_per_move() {
    let mut app = headless_without_animations(&[(GameKind::Reversi, 300)]);
    start(
        &mut app,
        GameKind::Reversi,
        None,
        [Player::Cpu { level: 6 }, Player::Cpu { level: 6 }],
    );
    let mut best = f32::MAX;
    let mut seen = 0;
    let t0 = std::time::Instant::now();
    while seen < 3 {
        assert!(t0.elapsed() < std::time::Duration::from_secs(60));
        let before = app.world().resource::<qi::cpu::Thinking>().last_search_secs;
        app.update();
        let after = app.world().resource::<qi::cpu::Thinking>().last_search_secs;
        if let Some(a) = after
            && after != before
        {
            best = best.min(a);
            seen += 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(
        best <= 0.3 * 1.1 + 0.02,
        "best of three moves took {best:.3} s for 0.3 s"
    );
    assert!(best >= 0.1, "level 6 uses its time ({best:.3} s)");
}

/// Gomoku shows move numbers on its stones by default (as Piskvork and Yixin do); Settings
/// turns them off.
#[test]
fn gomoku_stones_carry_their_move_numbers() {
    use qi::board::MoveNumber;
    let mut app = two_players(GameKind::Gomoku);
    for mv in ["h8", "h9", "j8"] {
        play(&mut app, mv);
    }
    settle(&mut app);
    let mut n: Vec<usize> = app
        .world_mut()
        .query::<&MoveNumber>()
        .iter(app.world())
        .map(|m| m.0)
        .collect();
    n.sort();
    assert_eq!(n, vec![1, 2, 3]);
    app.world_mut()
        .resource_mut::<Settings>()
        .game_mut(GameKind::Gomoku)
        .move_numbers = Some(false);
    app.update();
    app.update();
    assert_eq!(count::<MoveNumber>(&mut app), 0);
    drop(app); // one app at a time
    // Reversi shows none by default
    let mut app2 = two_players(GameKind::Reversi);
    play(&mut app2, "d3");
    settle(&mut app2);
    assert_eq!(count::<MoveNumber>(&mut app2), 0);
}

/// Settings → Theme: the light theme changes the window's colours (and the board is drawn
/// again in them); the choice is kept in the settings file.
#[test]
fn the_light_theme_changes_the_window() {
    use qi::theme::palette::{self, Theme};
    let mut app = two_players(GameKind::Go);
    let generation = app.world().resource::<qi::board::BoardGeneration>().0;
    app.world_mut().resource_mut::<Settings>().theme = Theme::Light;
    app.update();
    app.update();
    assert_eq!(palette::theme(), Theme::Light);
    assert_eq!(
        app.world().resource::<ClearColor>().0,
        palette::to_bevy(palette::LIGHT.clear)
    );
    assert!(
        app.world().resource::<qi::board::BoardGeneration>().0 > generation,
        "the board was drawn again"
    );
    let dir = app
        .world()
        .resource::<qi::saves::Store>()
        .0
        .dir()
        .to_path_buf();
    let text = std::fs::read_to_string(dir.join("settings.ron")).unwrap();
    assert!(text.contains("Light"), "{text}");
    app.world_mut().resource_mut::<Settings>().theme = Theme::Dark;
    app.update();
    assert_eq!(palette::theme(), Theme::Dark);
}

/// What the main menu says after `qi --record <file>` with `text` in the file, in `lang`.
fn bad_record_notice(text: &str, lang: qi::i18n::Lang) -> String {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = fresh_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("broken.sgf");
    std::fs::write(&bad, text).unwrap();
    let notice = title_notice(
        Args {
            save_dir: Some(dir),
            record: Some(bad),
            lang: Some(lang),
            ..Args::default()
        },
        3,
    );
    qi::i18n::set_lang(qi::i18n::Lang::EnUs);
    notice
}

/// An app started with `args` (the caller holds the one-app lock): after `frames` frames it
/// is on the title screen, and the main menu's notice is returned.
fn title_notice(args: Args, frames: usize) -> String {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin));
    app.insert_resource(args);
    app.add_plugins(qi::plugin);
    for _ in 0..frames {
        app.update();
    }
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Title
    );
    app.world()
        .resource::<qi::menus::main_menu::MainMenuModel>()
        .notice
        .clone()
        .expect("the player is told")
}

/// `qi --game go` without `--level` plays at the level Go was last started with (it played
/// level 3 and made that New game's level), and `--level 2` at 2, which New game then offers.
#[test]
fn the_command_line_level_defaults_to_the_games_own() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = fresh_dir();
    let mut first = new_app_in(dir.clone());
    first
        .world_mut()
        .resource_mut::<Settings>()
        .game_mut(GameKind::Go)
        .level = 5;
    // the settings file is written
    first.update();
    drop(first);
    let cpu_level = |level: Option<u8>| {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin));
        app.insert_resource(Args {
            save_dir: Some(dir.clone()),
            lang: Some(qi::i18n::Lang::EnUs),
            game: Some(GameKind::Go),
            level,
            ..Args::default()
        });
        app.add_plugins(qi::plugin);
        for _ in 0..4 {
            app.update();
        }
        let players = app.world().resource::<Match>().setup.players;
        let kept = app.world().resource::<Settings>().level(GameKind::Go);
        (players, kept)
    };
    assert_eq!(
        cpu_level(None),
        ([Player::Human, Player::Cpu { level: 5 }], 5)
    );
    assert_eq!(
        cpu_level(Some(2)),
        ([Player::Human, Player::Cpu { level: 2 }], 2)
    );
}

/// `qi --game go --fen` with a position that cannot be read: the main menu opens and says
/// why (it was only logged, and the title came up without a word).
#[test]
fn a_bad_start_position_is_said_on_the_main_menu() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let notice = title_notice(
        Args {
            save_dir: Some(fresh_dir()),
            game: Some(GameKind::Go),
            fen: Some("13 7 w ..../..".into()),
            ..Args::default()
        },
        5,
    );
    assert!(notice.starts_with("Cannot start the game: "), "{notice}");
}

/// `qi --record` with a file that is not a record: the main menu opens and says why, in the
/// window's language: the reason is a translated sentence that names the move, the property or
/// the format at fault (in zh-CN it was the core's English detail).
#[test]
fn a_bad_record_on_the_command_line_is_reported_on_the_main_menu() {
    use qi::i18n::Lang;
    let truncated = "(;GM[1]FF[4]SZ[19];B[zz];W[";
    let notice = bad_record_notice(truncated, Lang::EnUs);
    assert_eq!(
        notice,
        "Cannot open broken.sgf: the SGF text is not well formed"
    );
    // the file is named once, by the translated sentence, not again by the core's detail
    assert_eq!(notice.matches("broken.sgf").count(), 1, "{notice}");
    let cases = [
        (truncated, "无法打开 broken.sgf：SGF 文本格式有误"),
        (
            "(;GM[1]SZ[9];B[ee];W[ee])",
            "无法打开 broken.sgf：第 2 手（E5）无法下出",
        ),
        (
            "(;GM[1]SZ[9]KM[lots];B[ee])",
            "无法打开 broken.sgf：无法读取 KM[lots]",
        ),
        (
            "(;GM[7];B[aa])",
            "无法打开 broken.sgf：这是 Qi 在这里不下的棋种的棋谱（GM[7]）",
        ),
        (
            "hello",
            "无法打开 broken.sgf：这既不是 SGF 棋谱，也不是 PGN 棋谱",
        ),
        ("", "无法打开 broken.sgf：文件是空的"),
    ];
    for (text, want) in cases {
        assert_eq!(bad_record_notice(text, Lang::ZhCn), want, "{text}");
    }
    // and in English, the same cases name the same facts
    assert_eq!(
        bad_record_notice("(;GM[1]SZ[9];B[ee];W[ee])", Lang::EnUs),
        "Cannot open broken.sgf: move 2 (E5) cannot be played"
    );
}

/// A damaged history file: the Records screen's message about it is in the window's language
/// (it was the core's English), and the bad file is kept aside under the name it gives.
#[test]
fn a_damaged_history_file_is_reported_in_the_windows_language() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = fresh_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(qi_core::storage::HISTORY_FILE),
        "(version: 1, results: [(date: ",
    )
    .unwrap();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin));
    app.insert_resource(Args {
        save_dir: Some(dir.clone()),
        lang: Some(qi::i18n::Lang::ZhCn),
        ..Args::default()
    });
    app.add_plugins(qi::plugin);
    for _ in 0..3 {
        app.update();
    }
    let problem = app
        .world()
        .resource::<qi::results::PlayerHistory>()
        .problem
        .clone()
        .expect("the damaged file is reported");
    let text = qi::saves::load_problem_text(&problem);
    qi::i18n::set_lang(qi::i18n::Lang::EnUs);
    let kept = problem.kept.clone().expect("kept aside");
    assert!(dir.join(&kept).exists(), "{kept}");
    assert!(
        text.starts_with("无法读取 history.ron：文件已损坏或不完整（"),
        "{text}"
    );
    assert!(
        text.ends_with(&format!("。已改用默认值，旧文件另存为 {kept}")),
        "{text}"
    );
    assert!(
        qi::saves::load_problem_text(&problem)
            .starts_with("history.ron cannot be read: the file is damaged or truncated ("),
        "{text}"
    );
}

/// A save the disk refuses says why in the window's language: what Qi was doing to which
/// file, and a full disk, a refusal, a read-only disk or a missing folder in words of the
/// translation files (the system's English before); anything else in the system's words.
#[test]
fn a_failed_write_is_reported_in_the_windows_language() {
    use qi_core::saves::SaveError;
    use qi_core::storage::{DiskAction, DiskError};
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let slot = std::path::Path::new("/x/slot-1.ron");
    let io = |k| std::io::Error::from(k);
    let full = SaveError::Io(DiskError::of(
        &io(std::io::ErrorKind::StorageFull),
        DiskAction::Write,
        slot,
    ));
    let denied = SaveError::Io(DiskError::of(
        &io(std::io::ErrorKind::PermissionDenied),
        DiskAction::Delete,
        slot,
    ));
    let odd = SaveError::Io(DiskError::of(
        &std::io::Error::other("odd"),
        DiskAction::SetAside,
        slot,
    ));
    let text = SaveError::Io(DiskError::other("a recursion limit"));
    qi::i18n::set_lang(qi::i18n::Lang::ZhCn);
    let zh = [&full, &denied, &odd, &text].map(qi::saves::save_error_text);
    qi::i18n::set_lang(qi::i18n::Lang::EnUs);
    assert_eq!(
        zh,
        [
            "无法写入 /x/slot-1.ron（磁盘已满）",
            "无法删除 /x/slot-1.ron（Qi 无权写入那里）",
            "无法把读不了的 /x/slot-1.ron 移到一旁（odd）",
            "无法生成文件的内容（a recursion limit）",
        ]
    );
    assert_eq!(
        qi::saves::save_error_text(&full),
        "cannot write /x/slot-1.ron (the disk is full)"
    );
    // and a real failure: the save folder is a file, so nothing can be written in it
    let dir = fresh_dir();
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    std::fs::write(&dir, "not a folder").unwrap();
    let store = qi_core::saves::SaveStore::new(dir.clone());
    let save = qi_core::saves::SaveGame::new(
        &qi_core::any::GameHistory::new(
            qi_core::any::AnyPosition::start(GameKind::Reversi).unwrap(),
        ),
        [
            qi_core::saves::PlayerInfo::human("Ann"),
            qi_core::saves::PlayerInfo::human("Bo"),
        ],
        qi_core::saves::Clocks::default(),
    );
    let e = store.save(1, &save, true).unwrap_err();
    assert!(matches!(e, SaveError::Io(_)), "{e}");
    qi::i18n::set_lang(qi::i18n::Lang::ZhCn);
    let said = qi::saves::save_error_text(&e);
    qi::i18n::set_lang(qi::i18n::Lang::EnUs);
    // said in Chinese: the slot's file cannot be moved aside, for its folder is not there
    assert_eq!(
        said,
        format!(
            "无法把读不了的 {} 移到一旁（文件夹不存在）",
            dir.join("slot-1.ron").display()
        )
    );
}

/// An autosave that fails is said on the status line (it was only logged), once and not
/// after every move; the game goes on.
#[test]
fn a_failing_autosave_is_said_once_and_the_game_goes_on() {
    // (one app at a time: the tests that switch the process-wide language hold the same lock,
    // and without it this test read its status line in Chinese once, in CI under load)
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = fresh_dir();
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    std::fs::write(&dir, "not a folder").unwrap();
    let mut app = new_app_in(dir.clone());
    start(
        &mut app,
        GameKind::Reversi,
        None,
        [Player::Human, Player::Human],
    );
    play(&mut app, "d3");
    for _ in 0..60 {
        if status(&app).contains("autosaved") {
            break;
        }
        app.update();
    }
    let said = status(&app);
    assert!(
        said.starts_with("The game is not being autosaved: "),
        "{said}"
    );
    assert!(said.contains(&dir.display().to_string()), "{said}");
    play(&mut app, "c3");
    for _ in 0..60 {
        app.update();
    }
    assert!(!status(&app).contains("autosaved"), "{}", status(&app));
    assert_eq!(app.world().resource::<Match>().history.ply(), 2);
}

/// The window in Chinese (Settings → 语言): the status line, the side names and the HUD's
/// result come from the zh-CN file; back in English, the same game speaks English at once.
#[test]
fn a_go_game_in_chinese_then_back_in_english() {
    use qi::i18n::Lang;
    let mut app = headless_without_animations(&[]);
    app.world_mut().resource_mut::<Settings>().language = Lang::ZhCn;
    app.update();
    start(&mut app, GameKind::Go, None, [Player::Human, Player::Human]);
    assert_eq!(status(&app), "新对局：轮到黑方");
    play(&mut app, "D4");
    settle(&mut app);
    assert_eq!(status(&app), "第 1 手：黑方下 D4");
    resign_black(&mut app);
    assert_eq!(status(&app), "黑方认输：白方中盘胜（对方认输）");
    assert_eq!(
        hud_view(&app).result.as_deref(),
        Some("白方中盘胜（对方认输）")
    );
    // a damaged save says why in Chinese too (the reason was the core's English)
    let store = app.world().resource::<qi::saves::Store>().0.clone();
    std::fs::create_dir_all(store.dir()).unwrap();
    std::fs::write(store.slot_path(2).unwrap(), "(version: 1, game: Chess").unwrap();
    let reason = match store.slot_info(2).state {
        qi_core::saves::SlotState::Unreadable(e) => qi::saves::slot_reason(&e),
        other => panic!("{other:?}"),
    };
    assert!(reason.starts_with("文件已损坏或不完整（"), "{reason}");
    app.world_mut().resource_mut::<Settings>().language = Lang::EnUs;
    app.update();
    let reason = match store.slot_info(2).state {
        qi_core::saves::SlotState::Unreadable(e) => qi::saves::slot_reason(&e),
        other => panic!("{other:?}"),
    };
    assert!(
        reason.starts_with("the file is damaged or truncated ("),
        "{reason}"
    );
    app.update();
    assert_eq!(
        hud_view(&app).result.as_deref(),
        Some("White wins by resignation")
    );
}

/// Session 36 (seen in Xvfb): after Settings → 简体中文 in a game, the side panel kept the
/// opening's line in English ("Opening: Diagonal") until the next move, and the status line
/// its last message in English; the opening follows the language at once, and back, and the
/// status line says the switch in the new language.
#[test]
fn the_opening_line_follows_a_language_switch() {
    use qi::i18n::Lang;
    let mut app = two_players(GameKind::Reversi);
    play(&mut app, "d3");
    settle(&mut app);
    play(&mut app, "c3");
    settle(&mut app);
    let opening = |app: &App| {
        app.world()
            .resource::<qi::openings::OpeningShown>()
            .text
            .clone()
    };
    assert_eq!(opening(&app).as_deref(), Some("Opening: Diagonal"));
    app.world_mut().resource_mut::<Settings>().language = Lang::ZhCn;
    app.update();
    app.update();
    assert_eq!(opening(&app).as_deref(), Some("开局：Diagonal"));
    // the status line said "Move 2: White played c3" in English; it now says the switch
    assert_eq!(status(&app), "界面语言：简体中文");
    app.world_mut().resource_mut::<Settings>().language = Lang::EnUs;
    app.update();
    app.update();
    assert_eq!(opening(&app).as_deref(), Some("Opening: Diagonal"));
    assert_eq!(status(&app), "Language: English");
}

/// Whole-game analysis while replaying a record: it runs in the background, every move gets a
/// review, N jumps to a marked move, and the record saved from the replay keeps the analysis,
/// which a second replay of that file reads back.
#[test]
fn a_replayed_game_is_analysed_jumped_through_and_saved_with_its_analysis() {
    let mut app = headless_without_animations(&[]);
    let rec = qi_core::records::import_file(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/saves/othello-woc-2018-aunchulee-fukuchi.sgf"
    )))
    .unwrap();
    let m = qi::replay::replay_match(&rec, "woc").unwrap();
    app.world_mut()
        .write_message(qi::menus::LoadMatch(Box::new(m)));
    for _ in 0..3 {
        app.update();
    }
    app.world_mut()
        .write_message(qi::analysis::AnalysisRequest::Start { budget_ms: 20 });
    let began = std::time::Instant::now();
    loop {
        app.update();
        let done = app
            .world()
            .resource::<Match>()
            .replay
            .as_ref()
            .unwrap()
            .analysis
            .is_some();
        if done {
            break;
        }
        assert!(
            began.elapsed().as_secs() < 120,
            "the analysis did not finish"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let a = app
        .world()
        .resource::<Match>()
        .replay
        .clone()
        .unwrap()
        .analysis
        .unwrap();
    assert_eq!(a.positions.len(), rec.moves.len() + 1);
    assert_eq!(a.moves.len(), rec.moves.len());
    let marked = a.next_marked(0, qi_core::analysis::Mark::Inaccuracy, false);
    assert!(marked.is_some(), "a real game has some marked move");
    press_key(
        &mut app,
        KeyCode::KeyN,
        bevy::input::keyboard::Key::Character("n".into()),
    );
    settle(&mut app);
    assert_eq!(Some(app.world().resource::<Match>().history.ply()), marked);
    // saved from the replay: the whole game with its analysis
    app.world_mut()
        .write_message(qi::saves::FileRequest::ExportRecord);
    app.update();
    app.update();
    let dir = app
        .world()
        .resource::<qi::saves::Store>()
        .0
        .dir()
        .join("records");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .path();
    let back = qi_core::records::import_file(&file).unwrap();
    assert_eq!(back.moves.len(), rec.moves.len());
    let again = qi::replay::replay_match(&back, "again").unwrap();
    assert_eq!(again.replay.unwrap().analysis, Some(a.stored()));
}

/// Go: T shows the territory map from the playouts (area marks on the board, the estimate in
/// the status line), and T again hides it.
#[test]
fn go_territory_map_on_and_off() {
    let mut app = headless_without_animations(&[]);
    start(&mut app, GameKind::Go, None, [Player::Human, Player::Human]);
    for m in ["D4", "Q16", "D16", "Q4", "K10"] {
        play(&mut app, m);
        settle(&mut app);
    }
    press_key(
        &mut app,
        KeyCode::KeyT,
        bevy::input::keyboard::Key::Character("t".into()),
    );
    let began = std::time::Instant::now();
    while app.world().resource::<qi::board::GameMarks>().0.is_empty() {
        assert!(began.elapsed().as_secs() < 60, "no territory map");
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let marks = app.world().resource::<qi::board::GameMarks>().0.clone();
    assert!(marks.iter().any(|(_, m)| *m == Marker::AreaBlack));
    assert!(marks.iter().any(|(_, m)| *m == Marker::AreaWhite));
    assert!(
        status(&app).starts_with("Territory (T): estimate "),
        "{}",
        status(&app)
    );
    press_key(
        &mut app,
        KeyCode::KeyT,
        bevy::input::keyboard::Key::Character("t".into()),
    );
    assert!(app.world().resource::<qi::board::GameMarks>().0.is_empty());
}

/// C shows the candidate moves with their values while replaying (best first, one label on
/// each), and hides them again.
#[test]
fn candidates_on_the_board_while_replaying() {
    let mut app = headless_without_animations(&[]);
    let rec = qi_core::records::import_file(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/saves/othello-woc-2018-aunchulee-fukuchi.sgf"
    )))
    .unwrap();
    let mut m = qi::replay::replay_match(&rec, "woc").unwrap();
    m.history.go_to(50);
    app.world_mut()
        .write_message(qi::menus::LoadMatch(Box::new(m)));
    for _ in 0..3 {
        app.update();
    }
    press_key(
        &mut app,
        KeyCode::KeyC,
        bevy::input::keyboard::Key::Character("c".into()),
    );
    let began = std::time::Instant::now();
    while app
        .world()
        .resource::<qi::analysis::Candidates>()
        .values
        .is_empty()
    {
        assert!(began.elapsed().as_secs() < 60, "no candidates");
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    app.update();
    let values = app
        .world()
        .resource::<qi::analysis::Candidates>()
        .values
        .clone();
    assert!(values.windows(2).all(|w| w[0].1 >= w[1].1), "{values:?}");
    let pos = app.world().resource::<Match>().position().clone();
    for (sq, _) in &values {
        assert!(
            pos.legal_moves()
                .iter()
                .any(|&m| pos.move_squares(m).to == Some(*sq))
        );
    }
    assert_eq!(
        count::<qi::analysis::CandidateLabel>(&mut app),
        values.len()
    );
    // each has the line the engine expects after it; the one under the mouse is drawn,
    // numbered (a disc and a number a move)
    let lines = app
        .world()
        .resource::<qi::analysis::Candidates>()
        .lines
        .clone();
    assert_eq!(lines.len(), values.len());
    for (l, (sq, _)) in lines.iter().zip(&values) {
        assert_eq!(l.first(), Some(sq));
    }
    assert!(lines[0].len() > 1, "{lines:?}");
    assert_eq!(count::<qi::analysis::LineLabel>(&mut app), 0);
    app.world_mut()
        .resource_mut::<qi::analysis::Candidates>()
        .hovered = Some(0);
    app.update();
    assert_eq!(
        count::<qi::analysis::LineLabel>(&mut app),
        2 * lines[0].len()
    );
    press_key(
        &mut app,
        KeyCode::KeyC,
        bevy::input::keyboard::Key::Character("c".into()),
    );
    app.update();
    assert_eq!(count::<qi::analysis::CandidateLabel>(&mut app), 0);
    assert_eq!(count::<qi::analysis::LineLabel>(&mut app), 0);
}

// ---------------------------------------------------------------- online play

use qi::online::{Online, OnlineAction, OnlineRequest};
use qi_net::{Action, HostVia, JoinTarget};

fn no_animations(app: &mut App) {
    app.insert_resource(Settings {
        animation_speed: 0.0,
        cpu_vs_cpu_delay: 0.0,
        ..Default::default()
    });
}

/// Runs frames of both apps (with short sleeps: the network works in threads) until `done`.
fn pump(a: &mut App, b: &mut App, what: &str, done: impl Fn(&App, &App) -> bool) {
    let t0 = std::time::Instant::now();
    while t0.elapsed() < std::time::Duration::from_secs(20) {
        a.update();
        b.update();
        if done(a, b) {
            // a few more frames, so the follow-ups (board, HUD, autosave) run
            for _ in 0..3 {
                a.update();
                b.update();
            }
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("timed out waiting for: {what}");
}

fn ply(app: &App) -> Option<usize> {
    app.world().get_resource::<Match>().map(|m| m.history.ply())
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn result(app: &App) -> Option<qi_core::GameResult> {
    app.world().get_resource::<Match>().and_then(|m| m.result())
}

/// Two apps on this machine, a host and a joiner (by address), over the real transport on
/// loopback; returns (host, joiner, host's save folder).
fn online_pair(
    game: GameKind,
    host_side: Side,
    clock: Option<qi_core::clock::TimeControl>,
) -> (App, App, std::path::PathBuf) {
    let (host, guest, host_dir, _) = online_pair_via(game, host_side, clock, None);
    (host, guest, host_dir)
}

fn host_request(
    game: GameKind,
    host_side: Side,
    clock: Option<qi_core::clock::TimeControl>,
    via: HostVia,
) -> OnlineRequest {
    OnlineRequest::Host {
        setup: qi_core::net::Setup {
            game,
            start: qi_core::any::AnyPosition::start(game).unwrap().to_text(),
            host_side,
            clock,
        },
        name: "Ann".into(),
        via,
    }
}

/// As [`online_pair`], through the relay server `relay` (by room code) when given; also
/// returns the joiner's save folder.
fn online_pair_via(
    game: GameKind,
    host_side: Side,
    clock: Option<qi_core::clock::TimeControl>,
    relay: Option<String>,
) -> (App, App, std::path::PathBuf, std::path::PathBuf) {
    let host_dir = fresh_dir();
    let guest_dir = fresh_dir();
    let mut host = new_app_in(host_dir.clone());
    let mut guest = new_app_in(guest_dir.clone());
    no_animations(&mut host);
    no_animations(&mut guest);
    let via = match &relay {
        Some(server) => HostVia::Relay {
            server: server.clone(),
        },
        None => HostVia::Lan {
            port: 0,
            advertise: false,
        },
    };
    host.world_mut()
        .write_message(host_request(game, host_side, clock, via));
    pump(&mut host, &mut guest, "the host listens", |h, _| {
        h.world()
            .get_resource::<Online>()
            .is_some_and(|o| o.port.is_some() || o.room.is_some())
    });
    let online = host.world().resource::<Online>();
    let target = match relay {
        Some(server) => JoinTarget::Room {
            server,
            code: online.room.clone().unwrap(),
        },
        None => JoinTarget::Address(format!("127.0.0.1:{}", online.port.unwrap())),
    };
    guest.world_mut().write_message(OnlineRequest::Join {
        name: "Bo".into(),
        target,
    });
    pump(&mut host, &mut guest, "both play", |h, g| {
        screen(h) == Screen::Playing
            && screen(g) == Screen::Playing
            && ply(h) == Some(0)
            && ply(g) == Some(0)
    });
    (host, guest, host_dir, guest_dir)
}

#[test]
fn two_apps_play_online_moves_both_ways_undo_and_draw() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (mut host, mut guest, host_dir) = online_pair(GameKind::Reversi, Side::Black, None);
    {
        let h = host.world().resource::<Match>();
        assert_eq!(h.setup.players, [Player::Human, Player::Remote]);
        assert_eq!(h.setup.names, ["Ann".to_string(), "Bo".to_string()]);
        let g = guest.world().resource::<Match>();
        assert_eq!(g.setup.players, [Player::Remote, Player::Human]);
        assert_eq!(g.setup.names, ["Ann".to_string(), "Bo".to_string()]);
        assert!(
            h.human_to_move() && !g.human_to_move(),
            "Black (the host) moves first"
        );
    }
    assert!(
        status(&guest).contains("Online game against Ann"),
        "{}",
        status(&guest)
    );
    // the host plays d3: it arrives on the joiner's board
    play(&mut host, "d3");
    pump(&mut host, &mut guest, "d3 arrives", |_, g| {
        ply(g) == Some(1)
    });
    assert_eq!(
        guest.world().resource::<Match>().history.move_texts(),
        vec!["d3".to_string()]
    );
    assert_eq!(
        pieces(&mut guest).len(),
        5,
        "the joiner's board shows the move"
    );
    assert!(guest.world().resource::<Match>().human_to_move());
    // the joiner answers c3: it arrives on the host's board
    play(&mut guest, "c3");
    pump(&mut host, &mut guest, "c3 arrives", |h, _| {
        ply(h) == Some(2)
    });
    assert_eq!(
        host.world().resource::<Match>().history.move_texts(),
        vec!["d3".to_string(), "c3".to_string()]
    );
    // both autosave: the host's online save has the two moves
    let save = std::fs::read_to_string(host_dir.join(qi::online::ONLINE_SAVE)).unwrap();
    let save: qi_net::NetSave = ron::from_str(&save).unwrap();
    assert_eq!(save.session.moves, vec!["d3".to_string(), "c3".to_string()]);
    // the joiner asks to take c3 back (the U key's request); the host is asked and accepts
    guest.world_mut().write_message(UndoRequest);
    pump(&mut host, &mut guest, "the host is asked", |h, _| {
        h.world().resource::<Online>().question.is_some()
    });
    assert_eq!(
        ply(&guest),
        Some(2),
        "nothing is taken back before the answer"
    );
    host.world_mut()
        .write_message(OnlineAction(Action::AnswerUndo(true)));
    pump(&mut host, &mut guest, "both back at ply 1", |h, g| {
        ply(h) == Some(1) && ply(g) == Some(1)
    });
    assert_eq!(
        pieces(&mut host).len(),
        5,
        "the host's board rebuilt at ply 1"
    );
    // the joiner plays again, then the host offers a draw, which the joiner accepts
    play(&mut guest, "e3");
    pump(&mut host, &mut guest, "e3 arrives", |h, _| {
        ply(h) == Some(2)
    });
    host.world_mut()
        .write_message(OnlineAction(Action::OfferDraw));
    pump(&mut host, &mut guest, "the joiner is asked", |_, g| {
        g.world().resource::<Online>().question.is_some()
    });
    guest
        .world_mut()
        .write_message(OnlineAction(Action::AnswerDraw(true)));
    let draw = qi_core::GameResult::draw(qi_core::Reason::Agreement);
    pump(&mut host, &mut guest, "a draw on both", |h, g| {
        result(h) == Some(draw) && result(g) == Some(draw)
    });
    assert_eq!(in_game(&host), InGame::GameOver);
    assert_eq!(in_game(&guest), InGame::GameOver);
    // the record of the game is written with both names and the result
    let records: Vec<_> = std::fs::read_dir(host_dir.join("records"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    let text = std::fs::read_to_string(&records[0]).unwrap();
    assert!(
        text.contains("Ann") && text.contains("Bo") && text.contains("RE[0]"),
        "{text}"
    );
}

#[test]
fn an_online_flag_falls_and_a_resignation_ends_the_next_game() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // the joiner plays Black with one second on its clock and lets it run out
    let (mut host, mut guest, _) = online_pair(
        GameKind::Gomoku,
        Side::White,
        Some(qi_core::clock::TimeControl::Absolute {
            main: std::time::Duration::from_secs(1),
        }),
    );
    assert!(guest.world().resource::<Match>().human_to_move());
    let flag = qi_core::GameResult::win(Side::White, qi_core::Reason::Time);
    pump(&mut host, &mut guest, "Black's flag", |h, g| {
        result(h) == Some(flag) && result(g) == Some(flag)
    });
    assert!(status(&host).contains("wins on time"), "{}", status(&host));
    drop((host, guest));
    // a new pair: the host resigns on its first turn
    let (mut host, mut guest, _) = online_pair(GameKind::Go, Side::Black, None);
    host.world_mut().write_message(OnlineAction(Action::Resign));
    let resigned = qi_core::GameResult::win(Side::White, qi_core::Reason::Resignation);
    pump(&mut host, &mut guest, "the resignation on both", |h, g| {
        result(h) == Some(resigned) && result(g) == Some(resigned)
    });
}

#[test]
fn a_local_clock_flags_the_side_to_move() {
    let mut app = headless_without_animations(&[]);
    let setup = MatchSetup {
        kind: GameKind::Reversi,
        start_text: None,
        players: [Player::Human, Player::Human],
        names: ["A".into(), "B".into()],
        clock: Some(qi_core::clock::TimeControl::Fischer {
            main: std::time::Duration::from_millis(400),
            increment: std::time::Duration::from_secs(2),
        }),
    };
    app.world_mut().write_message(StartMatch(setup));
    for _ in 0..3 {
        app.update();
    }
    // Black moves at once: its increment keeps it far from the flag; White's time runs out
    play(&mut app, "d3");
    let t0 = std::time::Instant::now();
    while result(&app).is_none() && t0.elapsed() < std::time::Duration::from_secs(5) {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(
        result(&app),
        Some(qi_core::GameResult::win(Side::Black, qi_core::Reason::Time))
    );
    let clock = app.world().resource::<Match>().clock.clone().unwrap();
    assert!(clock.remaining(Side::Black).main > std::time::Duration::from_secs(2));
    assert!(status(&app).contains("wins on time"), "{}", status(&app));
    app.update();
    app.update();
    assert_eq!(in_game(&app), InGame::GameOver);
}

#[test]
fn an_online_game_through_a_relay_by_room_code() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let relay = qi_net::Relay::start(
        "127.0.0.1:0".parse().unwrap(),
        qi_net::RelayConfig::default(),
    )
    .unwrap();
    let server = relay.addr().to_string();
    let (mut host, mut guest, _, _) =
        online_pair_via(GameKind::Gomoku, Side::Black, None, Some(server));
    let code = host.world().resource::<Online>().room.clone().unwrap();
    assert!(code.len() >= 4, "a room code: {code}");
    play(&mut host, "h8");
    pump(&mut host, &mut guest, "h8 arrives", |_, g| {
        ply(g) == Some(1)
    });
    play(&mut guest, "j9");
    pump(&mut host, &mut guest, "j9 arrives", |h, _| {
        ply(h) == Some(2)
    });
    assert_eq!(
        host.world().resource::<Match>().history.move_texts(),
        vec!["h8".to_string(), "j9".to_string()]
    );
}

#[test]
fn a_dropped_joiner_resumes_from_its_autosave() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (mut host, guest, _, guest_dir) =
        online_pair_via(GameKind::Reversi, Side::Black, None, None);
    let mut guest = guest;
    play(&mut host, "d3");
    pump(&mut host, &mut guest, "d3 arrives", |_, g| {
        ply(g) == Some(1)
    });
    // the joiner's app goes away without a goodbye (as a crash would)
    drop(guest);
    let mut other = new_app();
    pump(&mut host, &mut other, "the host waits", |h, _| {
        h.world().resource::<Match>().hold
    });
    assert_eq!(status(&host), "Waiting for the opponent…");
    assert!(!host.world().resource::<Match>().human_to_move());
    drop(other);
    // the joiner starts again on the same saves and resumes the game from Play online
    let mut guest = new_app_in(guest_dir);
    no_animations(&mut guest);
    assert_eq!(
        guest
            .world()
            .resource::<qi::online::OnlineNotice>()
            .resumable,
        Some((GameKind::Reversi, "Ann".to_string())),
        "the menu offers to resume"
    );
    guest.world_mut().write_message(OnlineRequest::Resume);
    pump(&mut host, &mut guest, "both play again", |h, g| {
        screen(g) == Screen::Playing && ply(g) == Some(1) && !h.world().resource::<Match>().hold
    });
    assert!(status(&host).contains("is back"), "{}", status(&host));
    play(&mut guest, "c3");
    pump(&mut host, &mut guest, "c3 arrives", |h, _| {
        ply(h) == Some(2)
    });
}

#[test]
fn bad_data_from_the_network_is_reported_and_the_game_still_starts() {
    use std::io::Write;
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut host = new_app();
    let mut guest = new_app();
    no_animations(&mut host);
    no_animations(&mut guest);
    host.world_mut().write_message(host_request(
        GameKind::Reversi,
        Side::Black,
        None,
        HostVia::Lan {
            port: 0,
            advertise: false,
        },
    ));
    pump(&mut host, &mut guest, "the host listens", |h, _| {
        h.world()
            .get_resource::<Online>()
            .is_some_and(|o| o.port.is_some())
    });
    let port = host.world().resource::<Online>().port.unwrap();
    let mut raw = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    raw.write_all(b"{\"this is\": not qi}\n").unwrap();
    pump(&mut host, &mut guest, "the host says so", |h, _| {
        h.world()
            .resource::<Online>()
            .link
            .as_ref()
            .is_some_and(|l| l.contains("Unreadable data"))
    });
    drop(raw);
    // still hosting: a real joiner gets in
    guest.world_mut().write_message(OnlineRequest::Join {
        name: "Bo".into(),
        target: JoinTarget::Address(format!("127.0.0.1:{port}")),
    });
    pump(&mut host, &mut guest, "both play", |h, g| {
        screen(h) == Screen::Playing && screen(g) == Screen::Playing
    });
}

#[test]
fn the_cpu_keeps_to_its_clock() {
    let mut app = headless_without_animations(&[(GameKind::Reversi, 1000)]);
    let setup = MatchSetup {
        kind: GameKind::Reversi,
        start_text: None,
        players: [Player::Cpu { level: 6 }, Player::Human],
        names: ["CPU 6".into(), "B".into()],
        // two seconds for the game: a twentieth is 100 ms a move, not the settings' second
        clock: Some(qi_core::clock::TimeControl::Absolute {
            main: std::time::Duration::from_secs(2),
        }),
    };
    app.world_mut().write_message(StartMatch(setup));
    let t0 = std::time::Instant::now();
    while app
        .world()
        .resource::<qi::cpu::Thinking>()
        .last_search_secs
        .is_none()
    {
        assert!(t0.elapsed() < std::time::Duration::from_secs(20));
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let secs = app
        .world()
        .resource::<qi::cpu::Thinking>()
        .last_search_secs
        .unwrap();
    assert!(secs < 0.3, "the CPU took {secs:.3} s of a 2 s game");
}

/// Defect: the opponent's last move (the second pass in Go) and the game's end came in one
/// poll; the end was applied first, so the move was dropped and the board, the record and the
/// autosave stopped a move short.
#[test]
fn the_move_that_ends_an_online_game_is_on_both_boards() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (mut host, mut guest, _) = online_pair(GameKind::Go, Side::Black, None);
    play(&mut host, "pass");
    pump(&mut host, &mut guest, "the first pass arrives", |_, g| {
        ply(g) == Some(1)
    });
    play(&mut guest, "pass");
    pump(&mut host, &mut guest, "the game ends on both", |h, g| {
        result(h).is_some() && result(g).is_some()
    });
    assert_eq!(ply(&host), Some(2));
    assert_eq!(ply(&guest), Some(2));
    assert_eq!(result(&host), result(&guest));
}

#[test]
fn hosting_on_a_port_in_use_is_said_and_cancel_stops_hosting() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut host = new_app();
    let mut other = new_app();
    // a port this test holds: hosting there fails with a message on the Play online panel
    let taken = std::net::TcpListener::bind("0.0.0.0:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    host.world_mut().write_message(host_request(
        GameKind::Reversi,
        Side::Black,
        None,
        HostVia::Lan {
            port,
            advertise: false,
        },
    ));
    host.update();
    host.update();
    assert!(host.world().get_resource::<Online>().is_none());
    let notice = host
        .world()
        .resource::<qi::online::OnlineNotice>()
        .text
        .clone()
        .unwrap_or_default();
    assert!(notice.contains("Cannot start the online game"), "{notice}");
    drop(taken);
    // a free port: hosting, then Cancel closes it again
    host.world_mut().write_message(host_request(
        GameKind::Reversi,
        Side::Black,
        None,
        HostVia::Lan {
            port: 0,
            advertise: false,
        },
    ));
    pump(&mut host, &mut other, "the host listens", |h, _| {
        h.world()
            .get_resource::<Online>()
            .is_some_and(|o| o.port.is_some())
    });
    let port = host.world().resource::<Online>().port.unwrap();
    assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());
    host.world_mut().write_message(OnlineRequest::Cancel);
    pump(&mut host, &mut other, "hosting stops", |h, _| {
        h.world().get_resource::<Online>().is_none()
    });
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing listens on port {port} after Cancel"
    );
}

/// An online Reversi game from the start, the host Black, no clock.
fn reversi_online_setup() -> qi_core::net::Setup {
    qi_core::net::Setup {
        game: GameKind::Reversi,
        start: qi_core::any::AnyPosition::start(GameKind::Reversi)
            .unwrap()
            .to_text(),
        host_side: qi_core::Side::Black,
        clock: None,
    }
}

/// The network's failures are worded in the window's language (they were the system's and
/// the network layer's English): a port already in use when hosting, a refused connection when
/// joining, the relay's answers.
#[test]
fn network_failures_are_reported_in_the_windows_language() {
    use qi_net::{HostVia, JoinTarget, LinkProblem, NetEvent, NetGame};
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let setup = reversi_online_setup();
    // hosting on a port another program holds
    let holder = std::net::TcpListener::bind("0.0.0.0:0").unwrap();
    let port = holder.local_addr().unwrap().port();
    let via = HostVia::Lan {
        port,
        advertise: false,
    };
    let Err(e) = NetGame::host(setup, "Ann", via) else {
        panic!("hosting on a port in use worked");
    };
    // joining an address where nothing listens: a free port, closed again
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = free.local_addr().unwrap().to_string();
    drop(free);
    let joiner = NetGame::join("Bo", JoinTarget::Address(addr.clone()));
    let end = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let refused = loop {
        assert!(std::time::Instant::now() < end, "no connection problem");
        if let Some(NetEvent::ConnectionProblem { why }) = joiner
            .poll()
            .into_iter()
            .find(|e| matches!(e, NetEvent::ConnectionProblem { .. }))
        {
            break why;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    drop(joiner);
    let relay = LinkProblem::RelaySays("no such room".into());
    let odd_relay = LinkProblem::RelaySays("closed for lunch".into());
    qi::i18n::set_lang(qi::i18n::Lang::ZhCn);
    let zh = [
        qi::online::net_error_text(&e, Some(port)),
        qi::online::link_problem_text(&refused),
        qi::online::link_problem_text(&relay),
        qi::online::link_problem_text(&odd_relay),
        qi::online::connecting_text("relay.example:7477", Some("K7M2QX")),
    ];
    qi::i18n::set_lang(qi::i18n::Lang::EnUs);
    assert_eq!(
        zh,
        [
            format!(
                "本机的端口 {port} 已被占用（另一局或另一个程序正在使用）：请换一个端口，或填 0 使用任意空闲端口"
            ),
            format!("{addr} 拒绝连接：那里（还）没有等待中的对局"),
            "中继服务器上没有这个房间号".to_string(),
            "中继服务器答复：closed for lunch".to_string(),
            "正在连接 relay.example:7477 上的房间 K7M2QX…".to_string(),
        ]
    );
    assert_eq!(
        qi::online::link_problem_text(&refused),
        format!("{addr} refused the connection: no game is waiting there (yet)")
    );
    drop(holder);
}

/// What the game's session refuses, why a host turns a joiner away and why a session closes
/// its link reach the window as types and are worded in its language (they were the
/// protocol's English): the events of two real sessions, a forged move, an intruder and
/// garbage on the wire.
#[test]
fn session_refusals_and_closes_are_worded_in_the_windows_language() {
    use qi_core::net::protocol::{Message, encode};
    use qi_core::net::{Admission, Event, LinkEnd, Session, Timing};
    use qi_net::LinkProblem;
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let setup = reversi_online_setup();
    let now = std::time::Instant::now();
    let mut host = Session::host(setup, "Ann", Timing::default()).unwrap();
    let mut joiner = Session::join("Bo", Timing::default());
    let deliver = |from: &mut Session, to: &mut Session| {
        for f in from.take_outgoing() {
            to.receive(f.as_bytes(), now);
        }
    };
    host.link_up(now);
    joiner.link_up(now);
    for _ in 0..3 {
        deliver(&mut joiner, &mut host);
        deliver(&mut host, &mut joiner);
    }
    // the joiner (White) forges a move for Black's first turn
    let forged = encode(&Message::Move {
        ply: 0,
        mv: "d3".into(),
        spent_ms: 0,
    });
    host.take_events();
    host.receive(forged.as_bytes(), now);
    let refusal = host
        .take_events()
        .into_iter()
        .find_map(|e| match e {
            Event::Refused { why } => Some(why),
            _ => None,
        })
        .expect("the forged move is refused");
    // the host plays; the link drops, and an intruder comes while the game has its players
    host.play_text("d3", now).unwrap();
    deliver(&mut host, &mut joiner);
    host.link_down(now, "cut");
    joiner.link_down(now, "cut");
    let mut intruder = Session::join("Eve", Timing::default());
    host.link_up(now);
    intruder.link_up(now);
    deliver(&mut intruder, &mut host);
    let turned_away = host
        .take_close()
        .expect("the host closes the intruder's link");
    deliver(&mut host, &mut intruder);
    let not_admitted = intruder
        .take_events()
        .into_iter()
        .find_map(|e| match e {
            Event::NotAdmitted { reason } => Some(reason),
            _ => None,
        })
        .expect("the intruder hears why");
    assert_eq!(not_admitted, Admission::GameFull);
    // garbage on the joiner's next link
    joiner.link_up(now);
    joiner.take_outgoing();
    joiner.receive(b"GET / HTTP/1.1", now);
    let bad_data = joiner.take_close().expect("garbage closes the link");
    assert!(matches!(bad_data, LinkEnd::BadData(_)), "{bad_data:?}");
    qi::i18n::set_lang(qi::i18n::Lang::ZhCn);
    let zh = [
        qi::online::refusal_text(&refusal),
        qi::online::link_end_text(&turned_away),
        qi::online::admission_text(&not_admitted),
        qi::online::link_problem_text(&LinkProblem::Session(bad_data.clone())),
        qi::online::link_end_text(&LinkEnd::PeerSilent {
            after: Timing::default().peer_timeout,
        }),
    ];
    qi::i18n::set_lang(qi::i18n::Lang::EnUs);
    let en_refusal = qi::online::refusal_text(&refusal);
    assert_eq!(
        zh[..3],
        [
            "不轮到对方时下的 d3".to_string(),
            "拒绝了一位加入者：这局棋已经有两位棋手了".to_string(),
            "这局棋已经有两位棋手了".to_string(),
        ]
    );
    assert!(
        zh[3].starts_with("对手发来的数据无法读取：不是 Qi 的消息（"),
        "{}",
        zh[3]
    );
    let secs = Timing::default().peer_timeout.as_secs();
    assert_eq!(zh[4], format!("对手 {secs} 秒没有发来任何消息"));
    assert_eq!(en_refusal, "the move d3 when it was not their turn");
}
