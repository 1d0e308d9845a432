//! The end of a Go game after two passes: the dead stones marked from the estimate, a click on
//! a group to mark it dead or alive (the score follows), then Confirm; and the area marks that
//! the marking and the territory map draw.

use bevy::prelude::*;
use qi_core::any::AnyPosition;
use qi_core::go::Go;
use qi_core::{GameKind, Square};

use crate::board::{CellClicked, GameMarks};
use crate::game::{BoardClaimed, BoardReset, ConfirmScoring, Match, MovePlayed, ScoreView, Status};

/// After two passes: the stones marked dead while the players check them.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct DeadMarking(pub Vec<Square>);

/// Two passes end the game: the marking starts from the estimate.
pub(super) fn start_marking(
    mut played: MessageReader<MovePlayed>,
    game: Option<Res<Match>>,
    mut commands: Commands,
    mut status: MessageWriter<Status>,
    mut view: ResMut<ScoreView>,
    mut marks: ResMut<GameMarks>,
) {
    if played.read().count() == 0 {
        return;
    }
    let Some(game) = game else { return };
    let Some(go) = game
        .position()
        .as_go()
        .filter(|g| qi_core::Game::outcome(*g).is_some() && g.resigned().is_none())
    else {
        return;
    };
    let dead = go.estimate_dead();
    info!("qi: marking dead stones ({} estimated dead)", dead.len());
    view.0 = Some(go.score_with_dead(&dead).result_text());
    marks.0 = marking_marks(game.position(), &dead);
    commands.insert_resource(DeadMarking(dead));
    commands.insert_resource(BoardClaimed);
    status.write(Status(t!("status-go-marking")));
}

pub(super) fn mark_dead_on_click(
    mut clicks: MessageReader<CellClicked>,
    game: Option<Res<Match>>,
    marking: Option<ResMut<DeadMarking>>,
    mut status: MessageWriter<Status>,
    mut view: ResMut<ScoreView>,
    mut marks: ResMut<GameMarks>,
) {
    let (Some(game), Some(mut marking)) = (game, marking) else {
        return;
    };
    let Some(go) = game.position().as_go() else {
        return;
    };
    for &CellClicked(sq) in clicks.read() {
        go.toggle_dead_group(&mut marking.0, sq);
        marks.0 = marking_marks(game.position(), &marking.0);
        let score = go.score_with_dead(&marking.0);
        view.0 = Some(score.result_text());
        status.write(Status(t!(
            "status-go-marked-score",
            score = score.result_text()
        )));
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn confirm_marking(
    mut confirms: MessageReader<ConfirmScoring>,
    game: Option<ResMut<Match>>,
    marking: Option<Res<DeadMarking>>,
    mut commands: Commands,
    mut status: MessageWriter<Status>,
    mut events: MessageWriter<crate::game::GameEvent>,
    mut view: ResMut<ScoreView>,
    mut marks: ResMut<GameMarks>,
) {
    if confirms.read().count() == 0 {
        return;
    }
    let (Some(mut game), Some(marking)) = (game, marking) else {
        return;
    };
    let Some(go) = game.position().as_go() else {
        return;
    };
    let result = go.score_with_dead(&marking.0).game_result();
    info!("qi: game over {} (dead stones confirmed)", result.sgf());
    status.write(Status(crate::games::result_text(GameKind::Go, &result)));
    game.final_result = Some(result);
    game.dirty = true;
    view.0 = None;
    // the dead stones stay crossed out on the final board
    marks.0 = marking_marks(game.position(), &marking.0);
    events.write(crate::game::GameEvent::Over(result.outcome()));
    commands.remove_resource::<BoardClaimed>();
}

pub(super) fn end_marking_on_reset(
    mut resets: MessageReader<BoardReset>,
    commands: Commands,
    view: ResMut<ScoreView>,
    marks: ResMut<GameMarks>,
) {
    if resets.read().count() > 0 {
        end_marking(commands, view, marks);
    }
}

pub(super) fn end_marking(
    mut commands: Commands,
    mut view: ResMut<ScoreView>,
    mut marks: ResMut<GameMarks>,
) {
    commands.remove_resource::<DeadMarking>();
    commands.remove_resource::<BoardClaimed>();
    view.0 = None;
    marks.0.clear();
}

/// The marks of the marking phase: dead stones, and each side's area with them taken off.
pub fn marking_marks(pos: &AnyPosition, dead: &[Square]) -> Vec<(Square, crate::board::Marker)> {
    use crate::board::Marker;
    let Some(go) = pos.as_go() else {
        return Vec::new();
    };
    let mut out: Vec<(Square, Marker)> = dead.iter().map(|&s| (s, Marker::Dead)).collect();
    let score = go.score_with_dead(dead);
    out.extend(area_marks(go, |sq, i| {
        // a living stone counts for its side anyway
        score.owner[i].filter(|&side| pos.cell(sq) != qi_core::Cell::Piece(side))
    }));
    out
}

/// An area mark on each point `owner(square, index)` gives to a side.
pub(super) fn area_marks(
    go: &Go,
    owner: impl Fn(Square, usize) -> Option<qi_core::Side>,
) -> Vec<(Square, crate::board::Marker)> {
    use crate::board::Marker;
    let n = go.size();
    let mut out = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let sq = Square::new(x, y);
            let Some(side) = owner(sq, y as usize * n as usize + x as usize) else {
                continue;
            };
            out.push((
                sq,
                if side == qi_core::Side::Black {
                    Marker::AreaBlack
                } else {
                    Marker::AreaWhite
                },
            ));
        }
    }
    out
}
