//! Candidate moves on the board (key C, as Egaroucid, KaTrain and Lizzie show them): the best
//! moves of the position shown with their values, and, under the mouse, the line the engine
//! expects after one of them (numbered, in the colours of the sides that play it).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use qi_core::analysis;

use crate::game::{Match, Status};
use crate::menus::InGame;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.init_resource::<Candidates>().add_systems(
        Update,
        (
            toggle_candidates,
            refresh_candidates,
            draw_candidates,
            hover_candidate,
            draw_line,
        )
            .chain()
            .in_set(crate::AppSet::Present)
            .run_if(in_state(Screen::Playing)),
    );
}

/// The candidate moves with their values on the board (key C, as Egaroucid and KaTrain show
/// them): while replaying, or while playing when a hint is allowed (a person to move against
/// the CPU). They follow the position while shown.
#[derive(Resource, Default)]
pub struct Candidates {
    pub shown: bool,
    task: Option<Task<(Vec<Shown>, u64)>>,
    for_position: Option<u64>,
    /// The values drawn: square, value (mover's side), best first.
    pub values: Vec<(qi_core::Square, i32)>,
    /// Each candidate's expected line: the squares played, the candidate first.
    pub lines: Vec<Vec<qi_core::Square>>,
    /// The candidate under the mouse, whose line is drawn.
    pub hovered: Option<usize>,
}

/// A candidate as the task gives it: its square, value and line.
type Shown = (qi_core::Square, i32, Vec<qi_core::Square>);

/// A number of the hovered candidate's line drawn on the board.
#[derive(Component)]
pub struct LineLabel;

/// How many candidates are drawn, and the time they take together.
const CANDIDATES: usize = 6;
const CANDIDATES_BUDGET: Duration = Duration::from_millis(1500);

/// A value drawn on the board.
#[derive(Component)]
pub struct CandidateLabel;

fn toggle_candidates(
    keys: Res<ButtonInput<KeyCode>>,
    game: Option<Res<Match>>,
    mut c: ResMut<Candidates>,
    mut status: MessageWriter<Status>,
    in_game: Option<Res<State<InGame>>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    if !keys.just_pressed(KeyCode::KeyC)
        || in_game.is_some_and(|s| *s.get() != InGame::None)
        || egui.is_some_and(|e| e.wants_keyboard_input())
    {
        return;
    }
    let Some(game) = game else { return };
    let allowed = game.replay.is_some()
        || (game.human_to_move() && game.setup.players.iter().any(|p| p.is_cpu()));
    if !c.shown && !allowed {
        status.write(Status(t!("status-candidates-not-now")));
        return;
    }
    c.shown = !c.shown;
    c.for_position = None;
    c.task = None;
    c.values.clear();
    c.lines.clear();
    c.hovered = None;
    info!("qi: candidates {}", if c.shown { "on" } else { "off" });
}

fn refresh_candidates(game: Option<Res<Match>>, mut c: ResMut<Candidates>) {
    if !c.shown || c.task.is_some() {
        return;
    }
    let Some(game) = game else { return };
    let pos = game.position().clone();
    let hash = pos.hash();
    if c.for_position == Some(hash) {
        return;
    }
    c.for_position = Some(hash);
    c.values.clear();
    c.lines.clear();
    c.hovered = None;
    c.task = Some(AsyncComputeTaskPool::get().spawn(async move {
        let stop = Arc::new(AtomicBool::new(false));
        let list = analysis::candidate_lines(&pos, CANDIDATES_BUDGET, CANDIDATES, &stop)
            .into_iter()
            .filter_map(|c| {
                let sq = pos.move_squares(c.mv).to?;
                let mut p = pos.clone();
                let mut line = Vec::new();
                for m in c.line {
                    let Some(to) = p.move_squares(m).to else {
                        break;
                    };
                    if p.play(m).is_err() {
                        break;
                    }
                    line.push(to);
                }
                Some((sq, c.value, line))
            })
            .collect();
        (list, hash)
    }));
}

/// A candidate's label: its value for the side to move (a proven win or loss, a winning chance
/// where the analysing level scores one, or pieces).
pub fn candidate_text(kind: qi_core::GameKind, v: i32) -> String {
    if qi_core::search::is_decided(v) {
        if v > 0 {
            t!("candidate-win")
        } else {
            t!("candidate-loss")
        }
    } else if crate::games::ui_of(kind).score_is_win_rate() {
        format!("{:.0}%", 50.0 + v as f32 / 100.0)
    } else if let Some(scale) = qi_core::any::AnyCpu::level_logit_scale(kind, 6) {
        // the mover's winning chance, as Go's win rates (Gomoku's logits read "+2.3")
        format!("{:.0}%", 100.0 * crate::hud::win_chance(v, scale))
    } else {
        format!("{:+.1}", v as f32 / 100.0)
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_candidates(
    mut commands: Commands,
    mut c: ResMut<Candidates>,
    game: Option<Res<Match>>,
    labels: Query<Entity, With<CandidateLabel>>,
    layout: Res<crate::board::BoardLayout>,
    generation: Res<crate::board::BoardGeneration>,
    font: Res<crate::fonts::UiFont>,
    mut drawn: Local<Option<(u64, u64, usize)>>,
) {
    let Some(game) = game else { return };
    let hash = game.position().hash();
    if let Some(task) = c.task.as_mut()
        && let Some((list, for_hash)) = block_on(poll_once(task))
    {
        c.task = None;
        if for_hash == hash {
            info!("qi: candidates {}", list.len());
            c.values = list.iter().map(|&(sq, v, _)| (sq, v)).collect();
            c.lines = list.into_iter().map(|(_, _, l)| l).collect();
        }
    }
    let key = (hash, generation.0, c.values.len());
    let stale = c.for_position.is_some_and(|h| h != hash);
    if *drawn == Some(key) && !stale {
        return;
    }
    *drawn = Some(key);
    for e in &labels {
        commands.entity(e).despawn();
    }
    if !c.shown || stale {
        return;
    }
    let kind = game.kind();
    let lined = game.ui().board_style().lined;
    let size = (layout.cell * 0.34).clamp(9.0, 18.0);
    for (i, &(sq, v)) in c.values.iter().enumerate() {
        let text = candidate_text(kind, v);
        let ui = crate::theme::palette::ui();
        let color = if i == 0 {
            ui.mark_blunder
        } else if lined {
            crate::theme::palette::NUMBER_ON_LIGHT
        } else {
            crate::theme::palette::NUMBER_ON_DARK
        };
        commands.spawn((
            Name::new(format!("Candidate {}", qi_core::game::square_text(sq))),
            CandidateLabel,
            Text2d::new(text),
            TextFont {
                font: bevy::text::FontSource::Handle(font.0.clone()),
                font_size: FontSize::Px(size),
                ..default()
            },
            TextColor(crate::theme::palette::to_bevy(color)),
            Transform::from_translation(layout.center_of(sq).extend(6.5)),
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ));
    }
}

/// The candidate under the mouse pointer, if any.
fn hover_candidate(
    mut c: ResMut<Candidates>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    layout: Res<crate::board::BoardLayout>,
) {
    if !c.shown || c.values.is_empty() {
        if c.hovered.is_some() {
            c.hovered = None;
        }
        return;
    }
    let Ok(window) = windows.single() else { return };
    // window pixels (origin top left) to the board's world coordinates (origin in the centre)
    let sq = window.cursor_position().and_then(|p| {
        let world = Vec2::new(p.x - window.width() / 2.0, window.height() / 2.0 - p.y);
        layout.square_at(world)
    });
    let hovered = sq.and_then(|sq| c.values.iter().position(|&(s, _)| s == sq));
    if c.hovered != hovered {
        c.hovered = hovered;
        if let Some(i) = hovered {
            info!(
                "qi: candidate line {} moves",
                c.lines.get(i).map_or(0, Vec::len)
            );
        }
    }
}

/// The hovered candidate's line: a number on each square, in the colour of the side that
/// plays it (the candidate's side first), over the candidates' values.
#[allow(clippy::too_many_arguments)]
fn draw_line(
    mut commands: Commands,
    c: Res<Candidates>,
    game: Option<Res<Match>>,
    labels: Query<Entity, With<LineLabel>>,
    layout: Res<crate::board::BoardLayout>,
    font: Res<crate::fonts::UiFont>,
    art: Res<crate::board::art::PieceArt>,
    mut drawn: Local<Option<(Option<usize>, usize, u64)>>,
) {
    let Some(game) = game else { return };
    let key = (c.hovered, c.lines.len(), game.position().hash());
    if *drawn == Some(key) {
        return;
    }
    *drawn = Some(key);
    for e in &labels {
        commands.entity(e).despawn();
    }
    let Some(line) = c.hovered.and_then(|i| c.lines.get(i)) else {
        return;
    };
    let first = game.position().side_to_move();
    let size = (layout.cell * 0.42).clamp(10.0, 22.0);
    for (i, &sq) in line.iter().enumerate() {
        let side = if i % 2 == 0 { first } else { first.other() };
        let (fill, text) = match side {
            qi_core::Side::Black => (
                crate::theme::palette::BLACK_PIECE,
                crate::theme::palette::NUMBER_ON_DARK,
            ),
            qi_core::Side::White => (
                crate::theme::palette::WHITE_PIECE,
                crate::theme::palette::NUMBER_ON_LIGHT,
            ),
        };
        let at = layout.center_of(sq);
        commands.spawn((
            Name::new(format!("Line {}", i + 1)),
            LineLabel,
            Sprite {
                image: art.disc.clone(),
                color: crate::theme::palette::to_bevy(fill.gamma_multiply(0.92)),
                custom_size: Some(Vec2::splat(layout.cell * 0.7)),
                ..default()
            },
            Transform::from_translation(at.extend(7.0)),
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ));
        commands.spawn((
            LineLabel,
            Text2d::new((i + 1).to_string()),
            TextFont {
                font: bevy::text::FontSource::Handle(font.0.clone()),
                font_size: FontSize::Px(size),
                ..default()
            },
            TextColor(crate::theme::palette::to_bevy(text)),
            Transform::from_translation(at.extend(7.5)),
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ));
    }
}
