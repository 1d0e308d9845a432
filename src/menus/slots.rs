//! The nine save slots, for loading (title screen and pause menu) and saving (pause menu): each
//! with its game, players, score, moves, date and a small board; an unreadable one shows why.
//! Choosing sends the file work to `crate::saves` and follows its answer.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::saves::{SlotInfo, SlotState};

use super::confirm::PendingSlot;
use super::nav::NavKeys;
use super::widgets::{draw_small_board, thumbnail_cell};
use super::{InGame, Menu, back_from_page, menu_area};
use crate::saves::{FileOutcome, FileRequest, SlotList};
use crate::screens::Screen;
use crate::theme::palette;

pub fn plugin(app: &mut App) {
    app.init_resource::<SlotsModel>()
        .add_systems(
            EguiPrimaryContextPass,
            draw_slots.run_if(
                in_state(Menu::Load)
                    .or_else(in_state(InGame::Load))
                    .or_else(in_state(InGame::Save)),
            ),
        )
        .add_systems(OnEnter(Menu::Load), open_list)
        .add_systems(OnEnter(InGame::Load), open_list)
        .add_systems(OnEnter(InGame::Save), open_list)
        .add_systems(Update, follow_file_outcomes.in_set(crate::AppSet::Follow));
}

#[derive(Resource, Clone, Debug, Default)]
pub struct SlotsModel {
    pub selected: usize,
    /// What went wrong last, for the player.
    pub message: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotAction {
    Choose(usize),
    Delete(usize),
    Back,
}

fn open_list(mut files: MessageWriter<FileRequest>, mut model: ResMut<SlotsModel>) {
    files.write(FileRequest::ListSlots);
    model.selected = 0;
    model.message = None;
}

/// The nine slots; an empty slot can be saved into but not loaded.
pub fn slots_ui(
    ui: &mut egui::Ui,
    slots: &[SlotInfo],
    saving: bool,
    model: &mut SlotsModel,
) -> Option<SlotAction> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(SlotAction::Back);
    }
    ui.vertical_centered(|ui| {
        ui.heading(
            egui::RichText::new(if saving {
                t!("slots-save-title")
            } else {
                t!("slots-load-title")
            })
            .size(26.0),
        )
    });
    let enabled: Vec<bool> = slots
        .iter()
        .map(|s| saving || matches!(s.state, SlotState::Ok(_)))
        .collect();
    super::nav::step(&mut model.selected, &enabled, keys);
    let mut action = None;
    for (i, info) in slots.iter().enumerate() {
        let mut why_unreadable = None;
        ui.horizontal(|ui| {
            let label = t!("slot-name", n = info.slot);
            let button = egui::Button::new(egui::RichText::new(label).size(17.0))
                // no highlight on a slot that cannot be chosen (nothing to load in it)
                .selected(i == model.selected && enabled[i])
                .min_size(egui::vec2(90.0, 28.0));
            if ui.add_enabled(enabled[i], button).clicked() {
                model.selected = i;
                action = Some(SlotAction::Choose(info.slot));
            }
            match &info.state {
                SlotState::Empty => {
                    ui.label(egui::RichText::new(t!("slot-empty")).color(palette::ui().text_weak));
                }
                SlotState::Unreadable(why) => {
                    ui.label(egui::RichText::new(t!("slot-unreadable")).color(palette::ui().error));
                    if !saving && ui.small_button(t!("slot-delete")).clicked() {
                        action = Some(SlotAction::Delete(info.slot));
                    }
                    why_unreadable = Some(crate::saves::slot_reason(why));
                }
                SlotState::Ok(sum) => {
                    draw_small_board(ui, &sum.position, thumbnail_cell(&sum.position));
                    if !saving && ui.small_button(t!("slot-delete")).clicked() {
                        action = Some(SlotAction::Delete(info.slot));
                    }
                    // last in the row, wrapped to the menu's width (long names ran off it)
                    ui.add(
                        egui::Label::new(t!(
                            "slot-summary",
                            game = game_text(sum),
                            black = sum.players[0].name.as_str(),
                            white = sum.players[1].name.as_str(),
                            score = format!("{}-{}", sum.score[0], sum.score[1]),
                            moves = sum.move_count,
                            date = sum.saved_at_text.as_str(),
                        ))
                        .wrap(),
                    );
                }
            }
        });
        // why a slot cannot be read, under its row and wrapped: on one line it pushed the
        // slot's button and Delete off a small window
        if let Some(why) = why_unreadable {
            ui.add(
                egui::Label::new(
                    egui::RichText::new(why)
                        .color(palette::ui().error)
                        .size(13.0),
                )
                .wrap(),
            );
        }
    }
    if keys.choose && enabled.get(model.selected).copied().unwrap_or(false) {
        action = Some(SlotAction::Choose(slots[model.selected].slot));
    }
    if let Some(m) = &model.message {
        ui.label(egui::RichText::new(m).color(palette::ui().error));
    }
    ui.add_space(8.0);
    if ui
        .vertical_centered(|ui| {
            ui.button(egui::RichText::new(t!("back")).size(18.0))
                .clicked()
        })
        .inner
    {
        action = Some(SlotAction::Back);
    }
    action
}

#[allow(clippy::too_many_arguments)]
/// The game of a saved slot, with its size and rule where the game has several
/// ("Gomoku 19×19 Renju"; the list said only "Gomoku").
fn game_text(sum: &qi_core::saves::SlotSummary) -> String {
    let ui = crate::games::ui_of(sum.game);
    match ui.variant_text(&sum.position) {
        Some(v) => format!("{} {v}", ui.title()),
        None => ui.title(),
    }
}

fn draw_slots(
    mut contexts: EguiContexts,
    mut model: ResMut<SlotsModel>,
    list: Res<SlotList>,
    screen: Res<State<Screen>>,
    in_game: Option<Res<State<InGame>>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut next_in_game: ResMut<NextState<InGame>>,
    mut files: MessageWriter<FileRequest>,
    mut pending: ResMut<PendingSlot>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let saving = in_game.is_some_and(|s| *s.get() == InGame::Save);
    let playing = *screen.get() == Screen::Playing;
    let Some(action) = menu_area(ctx, |ui| slots_ui(ui, &list.0, saving, &mut model)).flatten()
    else {
        return Ok(());
    };
    match action {
        SlotAction::Back => back_from_page(&screen, &mut next_menu, &mut next_in_game),
        SlotAction::Delete(slot) => {
            files.write(FileRequest::Delete(slot));
        }
        SlotAction::Choose(slot) if saving => {
            files.write(FileRequest::Save {
                slot,
                overwrite: false,
            });
        }
        SlotAction::Choose(slot) if playing => {
            // loading replaces the game in progress: ask first
            pending.0 = slot;
            next_in_game.set(InGame::ConfirmLoad);
        }
        SlotAction::Choose(slot) => {
            files.write(FileRequest::Load(slot));
        }
    }
    Ok(())
}

/// Saved: back to the board. The slot holds a save: ask. A failure: say so in the list.
fn follow_file_outcomes(
    mut outcomes: MessageReader<FileOutcome>,
    mut model: ResMut<SlotsModel>,
    mut pending: ResMut<PendingSlot>,
    in_game: Option<Res<State<InGame>>>,
    mut next_in_game: ResMut<NextState<InGame>>,
) {
    for o in outcomes.read() {
        match o {
            FileOutcome::Saved(_) => next_in_game.set(InGame::None),
            FileOutcome::NeedsOverwrite(slot) => {
                pending.0 = *slot;
                next_in_game.set(InGame::ConfirmOverwrite);
            }
            FileOutcome::Failed(msg) => {
                model.message = Some(msg.clone());
                // a failed save after "overwrite?" goes back to the list that shows why
                if in_game.as_ref().is_some_and(|s| {
                    matches!(s.get(), InGame::ConfirmOverwrite | InGame::ConfirmLoad)
                }) {
                    next_in_game.set(
                        if matches!(
                            in_game.as_ref().map(|s| *s.get()),
                            Some(InGame::ConfirmOverwrite)
                        ) {
                            InGame::Save
                        } else {
                            InGame::Load
                        },
                    );
                }
            }
            FileOutcome::Deleted(_) | FileOutcome::Exported(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::{NodeT, Queryable};
    use qi_core::any::AnyPosition;
    use qi_core::game::{Game, GameKind};
    use qi_core::saves::SlotSummary;

    /// A saved Gomoku or Go game says its board size (and Gomoku its rule) in the list.
    #[test]
    fn saved_games_say_their_size_and_rule() {
        let summary = |kind: GameKind, text: &str| SlotSummary {
            game: kind,
            players: [
                qi_core::saves::PlayerInfo::human("Ann"),
                qi_core::saves::PlayerInfo::human("Bo"),
            ],
            score: [0, 0],
            move_count: 0,
            result: None,
            saved_at: 0,
            saved_at_text: "2026-12-03 21:30 UTC".into(),
            position: AnyPosition::from_text(kind, text).expect("a position"),
        };
        let renju = qi_core::gomoku::Gomoku::new(19, qi_core::gomoku::GomokuRule::Renju).to_text();
        let go = qi_core::go::Go::new(9, 7.0).expect("9×9").to_text();
        let reversi = <qi_core::reversi::Reversi as Game>::start().to_text();
        let slots: Vec<SlotInfo> = [
            (GameKind::Gomoku, renju),
            (GameKind::Go, go),
            (GameKind::Reversi, reversi),
        ]
        .into_iter()
        .enumerate()
        .map(|(i, (kind, text))| SlotInfo {
            slot: i + 1,
            path: format!("slot-{}.ron", i + 1).into(),
            state: SlotState::Ok(Box::new(summary(kind, &text))),
        })
        .collect();
        let mut h = Harness::builder()
            .with_size(egui::vec2(900.0, 600.0))
            .build_ui_state(
                |ui, m: &mut SlotsModel| {
                    slots_ui(ui, &slots, false, m);
                },
                SlotsModel::default(),
            );
        h.run();
        h.get_by_label_contains("Gomoku 19×19 Renju · Ann vs Bo");
        h.get_by_label_contains("Go 9×9 · Ann vs Bo");
        h.get_by_label_contains("Reversi · Ann vs Bo");
    }

    /// In an 800×600 window a damaged slot's reason, on one line, pushed the slot's button off
    /// the left of the window and Delete off the right: the reason wraps under the row.
    #[test]
    fn a_long_reason_stays_inside_a_small_menu() {
        let why = "the file is damaged or truncated (1:1-1:8: Expected struct `SaveGame` but \
                   found `garbage`), and a little more so that it is longer than any window";
        let slots: Vec<SlotInfo> = (1..=3)
            .map(|slot| SlotInfo {
                slot,
                path: format!("slot-{slot}.ron").into(),
                state: if slot == 1 {
                    SlotState::Unreadable(qi_core::saves::SaveError::Unreadable(
                        qi_core::saves::Unreadable::Damaged(why.into()),
                    ))
                } else {
                    SlotState::Empty
                },
            })
            .collect();
        // the menu's width in an 800-pixel window (menu_area: the window less 60)
        let width = 740.0;
        let mut h = Harness::builder()
            .with_size(egui::vec2(width + 40.0, 500.0))
            .build_ui_state(
                |ui, m: &mut SlotsModel| {
                    ui.set_max_width(width);
                    slots_ui(ui, &slots, false, m);
                },
                SlotsModel::default(),
            );
        h.run();
        let slot = h.get_by_label("Slot 1").rect();
        let delete = h.get_by_label("Delete").rect();
        let reason = h.get_by_label_contains("damaged").rect();
        assert!(slot.left() >= 0.0, "{slot:?}");
        assert!(delete.right() <= width + 8.0, "{delete:?}");
        assert!(reason.right() <= width + 8.0, "{reason:?}");
        assert!(
            reason.top() >= slot.bottom() - 1.0,
            "under the row: {reason:?} {slot:?}"
        );
        // nothing can be loaded: no slot looks chosen (slot 1 was highlighted)
        for label in ["Slot 1", "Slot 2", "Slot 3"] {
            assert_ne!(
                h.get_by_label(label).accesskit_node().toggled(),
                Some(egui::accesskit::Toggled::True),
                "{label}"
            );
        }
    }
}
