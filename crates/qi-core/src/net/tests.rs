//! The session state machine with two endpoints wired together in memory (the socket tests
//! over loopback are in `qi-net`).

use std::time::{Duration, Instant};

use super::protocol::{MAX_FRAME_BYTES, Message, ProtocolError, Setup, encode};
use super::reason::{Admission, LinkEnd, Refusal};
use super::session::{ActionError, Event, Phase, Session, Timing};
use crate::any::AnyPosition;
use crate::clock::TimeControl;
use crate::game::{GameKind, Side};
use crate::result::{GameResult, Reason};
use crate::rng::Rng;

fn setup(game: GameKind, host_side: Side, clock: Option<TimeControl>) -> Setup {
    Setup {
        game,
        start: AnyPosition::start(game).unwrap().to_text(),
        host_side,
        clock,
    }
}

/// Two sessions and a wire between them that can be cut.
struct Pair {
    host: Session,
    joiner: Session,
    now: Instant,
    /// Frames in flight, dropped when the link is cut.
    wire_up: bool,
}

impl Pair {
    fn new(setup: Setup) -> Pair {
        let now = Instant::now();
        let mut p = Pair {
            host: Session::host(setup, "Hana", Timing::default()).unwrap(),
            joiner: Session::join("Joe", Timing::default()),
            now,
            wire_up: false,
        };
        p.connect();
        p
    }

    fn connect(&mut self) {
        self.wire_up = true;
        self.host.link_up(self.now);
        self.joiner.link_up(self.now);
        self.pump();
    }

    fn cut(&mut self) {
        self.wire_up = false;
        // What was in flight is lost.
        self.host.take_outgoing();
        self.joiner.take_outgoing();
        self.host.link_down(self.now, "cut");
        self.joiner.link_down(self.now, "cut");
    }

    /// Delivers frames both ways until none is left; a side that asks to close cuts the wire.
    fn pump(&mut self) {
        for _ in 0..100 {
            if !self.wire_up {
                return;
            }
            let a = self.host.take_outgoing();
            let b = self.joiner.take_outgoing();
            if a.is_empty() && b.is_empty() {
                break;
            }
            for f in a {
                self.joiner.receive(f.as_bytes(), self.now);
            }
            for f in b {
                self.host.receive(f.as_bytes(), self.now);
            }
            let closing = self.host.take_close().is_some() | self.joiner.take_close().is_some();
            if closing {
                // The closing side's last frames (an error, a refusal) still go out first.
                let a = self.host.take_outgoing();
                let b = self.joiner.take_outgoing();
                for f in a {
                    self.joiner.receive(f.as_bytes(), self.now);
                }
                for f in b {
                    self.host.receive(f.as_bytes(), self.now);
                }
                self.cut();
                return;
            }
        }
    }

    /// Time passes, ticked every half second as a window's frames would.
    fn wait(&mut self, d: Duration) {
        let end = self.now + d;
        while self.now < end {
            self.now = (self.now + Duration::from_millis(500)).min(end);
            self.host.tick(self.now);
            self.joiner.tick(self.now);
            self.pump();
        }
    }

    /// The session whose side is to move, and the other.
    fn mover(&mut self) -> (&mut Session, &mut Session) {
        let side = self.host.to_move().unwrap();
        if self.host.me() == side {
            (&mut self.host, &mut self.joiner)
        } else {
            (&mut self.joiner, &mut self.host)
        }
    }

    fn play(&mut self, text: &str) {
        let now = self.now;
        let (m, _) = self.mover();
        m.play_text(text, now)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        self.pump();
    }

    fn events(&mut self) -> (Vec<Event>, Vec<Event>) {
        (self.host.take_events(), self.joiner.take_events())
    }

    fn same_game(&self) {
        let (h, j) = (self.host.history().unwrap(), self.joiner.history().unwrap());
        assert_eq!(h.move_texts(), j.move_texts());
        assert_eq!(h.current(), j.current());
        assert_eq!(self.host.result(), self.joiner.result());
        assert_eq!(self.host.spent_ms(), self.joiner.spent_ms());
    }
}

fn refused(events: &[Event]) -> bool {
    refusal(events).is_some()
}

fn refusal(events: &[Event]) -> Option<&Refusal> {
    events.iter().find_map(|e| match e {
        Event::Refused { why } => Some(why),
        _ => None,
    })
}

#[test]
fn a_joiner_learns_the_game_and_both_play_it_to_the_end() {
    for game in GameKind::ALL {
        let mut p = Pair::new(setup(game, Side::White, None));
        let (h, j) = p.events();
        assert_eq!(h, vec![Event::Joined { peer: "Joe".into() }]);
        assert_eq!(
            j,
            vec![Event::Joined {
                peer: "Hana".into()
            }]
        );
        assert_eq!(p.joiner.me(), Side::Black);
        assert_eq!(p.host.me(), Side::White);
        assert_eq!(p.joiner.peer_name(), Some("Hana"));
        assert_eq!(p.joiner.setup(), p.host.setup());
        let mut rng = Rng::new(7 + game as u64);
        let mut plies = 0;
        while p.host.result().is_none() && plies < 2000 {
            let pos = p.host.history().unwrap().current().clone();
            let moves = pos.legal_moves();
            // Go: pass late in the game so that it ends.
            let mv = match pos.legal_pass() {
                Some(pass) if game == GameKind::Go && plies > 120 => pass,
                _ => moves[rng.below_small(moves.len())],
            };
            let text = pos.move_to_text(mv);
            p.play(&text);
            let (h, j) = p.events();
            let (theirs, _) = if p.host.to_move() == Some(p.host.me()) || p.host.result().is_some()
            {
                (h.clone(), j.clone())
            } else {
                (j.clone(), h.clone())
            };
            assert!(
                theirs
                    .iter()
                    .any(|e| matches!(e, Event::OpponentMoved { text: t, .. } if *t == text)),
                "{game:?} {text}: {h:?} {j:?}"
            );
            assert!(!refused(&h) && !refused(&j));
            plies += 1;
        }
        let result = p
            .host
            .result()
            .unwrap_or_else(|| panic!("{game:?} did not end"));
        assert_eq!(
            Some(result),
            GameResult::of(p.host.history().unwrap().current())
        );
        p.same_game();
        assert_eq!(p.host.phase(), Phase::Over);
        assert_eq!(p.joiner.phase(), Phase::Over);
        let now = p.now;
        assert_eq!(p.host.play_text("pass", now), Err(ActionError::NotPlaying));
    }
}

#[test]
fn out_of_turn_illegal_and_wrong_ply_moves_are_refused_and_not_applied() {
    let mut p = Pair::new(setup(GameKind::Reversi, Side::Black, None));
    p.events();
    let now = p.now;
    // The joiner (White) tries to move for the host's side (Black to move).
    assert_eq!(p.joiner.play_text("d3", now), Err(ActionError::NotYourTurn));
    let forged = encode(&Message::Move {
        ply: 0,
        mv: "d3".into(),
        spent_ms: 0,
    });
    p.host.receive(forged.as_bytes(), now);
    let (h, _) = p.events();
    assert_eq!(
        refusal(&h),
        Some(&Refusal::OutOfTurn { mv: "d3".into() }),
        "{h:?}"
    );
    assert_eq!(p.host.history().unwrap().ply(), 0);
    p.pump();
    let (_, j) = p.events();
    assert!(
        j.iter().any(|e| matches!(e, Event::PeerRefused { .. })),
        "{j:?}"
    );
    p.play("d3");
    // An illegal move, a wrong ply, a move of nonsense.
    for (ply, mv) in [(1, "a1"), (0, "c3"), (1, "zz99"), (1, "")] {
        let f = encode(&Message::Move {
            ply,
            mv: mv.into(),
            spent_ms: 0,
        });
        p.host.receive(f.as_bytes(), now);
        let (h, _) = p.events();
        let why = refusal(&h).unwrap_or_else(|| panic!("{mv}: {h:?}"));
        let typed = match mv {
            "a1" => matches!(why, Refusal::Illegal { mv } if mv == "a1"),
            "c3" => {
                *why == Refusal::WrongPly {
                    mv: "c3".into(),
                    ply: 0,
                    at: 1,
                }
            }
            _ => matches!(why, Refusal::Unreadable { mv: m, .. } if m == mv),
        };
        assert!(typed, "{mv}: {why:?}");
        assert_eq!(p.host.history().unwrap().ply(), 1, "{mv}");
    }
    // The link goes on: a legal move is still taken.
    p.pump();
    p.play("c3");
    p.same_game();
    assert_eq!(p.host.phase(), Phase::Playing);
    assert_eq!(p.host.log().filter(|l| l.starts_with("refused")).count(), 5);
}

#[test]
fn garbage_another_version_and_oversized_frames_close_the_link_with_an_error() {
    let big = format!(
        "{{\"v\":1,\"t\":\"chat\",\"text\":\"{}\"}}",
        "x".repeat(MAX_FRAME_BYTES)
    );
    type Is = fn(&ProtocolError) -> bool;
    let cases: Vec<(Vec<u8>, Is)> = vec![
        (b"\x00\x01\x02\xff".to_vec(), |e| {
            matches!(e, ProtocolError::Garbage(_))
        }),
        (b"{\"v\":9,\"t\":\"resign\"}".to_vec(), |e| {
            matches!(e, ProtocolError::Version { theirs: 9 })
        }),
        (big.into_bytes(), |e| {
            matches!(e, ProtocolError::TooLarge { .. })
        }),
        (b"{\"v\":1,\"t\":\"move\"}".to_vec(), |e| {
            matches!(e, ProtocolError::Invalid(_))
        }),
    ];
    for (frame, is) in cases {
        let mut p = Pair::new(setup(GameKind::Gomoku, Side::Black, None));
        p.play("h8");
        p.events();
        p.host.receive(&frame, p.now);
        let (h, _) = p.events();
        assert!(
            h.iter()
                .any(|e| matches!(e, Event::ProtocolError(pe) if is(pe))),
            "{h:?}"
        );
        assert!(
            h.iter().any(|e| matches!(e, Event::Waiting { .. })),
            "{h:?}"
        );
        assert!(p.host.take_close().is_some());
        assert_eq!(p.host.phase(), Phase::Paused);
        assert_eq!(p.host.history().unwrap().ply(), 1);
    }
}

#[test]
fn undo_needs_the_opponents_yes() {
    let mut p = Pair::new(setup(GameKind::Gomoku, Side::Black, None));
    p.play("h8");
    p.play("h9");
    p.play("j8");
    p.events();
    let now = p.now;
    // The host (Black) asks right after its move: back to before it.
    assert_eq!(p.host.request_undo(now), Ok(2));
    assert_eq!(p.host.request_undo(now), Err(ActionError::UndoPending));
    assert_eq!(p.host.play_text("a1", now), Err(ActionError::UndoPending));
    p.pump();
    let (_, j) = p.events();
    assert_eq!(j, vec![Event::UndoRequested { ply: 2 }]);
    assert_eq!(p.joiner.undo_requested(), Some(2));
    // Refused: nothing changes.
    p.joiner.answer_undo(false, now).unwrap();
    p.pump();
    let (h, _) = p.events();
    assert_eq!(h, vec![Event::UndoRefused]);
    assert_eq!(p.host.history().unwrap().ply(), 3);
    assert_eq!(
        p.joiner.answer_undo(true, now),
        Err(ActionError::NothingToAnswer)
    );
    // The joiner (White) to move asks: back over Black's reply to its own last move.
    assert_eq!(p.joiner.request_undo(now), Ok(1));
    p.pump();
    p.host.answer_undo(true, now).unwrap();
    p.pump();
    let (h, j) = p.events();
    assert!(h.contains(&Event::UndoDone { ply: 1 }), "{h:?}");
    assert!(j.contains(&Event::UndoDone { ply: 1 }), "{j:?}");
    p.same_game();
    assert_eq!(p.host.history().unwrap().move_texts(), vec!["h8"]);
    assert_eq!(p.joiner.to_move(), Some(Side::White));
    p.play("g7");
    p.same_game();
}

#[test]
fn undo_requests_that_do_not_fit_are_refused() {
    let mut p = Pair::new(setup(GameKind::Gomoku, Side::Black, None));
    let now = p.now;
    assert_eq!(p.host.request_undo(now), Err(ActionError::NothingToUndo));
    p.play("h8");
    assert_eq!(p.joiner.request_undo(now), Err(ActionError::NothingToUndo));
    p.events();
    // A forged request to a position where the host would be to move, one to the future,
    // and an answer to nothing asked.
    for m in [
        Message::UndoRequest { ply: 0 },
        Message::UndoRequest { ply: 5 },
        Message::UndoReply {
            ply: 0,
            accept: true,
        },
    ] {
        p.host.receive(encode(&m).as_bytes(), now);
        let (h, _) = p.events();
        assert!(refused(&h), "{m:?}: {h:?}");
        assert_eq!(p.host.history().unwrap().ply(), 1);
    }
}

#[test]
fn draws_resignation_and_chat() {
    let mut p = Pair::new(setup(GameKind::Go, Side::Black, None));
    p.play("d4");
    p.events();
    let now = p.now;
    p.joiner.offer_draw(now).unwrap();
    p.pump();
    assert!(p.host.draw_offered());
    assert_eq!(p.events().0, vec![Event::DrawOffered]);
    p.host.answer_draw(false, now).unwrap();
    p.pump();
    assert_eq!(p.events().1, vec![Event::DrawRefused]);
    p.host.chat("good luck", now).unwrap();
    assert_eq!(
        p.host.chat(&"x".repeat(501), now),
        Err(ActionError::ChatTooLong)
    );
    p.pump();
    assert_eq!(
        p.events().1,
        vec![Event::Chat {
            from: "Hana".into(),
            text: "good luck".into()
        }]
    );
    p.play("q16");
    p.events();
    p.joiner.resign(now).unwrap();
    p.pump();
    let win = GameResult::win(Side::Black, Reason::Resignation);
    assert_eq!(p.events().0, vec![Event::GameOver(win)]);
    p.same_game();
    assert_eq!(p.host.result(), Some(win));
    // Chat goes on after the game.
    p.joiner.chat("gg", now).unwrap();
    p.pump();
    assert_eq!(p.events().0.len(), 1);

    let mut p = Pair::new(setup(GameKind::Go, Side::Black, None));
    let now = p.now;
    p.host.offer_draw(now).unwrap();
    p.pump();
    p.joiner.answer_draw(true, now).unwrap();
    p.pump();
    p.same_game();
    assert_eq!(p.host.result(), Some(GameResult::draw(Reason::Agreement)));
    // A draw answer nobody asked for, a forged resignation after the end: refused.
    p.events();
    p.host
        .receive(encode(&Message::DrawReply { accept: true }).as_bytes(), now);
    assert!(refused(&p.events().0));
}

fn s(n: u64) -> Duration {
    Duration::from_secs(n)
}

#[test]
fn clocks_run_for_the_side_to_move_and_agree_on_both_sides() {
    let tc = TimeControl::Fischer {
        main: s(60),
        increment: s(1),
    };
    let mut p = Pair::new(setup(GameKind::Gomoku, Side::White, Some(tc)));
    // Black is the joiner.
    p.wait(s(5));
    let c = p.joiner.clock(p.now).unwrap();
    assert_eq!(c.running(), Some(Side::Black));
    assert_eq!(c.remaining(Side::Black).main, s(55));
    assert_eq!(
        p.host.clock(p.now).unwrap().remaining(Side::Black).main,
        s(55)
    );
    p.play("h8");
    p.wait(s(3));
    p.play("h9");
    p.same_game();
    assert_eq!(p.host.spent_ms(), &[5000, 3000]);
    for side in Side::BOTH {
        assert_eq!(
            p.host.clock(p.now).unwrap().remaining(side),
            p.joiner.clock(p.now).unwrap().remaining(side)
        );
    }
    assert_eq!(
        p.host.clock(p.now).unwrap().remaining(Side::Black).main,
        s(56)
    );
    assert_eq!(
        p.host.clock(p.now).unwrap().remaining(Side::White).main,
        s(58)
    );
}

#[test]
fn a_flag_ends_the_game_on_time() {
    let tc = TimeControl::ByoYomi {
        main: s(10),
        periods: 2,
        period: s(5),
    };
    let mut p = Pair::new(setup(GameKind::Go, Side::Black, Some(tc)));
    p.play("d4");
    // White (the joiner) thinks past the main time and both periods.
    p.wait(s(12));
    assert_eq!(p.joiner.result(), None);
    let c = p.joiner.clock(p.now).unwrap();
    assert_eq!(
        (
            c.remaining(Side::White).periods,
            c.remaining(Side::White).period
        ),
        (2, s(3))
    );
    p.wait(s(8));
    let lost = GameResult::win(Side::Black, Reason::Time);
    assert_eq!(p.joiner.result(), Some(lost));
    assert_eq!(
        p.host.result(),
        Some(lost),
        "the flag reached the host: {:?}",
        p.host.log().collect::<Vec<_>>()
    );
    assert!(p.events().0.contains(&Event::GameOver(lost)));

    // A silent opponent's flag is claimed after the grace.
    let tc = TimeControl::Absolute { main: s(10) };
    let mut p = Pair::new(setup(GameKind::Go, Side::Black, Some(tc)));
    p.play("d4");
    p.wait(s(9));
    // The joiner's client froze: it no longer reads or writes, its link stays up.
    p.joiner.take_outgoing();
    let frozen_at = p.now;
    p.now += s(2);
    p.host.tick(p.now);
    assert_eq!(p.host.result(), None, "within the grace");
    p.now += s(2);
    p.host.tick(p.now);
    assert_eq!(
        p.host.result(),
        Some(GameResult::win(Side::Black, Reason::Time))
    );
    assert!(p.now - frozen_at < Timing::default().peer_timeout);
    // The claim, delivered, ends it for the joiner too.
    p.joiner.tick(frozen_at);
    p.pump();
    p.same_game();

    // A claim that the host's time ran out while its clock has a minute left: refused.
    let tc = TimeControl::Absolute { main: s(60) };
    let mut p = Pair::new(setup(GameKind::Go, Side::Black, Some(tc)));
    p.wait(s(5));
    p.events();
    let bogus = encode(&Message::Flag {
        side: Side::Black,
        ply: 0,
    });
    p.host.receive(bogus.as_bytes(), p.now);
    assert!(refused(&p.events().0));
    assert_eq!(p.host.result(), None);
    // Near the end of its time (within the grace) the claim is believed.
    p.wait(s(53));
    p.host.receive(bogus.as_bytes(), p.now);
    assert_eq!(
        p.host.result(),
        Some(GameResult::win(Side::White, Reason::Time))
    );

    // A move made after the mover's own time ran out is a flag, not a move.
    let tc = TimeControl::Absolute { main: s(10) };
    let mut p = Pair::new(setup(GameKind::Gomoku, Side::Black, Some(tc)));
    let f = encode(&Message::Move {
        ply: 0,
        mv: "h8".into(),
        spent_ms: 10_500,
    });
    p.joiner.receive(f.as_bytes(), p.now);
    assert_eq!(
        p.joiner.result(),
        Some(GameResult::win(Side::White, Reason::Time))
    );
    assert_eq!(p.joiner.history().unwrap().ply(), 0);
}

#[test]
fn a_dropped_link_pauses_the_game_and_a_reconnection_resumes_it() {
    let tc = TimeControl::Absolute { main: s(100) };
    let mut p = Pair::new(setup(GameKind::Reversi, Side::Black, Some(tc)));
    p.play("d3");
    p.wait(s(4));
    p.events();
    p.cut();
    let (h, j) = p.events();
    assert!(matches!(h[..], [Event::Waiting { .. }]), "{h:?}");
    assert!(matches!(j[..], [Event::Waiting { .. }]), "{j:?}");
    assert_eq!(p.host.phase(), Phase::Paused);
    assert_eq!(p.joiner.play_text("c3", p.now), Err(ActionError::Offline));
    // The clocks stand still while the link is down.
    let before = p.joiner.clock(p.now).unwrap();
    p.wait(s(50));
    assert_eq!(p.joiner.clock(p.now).unwrap(), before);
    assert_eq!(before.remaining(Side::White).main, s(96));
    p.connect();
    let (h, j) = p.events();
    assert_eq!(h, vec![Event::Resumed { peer: "Joe".into() }]);
    assert_eq!(
        j,
        vec![Event::Resumed {
            peer: "Hana".into()
        }]
    );
    assert_eq!(p.joiner.phase(), Phase::Playing);
    p.wait(s(1));
    p.play("c3");
    p.same_game();
    // The 4 s before the drop and the 1 s after it.
    let c = p.host.clock(p.now).unwrap();
    assert_eq!(c.remaining(Side::White).main, s(95));
    assert_eq!(c, p.joiner.clock(p.now).unwrap());

    // The host's move lost on the way: the joiner gets it from the resync.
    let now = p.now;
    p.host.play_text("c4", now).unwrap();
    p.cut();
    assert_eq!(p.joiner.history().unwrap().ply(), 2);
    p.connect();
    let (_, j) = p.events();
    assert!(j.contains(&Event::Resynced { ply: 3 }), "{j:?}");
    p.same_game();

    // The joiner's move lost on the way: played again after the resync.
    let now = p.now;
    p.joiner.play_text("c5", now).unwrap();
    p.cut();
    assert_eq!(p.host.history().unwrap().ply(), 3);
    p.connect();
    p.same_game();
    assert_eq!(p.host.history().unwrap().ply(), 4);
    assert_eq!(p.host.to_move(), Some(Side::Black));
}

#[test]
fn only_the_joiner_with_the_token_gets_the_seat() {
    let mut p = Pair::new(setup(GameKind::Reversi, Side::Black, None));
    p.play("d3");
    p.cut();
    p.events();
    // Someone else connects to the host while the joiner is away.
    let mut intruder = Session::join("Eve", Timing::default());
    p.host.link_up(p.now);
    intruder.link_up(p.now);
    for f in intruder.take_outgoing() {
        p.host.receive(f.as_bytes(), p.now);
    }
    assert_eq!(
        p.host.take_close(),
        Some(LinkEnd::RefusedJoiner(Admission::GameFull))
    );
    for f in p.host.take_outgoing() {
        intruder.receive(f.as_bytes(), p.now);
    }
    // The host's words come back typed on the joiner's side.
    assert!(intruder.take_events().iter().any(|e| matches!(
        e,
        Event::NotAdmitted {
            reason: Admission::GameFull
        }
    )));
    assert_eq!(
        intruder.take_close(),
        Some(LinkEnd::HostRefused(Admission::GameFull))
    );
    assert_eq!(p.host.phase(), Phase::Paused);
    assert_eq!(p.host.peer_name(), Some("Joe"));
    // A forged resume with a wrong token.
    p.host.link_up(p.now);
    let forged = encode(&Message::Hello {
        name: "Eve".into(),
        resume: Some(super::protocol::Resume {
            session: p.host.session_id().to_string(),
            token: "0000".into(),
            ply: 1,
        }),
    });
    p.host.receive(forged.as_bytes(), p.now);
    assert_eq!(
        p.host.take_close(),
        Some(LinkEnd::RefusedJoiner(Admission::NotYourGame))
    );
    assert!(
        p.host
            .take_outgoing()
            .iter()
            .any(|f| f.contains("\"refuse\""))
    );
    // The real joiner comes back.
    p.connect();
    assert_eq!(p.host.phase(), Phase::Playing);
    p.play("c3");
    p.same_game();
}

#[test]
fn a_silent_peer_times_out_and_heartbeats_keep_a_quiet_one_alive() {
    let mut p = Pair::new(setup(GameKind::Ataxx, Side::Black, None));
    // Nobody moves for a minute: the pings keep the link up.
    for _ in 0..30 {
        p.wait(s(2));
    }
    assert_eq!(p.host.phase(), Phase::Playing);
    assert!(p.host.peer_connected());
    // The joiner goes silent.
    for _ in 0..6 {
        p.now += s(2);
        p.host.tick(p.now);
        p.joiner.take_outgoing();
    }
    let why = p.host.take_close().expect("closed after the timeout");
    assert_eq!(
        why,
        LinkEnd::PeerSilent {
            after: Timing::default().peer_timeout
        }
    );
    assert!(why.to_string().contains("sent nothing"), "{why}");
    assert_eq!(p.host.phase(), Phase::Paused);
}

#[test]
fn both_players_resume_from_their_autosaves() {
    let tc = TimeControl::Fischer {
        main: s(300),
        increment: s(5),
    };
    let mut p = Pair::new(setup(GameKind::Ataxx, Side::Black, Some(tc)));
    p.wait(s(2));
    p.play("b6");
    p.wait(s(1));
    p.play("f6");
    p.wait(s(7));
    let (hs, js) = (p.host.save(p.now).unwrap(), p.joiner.save(p.now).unwrap());
    // Through RON text, as the autosave writes it.
    let hs: super::SessionSave = ron::from_str(&ron::to_string(&hs).unwrap()).unwrap();
    let js: super::SessionSave = ron::from_str(&ron::to_string(&js).unwrap()).unwrap();
    assert_eq!(hs.moves, vec!["b6", "f6"]);
    assert_eq!(hs.token, js.token);
    let black = hs.clock.as_ref().unwrap().remaining(Side::Black);
    assert_eq!(black.main, s(300 - 2 + 5 - 7));
    // Both programs closed; later both start again from their saves.
    let mut q = Pair {
        host: Session::from_save(hs, Timing::default()).unwrap(),
        joiner: Session::from_save(js, Timing::default()).unwrap(),
        now: p.now + s(3600),
        wire_up: false,
    };
    assert_eq!(q.host.phase(), Phase::Paused);
    q.connect();
    assert_eq!(q.host.phase(), Phase::Playing);
    assert_eq!(q.joiner.phase(), Phase::Playing);
    assert_eq!(
        q.joiner.clock(q.now).unwrap().remaining(Side::Black).main,
        s(296)
    );
    q.play("c5");
    q.same_game();
    assert_eq!(q.host.history().unwrap().ply(), 3);
}

mod fuzz {
    use super::*;
    use crate::net::protocol::Resume;
    use proptest::prelude::*;

    /// Any message, its fields drawn at random (plausible or not).
    fn message() -> impl Strategy<Value = Message> {
        let text = "[a-z0-9 ]{0,6}|pass|d3|h8|b6|q16|\\PC{0,20}";
        prop_oneof![
            (text, any::<bool>(), any::<u32>()).prop_map(|(name, r, ply)| Message::Hello {
                name,
                resume: r.then(|| Resume {
                    session: "x".into(),
                    token: "y".into(),
                    ply
                }),
            }),
            (0u32..8, text, 0u64..100_000).prop_map(|(ply, mv, spent_ms)| Message::Move {
                ply,
                mv,
                spent_ms
            }),
            (any::<u32>(), text, any::<u64>()).prop_map(|(ply, mv, spent_ms)| Message::Move {
                ply,
                mv,
                spent_ms
            }),
            (0u32..8).prop_map(|ply| Message::UndoRequest { ply }),
            (0u32..8, any::<bool>()).prop_map(|(ply, accept)| Message::UndoReply { ply, accept }),
            Just(Message::DrawOffer),
            any::<bool>().prop_map(|accept| Message::DrawReply { accept }),
            Just(Message::Resign),
            (any::<bool>(), 0u32..8).prop_map(|(b, ply)| Message::Flag {
                side: if b { Side::Black } else { Side::White },
                ply
            }),
            "\\PC{0,600}".prop_map(|text| Message::Chat { text }),
            any::<u64>().prop_map(|n| Message::Ping { n }),
            text.prop_map(|text| Message::Error { text }),
            text.prop_map(|reason| Message::Refuse { reason }),
            Just(Message::Bye),
        ]
    }

    /// A frame: a message, or bytes.
    fn frame() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            4 => message().prop_map(|m| encode(&m).into_bytes()),
            1 => proptest::collection::vec(any::<u8>(), 0..200),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

        /// Whatever the opponent sends, nothing panics, and the game only ever holds moves
        /// that the rules allow in turn (the replay of its moves gives the same position).
        #[test]
        fn nothing_the_opponent_sends_breaks_a_session(
            frames in proptest::collection::vec(frame(), 1..40),
            to_host in proptest::collection::vec(any::<bool>(), 40),
            game in 0usize..4,
        ) {
            let tc = TimeControl::Absolute { main: s(30) };
            let mut p = Pair::new(setup(GameKind::ALL[game], Side::Black, Some(tc)));
            p.play(match GameKind::ALL[game] {
                GameKind::Ataxx => "b6",
                GameKind::Reversi => "d3",
                GameKind::Gomoku => "h8",
                GameKind::Go => "d4",
            });
            for (f, h) in frames.iter().zip(to_host) {
                p.now += Duration::from_millis(300);
                let target = if h { &mut p.host } else { &mut p.joiner };
                target.receive(f, p.now);
                target.tick(p.now);
                let _ = target.take_outgoing();
                let _ = target.take_close();
                let _ = target.take_events();
                if !target.peer_connected() {
                    target.link_up(p.now);
                }
            }
            for s in [&p.host, &p.joiner] {
                let h = s.history().unwrap();
                let mut replay = crate::any::GameHistory::new(h.start().clone());
                for mv in h.moves() {
                    prop_assert!(replay.current().is_legal(*mv));
                    replay.play(*mv).unwrap();
                }
                prop_assert_eq!(replay.current(), h.current());
                let _ = s.save(p.now);
            }
        }
    }
}

#[test]
fn before_any_move_a_joiner_who_lost_the_welcome_gets_the_seat_again() {
    let mut p = Pair::new(setup(GameKind::Gomoku, Side::Black, None));
    p.events();
    // The welcome went out but the link dropped before the joiner read it.
    p.cut();
    p.joiner = Session::join("Joe", Timing::default());
    p.connect();
    let (h, j) = p.events();
    assert!(h.contains(&Event::Joined { peer: "Joe".into() }), "{h:?}");
    assert!(
        j.contains(&Event::Joined {
            peer: "Hana".into()
        }),
        "{j:?}"
    );
    p.play("h8");
    p.same_game();
    // Once a move is played, the seat is the token's only.
    p.cut();
    p.joiner = Session::join("Eve", Timing::default());
    p.connect();
    assert!(
        p.joiner
            .take_events()
            .iter()
            .any(|e| matches!(e, Event::NotAdmitted { .. }))
    );
    assert_eq!(p.host.peer_name(), Some("Joe"));
}
