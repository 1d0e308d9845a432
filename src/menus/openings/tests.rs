use super::*;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

type State = (OpeningsModel, Option<OpeningsAction>);

fn harness() -> Harness<'static, State> {
    let mut h = Harness::builder()
        .with_size(egui::vec2(800.0, 700.0))
        .build_ui_state(
            |ui, s: &mut State| {
                if let Some(a) = openings_ui(ui, &mut s.0) {
                    s.1 = Some(a);
                }
            },
            (OpeningsModel::default(), None),
        );
    h.run();
    h
}

#[test]
fn the_tree_opens_along_the_chosen_line() {
    let b = book(GameKind::Reversi).unwrap();
    // at first only the top level: the three first answers to f5
    let top = visible_rows(b, 0);
    assert!(top.iter().all(|&(_, d)| d == 0));
    assert_eq!(top.len(), 3, "Perpendicular, Parallel, Diagonal");
    let tiger = b
        .nodes
        .iter()
        .position(|n| n.name.as_ref().is_some_and(|x| x.en == "Tiger"))
        .unwrap();
    let rows = visible_rows(b, tiger);
    // the Tiger's parent (Perpendicular) is open, and the Tiger's own children are shown
    assert!(rows.iter().any(|&(i, d)| i == tiger && d == 1));
    assert!(rows.iter().any(|&(i, _)| {
        b.nodes[i]
            .name
            .as_ref()
            .is_some_and(|x| x.en == "Stephenson")
    }));
    assert!(rows.len() > top.len());
}

#[test]
fn choose_an_opening_by_mouse_and_step_through_it() {
    let mut h = harness();
    h.get_by_label_contains("Perpendicular").click();
    h.run();
    h.get_by_label_contains("Tiger").click();
    h.run();
    let b = book(GameKind::Reversi).unwrap();
    let sel = h.state().0.selected;
    assert_eq!(b.nodes[sel].name.as_ref().unwrap().en, "Tiger");
    // its names and moves are shown
    h.get_by_label_contains("Perpendicular › Tiger");
    h.get_by_label_contains("1. f5  2. d6  3. c3  4. d3  5. c4");
    h.get_by_label("Step through").click();
    h.run();
    assert_eq!(
        h.state().1,
        Some(OpeningsAction::StepThrough(GameKind::Reversi, sel))
    );
    h.state_mut().1 = None;
    h.get_by_label("Against the CPU").click();
    h.run();
    assert_eq!(
        h.state().1,
        Some(OpeningsAction::Play {
            kind: GameKind::Reversi,
            node: sel,
            vs_cpu: true
        })
    );
}

#[test]
fn renju_and_joseki_by_keyboard() {
    let mut h = harness();
    h.key_press(egui::Key::ArrowRight);
    h.run();
    assert_eq!(h.state().0.kind, GameKind::Gomoku);
    // Down: the centre; Down again: its first child (the direct opening), and so on
    for _ in 0..3 {
        h.key_press(egui::Key::ArrowDown);
        h.run();
    }
    let b = book(GameKind::Gomoku).unwrap();
    let n = &b.nodes[h.state().0.selected];
    assert_eq!(n.name.as_ref().unwrap().en, "D1 Kansei");
    h.get_by_label("D1 Kansei 寒星");
    h.get_by_label_contains("Japanese name: 寒星");
    h.key_press(egui::Key::Enter);
    h.run();
    assert!(matches!(
        h.state().1,
        Some(OpeningsAction::StepThrough(GameKind::Gomoku, _))
    ));
    h.state_mut().1 = None;
    h.get_by_label("Go").click();
    h.run();
    assert_eq!(
        h.state().0,
        OpeningsModel {
            kind: GameKind::Go,
            selected: 0
        }
    );
    h.get_by_label_contains("4-4 point").click();
    h.run();
    h.key_press(egui::Key::Escape);
    h.run();
    assert_eq!(h.state().1, Some(OpeningsAction::Back));
}

#[test]
fn an_opening_line_as_a_record_names_each_position() {
    let b = book(GameKind::Go).unwrap();
    let node = b
        .nodes
        .iter()
        .position(|n| {
            n.name
                .as_ref()
                .is_some_and(|x| x.en == "3-3 invasion: joseki")
        })
        .unwrap();
    let r = line_record(b, node);
    assert_eq!(r.moves.len(), 13);
    assert_eq!(r.moves[0], "Q16");
    assert_eq!(r.comments.get(&1).map(String::as_str), Some("4-4 point"));
    assert_eq!(r.comments.get(&2).map(String::as_str), Some("3-3 invasion"));
    assert_eq!(
        r.comments.get(&13).map(String::as_str),
        Some("3-3 invasion: joseki")
    );
    let m = replay_match(&r, "joseki").expect("a replay");
    assert_eq!(m.history.all_moves().len(), 13);
    assert_eq!(m.history.ply(), 0);
}
