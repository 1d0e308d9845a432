//! Two players over real sockets on loopback: direct (LAN) and through the relay.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use qi_core::any::AnyPosition;
use qi_core::clock::TimeControl;
use qi_core::net::protocol::{MAX_FRAME_BYTES, Message, ProtocolError, Setup, decode, encode};
use qi_core::net::reason::Refusal;
use qi_core::net::session::{Event, Phase, Timing};
use qi_core::result::{GameResult, Reason};
use qi_core::rng::Rng;
use qi_core::{GameKind, Side};
use qi_net::relay::{Relay, RelayConfig};
use qi_net::{Action, HostVia, JoinTarget, LinkProblem, NetEvent, NetGame};

const LIMIT: Duration = Duration::from_secs(20);

fn setup(game: GameKind, host_side: Side, clock: Option<TimeControl>) -> Setup {
    let start = match game {
        // A 9x9 board keeps the Go game short.
        GameKind::Go => AnyPosition::from_text(
            GameKind::Go,
            "9 7 b ........./........./........./........./........./........./........./........./.........",
        )
        .unwrap()
        .to_text(),
        _ => AnyPosition::start(game).unwrap().to_text(),
    };
    Setup {
        game,
        start,
        host_side,
        clock,
    }
}

/// Polls until an event matches (returns every event seen up to it), or panics after LIMIT.
fn wait_for(g: &NetGame, what: &str, mut pred: impl FnMut(&NetEvent) -> bool) -> Vec<NetEvent> {
    let end = Instant::now() + LIMIT;
    let mut seen = Vec::new();
    while Instant::now() < end {
        for e in g.poll() {
            let hit = pred(&e);
            seen.push(e);
            if hit {
                return seen;
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("no {what} within {LIMIT:?}; saw {seen:?}");
}

fn joined(e: &NetEvent) -> bool {
    matches!(e, NetEvent::Game(Event::Joined { .. }))
}

fn resumed(e: &NetEvent) -> bool {
    matches!(e, NetEvent::Game(Event::Resumed { .. }))
}

fn waiting(e: &NetEvent) -> bool {
    matches!(e, NetEvent::Game(Event::Waiting { .. }))
}

fn lan_host(setup: Setup) -> (NetGame, SocketAddr) {
    let host = NetGame::host(
        setup,
        "Hana",
        HostVia::Lan {
            port: 0,
            advertise: false,
        },
    )
    .unwrap();
    let port = host.local_addr().unwrap().port();
    (host, SocketAddr::from(([127, 0, 0, 1], port)))
}

fn connect_pair(setup: Setup) -> (NetGame, NetGame) {
    let (host, addr) = lan_host(setup);
    let joiner = NetGame::join("Joe", JoinTarget::Address(addr.to_string()));
    wait_for(&host, "the host's join", joined);
    wait_for(&joiner, "the joiner's join", joined);
    (host, joiner)
}

/// Plays one random legal move (a pass late in Go) for whoever is to move, and waits until
/// the other side has it. Returns false once the game is over.
fn play_one(host: &NetGame, joiner: &NetGame, rng: &mut Rng) -> bool {
    let (pos, to_move, host_side, ply) = {
        let s = host.session();
        if s.result().is_some() {
            return false;
        }
        let h = s.history().unwrap();
        (h.current().clone(), s.to_move().unwrap(), s.me(), h.ply())
    };
    let (mover, other) = if to_move == host_side {
        (host, joiner)
    } else {
        (joiner, host)
    };
    let moves = pos.legal_moves();
    let mv = match pos.legal_pass() {
        Some(pass) if pos.kind() == GameKind::Go && ply > 50 => pass,
        _ => moves[rng.below_small(moves.len())],
    };
    let text = pos.move_to_text(mv);
    mover.send(Action::MoveText(text.clone())).unwrap();
    let seen = wait_for(
        other,
        "the opponent's move",
        |e| matches!(e, NetEvent::Game(Event::OpponentMoved { text: t, ply: p, .. }) if *t == text && *p == ply),
    );
    assert!(
        !seen
            .iter()
            .any(|e| matches!(e, NetEvent::Game(Event::Refused { .. }))),
        "{seen:?}"
    );
    true
}

fn same_game(a: &NetGame, b: &NetGame) {
    let (a, b) = (a.session(), b.session());
    assert_eq!(
        a.history().unwrap().move_texts(),
        b.history().unwrap().move_texts()
    );
    assert_eq!(
        a.history().unwrap().current(),
        b.history().unwrap().current()
    );
    assert_eq!(a.result(), b.result());
}

#[test]
fn a_whole_game_of_each_kind_over_tcp() {
    for game in GameKind::ALL {
        let (host, joiner) = connect_pair(setup(game, Side::White, None));
        assert_eq!(joiner.session().me(), Side::Black);
        assert_eq!(joiner.session().peer_name(), Some("Hana"));
        assert_eq!(host.session().peer_name(), Some("Joe"));
        let mut rng = Rng::new(11 + game as u64);
        let mut plies = 0;
        while play_one(&host, &joiner, &mut rng) {
            plies += 1;
            assert!(plies < 600, "{game:?} does not end");
        }
        same_game(&host, &joiner);
        let r = host.session().result().unwrap();
        assert_eq!(
            Some(r),
            GameResult::of(host.session().history().unwrap().current())
        );
        assert_eq!(joiner.session().phase(), Phase::Over);
        println!("{game:?}: {plies} moves, {}", r.sgf());
    }
}

#[test]
fn undo_draw_chat_and_resignation_over_tcp() {
    let (host, joiner) = connect_pair(setup(GameKind::Reversi, Side::Black, None));
    host.send(Action::MoveText("d3".into())).unwrap();
    wait_for(&joiner, "d3", |e| {
        matches!(e, NetEvent::Game(Event::OpponentMoved { .. }))
    });
    // The host takes d3 back; the joiner says no, then yes.
    host.send(Action::RequestUndo).unwrap();
    wait_for(&joiner, "the request", |e| {
        matches!(e, NetEvent::Game(Event::UndoRequested { ply: 0 }))
    });
    joiner.send(Action::AnswerUndo(false)).unwrap();
    wait_for(&host, "the refusal", |e| {
        matches!(e, NetEvent::Game(Event::UndoRefused))
    });
    assert_eq!(host.session().history().unwrap().ply(), 1);
    host.send(Action::RequestUndo).unwrap();
    wait_for(&joiner, "the request", |e| {
        matches!(e, NetEvent::Game(Event::UndoRequested { ply: 0 }))
    });
    joiner.send(Action::AnswerUndo(true)).unwrap();
    wait_for(&host, "the undo", |e| {
        matches!(e, NetEvent::Game(Event::UndoDone { ply: 0 }))
    });
    same_game(&host, &joiner);
    assert_eq!(host.session().history().unwrap().ply(), 0);
    joiner.send(Action::Chat("ok, play again".into())).unwrap();
    wait_for(
        &host,
        "the chat",
        |e| matches!(e, NetEvent::Game(Event::Chat { text, from }) if text == "ok, play again" && from == "Joe"),
    );
    host.send(Action::OfferDraw).unwrap();
    wait_for(&joiner, "the offer", |e| {
        matches!(e, NetEvent::Game(Event::DrawOffered))
    });
    joiner.send(Action::AnswerDraw(false)).unwrap();
    wait_for(&host, "the answer", |e| {
        matches!(e, NetEvent::Game(Event::DrawRefused))
    });
    host.send(Action::MoveText("c4".into())).unwrap();
    wait_for(&joiner, "c4", |e| {
        matches!(e, NetEvent::Game(Event::OpponentMoved { .. }))
    });
    joiner.send(Action::Resign).unwrap();
    let win = GameResult::win(Side::Black, Reason::Resignation);
    wait_for(&host, "the resignation", |e| {
        *e == NetEvent::Game(Event::GameOver(win))
    });
    same_game(&host, &joiner);
}

#[test]
fn a_flag_over_tcp_ends_the_game_on_time() {
    let tc = TimeControl::Absolute {
        main: Duration::from_millis(300),
    };
    let (host, joiner) = connect_pair(setup(GameKind::Gomoku, Side::White, Some(tc)));
    // Black (the joiner) does not move: its own flag falls and the host hears of it.
    let lost = GameResult::win(Side::White, Reason::Time);
    wait_for(&joiner, "the flag", |e| {
        *e == NetEvent::Game(Event::GameOver(lost))
    });
    wait_for(&host, "the flag", |e| {
        *e == NetEvent::Game(Event::GameOver(lost))
    });
    let c = host.session().clock(Instant::now()).unwrap();
    assert!(c.remaining(Side::Black).is_out());
    assert_eq!(c.flagged(), Some(Side::Black));
}

#[test]
fn a_joiner_that_crashes_comes_back_from_its_autosave() {
    let (host, joiner) = connect_pair(setup(GameKind::Ataxx, Side::Black, None));
    let mut rng = Rng::new(3);
    for _ in 0..6 {
        assert!(play_one(&host, &joiner, &mut rng));
    }
    let save = joiner.save().unwrap();
    // Through the text an autosave file holds.
    let save = ron::from_str(&ron::to_string(&save).unwrap()).unwrap();
    drop(joiner);
    wait_for(&host, "the pause", waiting);
    assert_eq!(host.session().phase(), Phase::Paused);
    assert!(host.send(Action::MoveText("b6".into())).is_err());
    let joiner = NetGame::resume(save, Timing::default()).unwrap();
    wait_for(&joiner, "the resume", resumed);
    wait_for(&host, "the resume", resumed);
    for _ in 0..6 {
        assert!(play_one(&host, &joiner, &mut rng));
    }
    same_game(&host, &joiner);
    assert_eq!(host.session().history().unwrap().ply(), 12);
}

#[test]
fn a_game_through_the_relay_survives_the_relay_restarting() {
    let relay = Relay::start("127.0.0.1:0".parse().unwrap(), RelayConfig::default()).unwrap();
    let server = relay.addr().to_string();
    let host = NetGame::host(
        setup(GameKind::Go, Side::Black, None),
        "Hana",
        HostVia::Relay {
            server: server.clone(),
        },
    )
    .unwrap();
    let mut code = String::new();
    wait_for(&host, "the room code", |e| match e {
        NetEvent::Room { code: c } => {
            code = c.clone();
            true
        }
        _ => false,
    });
    assert_eq!(code.len(), 6);
    assert_eq!(host.room_code(), Some(code.clone()));
    // Typed in lower case with a dash: still the room.
    let typed = format!("{}-{}", &code[..3], &code[3..]).to_lowercase();
    let joiner = NetGame::join(
        "Joe",
        JoinTarget::Room {
            server: server.clone(),
            code: typed,
        },
    );
    wait_for(&host, "the join", joined);
    wait_for(&joiner, "the join", joined);
    let mut rng = Rng::new(5);
    for _ in 0..5 {
        assert!(play_one(&host, &joiner, &mut rng));
    }
    // The relay goes down mid-game: both wait; it comes back on the same port.
    let addr = relay.addr();
    drop(relay);
    wait_for(&host, "the pause", waiting);
    wait_for(&joiner, "the pause", waiting);
    let relay = Relay::start(addr, RelayConfig::default()).unwrap();
    wait_for(&host, "the resume", resumed);
    wait_for(&joiner, "the resume", resumed);
    for _ in 0..5 {
        assert!(play_one(&host, &joiner, &mut rng));
    }
    same_game(&host, &joiner);
    assert_eq!(host.session().history().unwrap().ply(), 10);
    assert!(relay.stats().snapshot().frames > 0);
}

#[test]
fn a_wrong_room_code_fails_clearly() {
    let relay = Relay::start("127.0.0.1:0".parse().unwrap(), RelayConfig::default()).unwrap();
    let joiner = NetGame::join(
        "Joe",
        JoinTarget::Room {
            server: relay.addr().to_string(),
            code: "ZZZZZZ".into(),
        },
    );
    let seen = wait_for(&joiner, "the failure", |e| {
        matches!(e, NetEvent::Failed { .. })
    });
    assert!(
        matches!(seen.last(), Some(NetEvent::Failed { why })
            if *why == LinkProblem::RelaySays("no such room".into())),
        "{seen:?}"
    );
    // it said where it went: the room on that relay (for the window to word)
    assert!(
        seen.iter()
            .any(|e| matches!(e, NetEvent::Connecting { to, room }
            if *to == relay.addr().to_string() && room.as_deref() == Some("ZZZZZZ"))),
        "{seen:?}"
    );
}

/// A raw connection to a LAN host, speaking the protocol by hand.
struct Raw {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Raw {
    fn connect(addr: SocketAddr) -> Raw {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(LIMIT)).unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Raw { stream, reader }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }

    /// The next message that is not a ping (answering pings), `None` at the end.
    fn next(&mut self) -> Option<Message> {
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).unwrap_or(0) == 0 {
                return None;
            }
            match decode(line.as_bytes()).unwrap() {
                Message::Ping { n } => self.send(encode(&Message::Pong { n }).as_bytes()),
                m => return Some(m),
            }
        }
    }

    /// Reads until the host closes the connection; true if it did within LIMIT.
    fn closed(&mut self) -> bool {
        let mut rest = Vec::new();
        self.reader.read_to_end(&mut rest).is_ok()
    }

    fn hello(&mut self) -> Message {
        self.send(
            encode(&Message::Hello {
                name: "Raw".into(),
                resume: None,
            })
            .as_bytes(),
        );
        self.next().unwrap()
    }
}

fn protocol_error(e: &NetEvent) -> Option<&ProtocolError> {
    match e {
        NetEvent::Game(Event::ProtocolError(pe)) => Some(pe),
        _ => None,
    }
}

#[test]
fn bad_input_from_the_wire_gives_an_error_and_closes_the_link() {
    let big = vec![b'x'; MAX_FRAME_BYTES + 10];
    type Is = fn(&ProtocolError) -> bool;
    let cases: Vec<(&str, Vec<u8>, Is)> = vec![
        ("garbage", b"\x16\x03\x01\x02\x00 hello?\n".to_vec(), |e| {
            matches!(e, ProtocolError::Garbage(_))
        }),
        (
            "another version",
            b"{\"v\":2,\"t\":\"hello\",\"name\":\"x\"}\n".to_vec(),
            |e| matches!(e, ProtocolError::Version { theirs: 2 }),
        ),
        ("an oversized frame", big, |e| {
            matches!(e, ProtocolError::TooLarge { .. })
        }),
    ];
    for (what, bytes, is) in cases {
        let (host, addr) = lan_host(setup(GameKind::Gomoku, Side::Black, None));
        let mut raw = Raw::connect(addr);
        raw.send(&bytes);
        let seen = wait_for(&host, what, |e| protocol_error(e).is_some());
        assert!(
            is(protocol_error(seen.last().unwrap()).unwrap()),
            "{what}: {seen:?}"
        );
        // The host says why, then closes.
        match raw.next() {
            Some(Message::Error { text }) => assert!(!text.is_empty()),
            other => panic!("{what}: {other:?}"),
        }
        assert!(raw.closed(), "{what}");
        // The game still waits for a proper joiner.
        assert_eq!(host.session().phase(), Phase::Connecting);
        let joiner = NetGame::join("Joe", JoinTarget::Address(addr.to_string()));
        wait_for(&joiner, "a proper join after the bad one", joined);
    }
}

#[test]
fn a_joiner_cannot_move_for_the_host_nor_play_illegal_moves() {
    let (host, addr) = lan_host(setup(GameKind::Reversi, Side::Black, None));
    let mut raw = Raw::connect(addr);
    match raw.hello() {
        Message::Welcome { setup, .. } => assert_eq!(setup.host_side, Side::Black),
        other => panic!("{other:?}"),
    }
    wait_for(&host, "the join", joined);
    // Black (the host) is to move: the joiner's move is for the host's side.
    raw.send(
        encode(&Message::Move {
            ply: 0,
            mv: "d3".into(),
            spent_ms: 0,
        })
        .as_bytes(),
    );
    let seen = wait_for(&host, "the refusal", |e| {
        matches!(e, NetEvent::Game(Event::Refused { .. }))
    });
    assert!(
        seen.iter().any(|e| matches!(
            e,
            NetEvent::Game(Event::Refused {
                why: Refusal::OutOfTurn { mv }
            }) if mv == "d3"
        )),
        "{seen:?}"
    );
    // the wire carries the refusal's English
    match raw.next() {
        Some(Message::Error { text }) => assert!(text.contains("out of turn"), "{text}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(host.session().history().unwrap().ply(), 0);
    host.send(Action::MoveText("d3".into())).unwrap();
    assert!(matches!(raw.next(), Some(Message::Move { ply: 0, .. })));
    // An illegal reply, then a legal one: the link went on.
    raw.send(
        encode(&Message::Move {
            ply: 1,
            mv: "a1".into(),
            spent_ms: 0,
        })
        .as_bytes(),
    );
    wait_for(&host, "the refusal", |e| {
        matches!(e, NetEvent::Game(Event::Refused { .. }))
    });
    raw.send(
        encode(&Message::Move {
            ply: 1,
            mv: "c3".into(),
            spent_ms: 0,
        })
        .as_bytes(),
    );
    wait_for(&host, "c3", |e| {
        matches!(e, NetEvent::Game(Event::OpponentMoved { .. }))
    });
    assert_eq!(
        host.session().history().unwrap().move_texts(),
        vec!["d3", "c3"]
    );
    // A second player is turned away while the first is connected.
    let mut other = Raw::connect(addr);
    assert!(matches!(other.next(), Some(Message::Error { .. })));
    assert!(other.closed());
    assert_eq!(host.session().peer_name(), Some("Raw"));
}

#[test]
fn a_silent_peer_is_dropped_after_the_timeout() {
    let timing = Timing {
        heartbeat: Duration::from_millis(100),
        peer_timeout: Duration::from_millis(800),
        flag_grace: Duration::from_secs(3),
    };
    let host = NetGame::host_with(
        setup(GameKind::Go, Side::Black, None),
        "Hana",
        HostVia::Lan {
            port: 0,
            advertise: false,
        },
        timing,
    )
    .unwrap();
    let addr = SocketAddr::from(([127, 0, 0, 1], host.local_addr().unwrap().port()));
    let mut raw = Raw::connect(addr);
    // Says hello, then nothing more (not even pongs).
    raw.send(
        encode(&Message::Hello {
            name: "Quiet".into(),
            resume: None,
        })
        .as_bytes(),
    );
    wait_for(&host, "the join", joined);
    let seen = wait_for(&host, "the pause", waiting);
    assert!(format!("{seen:?}").contains("sent nothing"), "{seen:?}");
    assert!(raw.closed());
    assert_eq!(host.session().phase(), Phase::Paused);
}

#[test]
fn a_host_that_crashes_comes_back_from_its_autosave_on_the_same_port() {
    let tc = TimeControl::Fischer {
        main: Duration::from_secs(300),
        increment: Duration::from_secs(2),
    };
    // Port 0: the port it got is what the autosave keeps.
    let (host, addr) = lan_host(setup(GameKind::Gomoku, Side::Black, Some(tc)));
    let joiner = NetGame::join("Joe", JoinTarget::Address(addr.to_string()));
    wait_for(&host, "the join", joined);
    wait_for(&joiner, "the join", joined);
    let mut rng = Rng::new(9);
    for _ in 0..5 {
        assert!(play_one(&host, &joiner, &mut rng));
    }
    let save = host.save().unwrap();
    assert_eq!(
        save.reach,
        qi_net::Reach::HostLan {
            port: addr.port(),
            advertise: false
        }
    );
    drop(host);
    wait_for(&joiner, "the pause", waiting);
    // White is to move, and its clock stands still while the host is away.
    let white = || {
        joiner
            .session()
            .clock(Instant::now())
            .unwrap()
            .remaining(Side::White)
    };
    let paused = white();
    // The joiner keeps trying and says why, in a form the window can put in its words: the
    // host's port refuses while it is away.
    wait_for(&joiner, "a refused attempt", |e| {
        matches!(
            e,
            NetEvent::ConnectionProblem {
                why: LinkProblem::CannotConnect {
                    kind: std::io::ErrorKind::ConnectionRefused,
                    ..
                }
            }
        )
    });
    assert_eq!(white(), paused);
    let host = NetGame::resume(save, Timing::default()).unwrap();
    assert_eq!(host.local_addr().unwrap().port(), addr.port());
    wait_for(&host, "the resume", resumed);
    wait_for(&joiner, "the resume", resumed);
    for _ in 0..5 {
        assert!(play_one(&host, &joiner, &mut rng));
    }
    same_game(&host, &joiner);
    assert_eq!(host.session().history().unwrap().ply(), 10);
}
