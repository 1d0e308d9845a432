//! Area scoring with and without dead stones, dead-group toggling, the automatic estimate and
//! the influence map.

use qi_core::go::{Go, go_result_text};
use qi_core::{Game, Outcome, Side, Square};

fn board(size: u8, komi: &str, rows: &[&str]) -> Go {
    Go::from_text(&format!("{size} {komi} b {}", rows.join("/"))).unwrap()
}

fn sq(g: &Go, t: &str) -> Square {
    Go::square_of(g.parse_move(t).unwrap()).unwrap()
}

/// Black wall on column E, White wall on F: Black 45 points, White 36.
fn walls(extra_black: &[&str], extra_white: &[&str]) -> Go {
    let mut rows = vec!["....XO...".to_string(); 9];
    for (list, ch) in [(extra_black, 'X'), (extra_white, 'O')] {
        for v in list {
            let g = Go::new(9, 0.0).unwrap();
            let s = sq(&g, v);
            let row = &mut rows[8 - s.y as usize];
            row.replace_range(s.x as usize..s.x as usize + 1, &ch.to_string());
        }
    }
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    board(9, "7.5", &rows)
}

#[test]
fn result_strings() {
    assert_eq!(go_result_text(3.5), "B+3.5");
    assert_eq!(go_result_text(-0.5), "W+0.5");
    assert_eq!(go_result_text(-12.0), "W+12");
    assert_eq!(go_result_text(0.0), "Draw");
}

#[test]
fn finished_game_without_dead_stones() {
    let g = walls(&[], &[]);
    let s = g.area_score();
    assert_eq!(s.black_stones, 9);
    assert_eq!(s.white_stones, 9);
    assert_eq!(s.black_territory, 36);
    assert_eq!(s.white_territory, 27);
    assert_eq!(s.dame, 0);
    assert_eq!(s.black_area(), 45);
    assert_eq!(s.white_area(), 36);
    assert_eq!(s.margin(), 1.5);
    assert_eq!(s.result_text(), "B+1.5");
    assert_eq!(s.outcome(), Outcome::Win(Side::Black));
    assert_eq!(s.owner[0], Some(Side::Black));
    assert_eq!(s.owner[8], Some(Side::White));
    // with komi 9 it is a draw, with 10 White wins by a point
    let mut d = g.clone();
    d.set_komi(9.0).unwrap();
    assert_eq!(d.area_score().result_text(), "Draw");
    assert_eq!(d.area_score().outcome(), Outcome::Draw);
    d.set_komi(10.0).unwrap();
    assert_eq!(d.area_score().result_text(), "W+1");
    // the game's outcome after two passes is this count
    let mut p = g.clone();
    p.make(p.pass_move().unwrap());
    p.make(p.pass_move().unwrap());
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::Black)));
}

#[test]
fn dead_stones_count_as_captured() {
    // a white stone left in Black's area: alive it spoils Black's territory
    let g = walls(&[], &["B5"]);
    let s = g.area_score();
    assert_eq!(s.black_territory, 0);
    assert_eq!(s.dame, 35);
    assert_eq!(s.white_area(), 37);
    assert_eq!(s.result_text(), "W+35.5");
    // marked dead it is a prisoner and the region is Black's again
    let dead = vec![sq(&g, "B5")];
    let s = g.score_with_dead(&dead);
    assert_eq!(s.dead_white, 1);
    assert_eq!(s.dead_black, 0);
    assert_eq!(s.black_territory, 36);
    assert_eq!(s.white_area(), 36);
    assert_eq!(s.result_text(), "B+1.5");
    assert_eq!(s.owner[4 * 9 + 1], Some(Side::Black));
    // the same with a black stone dead in White's area
    let g = walls(&["H5"], &[]);
    let s = g.score_with_dead(&[sq(&g, "H5")]);
    assert_eq!(s.dead_black, 1);
    assert_eq!(s.result_text(), "B+1.5");
    assert_eq!(g.area_score().black_area(), 46);
    assert_eq!(g.area_score().white_area(), 9);
}

#[test]
fn dead_groups_toggle_as_a_whole() {
    // two white chains in Black's area one point apart (B5-B6 and the diagonal C7) go together;
    // the E-column black wall is another group
    let g = walls(&[], &["B5", "B6", "C7"]);
    let mut dead = Vec::new();
    assert!(g.toggle_dead_group(&mut dead, sq(&g, "B6")));
    let mut want = vec![sq(&g, "B5"), sq(&g, "B6"), sq(&g, "C7")];
    want.sort();
    assert_eq!(dead, want);
    let s = g.score_with_dead(&dead);
    assert_eq!(s.dead_white, 3);
    assert_eq!(s.result_text(), "B+1.5");
    // toggling any stone of it again brings the whole group back
    assert!(!g.toggle_dead_group(&mut dead, sq(&g, "C7")));
    assert!(dead.is_empty());
    // an empty point toggles nothing
    assert!(!g.toggle_dead_group(&mut dead, sq(&g, "A1")));
    assert!(dead.is_empty());
    // a point of a chain in the list stands for the whole chain
    let s = g.score_with_dead(&[sq(&g, "B5")]);
    assert_eq!(s.dead_white, 2);
}

/// Defect: one click on a lone stone crossed out every stone of its colour, the centre group
/// too (the group reached every stone through empty points).
#[test]
fn a_click_on_a_lone_stone_toggles_that_stone_only() {
    let g = board(
        9,
        "7.5",
        &[
            ".........",
            ".X.......",
            ".........",
            "...XXX...",
            "...X.X...",
            "...XXX...",
            ".........",
            ".......O.",
            ".........",
        ],
    );
    let mut dead = Vec::new();
    assert!(g.toggle_dead_group(&mut dead, sq(&g, "B8")));
    assert_eq!(dead, vec![sq(&g, "B8")]);
    assert!(g.toggle_dead_group(&mut dead, sq(&g, "E6")));
    assert_eq!(dead.len(), 9, "the centre group alone joins: {dead:?}");
}

#[test]
fn automatic_estimate_finds_the_dead_stones() {
    let g = walls(&["H5"], &["B5", "C7"]);
    let dead = g.estimate_dead();
    let mut want = vec![sq(&g, "B5"), sq(&g, "C7"), sq(&g, "H5")];
    want.sort();
    assert_eq!(dead, want);
    assert_eq!(g.score_with_dead(&dead).result_text(), "B+1.5");
    // deterministic for a seed
    assert_eq!(g.estimate_dead_with(50, 7), g.estimate_dead_with(50, 7));
    // nothing is dead in the clean position
    assert!(walls(&[], &[]).estimate_dead().is_empty());
}

#[test]
fn estimate_keeps_a_living_group_with_two_eyes() {
    // White lives in Black's corner with two eyes (A1 and C1); a lone white stone at D8 is dead
    let g = board(
        9,
        "7.5",
        &[
            "....XO...",
            "...OXO...",
            "....XO...",
            "....XO...",
            "....XO...",
            "XXXXXO...",
            "OOOOXO...",
            "OOOOXO...",
            ".O.OXO...",
        ],
    );
    // the white group on rows 1-3 has two eyes, A1 and C1: it stays alive
    let dead = g.estimate_dead();
    assert!(dead.contains(&sq(&g, "D8")), "{dead:?}");
    assert!(!dead.contains(&sq(&g, "A3")), "{dead:?}");
    assert!(!dead.contains(&sq(&g, "F5")), "{dead:?}");
}

#[test]
fn influence_map_and_score_estimate() {
    let g = walls(&[], &[]);
    let inf = g.influence();
    assert_eq!(inf.value.len(), 81);
    assert_eq!(inf.ownership.len(), 81);
    assert!(inf.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
    // next to the walls each side owns its points; far away the influence fades out
    assert!(inf.ownership[4 * 9 + 3] > 0.5);
    assert!(inf.ownership[4 * 9 + 6] < -0.5);
    assert_eq!(inf.owner(3, 4), Some(Side::Black));
    assert_eq!(inf.owner(6, 4), Some(Side::White));
    // four columns each; the influence does not reach column A, four steps from the wall
    assert_eq!((inf.black_area, inf.white_area), (36, 36));
    assert_eq!(inf.owner(0, 4), None);
    assert_eq!(inf.score_estimate(), -7.5);
    // a stone deep in the other side's influence counts for that side
    let g2 = walls(&[], &["C5"]);
    let inf2 = g2.influence();
    assert_eq!(
        inf2.owner(2, 4),
        Some(Side::Black),
        "{:?}",
        inf2.value[4 * 9 + 2]
    );
    // though its influence still takes points from Black's area around it
    assert!(inf2.black_area < inf.black_area);
    // while a stone among its own keeps its side
    assert_eq!(inf2.owner(5, 4), Some(Side::White));
    // the estimate at the start of a 19x19 game is komi for White
    let s = Go::start().influence();
    assert_eq!(s.score_estimate(), -7.5);
}
