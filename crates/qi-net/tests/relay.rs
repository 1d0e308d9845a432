//! The relay server's pairing and limits, with raw clients on loopback.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use qi_net::relay::{Relay, RelayConfig, RelayReply};

const LIMIT: Duration = Duration::from_secs(20);

struct Client {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Client {
    fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(LIMIT)).unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Client { stream, reader }
    }

    /// Sends a line (a relay that already closed the connection makes this fail: ignored,
    /// its reply is still read).
    fn send(&mut self, line: &str) {
        let _ = self.stream.write_all(format!("{line}\n").as_bytes());
    }

    fn line(&mut self) -> Option<String> {
        let mut s = String::new();
        match self.reader.read_line(&mut s) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(s.trim_end().to_string()),
        }
    }

    fn reply(&mut self) -> RelayReply {
        serde_json::from_str(&self.line().expect("a reply")).unwrap()
    }

    /// True when the relay closed the connection (within LIMIT).
    fn closed(&mut self) -> bool {
        let mut rest = Vec::new();
        self.reader.read_to_end(&mut rest).is_ok()
    }
}

/// A host and a joiner paired in a new room.
fn pair(addr: SocketAddr) -> (Client, Client, String, String) {
    let mut host = Client::connect(addr);
    host.send(r#"{"relay":1,"op":"host"}"#);
    let r = host.reply();
    assert_eq!(r.ok.as_deref(), Some("room"), "{r:?}");
    let (code, key) = (r.room.unwrap(), r.key.unwrap());
    let mut joiner = Client::connect(addr);
    joiner.send(&format!(r#"{{"relay":1,"op":"join","room":"{code}"}}"#));
    assert_eq!(joiner.reply().ok.as_deref(), Some("paired"));
    assert_eq!(host.reply().ok.as_deref(), Some("paired"));
    (host, joiner, code, key)
}

fn start(config: RelayConfig) -> Relay {
    Relay::start("127.0.0.1:0".parse().unwrap(), config).unwrap()
}

#[test]
fn pairs_by_room_code_and_forwards_lines_both_ways_in_order() {
    let relay = start(RelayConfig::default());
    let (mut host, mut joiner, code, _) = pair(relay.addr());
    assert_eq!(code.len(), 6);
    for i in 0..100 {
        host.send(&format!("h{i}"));
        joiner.send(&format!("j{i}"));
    }
    for i in 0..100 {
        assert_eq!(joiner.line().unwrap(), format!("h{i}"));
        assert_eq!(host.line().unwrap(), format!("j{i}"));
    }
    // A third person with the code finds the game on.
    let mut third = Client::connect(relay.addr());
    third.send(&format!(r#"{{"relay":1,"op":"join","room":"{code}"}}"#));
    assert!(third.reply().error.unwrap().contains("game is on"));
    assert!(third.closed());
    // A frame is counted once written to the other side, so the last count may come a moment
    // after the client has read the line (a race that failed this test once in CI: 199).
    let end = std::time::Instant::now() + LIMIT;
    let s = loop {
        let s = relay.stats().snapshot();
        if s.frames >= 200 || std::time::Instant::now() > end {
            break s;
        }
        std::thread::yield_now();
    };
    assert_eq!((s.paired, s.rooms, s.frames), (1, 1, 200));
    // One leaves: the other is closed too.
    drop(host);
    assert!(joiner.closed());
}

#[test]
fn refuses_bad_first_lines_wrong_keys_and_unknown_rooms() {
    let relay = start(RelayConfig::default());
    for bad in [
        "GET / HTTP/1.1",
        r#"{"relay":2,"op":"host"}"#,
        r#"{"relay":1,"op":"teleport"}"#,
        r#"{"relay":1,"op":"host","room":"ABCDEF"}"#,
        r#"{"relay":1,"op":"join","room":"ZZZZZZ"}"#,
    ] {
        let mut c = Client::connect(relay.addr());
        c.send(bad);
        assert!(c.reply().error.is_some(), "{bad}");
        assert!(c.closed(), "{bad}");
    }
    let mut host = Client::connect(relay.addr());
    host.send(r#"{"relay":1,"op":"host"}"#);
    let code = host.reply().room.unwrap();
    let mut thief = Client::connect(relay.addr());
    thief.send(&format!(
        r#"{{"relay":1,"op":"host","room":"{code}","key":"nope"}}"#
    ));
    assert_eq!(thief.reply().error.as_deref(), Some("wrong room key"));
    // Garbage bytes, no newline, past the first line's cap.
    let mut noise = Client::connect(relay.addr());
    noise.stream.write_all(&[0xffu8; 5000]).unwrap();
    assert!(noise.reply().error.is_some());
    assert_eq!(relay.stats().snapshot().refused, 7);
}

#[test]
fn an_oversized_line_closes_both_ends() {
    let relay = start(RelayConfig {
        max_frame: 1000,
        ..RelayConfig::default()
    });
    let (mut host, mut joiner, _, _) = pair(relay.addr());
    host.send(&"x".repeat(999));
    assert_eq!(joiner.line().unwrap().len(), 999);
    host.send(&"x".repeat(1001));
    assert!(joiner.closed());
    assert!(host.closed());
}

#[test]
fn a_flood_of_lines_is_cut_off() {
    let relay = start(RelayConfig {
        frames_per_sec: 5,
        burst: 20,
        ..RelayConfig::default()
    });
    let (mut host, mut joiner, _, _) = pair(relay.addr());
    let flood: String = (0..500).map(|i| format!("{i}\n")).collect();
    let _ = host.stream.write_all(flood.as_bytes());
    let mut got = 0;
    while joiner.line().is_some() {
        got += 1;
    }
    // The burst goes through (and what the rate refills meanwhile), then the pair is closed.
    assert!((20..100).contains(&got), "{got}");
    assert!(host.closed());
}

#[test]
fn the_host_reclaims_its_room_after_a_drop_and_the_joiner_comes_back() {
    let relay = start(RelayConfig::default());
    let (host, joiner, code, key) = pair(relay.addr());
    drop(host);
    drop(joiner);
    let mut host = Client::connect(relay.addr());
    host.send(&format!(
        r#"{{"relay":1,"op":"host","room":"{code}","key":"{key}"}}"#
    ));
    let r = host.reply();
    assert_eq!(
        (r.room.as_deref(), r.ok.as_deref()),
        (Some(code.as_str()), Some("room"))
    );
    let mut joiner = Client::connect(relay.addr());
    joiner.send(&format!(
        r#"{{"relay":1,"op":"join","room":"{}"}}"#,
        code.to_lowercase()
    ));
    assert_eq!(joiner.reply().ok.as_deref(), Some("paired"));
    assert_eq!(host.reply().ok.as_deref(), Some("paired"));
    joiner.send("back");
    assert_eq!(host.line().unwrap(), "back");
}

#[test]
fn limits_connections_and_rooms() {
    let relay = start(RelayConfig {
        max_connections: 3,
        max_rooms: 2,
        ..RelayConfig::default()
    });
    let mut hosts = Vec::new();
    for _ in 0..2 {
        let mut h = Client::connect(relay.addr());
        h.send(r#"{"relay":1,"op":"host"}"#);
        assert!(h.reply().room.is_some());
        hosts.push(h);
    }
    let mut third = Client::connect(relay.addr());
    third.send(r#"{"relay":1,"op":"host"}"#);
    assert_eq!(
        third.reply().error.as_deref(),
        Some("the relay has no room left")
    );
    drop(third);
    // Its connection is counted until the relay's thread for it ends.
    let end = std::time::Instant::now() + LIMIT;
    while relay.stats().snapshot().connections != 2 {
        assert!(std::time::Instant::now() < end);
        std::thread::yield_now();
    }
    // Two waiting hosts and one more connection make three: the fourth is turned away.
    let _idle = Client::connect(relay.addr());
    let mut fourth = Client::connect(relay.addr());
    fourth.send(r#"{"relay":1,"op":"host"}"#);
    assert_eq!(fourth.reply().error.as_deref(), Some("the relay is full"));
}

#[test]
fn a_waiting_host_that_leaves_frees_its_wait() {
    let relay = start(RelayConfig::default());
    let mut host = Client::connect(relay.addr());
    host.send(r#"{"relay":1,"op":"host"}"#);
    let code = host.reply().room.unwrap();
    drop(host);
    // The relay notices within its check interval; the joiner is then told the host is away.
    let end = std::time::Instant::now() + LIMIT;
    loop {
        let mut j = Client::connect(relay.addr());
        j.send(&format!(r#"{{"relay":1,"op":"join","room":"{code}"}}"#));
        let r = j.reply();
        if r.error.as_deref() == Some("the host is not in the room; try again shortly") {
            break;
        }
        assert!(std::time::Instant::now() < end, "{r:?}");
        // Paired with a host that is gone: the relay closes it.
        assert!(j.closed());
    }
}

#[test]
fn a_silent_pair_is_closed_after_the_idle_timeout() {
    let relay = start(RelayConfig {
        idle_timeout: Duration::from_millis(300),
        ..RelayConfig::default()
    });
    let (mut host, mut joiner, _, _) = pair(relay.addr());
    host.send("one line, then silence");
    assert_eq!(joiner.line().unwrap(), "one line, then silence");
    assert!(joiner.closed());
    assert!(host.closed());
}

#[test]
fn the_qi_relay_command_serves_on_the_port_it_is_given() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_qi-relay"))
        .args(["--bind", "127.0.0.1", "--port", "0", "--stats-every", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr: SocketAddr = first
        .trim()
        .strip_prefix("qi-relay: listening on ")
        .unwrap_or_else(|| panic!("{first}"))
        .parse()
        .unwrap();
    let (mut host, mut joiner, _, _) = pair(addr);
    joiner.send("hello through the command");
    assert_eq!(host.line().unwrap(), "hello through the command");
    child.kill().unwrap();
    child.wait().unwrap();
    // A port in use is a clear error, not a panic.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let busy = Command::new(env!("CARGO_BIN_EXE_qi-relay"))
        .args(["--bind", "127.0.0.1", "--port", &port])
        .output()
        .unwrap();
    assert_eq!(busy.status.code(), Some(1));
    let err = String::from_utf8_lossy(&busy.stderr);
    assert!(err.contains("cannot listen"), "{err}");
}
