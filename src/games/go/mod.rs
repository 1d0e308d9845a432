//! Go in the window: 9×9, 13×13 or 19×19 with handicap and komi, stones on a wooden board with
//! star points, columns without I, the ko point marked, captures and the area count in the side
//! panel, resignation, and the dead-stone marking after two passes (click a group to mark it dead
//! or alive, the score follows, then Confirm).

use bevy::prelude::*;
use bevy_egui::egui;
use qi_core::any::AnyPosition;
use qi_core::go::{Go, Illegal};
use qi_core::{GameKind, Square};

use super::{BoardStyle, ClickResult, GameOptions, GameUi, hoshi, play_line};
use crate::board::GameMarks;
use crate::game::{Match, Status};
use crate::screens::Screen;
use crate::theme::palette;

mod marking;
pub use marking::{DeadMarking, marking_marks};
use marking::{
    area_marks, confirm_marking, end_marking, end_marking_on_reset, mark_dead_on_click,
    start_marking,
};

pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            start_marking,
            mark_dead_on_click,
            confirm_marking,
            end_marking_on_reset,
        )
            .in_set(crate::AppSet::Follow)
            .run_if(in_state(Screen::Playing)),
    )
    .add_systems(OnExit(Screen::Playing), end_marking)
    .init_resource::<TerritoryMap>()
    .add_systems(
        Update,
        (toggle_territory, refresh_territory, show_territory)
            .chain()
            .in_set(crate::AppSet::Follow)
            .run_if(in_state(Screen::Playing)),
    )
    .add_systems(OnExit(Screen::Playing), hide_territory);
}

/// The territory map (key T, as Lizzie and KaTrain show it): who owns each point at the end
/// of the playouts from the position shown, drawn with the area marks, and the score estimate
/// in the status line. It follows the moves while it is shown.
#[derive(Resource, Default)]
pub struct TerritoryMap {
    pub shown: bool,
    task: Option<bevy::tasks::Task<(Vec<f32>, u64)>>,
    /// The position hash the map is for.
    for_position: Option<u64>,
}

/// Playouts for one map on a 9×9 board (more on larger boards): about half a second on one
/// core of the machine in the README.
const TERRITORY_PLAYOUTS: u64 = 4_000;

fn toggle_territory(
    keys: Res<ButtonInput<KeyCode>>,
    game: Option<Res<Match>>,
    marking: Option<Res<DeadMarking>>,
    mut map: ResMut<TerritoryMap>,
    mut marks: ResMut<GameMarks>,
    in_game: Option<Res<State<crate::menus::InGame>>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    if !keys.just_pressed(KeyCode::KeyT)
        || marking.is_some()
        || in_game.is_some_and(|s| *s.get() != crate::menus::InGame::None)
        || egui.is_some_and(|e| e.wants_keyboard_input())
        || game.is_none_or(|g| g.kind() != GameKind::Go)
    {
        return;
    }
    map.shown = !map.shown;
    map.for_position = None;
    map.task = None;
    if !map.shown {
        marks.0.clear();
    }
    info!("qi: territory map {}", if map.shown { "on" } else { "off" });
}

/// Starts a map for the position shown when it has none (the playouts run in the background).
fn refresh_territory(game: Option<Res<Match>>, mut map: ResMut<TerritoryMap>) {
    if !map.shown || map.task.is_some() {
        return;
    }
    let Some(game) = game else { return };
    let pos = game.position();
    let hash = pos.hash();
    if map.for_position == Some(hash) {
        return;
    }
    let Some(go) = pos.as_go().cloned() else {
        return;
    };
    map.for_position = Some(hash);
    map.task = Some(bevy::tasks::AsyncComputeTaskPool::get().spawn(async move {
        let mut cpu = qi_core::ai::go::GoCpu::new(3);
        let scale = (go.size() as u64 * go.size() as u64).div_ceil(81).min(3);
        (cpu.analyse(&go, TERRITORY_PLAYOUTS * scale, hash), hash)
    }));
}

fn show_territory(
    mut map: ResMut<TerritoryMap>,
    game: Option<Res<Match>>,
    marking: Option<Res<DeadMarking>>,
    mut marks: ResMut<GameMarks>,
    mut status: MessageWriter<Status>,
) {
    let Some(task) = map.task.as_mut() else {
        return;
    };
    let Some((own, hash)) = bevy::tasks::block_on(bevy::tasks::poll_once(task)) else {
        return;
    };
    map.task = None;
    let Some(game) = game else { return };
    let pos = game.position();
    // a map for a position no longer shown, or during the scoring, is dropped
    let Some(go) = pos
        .as_go()
        .filter(|_| pos.hash() == hash && marking.is_none())
    else {
        map.for_position = None;
        return;
    };
    marks.0 = territory_marks(pos, &own);
    let lead = own.iter().sum::<f32>() - go.komi();
    let estimate = if lead >= 0.0 {
        format!("B+{:.1}", lead)
    } else {
        format!("W+{:.1}", -lead)
    };
    info!(
        "qi: territory map for ply {}: {estimate}",
        game.history.ply()
    );
    status.write(Status(t!("status-territory", estimate = estimate)));
}

fn hide_territory(mut map: ResMut<TerritoryMap>) {
    *map = TerritoryMap::default();
}

/// The area marks of an ownership map: a point counts for a side when the playouts clearly give
/// it to that side (ownership ±0.4, 70% of them, for an empty point; ±0.8, 90%, for a stone of
/// the other side, which is then likely dead).
pub fn territory_marks(pos: &AnyPosition, own: &[f32]) -> Vec<(Square, crate::board::Marker)> {
    let Some(go) = pos.as_go() else {
        return Vec::new();
    };
    area_marks(go, |sq, i| {
        let o = own.get(i).copied().unwrap_or(0.0);
        let side = if o > 0.0 {
            qi_core::Side::Black
        } else {
            qi_core::Side::White
        };
        let sure = match pos.cell(sq) {
            qi_core::Cell::Piece(s) if s == side => false,
            // a stone the playouts mostly lose: likely dead
            qi_core::Cell::Piece(_) => o.abs() >= 0.8,
            _ => o.abs() >= 0.4,
        };
        sure.then_some(side)
    })
}

pub struct GoUi;

impl GameUi for GoUi {
    fn kind(&self) -> GameKind {
        GameKind::Go
    }

    fn title(&self) -> String {
        t!("game-go")
    }

    fn passes_by_choice(&self) -> bool {
        true
    }

    /// 5 s: level 6 has no playout cap and spends 75-100% of its move time (the core's Go
    /// time management); levels 1-5 are bound by playouts and usually answer sooner.
    fn default_cpu_time_ms(&self) -> u32 {
        5000
    }

    fn score_is_win_rate(&self) -> bool {
        true // qi_core::ai::go: the side to move's win rate
    }

    fn default_options(&self) -> GameOptions {
        GameOptions {
            variant: 0,
            size: 19,
            handicap: 0,
            komi: qi_core::go::DEFAULT_KOMI,
        }
    }

    fn options_ui(&self, ui: &mut egui::Ui, o: &mut GameOptions) -> bool {
        let mut clicked = super::size_buttons(ui, GameKind::Go, &mut o.size);
        ui.separator();
        ui.label(t!("go-handicap"));
        let before = o.handicap;
        let max = if o.size % 2 == 1 { 9 } else { 4 };
        egui::ComboBox::from_id_salt("go_handicap")
            .selected_text(if o.handicap < 2 {
                t!("go-handicap-none")
            } else {
                o.handicap.to_string()
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut o.handicap, 0, t!("go-handicap-none"));
                for h in 2..=max {
                    ui.selectable_value(&mut o.handicap, h, h.to_string());
                }
            });
        if before != o.handicap {
            o.komi = if o.handicap >= 2 {
                qi_core::go::DEFAULT_HANDICAP_KOMI
            } else {
                qi_core::go::DEFAULT_KOMI
            };
            clicked = true;
        }
        ui.label(t!("go-komi"));
        ui.add(
            egui::DragValue::new(&mut o.komi)
                .speed(0.5)
                .range(-50.0..=50.0),
        );
        o.komi = (o.komi * 2.0).round() / 2.0;
        clicked
    }

    fn cycle_option(&self, o: &mut GameOptions, delta: isize) {
        o.size = super::cycle(&[9u8, 13, 19], o.size, delta);
    }

    fn start_text(&self, o: &GameOptions) -> Option<String> {
        let pos = if o.handicap >= 2 {
            Go::with_handicap(o.size, o.handicap, o.komi)
        } else {
            Go::new(o.size, o.komi)
        };
        pos.ok().map(|p| qi_core::Game::to_text(&p))
    }

    /// The size and komi of the start; its handicap where it is a handicap start (Black's
    /// stones only, White to move).
    fn options_of(&self, start: &AnyPosition) -> Option<GameOptions> {
        let AnyPosition::Go(g) = start else {
            return None;
        };
        let stones =
            |side: qi_core::Side| g.points().filter(|&p| g.stone_at(p) == Some(side)).count();
        let black = stones(qi_core::Side::Black);
        let handicap = if stones(qi_core::Side::White) == 0
            && qi_core::Game::side_to_move(g.as_ref()) == qi_core::Side::White
            && (2..=9).contains(&black)
        {
            black as u8
        } else {
            0
        };
        Some(GameOptions {
            variant: 0,
            size: g.size(),
            handicap,
            komi: g.komi(),
        })
    }

    fn board_style(&self) -> BoardStyle {
        BoardStyle {
            lined: true,
            rank_one_on_top: false,
            colors: palette::WOOD_BOARD,
        }
    }

    fn column_label(&self, x: u8) -> String {
        // Go columns skip I, as GTP and the game records write them
        ((b'A' + x + u8::from(x >= 8)) as char).to_string()
    }

    fn star_points(&self, size: u8) -> Vec<Square> {
        hoshi(size)
    }

    fn click(&self, pos: &AnyPosition, _selected: Option<Square>, sq: Square) -> ClickResult {
        let Some(go) = pos.as_go() else {
            return ClickResult::Refuse(t!("refuse-not-go"));
        };
        let name = pos.move_to_text(qi_core::any::AnyMove::Go(Go::move_at(sq)));
        match go.why_illegal(sq) {
            None => ClickResult::Play(qi_core::any::AnyMove::Go(Go::move_at(sq))),
            Some(Illegal::Occupied) => ClickResult::Refuse(t!("refuse-taken", square = name)),
            Some(Illegal::Suicide) => ClickResult::Refuse(t!("refuse-go-suicide", square = name)),
            Some(Illegal::Ko) => ClickResult::Refuse(t!("refuse-go-ko", square = name)),
            Some(Illegal::GameOver) => ClickResult::Refuse(t!("status-game-over")),
            Some(Illegal::OffBoard) => ClickResult::Refuse(t!("refuse-off-board", square = name)),
        }
    }

    fn ko_point(&self, pos: &AnyPosition) -> Option<Square> {
        pos.as_go().and_then(|g| g.ko_points().first().copied())
    }

    fn can_resign(&self) -> bool {
        true
    }

    fn variant_text(&self, pos: &AnyPosition) -> Option<String> {
        let AnyPosition::Go(g) = pos else { return None };
        Some(t!("board-size", n = g.size()))
    }

    fn info_line(&self, pos: &AnyPosition) -> Option<String> {
        // the komi, which the board cannot show (KaTrain and Sabaki show it beside the game)
        let AnyPosition::Go(g) = pos else { return None };
        let komi = t!("go-komi-line", komi = qi_core::go::komi_text(g.komi()));
        let ([b, w], counts) = (pos.captures()?, pos.piece_counts());
        // no area count until both colours are down (one stone alone "owns" every point)
        let captures = if counts[0] > 0 && counts[1] > 0 {
            t!(
                "go-captures-area",
                black = b,
                white = w,
                area = pos.area_result().unwrap_or_default()
            )
        } else {
            t!("go-captures", black = b, white = w)
        };
        Some(format!("{komi}\n{captures}"))
    }

    fn rules(&self) -> String {
        t!("rules-go")
    }

    fn example_position(&self) -> Result<AnyPosition, String> {
        let go = Go::new(9, 7.5).map_err(|e| e.0)?;
        let start =
            AnyPosition::from_text(GameKind::Go, &qi_core::Game::to_text(&go)).map_err(|e| e.0)?;
        play_line(start, &["E5", "E6", "D6", "F5", "D5", "E4", "F4", "D4"])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search_info(score: i32, playouts: u64) -> qi_core::search::SearchInfo {
        qi_core::search::SearchInfo {
            depth: 3,
            score,
            nodes: playouts,
            ..Default::default()
        }
    }

    /// Go's search gives a win rate: after one move of each at level 1 the bar read "Black -24.1 ·
    /// depth 3", points that were never points, and sat at the end of its range.
    #[test]
    fn go_shows_a_win_rate() {
        // White, searching, gives itself 74.1%: Black has 25.9%
        let (v, t) = crate::hud::eval_text(
            GameKind::Go,
            &search_info(2410, 6000),
            qi_core::Side::White,
            6,
        )
        .unwrap();
        assert_eq!(t, "Black 26% to win · 6000 playouts");
        assert!((v - (25.9 - 50.0) / 50.0).abs() < 1e-4, "{v}");
        let (v, t) = crate::hud::eval_text(
            GameKind::Go,
            &search_info(0, 20_000),
            qi_core::Side::Black,
            6,
        )
        .unwrap();
        assert_eq!(t, "Black 50% to win · 20000 playouts");
        assert_eq!(v, 0.0);
        // level 1's 60 playouts and level 2's 400 say little beyond the tree's priors (the bar
        // read "Black 74% to win · 60 playouts" after one move): no bar
        for playouts in [60, 400, crate::hud::MIN_SHOWN_PLAYOUTS - 1] {
            let shown = crate::hud::eval_text(
                GameKind::Go,
                &search_info(2410, playouts),
                qi_core::Side::White,
                6,
            );
            assert_eq!(shown, None, "{playouts}");
        }
    }

    /// Candidate labels: the mover's win rate.
    #[test]
    fn candidate_labels_read_as_win_rates() {
        assert_eq!(crate::analysis::candidate_text(GameKind::Go, 2410), "74%");
    }

    /// Options written by hand that make no game are forgotten; good ones are kept.
    #[test]
    fn options_that_make_no_game_are_forgotten() {
        let text = "(games: {\"go\": (level: 4, options: Some((variant: 0, size: 7, handicap: 0, \
                    komi: 7.5))), \"gomoku\": (options: Some((variant: 1, size: 19, handicap: 0, \
                    komi: 0.0)))})";
        let s = crate::settings::settings_from_text(text).unwrap();
        assert_eq!(s.level(GameKind::Go), 4);
        assert_eq!(s.game(GameKind::Go).options, None);
        assert_eq!(s.game(GameKind::Gomoku).options.map(|o| o.size), Some(19));
        let text = text
            .replace("komi: 7.5", "komi: 1e9")
            .replace("size: 7", "size: 9");
        assert_eq!(
            crate::settings::settings_from_text(&text)
                .unwrap()
                .game(GameKind::Go)
                .options,
            None
        );
        let text = text.replace("komi: 1e9", "komi: 6.5");
        assert_eq!(
            crate::settings::settings_from_text(&text)
                .unwrap()
                .game(GameKind::Go)
                .options
                .map(|o| o.size),
            Some(9)
        );
    }

    /// Defect: a ko retake said only "d5 is not a legal move".
    #[test]
    fn a_ko_retake_says_ko_and_the_point_is_marked() {
        // Black captures on E5 in a ko shape; White may not retake at once on D5.
        let pos = AnyPosition::from_text(
            GameKind::Go,
            "9 7.5 b ........./........./........./...XO..../..XO.O.../...XO..../........./........./.........",
        )
        .unwrap();
        assert_eq!(GoUi.ko_point(&pos), None);
        let pos = play_line(pos, &["E5"]).unwrap();
        assert_eq!(
            GoUi.ko_point(&pos),
            Some(Square::new(3, 4)),
            "D5 is the ko point"
        );
        match GoUi.click(&pos, None, Square::new(3, 4)) {
            ClickResult::Refuse(msg) => assert!(msg.contains("ko"), "{msg}"),
            other => panic!("{other:?}"),
        }
        match GoUi.click(&pos, None, Square::new(4, 4)) {
            ClickResult::Refuse(msg) => assert!(msg.contains("taken"), "{msg}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn suicide_is_named() {
        let pos = AnyPosition::from_text(
            GameKind::Go,
            "9 7.5 b .O......./O......../........./........./........./........./........./........./.........",
        )
        .unwrap();
        match GoUi.click(&pos, None, Square::new(0, 8)) {
            ClickResult::Refuse(msg) => assert!(msg.contains("suicide"), "{msg}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn columns_skip_i() {
        assert_eq!(GoUi.column_label(7), "H");
        assert_eq!(GoUi.column_label(8), "J");
    }
}
