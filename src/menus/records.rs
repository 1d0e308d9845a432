//! The Records screen: the players' results (the last games, and win/draw/loss totals per game
//! and CPU level) and the game records that can be replayed — the examples built into Qi, the
//! files of the records folder, or any SGF/PGN file by its path.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::history::{GameOutcome, History};

use super::nav::NavKeys;
use super::{LoadMatch, Menu, menu_area};
use crate::theme::palette;

pub fn plugin(app: &mut App) {
    app.init_resource::<RecordsModel>().add_systems(
        EguiPrimaryContextPass,
        draw_records.run_if(in_state(Menu::Records)),
    );
}

fn draw_records(
    mut contexts: EguiContexts,
    mut model: ResMut<RecordsModel>,
    history: Option<Res<crate::results::PlayerHistory>>,
    mut next: ResMut<NextState<Menu>>,
    mut load: MessageWriter<LoadMatch>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let empty = History::default();
    let (h, problem) = history
        .as_ref()
        .map_or((&empty, None), |h| (&h.history, h.problem.as_ref()));
    let problem = problem.map(crate::saves::load_problem_text);
    let model = &mut *model;
    match menu_area(ctx, |ui| records_ui(ui, model, h, problem.as_deref())).flatten() {
        Some(RecordsAction::Back) => next.set(Menu::Main),
        Some(RecordsAction::Open(src)) => {
            let label = src.label();
            match src
                .read()
                .and_then(|r| crate::replay::replay_match(&r, &label))
            {
                Ok(m) => {
                    info!("qi: replay {label}");
                    model.message = None;
                    load.write(LoadMatch(Box::new(m)));
                }
                Err(e) => {
                    warn!("qi: cannot open {label}: {e}");
                    model.message = Some(t!(
                        "cannot-open",
                        name = label.as_str(),
                        why = crate::replay::record_error_text(&e)
                    ));
                }
            }
        }
        None => {}
    }
    Ok(())
}

/// Where a record to replay comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordSource {
    /// One of [`qi_core::records::SAMPLES`].
    Sample(usize),
    File(PathBuf),
}

impl RecordSource {
    pub fn label(&self) -> String {
        match self {
            RecordSource::Sample(i) => qi_core::records::SAMPLES
                .get(*i)
                .map_or("?".into(), |(n, _)| t!("records-example", name = *n)),
            RecordSource::File(p) => p
                .file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
        }
    }

    /// What the list shows: for a file, its game, players, result and date as the record says
    /// them (`Go · Ann vs CPU 3 · B+3.5 · 2026-11-23`), the file name when it cannot be read.
    pub fn title(&self) -> String {
        match self {
            RecordSource::Sample(_) => self.label(),
            RecordSource::File(_) => match self.read() {
                Ok(r) => record_title(&r),
                Err(_) => t!("records-unreadable", name = self.label()),
            },
        }
    }

    /// The record, or why it cannot be read.
    pub fn read(&self) -> Result<qi_core::records::Record, qi_core::records::RecordError> {
        match self {
            RecordSource::Sample(i) => {
                let (_, text) = qi_core::records::SAMPLES
                    .get(*i)
                    .ok_or(qi_core::records::RecordError::NoSuchFile)?;
                qi_core::records::import_text(text)
            }
            RecordSource::File(p) => qi_core::records::read_record(p),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RecordsTab {
    #[default]
    Results,
    Replay,
}

#[derive(Resource, Clone, Debug, Default)]
pub struct RecordsModel {
    pub tab: RecordsTab,
    /// The records offered for replay: the examples, then the records folder's files.
    pub sources: Vec<RecordSource>,
    pub selected: usize,
    /// The path box.
    pub path: String,
    /// Why the last record could not be opened.
    pub message: Option<String>,
    /// The list's text for each source (read once when the list is made).
    pub titles: Vec<String>,
}

impl RecordsModel {
    /// Lists the examples and the `.sgf`/`.pgn` files of `records_dir`.
    pub fn refresh(&mut self, records_dir: Option<&std::path::Path>) {
        self.sources = (0..qi_core::records::SAMPLES.len())
            .map(RecordSource::Sample)
            .chain(
                records_dir
                    .map(qi_core::records::list_record_files)
                    .unwrap_or_default()
                    .into_iter()
                    .map(RecordSource::File),
            )
            .collect();
        self.titles = self.sources.iter().map(RecordSource::title).collect();
        self.selected = self.selected.min(self.sources.len().saturating_sub(1));
    }
}

/// A record's title for lists.
pub fn record_title(r: &qi_core::records::Record) -> String {
    let mut parts = vec![
        crate::games::ui_of(r.game).title(),
        t!(
            "players-vs",
            black = r.black.as_deref().unwrap_or("?"),
            white = r.white.as_deref().unwrap_or("?")
        ),
    ];
    if let Some(res) = &r.result {
        parts.push(crate::games::record_result(r.game, res));
    }
    parts.push(t!("moves-count", n = r.moves.len()));
    if let Some(d) = &r.date {
        parts.push(d.clone());
    }
    parts.join(" · ")
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordsAction {
    Open(RecordSource),
    Back,
}

/// The outcome as the translation files select on it.
fn outcome_word(o: GameOutcome) -> &'static str {
    match o {
        GameOutcome::Win => "won",
        GameOutcome::Draw => "drew",
        GameOutcome::Loss => "lost",
    }
}

/// The Records screen. `problem` is why the history file could not be read, if so.
pub fn records_ui(
    ui: &mut egui::Ui,
    m: &mut RecordsModel,
    history: &History,
    problem: Option<&str>,
) -> Option<RecordsAction> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(RecordsAction::Back);
    }
    let mut action = None;
    ui.vertical_centered(|ui| ui.heading(egui::RichText::new(t!("menu-records")).size(28.0)));
    ui.horizontal(|ui| {
        for (tab, label) in [
            (RecordsTab::Results, t!("records-results")),
            (RecordsTab::Replay, t!("records-replay")),
        ] {
            if ui
                .add(
                    egui::Button::new(egui::RichText::new(label).size(18.0)).selected(m.tab == tab),
                )
                .clicked()
            {
                m.tab = tab;
            }
        }
    });
    if keys.left || keys.right {
        m.tab = match m.tab {
            RecordsTab::Results => RecordsTab::Replay,
            RecordsTab::Replay => RecordsTab::Results,
        };
    }
    ui.separator();
    match m.tab {
        RecordsTab::Results => results_tab(ui, history, problem),
        RecordsTab::Replay => action = replay_tab(ui, m, keys),
    }
    ui.add_space(8.0);
    if ui
        .vertical_centered(|ui| {
            ui.button(egui::RichText::new(t!("back")).size(18.0))
                .clicked()
        })
        .inner
    {
        action = Some(RecordsAction::Back);
    }
    action
}

fn results_tab(ui: &mut egui::Ui, history: &History, problem: Option<&str>) {
    if let Some(p) = problem {
        ui.colored_label(palette::ui().error, p);
    }
    if history.results.is_empty() {
        ui.label(t!("records-none"));
        return;
    }
    ui.label(egui::RichText::new(t!("records-totals")).strong());
    egui::Grid::new("totals")
        .num_columns(5)
        .striped(true)
        .show(ui, |ui| {
            for h in [
                t!("new-game-game"),
                t!("records-against"),
                t!("records-won"),
                t!("records-drawn"),
                t!("records-lost"),
            ] {
                ui.label(egui::RichText::new(h).strong());
            }
            ui.end_row();
            for t in history.totals(None) {
                ui.label(crate::games::ui_of(t.game).title());
                ui.label(match t.cpu_level {
                    Some(l) => t!("records-cpu-level", level = l),
                    None => t!("records-people"),
                });
                ui.label(t.wins.to_string());
                ui.label(t.draws.to_string());
                ui.label(t.losses.to_string());
                ui.end_row();
            }
        });
    ui.add_space(8.0);
    ui.label(egui::RichText::new(t!("records-last-games")).strong());
    egui::ScrollArea::vertical()
        .max_height(300.0)
        .show(ui, |ui| {
            for e in history.last(30) {
                ui.label(t!(
                    "records-last-game",
                    date = qi_core::storage::format_utc(e.date),
                    game = crate::games::ui_of(e.game).title(),
                    player = e.player.as_str(),
                    outcome = outcome_word(e.result),
                    opponent = e.opponent.as_str(),
                    score = e.score.as_str(),
                    n = e.moves,
                ));
            }
        });
}

fn replay_tab(ui: &mut egui::Ui, m: &mut RecordsModel, keys: NavKeys) -> Option<RecordsAction> {
    let mut action = None;
    ui.label(t!("records-choose"));
    let enabled = vec![true; m.sources.len()];
    super::nav::step(&mut m.selected, &enabled, keys);
    egui::ScrollArea::vertical()
        .max_height(320.0)
        .show(ui, |ui| {
            for (i, src) in m.sources.iter().enumerate() {
                let title = m.titles.get(i).cloned().unwrap_or_else(|| src.label());
                let resp = ui.add(
                    egui::Button::new(egui::RichText::new(title).size(16.0))
                        .selected(i == m.selected)
                        .min_size(egui::vec2(520.0, 26.0)),
                );
                if i == m.selected && (keys.up || keys.down) {
                    resp.scroll_to_me(None);
                }
                if resp.clicked() {
                    m.selected = i;
                    action = Some(RecordsAction::Open(src.clone()));
                }
            }
        });
    if keys.choose && !m.sources.is_empty() {
        action = Some(RecordsAction::Open(m.sources[m.selected].clone()));
    }
    ui.add_space(6.0);
    ui.label(t!("records-open-file"));
    ui.horizontal(|ui| {
        let edit = ui.add(
            egui::TextEdit::singleline(&mut m.path)
                .hint_text(t!("records-path-hint"))
                .desired_width(420.0)
                .id(egui::Id::new("record_path")),
        );
        let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (ui.button(t!("records-open")).clicked() || enter) && !m.path.trim().is_empty() {
            action = Some(RecordsAction::Open(RecordSource::File(PathBuf::from(
                m.path.trim(),
            ))));
        }
    });
    if let Some(msg) = &m.message {
        ui.colored_label(palette::ui().error, msg);
    }
    action
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use qi_core::GameKind;
    use qi_core::history::GameResultEntry;

    #[test]
    fn results_and_replay_choices() {
        let mut history = History::default();
        history.record(GameResultEntry::new(
            GameKind::Reversi,
            "Ann",
            "CPU 3",
            GameOutcome::Win,
            "40-24",
            60,
            Some(3),
        ));
        history.record(GameResultEntry::new(
            GameKind::Reversi,
            "Ann",
            "CPU 3",
            GameOutcome::Loss,
            "20-44",
            58,
            Some(3),
        ));
        let mut model = RecordsModel::default();
        model.refresh(None);
        assert_eq!(model.sources.len(), qi_core::records::SAMPLES.len());
        let mut h = Harness::new_ui_state(
            move |ui, s: &mut (RecordsModel, Option<RecordsAction>)| {
                if let Some(a) = records_ui(ui, &mut s.0, &history, None) {
                    s.1 = Some(a);
                }
            },
            (model, None),
        );
        h.run();
        h.get_by_label("CPU level 3");
        h.get_by_label_contains("Ann won against CPU 3");
        h.get_by_label_contains("Ann lost against CPU 3");
        h.get_by_label("Replay a game").click();
        h.run();
        let name = qi_core::records::SAMPLES[1].0;
        h.get_by_label_contains(name).click();
        h.run();
        assert_eq!(
            h.state().1,
            Some(RecordsAction::Open(RecordSource::Sample(1)))
        );
        // by keys: down once from the clicked entry, Enter
        h.state_mut().1 = None;
        h.key_press(egui::Key::ArrowDown);
        h.run();
        h.key_press(egui::Key::Enter);
        h.run();
        assert_eq!(
            h.state().1,
            Some(RecordsAction::Open(RecordSource::Sample(2)))
        );
    }

    #[test]
    fn every_example_record_reads() {
        for i in 0..qi_core::records::SAMPLES.len() {
            let rec = RecordSource::Sample(i).read().unwrap();
            assert!(!rec.moves.is_empty());
        }
        let missing = RecordSource::File(PathBuf::from("/nonexistent/x.sgf")).read();
        assert_eq!(missing, Err(qi_core::records::RecordError::NoSuchFile));
    }
}
