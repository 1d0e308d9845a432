use super::*;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

type State = (OnlineModel, OnlineNotice, Option<OnlineMenuAction>);

fn harness() -> Harness<'static, State> {
    Harness::new_ui_state(
        |ui, s: &mut State| {
            if let Some(a) = online_ui(ui, &mut s.0, &s.1) {
                s.2 = Some(a);
            }
        },
        (OnlineModel::default(), OnlineNotice::default(), None),
    )
}

#[test]
fn hosting_builds_the_setup_with_the_clock() {
    let mut h = harness();
    h.run();
    h.get_by_label("Reversi").click();
    h.run();
    h.get_by_label("White").click();
    h.run();
    h.get_by_label("Fischer").click();
    h.run();
    h.get_by_label("Host the game").click();
    h.run();
    match h.state().2.clone() {
        Some(OnlineMenuAction::Request(OnlineRequest::Host { setup, name, via })) => {
            assert_eq!(setup.game, GameKind::Reversi);
            assert_eq!(setup.host_side, Side::White);
            assert_eq!(
                setup.clock,
                Some(qi_core::clock::TimeControl::Fischer {
                    main: std::time::Duration::from_secs(600),
                    increment: std::time::Duration::from_secs(5)
                })
            );
            assert_eq!(name, "Player");
            assert_eq!(
                via,
                HostVia::Lan {
                    port: DEFAULT_GAME_PORT,
                    advertise: true
                }
            );
        }
        other => panic!("{other:?}"),
    }
    // through a relay: the server typed
    h.state_mut().2 = None;
    h.get_by_label("Relay server (room code)").click();
    h.run();
    h.get_by_label("Host the game").click();
    h.run();
    match h.state().2.clone() {
        Some(OnlineMenuAction::Request(OnlineRequest::Host { via, .. })) => {
            assert_eq!(
                via,
                HostVia::Relay {
                    server: format!("127.0.0.1:{DEFAULT_RELAY_PORT}")
                }
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_bad_port_is_said_and_nothing_is_hosted() {
    let mut h = harness();
    h.state_mut().0.port = "seventy".into();
    h.run();
    h.get_by_label("Host the game").click();
    h.run();
    assert_eq!(h.state().2, None);
    h.get_by_label_contains("seventy");
}

#[test]
fn joining_by_address_by_room_and_from_the_lan_list() {
    let mut h = harness();
    h.run();
    h.get_by_label("Join").click();
    h.run();
    h.get_by_label("No game found on the LAN yet…");
    h.state_mut().0.address = "192.168.1.20:7476".into();
    h.state_mut().0.room = "abcd23".into();
    h.run();
    h.get_by_label("Join this address").click();
    h.run();
    assert_eq!(
        h.state().2,
        Some(OnlineMenuAction::Request(OnlineRequest::Join {
            name: "Player".into(),
            target: JoinTarget::Address("192.168.1.20:7476".into())
        }))
    );
    // Enter in the address field joins too
    h.state_mut().2 = None;
    h.get_all_by_role(egui::accesskit::Role::TextInput)
        .nth(1)
        .expect("the address field")
        .click();
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(
        h.state().2,
        Some(OnlineMenuAction::Request(OnlineRequest::Join {
            name: "Player".into(),
            target: JoinTarget::Address("192.168.1.20:7476".into())
        }))
    );
    h.get_by_label("Join the room").click();
    h.run();
    assert_eq!(
        h.state().2,
        Some(OnlineMenuAction::Request(OnlineRequest::Join {
            name: "Player".into(),
            target: JoinTarget::Room {
                server: format!("127.0.0.1:{DEFAULT_RELAY_PORT}"),
                code: "ABCD23".into()
            }
        }))
    );
    h.state_mut().0.lan = vec![LanEntry {
        label: "Ann's Go game".into(),
        address: "10.0.0.5:7476".into(),
    }];
    h.run();
    h.get_by_label("Ann's Go game").click();
    h.run();
    assert_eq!(
        h.state().2,
        Some(OnlineMenuAction::Request(OnlineRequest::Join {
            name: "Player".into(),
            target: JoinTarget::Address("10.0.0.5:7476".into())
        }))
    );
}

#[test]
fn waiting_shows_the_port_or_the_room_code_and_cancels() {
    let mut h = Harness::new_ui_state(
        |ui, s: &mut (WaitingView, Option<OnlineMenuAction>)| {
            if let Some(a) = waiting_ui(ui, &s.0) {
                s.1 = Some(a);
            }
        },
        (
            WaitingView {
                hosting: true,
                room: Some("K7MQ2P".into()),
                ..Default::default()
            },
            None,
        ),
    );
    h.run();
    h.get_by_label_contains("K7MQ2P");
    h.state_mut().0 = WaitingView {
        hosting: true,
        port: Some(7476),
        address: Some("192.168.1.5:7476".into()),
        ..Default::default()
    };
    h.run();
    h.get_by_label("Listening on port 7476");
    h.get_by_label("Address: 192.168.1.5:7476");
    h.get_by_label("Waiting for the opponent…");
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(
        h.state().1,
        Some(OnlineMenuAction::Request(OnlineRequest::Cancel))
    );
}
