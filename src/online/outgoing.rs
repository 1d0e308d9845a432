//! What goes out of this window in an online game: the player's own moves and actions sent to
//! the opponent, the autosave after every change (and the record at the end), and the
//! connection closed on leaving.

use super::*;

/// The player's own moves go to the opponent; one the session refuses is taken back.
pub(super) fn send_own_moves(
    mut played: MessageReader<MovePlayed>,
    online: Option<Res<Online>>,
    game: Option<ResMut<Match>>,
    mut resets: MessageWriter<BoardReset>,
    mut status: MessageWriter<Status>,
) {
    let (Some(online), Some(mut game)) = (online, game) else {
        played.clear();
        return;
    };
    if !game.is_online() {
        played.clear();
        return;
    }
    let me = online.with_session(|s| s.me());
    for m in played.read() {
        if m.side != me {
            continue;
        }
        if let Err(why) = online.send(Action::Move(m.mv)) {
            warn!("qi: online move not sent: {why}");
            status.write(Status(t!("online-move-not-sent", why = why)));
            resync(&online, &mut game, &mut resets);
        }
    }
}

/// The HUD's online actions, and the undo key and button (a request to the opponent).
pub(super) fn send_actions(
    mut actions: MessageReader<OnlineAction>,
    mut undo: MessageReader<UndoRequest>,
    mut redo: MessageReader<RedoRequest>,
    online: Option<ResMut<Online>>,
    game: Option<Res<Match>>,
    mut status: MessageWriter<Status>,
) {
    let online_game = game.is_some_and(|g| g.is_online());
    let Some(mut online) = online.filter(|_| online_game) else {
        actions.clear();
        undo.clear();
        redo.clear();
        return;
    };
    let mut todo: Vec<Action> = actions.read().map(|a| a.0.clone()).collect();
    if undo.read().count() > 0 {
        todo.push(Action::RequestUndo);
    }
    if redo.read().count() > 0 {
        status.write(Status(t!("online-no-redo")));
    }
    for action in todo {
        info!("qi: online action {action:?}");
        let r = online.send(action.clone());
        match (&action, r) {
            (_, Err(why)) => {
                warn!("qi: online action refused: {why}");
                status.write(Status(t!("online-action-refused", why = why)));
            }
            (Action::RequestUndo, Ok(())) => {
                online.asked = Some(Question::Undo { ply: 0 });
                status.write(Status(t!("online-undo-sent")));
            }
            (Action::OfferDraw, Ok(())) => {
                online.asked = Some(Question::Draw);
                status.write(Status(t!("online-draw-sent")));
            }
            (Action::AnswerUndo(_) | Action::AnswerDraw(_), Ok(())) => {
                online.question = None;
            }
            (Action::Chat(text), Ok(())) => {
                let me = online.with_session(|s| s.my_name().to_string());
                online.chat.push((me, text.clone()));
            }
            _ => {}
        }
    }
}

/// After every change of the online game: its autosave (and, once it is over, its record).
#[allow(clippy::too_many_arguments)]
pub(super) fn autosave_online(
    mut played: MessageReader<MovePlayed>,
    mut resets: MessageReader<BoardReset>,
    mut events: MessageReader<GameEvent>,
    online: Option<ResMut<Online>>,
    game: Option<Res<Match>>,
    store: Option<Res<Store>>,
    mut status: MessageWriter<Status>,
    mut notice: ResMut<OnlineNotice>,
) {
    let changed = played.read().count() + resets.read().count() + events.read().count() > 0;
    let (Some(mut online), Some(game), Some(store)) = (online, game, store) else {
        return;
    };
    if !changed || !game.is_online() || !online.started {
        return;
    }
    if let Some(save) = online.save() {
        notice.resumable = (save.session.result.is_none()).then(|| {
            (
                save.session.setup.game,
                save.session.peer_name.clone().unwrap_or_default(),
            )
        });
        match qi_core::storage::save_ron(&save_path(&store), &save) {
            Ok(()) => info!("qi: online autosaved at ply {}", save.session.moves.len()),
            Err(e) => warn!("qi: online autosave failed: {e}"),
        }
    }
    if game.is_over() && !online.recorded && online.with_session(|s| s.phase() == Phase::Over) {
        online.recorded = true;
        // the status line keeps the result; the record's place is in the log (and the
        // game-over panel can still save a copy)
        if let Err(e) = crate::saves::export_record(&store.0, &game) {
            warn!("qi: online record not written: {e}");
            status.write(Status(t!(
                "error-save-record",
                why = crate::saves::disk_error_text(&e)
            )));
        }
    }
}

/// Leaving the game closes the connection: a finished game for good, one still going without
/// a goodbye (the opponent waits; both can resume it from the autosave).
pub(super) fn close_on_leaving(mut commands: Commands, online: Option<Res<Online>>) {
    if online.is_none() {
        return;
    }
    commands.queue(|w: &mut World| {
        if let Some(o) = w.remove_resource::<Online>() {
            let over = o.with_session(|s| s.phase() == Phase::Over);
            info!("qi: online connection closed (game over: {over})");
            if over {
                o.leave();
            }
        }
    });
}
