//! Play online: host a game (the game and its options, your colour, the clock; on the LAN by
//! port, or through a relay server for a room code) or join one (a game found on the LAN, an
//! address `host:port`, or a room code on a relay), with your name; resume the online game of
//! the autosave. While hosting or joining, the panel shows the port or the room code to give
//! the other player and "waiting for the opponent…", with Cancel. The work is done by
//! `crate::online`, asked with [`OnlineRequest`] messages.

use std::collections::BTreeMap;
use std::sync::Mutex;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::any::AnyPosition;
use qi_core::net::Setup;
use qi_core::{GameKind, Side};
use qi_net::discovery::{Discovery, LanGame};
use qi_net::{DEFAULT_GAME_PORT, DEFAULT_RELAY_PORT, HostVia, JoinTarget};

use super::nav::NavKeys;
use super::new_game::{ColorChoice, playable};
use super::{Menu, menu_area};
use crate::clock::{ClockChoice, clock_choice_ui};
use crate::games::{GameOptions, ui_of};
use crate::online::{Online, OnlineNotice, OnlineRequest};
use crate::theme::palette;

pub fn plugin(app: &mut App) {
    app.init_resource::<OnlineModel>()
        .add_systems(OnEnter(Menu::Online), start_discovery)
        .add_systems(OnExit(Menu::Online), stop_discovery)
        .add_systems(
            EguiPrimaryContextPass,
            draw_online.run_if(in_state(Menu::Online)),
        );
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Host,
    Join,
}

/// How a host lets the opponent in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    Lan,
    Relay,
}

/// A game found on the LAN, as listed.
#[derive(Clone, Debug, PartialEq)]
pub struct LanEntry {
    pub label: String,
    pub address: String,
}

#[derive(Resource, Clone, Debug)]
pub struct OnlineModel {
    pub tab: Tab,
    pub name: String,
    pub kind: GameKind,
    pub options: BTreeMap<GameKind, GameOptions>,
    pub color: ColorChoice,
    pub clock: ClockChoice,
    pub via: Via,
    /// The LAN host's port.
    pub port: String,
    /// The relay server, `host:port`.
    pub relay: String,
    /// Join: the host's address, `host:port`.
    pub address: String,
    /// Join: the room code.
    pub room: String,
    pub lan: Vec<LanEntry>,
    /// Why LAN discovery does not work here, if it does not.
    pub lan_problem: Option<String>,
    /// A number from the app for the random colour choice.
    pub coin: bool,
    /// What is wrong with the choices (a bad port), shown until the next try.
    pub problem: Option<String>,
}

impl Default for OnlineModel {
    fn default() -> Self {
        OnlineModel {
            tab: Tab::Host,
            name: t!("player-default-name"),
            kind: GameKind::ALL[0],
            options: GameKind::ALL
                .into_iter()
                .map(|k| (k, ui_of(k).default_options()))
                .collect(),
            color: ColorChoice::First,
            clock: ClockChoice::default(),
            via: Via::Lan,
            port: DEFAULT_GAME_PORT.to_string(),
            relay: format!("127.0.0.1:{DEFAULT_RELAY_PORT}"),
            address: format!("127.0.0.1:{DEFAULT_GAME_PORT}"),
            room: String::new(),
            lan: Vec::new(),
            lan_problem: None,
            coin: false,
            problem: None,
        }
    }
}

/// The hosting or joining under way, as the panel shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WaitingView {
    pub hosting: bool,
    pub port: Option<u16>,
    /// This machine's address and the port, to give a joiner on the LAN.
    pub address: Option<String>,
    pub room: Option<String>,
    pub link: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OnlineMenuAction {
    Request(OnlineRequest),
    Back,
}

impl OnlineModel {
    /// The host's setup from these choices (`None`: the options give no start position).
    pub fn setup(&self) -> Option<Setup> {
        let default = ui_of(self.kind).default_options();
        let options = self.options.get(&self.kind).unwrap_or(&default);
        let start = match ui_of(self.kind).start_text(options) {
            Some(t) => t,
            None => AnyPosition::start(self.kind).ok()?.to_text(),
        };
        let host_side = match self.color {
            ColorChoice::First => Side::Black,
            ColorChoice::Second => Side::White,
            ColorChoice::Random if self.coin => Side::Black,
            ColorChoice::Random => Side::White,
        };
        Some(Setup {
            game: self.kind,
            start,
            host_side,
            clock: self.clock.control(),
        })
    }

    fn host_request(&self) -> Result<OnlineRequest, String> {
        let setup = self.setup().ok_or_else(|| t!("online-bad-options"))?;
        let via = match self.via {
            Via::Lan => HostVia::Lan {
                port: self
                    .port
                    .trim()
                    .parse()
                    .map_err(|_| t!("online-bad-port", port = self.port.as_str()))?,
                advertise: true,
            },
            Via::Relay => HostVia::Relay {
                server: self.relay.trim().to_string(),
            },
        };
        Ok(OnlineRequest::Host {
            setup,
            name: self.name.trim().to_string(),
            via,
        })
    }
}

/// The waiting panel (hosting or joining under way).
pub fn waiting_ui(ui: &mut egui::Ui, w: &WaitingView) -> Option<OnlineMenuAction> {
    let keys = NavKeys::read(ui);
    let mut action = None;
    ui.vertical_centered(|ui| {
        ui.heading(egui::RichText::new(t!("online-title")).size(28.0));
        ui.add_space(10.0);
        if w.hosting {
            if let Some(port) = w.port {
                ui.label(egui::RichText::new(t!("online-hosting-port", port = port)).size(20.0));
            }
            if let Some(address) = &w.address {
                ui.label(
                    egui::RichText::new(t!("online-hosting-address", address = address.as_str()))
                        .size(20.0)
                        .strong(),
                );
            }
            if let Some(code) = &w.room {
                ui.label(
                    egui::RichText::new(t!("online-hosting-room", code = code.as_str()))
                        .size(24.0)
                        .strong(),
                );
            }
            if w.port.is_some() || w.room.is_some() {
                ui.label(t!("online-give-this"));
            }
        }
        ui.add_space(8.0);
        ui.label(egui::RichText::new(t!("online-waiting")).size(18.0));
        if let Some(link) = &w.link {
            ui.label(egui::RichText::new(link).color(palette::ui().text_weak));
        }
        ui.add_space(12.0);
        if ui
            .add(egui::Button::new(t!("online-cancel")).min_size(egui::vec2(160.0, 30.0)))
            .clicked()
            || keys.back
        {
            action = Some(OnlineMenuAction::Request(OnlineRequest::Cancel));
        }
    });
    action
}

/// The Play online panel: host or join.
pub fn online_ui(
    ui: &mut egui::Ui,
    m: &mut OnlineModel,
    notice: &OnlineNotice,
) -> Option<OnlineMenuAction> {
    let keys = NavKeys::read(ui);
    let typing = ui.memory(|mem| mem.focused().is_some());
    if keys.back && !typing {
        return Some(OnlineMenuAction::Back);
    }
    let mut action = None;
    ui.vertical_centered(|ui| {
        ui.heading(egui::RichText::new(t!("online-title")).size(28.0));
        ui.add_space(6.0);
        if let Some(n) = &notice.text {
            ui.label(egui::RichText::new(n).color(palette::ui().error));
        }
        ui.horizontal(|ui| {
            for (tab, label) in [
                (Tab::Host, t!("online-host")),
                (Tab::Join, t!("online-join")),
            ] {
                if ui
                    .add(
                        egui::Button::new(egui::RichText::new(label).size(18.0))
                            .selected(m.tab == tab),
                    )
                    .clicked()
                {
                    m.tab = tab;
                }
            }
        });
    });
    ui.add_space(8.0);
    egui::Grid::new("online_grid")
        .num_columns(2)
        .spacing([20.0, 10.0])
        .show(ui, |ui| {
            ui.label(t!("online-your-name"));
            ui.add(
                egui::TextEdit::singleline(&mut m.name)
                    .char_limit(qi_core::net::protocol::MAX_NAME_CHARS)
                    .desired_width(180.0)
                    .id(egui::Id::new("online_name")),
            );
            ui.end_row();
            match m.tab {
                Tab::Host => {
                    ui.label(t!("new-game-game"));
                    ui.horizontal(|ui| {
                        for k in GameKind::ALL {
                            if ui
                                .add_enabled(
                                    playable(k),
                                    egui::Button::new(ui_of(k).title()).selected(m.kind == k),
                                )
                                .clicked()
                            {
                                m.kind = k;
                            }
                        }
                    });
                    ui.end_row();
                    ui.label(t!("new-game-board"));
                    let kind = m.kind;
                    let options = m
                        .options
                        .entry(kind)
                        .or_insert_with(|| ui_of(kind).default_options());
                    ui.horizontal(|ui| ui_of(kind).options_ui(ui, options));
                    ui.end_row();
                    ui.label(t!("new-game-you-play"));
                    ui.horizontal(|ui| {
                        let game = ui_of(m.kind);
                        for (c, label) in [
                            (ColorChoice::First, game.side_name(Side::Black)),
                            (ColorChoice::Second, game.side_name(Side::White)),
                            (ColorChoice::Random, t!("color-random")),
                        ] {
                            if ui
                                .add(egui::Button::new(label).selected(m.color == c))
                                .clicked()
                            {
                                m.color = c;
                            }
                        }
                    });
                    ui.end_row();
                    ui.label(t!("new-game-clock"));
                    clock_choice_ui(ui, &mut m.clock);
                    ui.end_row();
                    ui.label(t!("online-via"));
                    ui.horizontal(|ui| {
                        for (v, label) in [
                            (Via::Lan, t!("online-via-lan")),
                            (Via::Relay, t!("online-via-relay")),
                        ] {
                            if ui
                                .add(egui::Button::new(label).selected(m.via == v))
                                .clicked()
                            {
                                m.via = v;
                            }
                        }
                    });
                    ui.end_row();
                    match m.via {
                        Via::Lan => {
                            ui.label(t!("online-port"));
                            ui.add(egui::TextEdit::singleline(&mut m.port).desired_width(80.0));
                        }
                        Via::Relay => {
                            ui.label(t!("online-relay-server"));
                            ui.add(egui::TextEdit::singleline(&mut m.relay).desired_width(180.0));
                        }
                    }
                    ui.end_row();
                }
                Tab::Join => {
                    ui.label(t!("online-lan-games"));
                    ui.vertical(|ui| {
                        if m.lan.is_empty() {
                            ui.label(
                                egui::RichText::new(
                                    m.lan_problem
                                        .clone()
                                        .unwrap_or_else(|| t!("online-lan-none")),
                                )
                                .color(palette::ui().text_weak),
                            );
                        }
                        for g in &m.lan {
                            if ui.button(&g.label).clicked() {
                                action = Some(JoinTarget::Address(g.address.clone()));
                            }
                        }
                    });
                    ui.end_row();
                    ui.label(t!("online-address"));
                    ui.horizontal(|ui| {
                        let field = ui.add(
                            egui::TextEdit::singleline(&mut m.address)
                                .desired_width(180.0)
                                .id(egui::Id::new("online_address")),
                        );
                        // Enter in the field joins, as the button does
                        let enter =
                            field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                        if ui.button(t!("online-join-address")).clicked() || enter {
                            action = Some(JoinTarget::Address(m.address.trim().to_string()));
                        }
                    });
                    ui.end_row();
                    ui.label(t!("online-room-code"));
                    ui.horizontal(|ui| {
                        ui.add(egui::TextEdit::singleline(&mut m.room).desired_width(100.0));
                        ui.label(t!("online-relay-server"));
                        ui.add(egui::TextEdit::singleline(&mut m.relay).desired_width(150.0));
                        if ui.button(t!("online-join-room")).clicked() {
                            action = Some(JoinTarget::Room {
                                server: m.relay.trim().to_string(),
                                code: m.room.trim().to_uppercase(),
                            });
                        }
                    });
                    ui.end_row();
                }
            }
        });
    let mut out = action.map(|target| {
        OnlineMenuAction::Request(OnlineRequest::Join {
            name: m.name.trim().to_string(),
            target,
        })
    });
    ui.add_space(12.0);
    ui.vertical_centered(|ui| {
        if m.tab == Tab::Host
            && ui
                .add(
                    egui::Button::new(egui::RichText::new(t!("online-start-hosting")).size(20.0))
                        .min_size(egui::vec2(200.0, 34.0)),
                )
                .clicked()
        {
            match m.host_request() {
                Ok(r) => {
                    m.problem = None;
                    out = Some(OnlineMenuAction::Request(r))
                }
                Err(e) => m.problem = Some(e),
            }
        }
        if let Some((game, peer)) = &notice.resumable
            && ui
                .button(t!(
                    "online-resume",
                    game = ui_of(*game).title(),
                    name = peer.as_str()
                ))
                .clicked()
        {
            out = Some(OnlineMenuAction::Request(OnlineRequest::Resume));
        }
        if ui
            .add(egui::Button::new(t!("back")).min_size(egui::vec2(200.0, 30.0)))
            .clicked()
        {
            out = Some(OnlineMenuAction::Back);
        }
        if let Some(p) = &m.problem {
            ui.label(egui::RichText::new(p).color(palette::ui().error));
        }
    });
    if out.as_ref().is_some_and(|a| {
        matches!(a, OnlineMenuAction::Request(OnlineRequest::Host { name, .. } | OnlineRequest::Join { name, .. }) if name.is_empty())
    }) {
        m.name = t!("player-default-name");
        return None;
    }
    out
}

/// LAN discovery while the menu is open.
#[derive(Resource)]
struct LanSearch(Mutex<Discovery>);

fn start_discovery(mut commands: Commands, mut model: ResMut<OnlineModel>) {
    model.lan.clear();
    match Discovery::start() {
        Ok(d) => {
            model.lan_problem = None;
            commands.insert_resource(LanSearch(Mutex::new(d)));
        }
        Err(e) => {
            warn!("qi: {e}");
            model.lan_problem = Some(t!("online-lan-unavailable", why = e));
        }
    }
}

fn stop_discovery(mut commands: Commands) {
    commands.remove_resource::<LanSearch>();
}

fn lan_entry(g: &LanGame) -> Option<LanEntry> {
    let addr = g.addrs.first()?;
    let game = ui_of(g.info.game);
    let clock = if g.info.clock.is_empty() {
        String::new()
    } else {
        format!(" · {}", g.info.clock)
    };
    Some(LanEntry {
        label: t!(
            "online-lan-game",
            name = g.info.name.as_str(),
            game = game.title(),
            side = game.side_name(g.info.host_side.other()),
            clock = clock
        ),
        address: addr.to_string(),
    })
}

fn draw_online(
    mut contexts: EguiContexts,
    mut model: ResMut<OnlineModel>,
    notice: Res<OnlineNotice>,
    online: Option<Res<Online>>,
    lan: Option<Res<LanSearch>>,
    mut next: ResMut<NextState<Menu>>,
    mut requests: MessageWriter<OnlineRequest>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    model.coin = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .is_ok_and(|d| d.subsec_nanos() & 1 == 1);
    if let Some(lan) = lan
        && let Ok(mut d) = lan.0.lock()
        && !d.poll().is_empty()
    {
        model.lan = d.games().iter().filter_map(lan_entry).collect();
    }
    let action = if let Some(o) = online {
        let w = WaitingView {
            hosting: o.role == qi_core::net::session::Role::Host,
            port: o.port,
            address: o.address.clone(),
            room: o.room.clone(),
            link: o.link.clone(),
        };
        menu_area(ctx, |ui| waiting_ui(ui, &w)).flatten()
    } else {
        menu_area(ctx, |ui| online_ui(ui, &mut model, &notice)).flatten()
    };
    match action {
        Some(OnlineMenuAction::Request(r)) => {
            requests.write(r);
        }
        Some(OnlineMenuAction::Back) => next.set(Menu::Main),
        None => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests;
