//! egui_kittest tests of the side panel and the eval texts.
use super::*;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use qi_core::search::{MATE, SearchInfo};

fn go_view() -> HudView {
    let setup = crate::game::MatchSetup {
        kind: GameKind::Go,
        start_text: None,
        players: [Player::Human, Player::Cpu { level: 3 }],
        names: ["A".into(), "CPU 3".into()],
        clock: None,
    };
    let g = Match::new(setup).unwrap();
    HudView::of(&g, &StatusLine::default(), &ScoreView::default())
}

/// Defect 18: Pass and Resign vanished while the CPU thought, and the panel shifted.
#[test]
fn pass_and_resign_stay_in_place_while_the_cpu_thinks() {
    let mut h = Harness::new_ui_state(
        |ui, s: &mut (HudView, HudModel)| {
            side_panel_ui(ui, &s.0, &mut s.1);
        },
        (go_view(), HudModel::default()),
    );
    h.run();
    let pass = h.get_by_label("Pass (P)").rect();
    let resign = h.get_by_label("Resign").rect();
    // the CPU's turn: the person can do neither, but the buttons stay where they were
    h.state_mut().0.pass_legal = false;
    h.state_mut().0.can_resign = false;
    h.state_mut().0.thinking = Some(1.0);
    h.run();
    assert_eq!(h.get_by_label("Pass (P)").rect(), pass);
    assert_eq!(h.get_by_label("Resign").rect(), resign);
    assert!(h.get_by_label("Pass (P)").accesskit_node().is_disabled());
}

/// The side panel of `view`, with the actions it returns collected.
fn side_panel_harness(view: HudView) -> Harness<'static, (HudView, HudModel, Vec<HudAction>)> {
    Harness::new_ui_state(
        |ui, s: &mut (HudView, HudModel, Vec<HudAction>)| {
            if let Some(a) = side_panel_ui(ui, &s.0, &mut s.1) {
                s.2.push(a);
            }
        },
        (view, HudModel::default(), Vec::new()),
    )
}

/// Defect 7: the move box lost the keyboard after Enter while still looking focused.
/// Presses `key` and lets the panel answer (two frames: a focus change shows on the second).
fn press<S>(h: &mut Harness<'_, S>, key: egui::Key) {
    h.key_press(key);
    h.run();
    h.run();
}

/// Types `text` and lets the panel take it.
fn type_text<S>(h: &mut Harness<'_, S>, text: &str) {
    h.event(egui::Event::Text(text.into()));
    h.run();
}

#[test]
fn the_move_box_keeps_the_keyboard_after_enter() {
    let mut h = side_panel_harness(go_view());
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput).click();
    h.run();
    type_text(&mut h, "D4");
    press(&mut h, egui::Key::Enter);
    assert_eq!(h.state().2, vec![HudAction::Typed("D4".into())]);
    // type the next move at once, without clicking the box again
    type_text(&mut h, "Q16");
    press(&mut h, egui::Key::Enter);
    assert_eq!(
        h.state().2,
        vec![
            HudAction::Typed("D4".into()),
            HudAction::Typed("Q16".into())
        ]
    );
}

/// After a typed move the box keeps the keyboard, and U there undoes as on the board (it did
/// nothing until Escape): no move begins with a U. Half a move typed keeps its U.
#[test]
fn u_in_the_empty_move_box_undoes() {
    let mut view = go_view();
    view.can_undo = true;
    let mut h = side_panel_harness(view);
    h.run();
    press(&mut h, egui::Key::Enter);
    type_text(&mut h, "D4");
    press(&mut h, egui::Key::Enter);
    type_text(&mut h, "u");
    assert_eq!(
        h.state().2,
        vec![HudAction::Typed("D4".into()), HudAction::Undo]
    );
    assert!(
        h.state().1.move_text.is_empty(),
        "{:?}",
        h.state().1.move_text
    );
    // the box still has the keyboard: the next move is typed at once
    type_text(&mut h, "Q16");
    press(&mut h, egui::Key::Enter);
    assert_eq!(h.state().2.last(), Some(&HudAction::Typed("Q16".into())));
    // a U after other letters is the player's text, not an undo
    type_text(&mut h, "Du");
    assert_eq!(h.state().1.move_text, "Du");
    assert_eq!(h.state().2.len(), 3);
    // with nothing to undo, the U goes: no undo is asked for, and no U is left in the box
    press(&mut h, egui::Key::Escape);
    h.state_mut().0.can_undo = false;
    press(&mut h, egui::Key::Enter);
    type_text(&mut h, "U");
    assert!(h.state().1.move_text.is_empty());
    assert_eq!(h.state().2.len(), 3);
}

/// Typing a move did nothing until the move box was clicked: Enter gives it the keyboard (the
/// letters alone stay the board's shortcuts), and the box says so while it waits.
#[test]
fn enter_opens_the_move_box_without_a_click() {
    let mut h = side_panel_harness(go_view());
    h.run();
    let placeholder = |h: &Harness<'_, (HudView, HudModel, Vec<HudAction>)>| {
        h.get_by_role(egui::accesskit::Role::TextInput)
            .accesskit_node()
            .placeholder()
            .map(str::to_string)
    };
    assert_eq!(placeholder(&h).as_deref(), Some("press Enter to type"));
    // letters before Enter go nowhere (they are the board's keys)
    type_text(&mut h, "U");
    assert!(h.state().1.move_text.is_empty());
    press(&mut h, egui::Key::Enter);
    assert_eq!(placeholder(&h).as_deref(), Some("move, or U to undo"));
    type_text(&mut h, "D4");
    assert_eq!(h.state().1.move_text, "D4");
    press(&mut h, egui::Key::Enter);
    assert_eq!(h.state().2, vec![HudAction::Typed("D4".into())]);
}

/// Escape leaves the move box, and what was half typed goes with it: the board's letters are
/// the board's again, and the next Enter opens an empty box (the stale text stayed before).
#[test]
fn escape_leaves_the_move_box_empty() {
    let mut h = side_panel_harness(go_view());
    h.run();
    press(&mut h, egui::Key::Enter);
    type_text(&mut h, "D");
    assert_eq!(h.state().1.move_text, "D");
    press(&mut h, egui::Key::Escape);
    assert!(h.state().1.move_text.is_empty());
    // the box no longer has the keyboard: a letter is the board's shortcut
    type_text(&mut h, "U");
    assert!(h.state().1.move_text.is_empty());
    // Enter opens it again, empty, and a move typed there is the move played
    press(&mut h, egui::Key::Enter);
    type_text(&mut h, "Q16");
    press(&mut h, egui::Key::Enter);
    assert_eq!(h.state().2, vec![HudAction::Typed("Q16".into())]);
}

/// The first Escape after a typed move only left the move box (which keeps the keyboard for
/// the next move), and a second one was needed for the pause menu: it pauses at once now. With
/// half a move typed, Escape still only leaves the box (and drops the half move).
#[test]
fn escape_after_a_typed_move_pauses() {
    let mut h = side_panel_harness(go_view());
    h.run();
    press(&mut h, egui::Key::Enter);
    type_text(&mut h, "D4");
    press(&mut h, egui::Key::Enter);
    press(&mut h, egui::Key::Escape);
    assert_eq!(
        h.state().2,
        vec![HudAction::Typed("D4".into()), HudAction::Pause]
    );
    // half a move typed: Escape leaves the box and nothing else
    press(&mut h, egui::Key::Enter);
    type_text(&mut h, "Q1");
    press(&mut h, egui::Key::Escape);
    assert_eq!(h.state().2.len(), 2);
    assert!(h.state().1.move_text.is_empty());
    // a box opened with Enter and left at once is only left, too
    press(&mut h, egui::Key::Enter);
    press(&mut h, egui::Key::Escape);
    assert_eq!(h.state().2.len(), 2);
}

/// While a count after two passes waits for confirmation, Enter is the board's (it confirms the count) and
/// does not open the move box.
#[test]
fn enter_confirms_a_count_rather_than_opening_the_box() {
    let mut view = go_view();
    view.scoring = Some("Black wins by 3.5".into());
    let mut h = side_panel_harness(view);
    h.run();
    press(&mut h, egui::Key::Enter);
    type_text(&mut h, "D4");
    assert!(h.state().1.move_text.is_empty());
}

/// Under a menu the HUD is disabled and Enter is the menu's: with the move box taking it, the
/// pause menu's Enter no longer chose Save (the window tests caught it).
#[test]
fn enter_under_a_menu_is_the_menus() {
    let mut h = Harness::new_ui_state(
        |ui, s: &mut (HudView, HudModel, u32)| {
            ui.scope(|ui| {
                ui.disable();
                side_panel_ui(ui, &s.0, &mut s.1);
            });
            // the menu, drawn after the HUD
            if crate::menus::nav::NavKeys::read(ui).choose {
                s.2 += 1;
            }
        },
        (go_view(), HudModel::default(), 0),
    );
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().2, 1, "the menu saw the Enter");
    assert_eq!(h.ctx.memory(|m| m.focused()), None);
}

fn info(score: i32, depth: u32, nodes: u64, nps: u64) -> SearchInfo {
    SearchInfo {
        depth,
        score,
        nodes,
        nps,
        ..Default::default()
    }
}

/// Defect: the eval bar read "+0.0 · depth 1 · 0 kn/s" at level 1 and "-9999.6" in a lost
/// position.
#[test]
fn eval_texts_say_something_true() {
    assert_eq!(
        eval_text(GameKind::Reversi, &info(0, 1, 10, 0), Side::Black, 6),
        None
    );
    let (_, t) = eval_text(
        GameKind::Reversi,
        &info(1200, 8, 100_000, 2_000_000),
        Side::Black,
        6,
    )
    .unwrap();
    assert_eq!(t, "Black +12.0 · depth 8 · 2000 kn/s");
    // White searching sees itself lost in 40 plies: Black wins in 40 moves
    let (v, t) = eval_text(
        GameKind::Ataxx,
        &info(-(MATE - 40), 9, 5000, 0),
        Side::White,
        6,
    )
    .unwrap();
    assert_eq!(t, "Red wins in 40 moves");
    assert_eq!(v, 1.0);
}

/// The bar shows no score of a level whose evaluation is mostly noise (more than
/// [`MAX_SHOWN_NOISE`]), in every game, and every other level's; its value is tanh(score / the
/// game's scale), or for a score in logits twice the winning chance less one.
#[test]
fn the_bar_hides_noisy_scores_and_uses_the_games_scale() {
    for kind in GameKind::ALL {
        for level in 1..=6 {
            let shown = eval_text(kind, &info(300, 6, 5000, 0), Side::Black, level);
            let noisy = qi_core::any::AnyCpu::level_noise(kind, level) > MAX_SHOWN_NOISE;
            assert_eq!(shown.is_none(), noisy, "{kind:?} level {level}");
            let Some((v, _)) = shown else { continue };
            if let Some(scale) = qi_core::any::AnyCpu::level_logit_scale(kind, level) {
                let want = 2.0 * super::eval::win_chance(300, scale) - 1.0;
                assert!((v - want).abs() < 1e-5, "{kind:?}: {v} against {want}");
            } else if !crate::games::ui_of(kind).score_is_win_rate() {
                let want = (300.0 / crate::games::ui_of(kind).eval_scale()).tanh();
                assert!((v - want).abs() < 1e-6, "{kind:?}: {v} against {want}");
            }
        }
        assert!(eval_text(kind, &info(300, 6, 5000, 0), Side::Black, 6).is_some());
    }
}

/// The 1846 game at move 127 of 325, as the replay panel sees it (no opening, no side-panel
/// line).
fn long_replay() -> ReplayView {
    ReplayView {
        source: "go-1846-shusaku-gennan-ear-reddening.sgf".into(),
        ply: 127,
        total: 325,
        autoplay: false,
        comment: None,
        result: Some("B+2".into()),
        all_moves: (1..=325).map(|i| format!("m{i}")).collect(),
        speed: 1.2,
        analysis: None,
        progress: None,
        opening: None,
        info_line: None,
    }
}

/// At 800×600 the side panel is 250 px wide: the replay panel's rows fit in it (they ran off
/// its edge and were cut), and the move list shows the current move of a long game.
#[test]
fn the_replay_panel_fits_the_narrowest_side_panel() {
    let view = ReplayView {
        opening: Some("Joseki: One-space low pincer, 3-3 invasion: joseki".into()),
        info_line: Some("Setting 6.5\nCounts: Black 3, White 5 · Area now B+4.5".into()),
        ..long_replay()
    };
    let width = 250.0;
    let mut h = Harness::builder()
        .with_size(egui::vec2(width, 530.0))
        .build_ui_state(
            |ui, v: &mut ReplayView| {
                crate::theme::text_sizes(ui.style_mut());
                replay_panel_ui(ui, v);
            },
            view,
        );
    h.run();
    for label in [
        "Autoplay (Space)",
        "Home / End",
        "Against the CPU",
        "Two players",
    ] {
        let r = h.get_by_label_contains(label).rect();
        assert!(r.max.x <= width, "{label} ends at {}", r.max.x);
    }
    let current = h.get_by_label("m127").rect();
    assert!(
        current.max.y <= 530.0,
        "move 127 scrolled into view: {current:?}"
    );
}

/// Session 36: the replay panel says the game's side-panel lines (`GameUi::info_line`) on one
/// small line where the panel has room for them (a window of 800 rows), and leaves them out at
/// 800×600, where the move list needs the height.
#[test]
fn the_replay_panel_says_the_side_panel_lines_where_it_has_room() {
    let view = ReplayView {
        info_line: Some("Setting 6.5\nCounts: Black 3, White 5".into()),
        ..long_replay()
    };
    let shown = |height: f32| {
        let mut h = Harness::builder()
            .with_size(egui::vec2(320.0, height))
            .build_ui_state(
                |ui, v: &mut ReplayView| {
                    crate::theme::text_sizes(ui.style_mut());
                    replay_panel_ui(ui, v);
                },
                view.clone(),
            );
        h.run();
        h.query_by_label("Setting 6.5 · Counts: Black 3, White 5")
            .is_some()
    };
    assert!(shown(700.0), "a tall panel says the side panel's lines");
    assert!(!shown(500.0), "a short one leaves them to the move list");
}

fn online_view() -> OnlineView {
    OnlineView {
        peer: "Bo".into(),
        connected: true,
        link: None,
        question: None,
        asked: None,
        can_act: true,
        over: false,
        chat: vec![("Bo".into(), "hello".into())],
    }
}

#[test]
fn the_online_panel_asks_answers_chats_and_waits() {
    use crate::online::Question;
    use qi_net::Action;
    let mut h = Harness::new_ui_state(
        |ui, s: &mut (OnlineView, HudModel, Option<Action>)| {
            if let Some(a) = online_panel_ui(ui, &s.0, &mut s.1) {
                s.2 = Some(a);
            }
        },
        (online_view(), HudModel::default(), None),
    );
    h.run();
    h.get_by_label("Opponent: Bo");
    h.get_by_label("connected");
    h.get_by_label("Bo: hello");
    h.get_by_label("Offer a draw").click();
    h.run();
    assert_eq!(h.state().2, Some(Action::OfferDraw));
    h.get_by_label("Resign").click();
    h.run();
    assert_eq!(h.state().2, Some(Action::Resign));
    // the opponent's undo request: Accept and Refuse answer it; no draw offer meanwhile
    h.state_mut().0.question = Some(Question::Undo { ply: 3 });
    h.state_mut().2 = None;
    h.run();
    h.get_by_label("Bo asks to take back a move.");
    assert!(
        h.get_by_label("Offer a draw")
            .accesskit_node()
            .is_disabled()
    );
    h.get_by_label("Refuse").click();
    h.run();
    assert_eq!(h.state().2, Some(Action::AnswerUndo(false)));
    h.state_mut().0.question = Some(Question::Draw);
    h.run();
    h.get_by_label("Bo offers a draw.");
    h.get_by_label("Accept").click();
    h.run();
    assert_eq!(h.state().2, Some(Action::AnswerDraw(true)));
    // a chat line: typed into the box, Enter sends it and empties the box
    h.state_mut().0.question = None;
    h.state_mut().2 = None;
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput).click();
    h.run();
    type_text(&mut h, "well played");
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().2, Some(Action::Chat("well played".into())));
    assert_eq!(h.state().1.chat_text, "");
    // the opponent away: said in the panel, nothing can be sent
    h.state_mut().0.connected = false;
    h.state_mut().0.can_act = false;
    h.state_mut().0.link = Some("Waiting for the opponent…".into());
    h.run();
    h.get_by_label("Waiting for the opponent…");
    assert!(h.get_by_label("Resign").accesskit_node().is_disabled());
    assert!(
        h.get_by_label("Offer a draw")
            .accesskit_node()
            .is_disabled()
    );
}

#[test]
fn an_online_game_shows_its_clocks_and_panel_in_the_side_panel() {
    let mut v = go_view();
    v.online = Some(online_view());
    v.clocks = Some((["9:58".into(), "10:00".into()], Some(qi_core::Side::Black)));
    let mut h = Harness::new_ui_state(
        |ui, s: &mut (HudView, HudModel)| {
            top_bar_ui(ui, &s.0);
            side_panel_ui(ui, &s.0, &mut s.1);
        },
        (v, HudModel::default()),
    );
    h.run();
    h.get_by_label("[9:58]");
    h.get_by_label("[10:00]");
    h.get_by_label("Opponent: Bo");
}

/// Session 36 (seen in the window): after White's first Gomoku move the bar read "Black
/// -0.0" for a score of a few hundredths below zero. One decimal, rounded, and no minus sign
/// on zero.
#[test]
fn scores_in_the_bar_never_read_minus_zero() {
    use super::eval::signed_tenths;
    assert_eq!(signed_tenths(-3), "+0.0");
    assert_eq!(signed_tenths(3), "+0.0");
    assert_eq!(signed_tenths(0), "+0.0");
    assert_eq!(signed_tenths(-5), "-0.1");
    assert_eq!(signed_tenths(-149), "-1.5");
    assert_eq!(signed_tenths(130), "+1.3");
    assert_eq!(signed_tenths(-8580), "-85.8");
}

/// Session 64's check: in a narrow window the top bar read "Player  2", the piece count run on
/// after the name as if it were a part of it. The count is a badge of its own, after the name.
#[test]
fn the_piece_count_is_not_read_as_a_part_of_the_name() {
    let mut v = go_view();
    v.names = ["Player".into(), "Player 2".into()];
    v.players = [Player::Human, Player::Human];
    v.counts = [2, 1];
    let mut h = Harness::builder()
        .with_size(egui::vec2(900.0, 60.0))
        .build_ui_state(
            |ui, v: &mut HudView| {
                top_bar_ui(ui, v);
            },
            v,
        );
    h.run();
    let name = h.get_by_label("Player").rect();
    let count = h.get_by_label("2").rect();
    assert!(count.left() > name.right(), "{name:?} {count:?}");
    h.get_by_label("Player 2");
    h.get_by_label("1");
}
