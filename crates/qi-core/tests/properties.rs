//! Property tests over random games of Ataxx and Reversi: incremental hashes, undo, text round
//! trips, and parsers that never panic.

use proptest::prelude::*;
use qi_core::ataxx::Ataxx;
use qi_core::game::Game;
use qi_core::reversi::Reversi;

/// Plays `choices.len()` random plies (each choice picks a legal move) and checks the
/// invariants at every step.
fn random_game<G: Game>(mut pos: G, choices: &[usize], fresh_hash: impl Fn(&G) -> u64) {
    let mut moves = Vec::new();
    for &c in choices {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            assert!(pos.outcome().is_some(), "no moves but not over: {}", pos.to_text());
            break;
        }
        assert!(pos.outcome().is_none(), "moves in a finished game: {}", pos.to_text());
        assert_eq!(moves.len() as u64, pos.count_moves());
        let mv = moves[c % moves.len()];
        assert!(pos.is_legal(mv));
        // move text round trip
        let text = pos.move_to_text(mv);
        assert_eq!(pos.parse_move(&text).unwrap(), mv, "move text {text}");
        let before = pos.clone();
        let undo = pos.make(mv);
        assert_eq!(pos.hash(), fresh_hash(&pos), "incremental hash after {text}");
        // position text round trip
        let fen = pos.to_text();
        let back = G::from_text(&fen).unwrap();
        assert_eq!(back.to_text(), fen);
        assert_eq!(back.hash(), pos.hash(), "hash survives the text round trip");
        // undo restores exactly
        let after = pos.clone();
        pos.unmake(undo);
        assert_eq!(pos, before, "unmake of {text}");
        pos = after;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn ataxx_random_games(choices in prop::collection::vec(0usize..1000, 0..250), layout in 0usize..5) {
        let fen = Ataxx::start_layouts()[layout].1;
        random_game(Ataxx::from_text(fen).unwrap(), &choices, |p| p.compute_hash());
    }

    #[test]
    fn reversi_random_games(choices in prop::collection::vec(0usize..1000, 0..70)) {
        random_game(Reversi::start(), &choices, |p| p.compute_hash());
    }

    #[test]
    fn ataxx_parsers_never_panic(s in "\\PC{0,60}") {
        let _ = Ataxx::from_text(&s);
        let _ = Ataxx::start().parse_move(&s);
    }

    #[test]
    fn ataxx_fen_like_strings_never_panic(s in "[xo1-9/\\- ]{0,60}") {
        if let Ok(p) = Ataxx::from_text(&s) {
            // whatever parses, prints back to something that parses to the same position
            prop_assert_eq!(Ataxx::from_text(&p.to_text()).unwrap(), p);
        }
    }

    #[test]
    fn reversi_parsers_never_panic(s in "\\PC{0,80}", board in "[XO\\-]{64} [XO]") {
        let _ = Reversi::from_text(&s);
        let _ = Reversi::start().parse_move(&s);
        let p = Reversi::from_text(&board).unwrap();
        prop_assert_eq!(p.to_text(), board);
    }
}
