//! The side panel's part for an online game: the opponent and the connection, the opponent's
//! question (an undo request, a draw offer) with its answer buttons, Offer a draw and Resign,
//! and a small chat box.

use bevy_egui::egui;
use qi_net::Action;

use super::HudModel;
use crate::online::{Online, Question};
use crate::theme::palette;

/// What the panel shows of the online game.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineView {
    pub peer: String,
    pub connected: bool,
    /// The connection's line when it is not simply up ("waiting for the opponent…").
    pub link: Option<String>,
    pub question: Option<Question>,
    /// This player's own request or offer waits for the answer.
    pub asked: Option<Question>,
    /// The game is being played and the opponent is there: actions can be sent.
    pub can_act: bool,
    pub over: bool,
    pub chat: Vec<(String, String)>,
}

impl OnlineView {
    pub fn of(o: &Online, over: bool) -> OnlineView {
        let playing = o.with_session(|s| s.phase() == qi_core::net::session::Phase::Playing);
        OnlineView {
            peer: o.peer.clone().unwrap_or_default(),
            connected: o.connected,
            link: o.link.clone(),
            question: o.question,
            asked: o.asked,
            can_act: playing && o.connected,
            over,
            chat: o.chat.clone(),
        }
    }
}

/// Draws the online part; returns the player's action.
pub fn online_panel_ui(ui: &mut egui::Ui, v: &OnlineView, model: &mut HudModel) -> Option<Action> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new(t!("online-opponent", name = v.peer.as_str())).strong());
        let (text, color) = if v.connected {
            (t!("online-connected"), palette::ui().text_weak)
        } else {
            (
                v.link.clone().unwrap_or_else(|| t!("online-waiting")),
                palette::ui().error,
            )
        };
        ui.label(egui::RichText::new(text).color(color));
    });
    if let Some(q) = v.question {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            let (text, yes, no) = match q {
                Question::Undo { .. } => (
                    t!("online-question-undo", name = v.peer.as_str()),
                    Action::AnswerUndo(true),
                    Action::AnswerUndo(false),
                ),
                Question::Draw => (
                    t!("online-question-draw", name = v.peer.as_str()),
                    Action::AnswerDraw(true),
                    Action::AnswerDraw(false),
                ),
            };
            ui.label(egui::RichText::new(text).strong());
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(v.can_act, egui::Button::new(t!("online-accept")))
                    .clicked()
                {
                    action = Some(yes);
                }
                if ui
                    .add_enabled(v.can_act, egui::Button::new(t!("online-refuse")))
                    .clicked()
                {
                    action = Some(no);
                }
            });
        });
    }
    ui.horizontal_wrapped(|ui| {
        let free = v.can_act && v.asked.is_none() && v.question.is_none() && !v.over;
        if ui
            .add_enabled(free, egui::Button::new(t!("online-offer-draw")))
            .clicked()
        {
            action = Some(Action::OfferDraw);
        }
        if ui
            .add_enabled(v.can_act && !v.over, egui::Button::new(t!("hud-resign")))
            .clicked()
        {
            action = Some(Action::Resign);
        }
    });
    ui.add_space(4.0);
    ui.label(egui::RichText::new(t!("online-chat")).color(palette::ui().text_weak));
    egui::ScrollArea::vertical()
        .id_salt("online_chat")
        .max_height(90.0)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for (from, text) in &v.chat {
                ui.label(format!("{from}: {text}"));
            }
        });
    let edit = ui.add_enabled(
        v.connected,
        egui::TextEdit::singleline(&mut model.chat_text)
            .hint_text(t!("online-chat-hint"))
            .char_limit(qi_core::net::protocol::MAX_CHAT_CHARS)
            .desired_width(200.0)
            .id(egui::Id::new("chat_box")),
    );
    if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        let text = model.chat_text.trim().to_string();
        if !text.is_empty() {
            action = Some(Action::Chat(text));
        }
        model.chat_text.clear();
    }
    ui.add_space(6.0);
    action
}
