//! LAN discovery by multicast DNS. The test runs in a network namespace of its own holding only
//! the loopback interface (with multicast switched on), so that no multicast leaves this
//! machine; it joins the game it found there.

use std::net::SocketAddr;
use std::process::Command;
use std::time::{Duration, Instant};

use qi_core::any::AnyPosition;
use qi_core::clock::TimeControl;
use qi_core::net::protocol::Setup;
use qi_core::net::session::Event;
use qi_core::{GameKind, Side};
use qi_net::discovery::{Discovery, DiscoveryEvent, LanGame};
use qi_net::{HostVia, JoinTarget, NetEvent, NetGame};

const LIMIT: Duration = Duration::from_secs(20);

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run ip: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Moves this thread (and what it starts) into a new network namespace with only a loopback
/// interface that carries multicast. `Err` when no namespace can be made here.
fn isolated_network() -> Result<(), String> {
    // SAFETY: unshare only changes this thread's namespaces; no memory is involved.
    if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
        return Err(format!(
            "unshare(CLONE_NEWNET): {}",
            std::io::Error::last_os_error()
        ));
    }
    ip(&["link", "set", "lo", "up", "multicast", "on"])?;
    ip(&["route", "add", "224.0.0.0/4", "dev", "lo"])?;
    Ok(())
}

fn find(d: &mut Discovery, mut pred: impl FnMut(&DiscoveryEvent) -> bool) -> Vec<DiscoveryEvent> {
    let end = Instant::now() + LIMIT;
    let mut seen = Vec::new();
    while Instant::now() < end {
        for e in d.poll() {
            let hit = pred(&e);
            seen.push(e);
            if hit {
                return seen;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("not found within {LIMIT:?}; saw {seen:?}");
}

#[test]
fn a_hosted_game_is_listed_on_the_lan_and_can_be_joined_from_the_list() {
    let run = std::thread::spawn(|| {
        if let Err(why) = isolated_network() {
            // Without a namespace of its own the test would send multicast onto whatever
            // network this machine is on.
            println!("SKIPPED: no isolated network namespace for the multicast test ({why})");
            return;
        }
        let setup = Setup {
            game: GameKind::Go,
            start: AnyPosition::start(GameKind::Go).unwrap().to_text(),
            host_side: Side::White,
            clock: Some(TimeControl::ByoYomi {
                main: Duration::from_secs(600),
                periods: 5,
                period: Duration::from_secs(30),
            }),
        };
        let mut discovery = Discovery::start().expect("discovery starts");
        let host = NetGame::host(
            setup,
            "Hana",
            HostVia::Lan {
                port: 0,
                advertise: true,
            },
        )
        .unwrap();
        let port = host.local_addr().unwrap().port();
        assert!(
            !host
                .poll()
                .iter()
                .any(|e| matches!(e, NetEvent::AdvertiseFailed { .. })),
            "advertised"
        );
        let seen = find(
            &mut discovery,
            |e| matches!(e, DiscoveryEvent::Found(g) if g.info.port == port),
        );
        let Some(DiscoveryEvent::Found(game)) = seen.last().cloned() else {
            unreachable!()
        };
        let LanGame { info, addrs, .. } = &game;
        assert_eq!(info.name, "Hana");
        assert_eq!(info.game, GameKind::Go);
        assert_eq!(info.host_side, Side::White);
        assert_eq!(info.clock, "10:00 + 5 × 0:30");
        assert_eq!(info.session, host.session().session_id());
        assert_eq!(discovery.games(), vec![game.clone()]);
        let addr: SocketAddr = *addrs
            .iter()
            .find(|a| a.is_ipv4())
            .unwrap_or_else(|| panic!("an IPv4 address: {addrs:?}"));
        let joiner = NetGame::join("Joe", JoinTarget::Address(addr.to_string()));
        let end = Instant::now() + LIMIT;
        loop {
            assert!(Instant::now() < end, "no join through the found address");
            if joiner
                .poll()
                .iter()
                .any(|e| matches!(e, NetEvent::Game(Event::Joined { .. })))
            {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // The host closes: its game leaves the list.
        drop(host);
        find(
            &mut discovery,
            |e| matches!(e, DiscoveryEvent::Lost { fullname } if *fullname == game.fullname),
        );
        assert!(discovery.games().is_empty());
    });
    run.join().unwrap();
}
