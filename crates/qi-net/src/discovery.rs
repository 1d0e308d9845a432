//! LAN discovery: a LAN host advertises its game by multicast DNS service discovery
//! (`_qi-game._tcp.local.`, through the `mdns-sd` crate), and the join screen lists what it
//! finds. Where multicast does not work (no network, a network that drops it), starting fails
//! or nothing is found: the window says so and joining by address still works.

use std::collections::HashMap;
use std::net::SocketAddr;

use mdns_sd::{ServiceDaemon, ServiceEvent, ServiceInfo};

use qi_core::game::{GameKind, Side};
use qi_core::net::PROTOCOL_VERSION;
use qi_core::net::session::Session;

/// The DNS-SD service type of a Qi game.
pub const SERVICE_TYPE: &str = "_qi-game._tcp.local.";

/// What a LAN host tells about its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanGameInfo {
    /// The host player's name.
    pub name: String,
    pub game: GameKind,
    pub host_side: Side,
    /// The time control as shown (`10:00 + 5 × 0:30`), empty for none.
    pub clock: String,
    pub port: u16,
    pub session: String,
    pub version: u32,
}

impl LanGameInfo {
    /// The info of a host's session listening on `port`.
    pub fn of(s: &Session, port: u16) -> LanGameInfo {
        let setup = s.setup().expect("a host has its setup");
        LanGameInfo {
            name: s.my_name().to_string(),
            game: setup.game,
            host_side: setup.host_side,
            clock: setup.clock.map(|c| c.to_string()).unwrap_or_default(),
            port,
            session: s.session_id().to_string(),
            version: PROTOCOL_VERSION,
        }
    }
}

/// A game found on the LAN.
#[derive(Clone, Debug, PartialEq)]
pub struct LanGame {
    pub info: LanGameInfo,
    /// Where to join it (IPv4 first).
    pub addrs: Vec<SocketAddr>,
    /// The service's full name (what [`DiscoveryEvent::Lost`] names).
    pub fullname: String,
}

/// What [`Discovery::poll`] reports.
#[derive(Clone, Debug, PartialEq)]
pub enum DiscoveryEvent {
    Found(LanGame),
    Lost { fullname: String },
}

fn side_text(s: Side) -> &'static str {
    match s {
        Side::Black => "black",
        Side::White => "white",
    }
}

/// An advertised game; dropping it withdraws it.
pub struct Advertisement {
    daemon: ServiceDaemon,
    fullname: String,
}

impl Advertisement {
    pub fn start(info: &LanGameInfo) -> Result<Advertisement, String> {
        let daemon =
            ServiceDaemon::new().map_err(|e| format!("LAN discovery cannot start: {e}"))?;
        let instance = format!(
            "{} ({})",
            info.name,
            &info.session[..info.session.len().min(6)]
        );
        let host = format!("qi-{}.local.", info.session);
        let props = [
            ("v", info.version.to_string()),
            ("game", info.game.name().to_string()),
            ("side", side_text(info.host_side).to_string()),
            ("clock", info.clock.clone()),
            ("name", info.name.clone()),
            ("session", info.session.clone()),
        ];
        let service = ServiceInfo::new(SERVICE_TYPE, &instance, &host, "", info.port, &props[..])
            .map_err(|e| format!("cannot advertise the game: {e}"))?
            .enable_addr_auto();
        let fullname = service.get_fullname().to_string();
        daemon
            .register(service)
            .map_err(|e| format!("cannot advertise the game: {e}"))?;
        Ok(Advertisement { daemon, fullname })
    }
}

impl Drop for Advertisement {
    fn drop(&mut self) {
        let _ = self.daemon.unregister(&self.fullname);
        let _ = self.daemon.shutdown();
    }
}

/// Looks for games on the LAN in the background.
pub struct Discovery {
    daemon: ServiceDaemon,
    events: mdns_sd::Receiver<ServiceEvent>,
    games: HashMap<String, LanGame>,
}

impl Discovery {
    pub fn start() -> Result<Discovery, String> {
        let daemon =
            ServiceDaemon::new().map_err(|e| format!("LAN discovery cannot start: {e}"))?;
        let events = daemon
            .browse(SERVICE_TYPE)
            .map_err(|e| format!("LAN discovery cannot start: {e}"))?;
        Ok(Discovery {
            daemon,
            events,
            games: HashMap::new(),
        })
    }

    /// What was found or lost since the last call (never blocks).
    pub fn poll(&mut self) -> Vec<DiscoveryEvent> {
        let mut out = Vec::new();
        while let Ok(ev) = self.events.try_recv() {
            match ev {
                ServiceEvent::ServiceResolved(r) => {
                    let Some(game) = parse(&r) else { continue };
                    if self.games.get(&game.fullname) != Some(&game) {
                        self.games.insert(game.fullname.clone(), game.clone());
                        out.push(DiscoveryEvent::Found(game));
                    }
                }
                ServiceEvent::ServiceRemoved(_, fullname)
                    if self.games.remove(&fullname).is_some() =>
                {
                    out.push(DiscoveryEvent::Lost { fullname });
                }
                _ => {}
            }
        }
        out
    }

    /// The games found so far and still there.
    pub fn games(&self) -> Vec<LanGame> {
        let mut v: Vec<LanGame> = self.games.values().cloned().collect();
        v.sort_by(|a, b| a.info.name.cmp(&b.info.name));
        v
    }
}

impl Drop for Discovery {
    fn drop(&mut self) {
        let _ = self.daemon.stop_browse(SERVICE_TYPE);
        let _ = self.daemon.shutdown();
    }
}

fn parse(r: &mdns_sd::ResolvedService) -> Option<LanGame> {
    let prop = |k: &str| r.get_property_val_str(k).map(str::to_string);
    let game_name = prop("game")?;
    let game = GameKind::ALL.into_iter().find(|g| g.name() == game_name)?;
    let host_side = match prop("side")?.as_str() {
        "black" => Side::Black,
        "white" => Side::White,
        _ => return None,
    };
    let mut addrs: Vec<SocketAddr> = r
        .get_addresses()
        .iter()
        .map(|ip| SocketAddr::new(ip.to_ip_addr(), r.get_port()))
        .collect();
    addrs.sort_by_key(|a| (a.is_ipv6(), *a));
    Some(LanGame {
        info: LanGameInfo {
            name: prop("name").unwrap_or_default(),
            game,
            host_side,
            clock: prop("clock").unwrap_or_default(),
            port: r.get_port(),
            session: prop("session").unwrap_or_default(),
            version: prop("v")?.parse().ok()?,
        },
        addrs,
        fullname: r.get_fullname().to_string(),
    })
}
