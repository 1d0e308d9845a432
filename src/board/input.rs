//! Mouse and keyboard play on the board: a click on a cell (or a piece) becomes a move request,
//! through the game's own reading of the click (`crate::games`).

use bevy::prelude::*;

use super::{CellTile, Piece};
use crate::AppSet;
use crate::game::{
    BoardClaimed, GameEvent, Match, MoveRequest, RedoRequest, Selection, Status, UndoRequest,
};
use crate::games::ClickResult;
use crate::menus::InGame;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.add_message::<CellClicked>()
        .add_observer(click_cell)
        .add_systems(
            Update,
            (
                choose_moves_from_clicks.run_if(not(resource_exists::<BoardClaimed>)),
                use_board_keys,
                pass_when_forced.run_if(super::board_idle),
            )
                .in_set(AppSet::Input)
                .run_if(in_state(Screen::Playing))
                .run_if(in_state(InGame::None)),
        );
}

/// A square of the board was clicked.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellClicked(pub qi_core::Square);

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

fn choose_moves_from_clicks(
    mut clicks: MessageReader<CellClicked>,
    game: Option<Res<Match>>,
    mut selection: ResMut<Selection>,
    anims: Query<(), With<super::Anim>>,
    mut requests: MessageWriter<MoveRequest>,
    mut events: MessageWriter<GameEvent>,
    mut status: MessageWriter<Status>,
) {
    let Some(game) = game else {
        clicks.clear();
        return;
    };
    for &CellClicked(sq) in clicks.read() {
        if !anims.is_empty() {
            continue; // input waits while a move animates
        }
        if !game.human_to_move() {
            status.write(Status(if game.is_over() {
                t!("status-game-over")
            } else if game.replay.is_some() {
                t!("status-replay-controls")
            } else {
                t!("status-wait-cpu")
            }));
            continue;
        }
        match game.ui().click(game.position(), selection.0, sq) {
            ClickResult::Play(mv) => {
                requests.write(MoveRequest(mv));
            }
            ClickResult::Select(s) => {
                info!("qi: selected {}", qi_core::game::square_text(s));
                selection.0 = Some(s);
                status.write(Status(t!(
                    "status-selected",
                    square = qi_core::game::square_text(s)
                )));
            }
            ClickResult::Deselect => {
                selection.0 = None;
                status.write(Status(t!("status-selection-dropped")));
            }
            ClickResult::Refuse(msg) => {
                selection.0 = None;
                status.write(Status(msg));
                events.write(GameEvent::Illegal);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn use_board_keys(
    keys: Res<ButtonInput<KeyCode>>,
    game: Option<Res<Match>>,
    mut undo: MessageWriter<UndoRequest>,
    mut redo: MessageWriter<RedoRequest>,
    mut hint: MessageWriter<crate::cpu::HintRequest>,
    mut requests: MessageWriter<MoveRequest>,
    mut confirm: MessageWriter<crate::game::ConfirmScoring>,
    score: Res<crate::game::ScoreView>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
) {
    if game.as_ref().is_none_or(|g| g.replay.is_some()) {
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
    let Some(game) = game else { return };
    // P passes where a person chooses to (Go), as the Pass button does
    if keys.just_pressed(KeyCode::KeyP)
        && game.human_to_move()
        && game.ui().passes_by_choice()
        && let Some(p) = game.position().legal_pass()
    {
        requests.write(MoveRequest(p));
    }
    // Enter confirms the score after two passes, as the Confirm button does
    if keys.just_pressed(KeyCode::Enter) && score.0.is_some() {
        confirm.write(crate::game::ConfirmScoring);
    }
}

/// A person with no move but a pass passes at once where the rules force it (Ataxx, Reversi);
/// the status line says so.
fn pass_when_forced(game: Option<Res<Match>>, mut requests: MessageWriter<MoveRequest>) {
    let Some(game) = game else { return };
    if !game.human_to_move() || !game.ui().passes_automatically() {
        return;
    }
    let moves = game.position().legal_moves();
    if moves.len() == 1 && game.position().move_squares(moves[0]).to.is_none() {
        requests.write(MoveRequest(moves[0]));
    }
}
