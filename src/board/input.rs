//! Mouse and keyboard play on the board: a click on a cell (or a piece) becomes a move request.
//! Ataxx: click your piece, then one of its targets; Reversi: click an empty square.

use bevy::prelude::*;
use qi_core::GameKind;
use qi_core::Square;
use qi_core::any::AnyMove;

use super::{Anim, CellTile, Piece, is_next_to};
use crate::game::{GameEvent, Match, MoveRequest, RedoRequest, UndoRequest};
use crate::menus::Menu;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.add_message::<CellClicked>()
        .add_observer(click_cell)
        .add_systems(
            Update,
            (choose_moves_from_clicks, use_board_keys, pass_when_forced)
                .run_if(in_state(Screen::Playing))
                .run_if(in_state(Menu::None)),
        );
}

/// A square of the board was clicked.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellClicked(pub Square);

fn click_cell(
    ev: On<Pointer<Click>>,
    cells: Query<&CellTile>,
    pieces: Query<&Piece>,
    mut out: MessageWriter<CellClicked>,
) {
    if ev.event.button != PointerButton::Primary {
        return;
    }
    if let Ok(c) = cells.get(ev.entity) {
        out.write(CellClicked(c.square));
    } else if let Ok(p) = pieces.get(ev.entity) {
        out.write(CellClicked(p.square));
    }
}

/// What a click on `sq` means in the position: a move, a selection, or a message.
#[derive(Debug, Clone, PartialEq)]
pub enum ClickResult {
    Play(AnyMove),
    Select(Square),
    Deselect,
    Refuse(String),
}

pub fn interpret_click(game: &Match, sq: Square) -> ClickResult {
    let pos = game.position();
    let moves = pos.legal_moves();
    let side = pos.side_to_move();
    let name = qi_core::game::square_text(sq);
    match pos.kind() {
        GameKind::Ataxx => {
            let own = pos.cell(sq) == qi_core::Cell::Piece(side);
            if let Some(sel) = game.selected {
                if sel == sq {
                    return ClickResult::Deselect;
                }
                if own {
                    return ClickResult::Select(sq);
                }
                for mv in &moves {
                    let s = pos.move_squares(*mv);
                    if s.to == Some(sq)
                        && (s.from == Some(sel) || (s.from == s.to && is_next_to(sel, sq)))
                    {
                        return ClickResult::Play(*mv);
                    }
                }
                return ClickResult::Refuse(format!(
                    "{name} cannot be reached from {}",
                    qi_core::game::square_text(sel)
                ));
            }
            if own {
                let has = moves.iter().any(|m| {
                    let s = pos.move_squares(*m);
                    s.from == Some(sq)
                        || (s.from == s.to && s.to.is_some_and(|t| is_next_to(sq, t)))
                });
                return if has {
                    ClickResult::Select(sq)
                } else {
                    ClickResult::Refuse(format!("The piece on {name} cannot move"))
                };
            }
            // A click on an empty square next to one of ours clones there directly.
            if let Some(mv) = moves.iter().find(|m| {
                let s = pos.move_squares(**m);
                s.to == Some(sq) && s.from == s.to
            }) {
                return ClickResult::Play(*mv);
            }
            ClickResult::Refuse(format!(
                "Pick one of your pieces first ({name} is not a move)"
            ))
        }
        _ => {
            if let Some(mv) = moves.iter().find(|m| pos.move_squares(**m).to == Some(sq)) {
                ClickResult::Play(*mv)
            } else if pos.cell(sq) != qi_core::Cell::Empty {
                ClickResult::Refuse(format!("{name} is taken"))
            } else {
                ClickResult::Refuse(format!("{name} is not a legal move"))
            }
        }
    }
}

fn choose_moves_from_clicks(
    mut clicks: MessageReader<CellClicked>,
    game: Option<ResMut<Match>>,
    animating: Query<(), With<Anim>>,
    mut requests: MessageWriter<MoveRequest>,
    mut events: MessageWriter<GameEvent>,
) {
    let Some(mut game) = game else {
        clicks.clear();
        return;
    };
    for &CellClicked(sq) in clicks.read() {
        if !animating.is_empty() {
            continue; // input waits while a move animates
        }
        if game.marking_dead() {
            crate::game::toggle_dead_at(&mut game, sq);
            continue;
        }
        if !game.human_to_move() {
            game.status = if game.is_over() {
                "The game is over".into()
            } else {
                "Wait: the CPU is to move".into()
            };
            continue;
        }
        match interpret_click(&game, sq) {
            ClickResult::Play(mv) => {
                requests.write(MoveRequest(mv));
            }
            ClickResult::Select(s) => {
                info!("qi: selected {}", qi_core::game::square_text(s));
                game.selected = Some(s);
                game.status = format!(
                    "Selected {}: choose where it goes",
                    qi_core::game::square_text(s)
                );
            }
            ClickResult::Deselect => game.selected = None,
            ClickResult::Refuse(msg) => {
                game.selected = None;
                game.status = msg;
                events.write(GameEvent::Illegal);
            }
        }
    }
}

fn use_board_keys(
    keys: Res<ButtonInput<KeyCode>>,
    game: Option<Res<Match>>,
    mut undo: MessageWriter<UndoRequest>,
    mut redo: MessageWriter<RedoRequest>,
    mut hint: MessageWriter<crate::cpu::HintRequest>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    if game.is_none() {
        return;
    }
    if egui.is_some_and(|e| e.wants_keyboard_input()) {
        return; // typing in the move box
    }
    if keys.just_pressed(KeyCode::KeyU) {
        undo.write(UndoRequest);
    }
    if keys.just_pressed(KeyCode::KeyR) {
        redo.write(RedoRequest);
    }
    if keys.just_pressed(KeyCode::KeyH) {
        hint.write(crate::cpu::HintRequest);
    }
}

/// A person with no move but a pass passes at once (Ataxx and Reversi), as the rules force it;
/// the status line says so.
fn pass_when_forced(
    game: Option<Res<Match>>,
    animating: Query<(), With<Anim>>,
    mut requests: MessageWriter<MoveRequest>,
) {
    let Some(game) = game else { return };
    if !animating.is_empty()
        || !game.human_to_move()
        || !matches!(game.kind(), GameKind::Ataxx | GameKind::Reversi)
    {
        return;
    }
    let moves = game.position().legal_moves();
    if moves.len() == 1 && game.position().move_squares(moves[0]).to.is_none() {
        requests.write(MoveRequest(moves[0]));
    }
}
