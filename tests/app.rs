//! Headless app tests: the app's own plugins on MinimalPlugins (no window, no GPU), driving the
//! move flow through messages and checking the core state, the entities and the screens.

use bevy::input::InputPlugin;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use qi::board::{Anim, CellTile, Marker, Piece};
use qi::cli::Args;
use qi::game::{Match, MatchSetup, MoveRequest, Player, UndoRequest};
use qi::menus::{Menu, StartMatch};
use qi::screens::Screen;
use qi::settings::Settings;
use qi_core::{GameKind, Side, Square};

/// One app at a time: the frame-time test must not share the two cores with the others.
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

fn new_app() -> App {
    // Saves go to a folder of this test run, never the player's data folder.
    static RUN: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = RUN.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("app-saves-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    new_app_in(dir)
}

fn new_app_in(dir: std::path::PathBuf) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin));
    app.insert_resource(Args {
        save_dir: Some(dir),
        ..Args::default()
    });
    app.add_plugins(qi::plugin);
    app.update();
    app
}

/// An app with animations off (so a move settles in a frame or two) and, for the games given,
/// the CPU's time per move in milliseconds.
fn headless_without_animations(cpu_ms: &[(GameKind, u32)]) -> Headless {
    let mut app = headless();
    let mut settings = Settings {
        animation_speed: 0.0,
        ..Default::default()
    };
    for &(kind, ms) in cpu_ms {
        settings.cpu_time_ms[kind as usize] = ms;
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
    };
    app.world_mut().write_message(StartMatch(setup));
    for _ in 0..3 {
        app.update();
    }
}

fn count<C: Component>(app: &mut App) -> usize {
    app.world_mut().query::<&C>().iter(app.world()).count()
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
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::None);
    assert_eq!(count::<CellTile>(&mut app), 49);
    assert_eq!(count::<Piece>(&mut app), 48);
    play(&mut app, "g1");
    settle(&mut app);
    app.update();
    app.update();
    assert!(app.world().resource::<Match>().is_over());
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::GameOver);
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
    assert_eq!(app.world().resource::<Match>().history.ply(), 1);
    assert!(
        app.world().resource::<Match>().status.contains("Illegal"),
        "{}",
        app.world().resource::<Match>().status
    );
}

#[test]
fn undo_restores_the_entities() {
    let mut app = two_players(GameKind::Ataxx);
    let before = pieces(&mut app);
    play(&mut app, "a1b3"); // an illegal jump for x? a1 holds o: refused
    assert_eq!(app.world().resource::<Match>().history.ply(), 0);
    play(&mut app, "g1e3");
    settle(&mut app);
    assert_ne!(pieces(&mut app), before);
    app.world_mut().write_message(UndoRequest);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Match>().history.ply(), 0);
    assert_eq!(pieces(&mut app), before);
}

#[test]
fn ataxx_clicks_select_then_move() {
    use qi::board::CellClicked;
    let mut app = two_players(GameKind::Ataxx);
    // x (Red) owns a7 and g1. Click g1, then e3: a jump.
    app.world_mut()
        .write_message(CellClicked(Square::new(6, 0)));
    app.update();
    assert_eq!(
        app.world().resource::<Match>().selected,
        Some(Square::new(6, 0))
    );
    app.update();
    let jump_markers = app
        .world_mut()
        .query::<&Marker>()
        .iter(app.world())
        .filter(|m| **m == Marker::JumpTarget)
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
    assert_eq!(g.selected, None);
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

/// The CPU's reply arrives through its task on the async pool, and no frame waits for the
/// search: every update stays far below 50 ms while the CPUs think.
#[test]
fn cpu_moves_arrive_through_the_task_without_long_frames() {
    let mut app = headless_without_animations(&[(GameKind::Ataxx, 300)]);
    start(
        &mut app,
        GameKind::Ataxx,
        None,
        [Player::Cpu { level: 6 }, Player::Cpu { level: 6 }],
    );
    let t0 = std::time::Instant::now();
    let mut longest = std::time::Duration::ZERO;
    let mut thinking_frames = 0;
    while t0.elapsed() < std::time::Duration::from_secs(4) {
        let f = std::time::Instant::now();
        app.update();
        longest = longest.max(f.elapsed());
        if app.world().resource::<qi::cpu::Thinking>().is_thinking() {
            thinking_frames += 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let plies = app.world().resource::<Match>().history.ply();
    assert!(
        plies >= 3,
        "the CPUs played {plies} plies in 4 s at 300 ms per move"
    );
    assert!(
        thinking_frames > 20,
        "frames ran while the CPU thought ({thinking_frames})"
    );
    assert!(
        longest < std::time::Duration::from_millis(50),
        "longest frame {longest:?}"
    );
    println!("{plies} plies, {thinking_frames} frames while thinking, longest frame {longest:?}");
}

/// Undo while the CPU thinks stops the search at once, and its answer is never played.
#[test]
fn undo_stops_the_cpu_search() {
    let mut app = headless_without_animations(&[(GameKind::Reversi, 3000)]);
    start(
        &mut app,
        GameKind::Reversi,
        None,
        [Player::Human, Player::Cpu { level: 6 }],
    );
    play(&mut app, "d3");
    for _ in 0..5 {
        app.update();
    }
    assert!(app.world().resource::<qi::cpu::Thinking>().is_thinking());
    app.world_mut().write_message(UndoRequest);
    app.update();
    app.update();
    assert!(
        !app.world().resource::<qi::cpu::Thinking>().is_thinking(),
        "the search was stopped"
    );
    assert_eq!(app.world().resource::<Match>().history.ply(), 0);
    for _ in 0..20 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert_eq!(
        app.world().resource::<Match>().history.ply(),
        0,
        "the stopped search's move is not played"
    );
}

/// Go: two passes start dead-stone marking with the estimate shown; a click toggles a group,
/// the score follows; confirming ends the game with that score.
#[test]
fn go_dead_stone_marking_after_two_passes() {
    use qi::board::CellClicked;
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
    let g = app.world().resource::<Match>();
    assert!(
        g.is_over() && g.marking_dead(),
        "two passes start the marking"
    );
    let before = g.marked_score().unwrap().margin();
    app.update();
    assert_ne!(
        *app.world().resource::<State<Menu>>().get(),
        Menu::GameOver,
        "no game-over panel while marking"
    );
    // Toggle White's lone stone on B5.
    let was_dead = app
        .world()
        .resource::<Match>()
        .dead_marking
        .as_ref()
        .unwrap()
        .contains(&Square::new(1, 4));
    app.world_mut()
        .write_message(CellClicked(Square::new(1, 4)));
    app.update();
    let g = app.world().resource::<Match>();
    assert_eq!(
        g.dead_marking
            .as_ref()
            .unwrap()
            .contains(&Square::new(1, 4)),
        !was_dead
    );
    assert_ne!(
        g.marked_score().unwrap().margin(),
        before,
        "the score follows the marking"
    );
    if !g
        .dead_marking
        .as_ref()
        .unwrap()
        .contains(&Square::new(1, 4))
    {
        app.world_mut()
            .write_message(CellClicked(Square::new(1, 4)));
        app.update();
    }
    // the area map: B5 (dead White stone) and Black's side count for Black; the columns
    // between the two walls touch both colours and count for nobody
    app.update();
    let area: Vec<(Marker, String)> = app
        .world_mut()
        .query::<(&Marker, &Name)>()
        .iter(app.world())
        .filter(|(m, _)| matches!(m, Marker::AreaBlack | Marker::AreaWhite))
        .map(|(m, n)| (*m, n.to_string()))
        .collect();
    let has = |m: Marker, sq: &str| area.iter().any(|(k, n)| *k == m && n.ends_with(sq));
    assert!(has(Marker::AreaBlack, " b5"), "{area:?}");
    assert!(has(Marker::AreaBlack, " a1"), "{area:?}");
    assert!(
        !has(Marker::AreaBlack, " f1") && !has(Marker::AreaWhite, " f1"),
        "{area:?}"
    );
    assert!(!has(Marker::AreaWhite, " b5"), "{area:?}");
    let mut g = app.world_mut().resource_mut::<Match>();
    qi::game::confirm_dead_stones(&mut g);
    let result = g.final_result.clone().unwrap();
    assert!(
        result.starts_with("B+"),
        "Black's side is all Black's once B5 is dead: {result}"
    );
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::GameOver);
}

/// Moves are autosaved; a game saved in slot 3 loads back exactly (board entities included),
/// and an occupied slot is not overwritten without asking.
#[test]
fn save_in_slot_3_then_load_it_back() {
    use qi::menus::LoadMatch;
    use qi::saves::{Store, match_of, save_to_slot};
    let mut app = two_players(GameKind::Reversi);
    play(&mut app, "d3");
    play(&mut app, "c5");
    settle(&mut app);
    let store = app.world().resource::<Store>().0.clone();
    assert!(store.has_autosave(), "moves are autosaved");
    let saved_pieces = pieces(&mut app);
    let saved_texts = app.world().resource::<Match>().history.move_texts();
    {
        let mut g = app.world_mut().resource_mut::<Match>();
        save_to_slot(&store, &mut g, 3, false).unwrap();
        assert!(!g.dirty);
        let again = save_to_slot(&store, &mut g, 3, false).unwrap_err();
        assert!(again.needs_confirmation(), "an occupied slot asks first");
    }
    let next = {
        let pos = app.world().resource::<Match>().position().clone();
        pos.move_to_text(pos.legal_moves()[0])
    };
    play(&mut app, &next);
    settle(&mut app);
    assert_ne!(pieces(&mut app), saved_pieces);
    let loaded = match_of(store.load(3).unwrap());
    app.world_mut().write_message(LoadMatch(Box::new(loaded)));
    for _ in 0..3 {
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

/// Settings survive a restart; a settings file that cannot be read gives the defaults and is
/// kept beside the new one.
#[test]
fn settings_are_written_and_read_back_and_a_bad_file_is_kept() {
    let mut app = headless();
    let dir = app
        .world()
        .resource::<qi::saves::Store>()
        .0
        .dir()
        .to_path_buf();
    app.world_mut().resource_mut::<Settings>().volume = 0.25;
    app.update();
    app.update();
    let file = dir.join("settings.ron");
    assert!(std::fs::read_to_string(&file).unwrap().contains("0.25"));
    // a new app on the same folder reads it
    let mut again = new_app_in(dir.clone());
    again.update();
    assert_eq!(again.world().resource::<Settings>().volume, 0.25);
    // a damaged file: defaults, and the bad file kept
    std::fs::write(&file, "(volume: \"loud\"").unwrap();
    let mut third = new_app_in(dir.clone());
    third.update();
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
}

/// "Save the record" writes a record that imports back to the same moves.
#[test]
fn the_record_of_a_game_is_written_and_reads_back() {
    let mut app = two_players(GameKind::Ataxx);
    play(&mut app, "g2");
    play(&mut app, "a1c3");
    settle(&mut app);
    let store = app.world().resource::<qi::saves::Store>().0.clone();
    let path = qi::saves::export_record(&store, app.world().resource::<Match>()).unwrap();
    assert_eq!(path.extension().unwrap(), "pgn");
    let rec = qi_core::records::import_file(&path).unwrap();
    assert_eq!(rec.moves, vec!["g2", "a1c3"]);
}

/// A record from the Records screen replays step by step (entities follow the position), is
/// never autosaved, and "play from here" turns it into a game against the CPU.
#[test]
fn a_record_replays_and_play_from_here_vs_cpu() {
    use qi::replay::ReplayStep;
    let mut app = headless_without_animations(&[(GameKind::Reversi, 200)]);
    let (name, text) = qi_core::records::SAMPLES
        .iter()
        .find(|(n, _)| n.starts_with("othello-woc"))
        .unwrap();
    let rec = qi_core::records::import_text(text).unwrap();
    let m = qi::replay::replay_match(&rec, name).unwrap();
    app.world_mut()
        .write_message(qi::menus::LoadMatch(Box::new(m)));
    for _ in 0..3 {
        app.update();
    }
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
    // three moves: 4 + 3 discs on the board
    assert_eq!(count::<Piece>(&mut app), 7);
    app.world_mut().write_message(ReplayStep::Last);
    app.update();
    settle(&mut app);
    let g = app.world().resource::<Match>();
    assert_eq!(g.history.ply(), rec.moves.len());
    let [b, w] = g.position().piece_counts();
    assert_eq!(count::<Piece>(&mut app) as u32, b + w);
    // a click on the board does nothing while replaying
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
    let mv = g.position().legal_moves()[0];
    app.world_mut().write_message(MoveRequest(mv));
    let t0 = std::time::Instant::now();
    while app.world().resource::<Match>().history.ply() < 12 {
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(20),
            "the CPU answered"
        );
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(store.has_autosave(), "the game played on is autosaved");
}

/// A finished game is added to the players' history file, one entry per person.
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
    app.update();
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::GameOver);
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

/// Go: a player resigns; the game is over with `W+R`, the game-over panel opens, and Undo
/// takes the resignation back.
#[test]
fn go_resignation_and_taking_it_back() {
    let mut app = headless_without_animations(&[]);
    start(&mut app, GameKind::Go, None, [Player::Human, Player::Human]);
    play(&mut app, "E5");
    settle(&mut app);
    resign_black(&mut app);
    app.update();
    let g = app.world().resource::<Match>();
    assert!(g.is_over());
    assert_eq!(g.final_result.as_deref(), Some("W+R"));
    assert!(
        g.status.contains("White wins by resignation"),
        "{}",
        g.status
    );
    assert_eq!(*app.world().resource::<State<Menu>>().get(), Menu::GameOver);
    let (_, score) = qi::results::outcome_of(app.world().resource::<Match>()).unwrap();
    assert_eq!(score, "W+R");
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
    app.world_mut()
        .resource_mut::<NextState<Menu>>()
        .set(Menu::None);
    app.update();
    app.world_mut().write_message(UndoRequest);
    app.update();
    let g = app.world().resource::<Match>();
    assert!(!g.is_over(), "undo takes the resignation back");
    g
}

/// Go: resigning before the first move can be taken back too (the HUD's Undo is enabled).
#[test]
fn go_resignation_at_move_zero_can_be_undone() {
    let mut app = headless_without_animations(&[]);
    start(&mut app, GameKind::Go, None, [Player::Human, Player::Human]);
    resign_black(&mut app);
    let g = app.world().resource::<Match>();
    assert!(g.is_over());
    assert_eq!(g.history.ply(), 0);
    assert!(
        qi::hud::HudView::of(g).can_undo,
        "Undo offered after a resignation"
    );
    let g = undo_after_game_over(&mut app);
    assert!(!qi::hud::HudView::of(g).can_undo, "nothing left to undo");
}

/// Go: the HUD's area count appears once both colours are on the board.
#[test]
fn go_area_count_waits_for_both_colours() {
    let mut app = headless_without_animations(&[]);
    start(&mut app, GameKind::Go, None, [Player::Human, Player::Human]);
    play(&mut app, "E5");
    settle(&mut app);
    let line = qi::hud::HudView::of(app.world().resource::<Match>())
        .go_line
        .unwrap();
    assert_eq!(line, "Captures: Black 0, White 0");
    play(&mut app, "C3");
    settle(&mut app);
    let line = qi::hud::HudView::of(app.world().resource::<Match>())
        .go_line
        .unwrap();
    assert!(line.contains("Area now"), "{line}");
}
