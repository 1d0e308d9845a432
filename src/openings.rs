//! Named openings in the window: the name of the opening a game has reached (shown in the side
//! panel and the replay panel), the names in the player's language, and an opening's line as a
//! record to step through or play on from. The openings themselves and their recognition are
//! `qi_core::openings`; the browser is `menus::openings`.

use std::collections::BTreeMap;

use bevy::prelude::*;
use qi_core::openings::{OpeningBook, OpeningName};
use qi_core::records::Record;
use qi_core::{GameKind, Side};

use crate::game::Match;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.init_resource::<OpeningShown>().add_systems(
        Update,
        track_opening
            .in_set(crate::AppSet::Present)
            .run_if(in_state(Screen::Playing)),
    );
}

/// The opening the game on the board has reached, worked out again when the board changes.
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct OpeningShown {
    /// The game, start, ply and language it was worked out for (the language too: after a
    /// switch to Chinese the panel kept "Opening: Diagonal" in English until the next move).
    key: Option<(GameKind, u64, u64, usize, crate::i18n::Lang)>,
    /// "Opening: Tiger" (in the player's language), or nothing.
    pub text: Option<String>,
}

fn track_opening(game: Option<Res<Match>>, mut shown: ResMut<OpeningShown>) {
    let Some(game) = game else { return };
    let key = (
        game.kind(),
        game.history.start().hash(),
        game.position().hash(),
        game.history.ply(),
        crate::i18n::lang(),
    );
    if shown.key == Some(key) {
        return;
    }
    shown.key = Some(key);
    let text = opening_text(&game);
    if text != shown.text {
        if let Some((book, node)) = recognised(&game) {
            let en = book.nodes[node].name.as_ref().map_or("", |n| n.en.as_str());
            info!("qi: opening reached {en} at ply {}", game.history.ply());
        }
        shown.text = text;
    }
}

/// The book and node of the named opening the game has reached.
fn recognised(game: &Match) -> Option<(&'static OpeningBook, usize)> {
    let book = qi_core::openings::book(game.kind())?;
    let moves = &game.history.all_moves()[..game.history.ply()];
    let r = book.recognise(game.history.start(), moves)?;
    Some((book, r.node))
}

/// "Opening: <name>" (Go: "Joseki: <name>") for the game's position now, if it reached one.
pub fn opening_text(game: &Match) -> Option<String> {
    let (book, node) = recognised(game)?;
    let r = qi_core::openings::Recognised { node, ply: 0 };
    book.nodes[r.node].name.as_ref()?;
    let names: Vec<String> = book
        .names_to(r.node)
        .into_iter()
        .map(display_name)
        .collect();
    Some(if game.kind() == GameKind::Go {
        // a joseki's own name and the move that named the last position ("3-3 invasion ›
        // Block"), without the corner point's name
        let from = names.len().saturating_sub(2).max(1).min(names.len() - 1);
        t!("opening-joseki", name = names[from..].join(" › "))
    } else {
        t!("opening-reached", name = names.last()?.as_str())
    })
}

/// An opening's name for the player: in Chinese the Chinese name (the English one when there
/// is none: Othello's openings are known by their English names); in English the English name,
/// with the Chinese one beside it for the renju openings.
pub fn display_name(n: &OpeningName) -> String {
    display_name_in(crate::i18n::lang(), n)
}

/// [`display_name`] in a given language.
pub fn display_name_in(lang: crate::i18n::Lang, n: &OpeningName) -> String {
    match (lang, &n.zh) {
        (crate::i18n::Lang::ZhCn, Some(zh)) => zh.clone(),
        (_, Some(zh)) if n.ja.is_some() => format!("{} {}", n.en, zh),
        _ => n.en.clone(),
    }
}

/// A book's line (its node `node`) as a record: the names of the positions on the way as the
/// comments of their moves, so the replay panel shows each name as it is reached.
pub fn line_record(book: &OpeningBook, node: usize) -> Record {
    let mut comments = BTreeMap::new();
    let mut at = Some(node);
    while let Some(i) = at {
        let n = &book.nodes[i];
        if let Some(name) = &n.name {
            comments.insert(n.line.len(), display_name(name));
        }
        at = n.parent;
    }
    let names = book.names_to(node);
    Record {
        game: book.kind,
        start: book.start.to_text(),
        moves: book.nodes[node].line.clone(),
        black: Some(crate::game::side_name(book.kind, Side::Black)),
        white: Some(crate::game::side_name(book.kind, Side::White)),
        result: None,
        event: names.last().map(|n| display_name(n)),
        date: None,
        comments,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MatchSetup, Player};

    fn game(kind: GameKind, moves: &str) -> Match {
        let setup = MatchSetup {
            kind,
            start_text: None,
            players: [Player::Human; 2],
            names: ["A".into(), "B".into()],
            clock: None,
        };
        let mut m = Match::new(setup).unwrap();
        for t in moves.split_whitespace() {
            let mv = m.position().parse_move(t).unwrap();
            m.history.play(mv).unwrap();
        }
        m
    }

    #[test]
    fn the_opening_reached_is_named_in_the_players_language() {
        // (the tests run in English)
        let g = game(GameKind::Reversi, "f5 d6 c4 d3 c3 f4");
        assert_eq!(opening_text(&g).as_deref(), Some("Opening: Tiger"));
        let g = game(GameKind::Gomoku, "h8 h9 i9");
        assert_eq!(
            opening_text(&g).as_deref(),
            Some("Opening: D4 Kagetsu 花月")
        );
        let g = game(GameKind::Go, "D4 C3");
        assert_eq!(opening_text(&g).as_deref(), Some("Joseki: 3-3 invasion"));
        let g = game(GameKind::Go, "D4 C3 D3 C4 C5");
        assert_eq!(opening_text(&g).as_deref(), Some("Joseki: Block › Hane"));
        let g = game(GameKind::Go, "Q16");
        assert_eq!(opening_text(&g).as_deref(), Some("Joseki: 4-4 point"));
        assert_eq!(opening_text(&game(GameKind::Ataxx, "")), None);
        assert_eq!(opening_text(&game(GameKind::Reversi, "")), None);
        let zh = crate::i18n::Lang::ZhCn;
        let name = |k: GameKind, en: &str| {
            let b = qi_core::openings::book(k).unwrap();
            let n = b
                .nodes
                .iter()
                .find_map(|n| n.name.as_ref().filter(|x| x.en == en));
            display_name_in(zh, n.unwrap())
        };
        assert_eq!(name(GameKind::Gomoku, "D4 Kagetsu"), "花月");
        assert_eq!(name(GameKind::Go, "3-3 invasion"), "点三三");
        // Othello's openings keep their English names
        assert_eq!(name(GameKind::Reversi, "Tiger"), "Tiger");
    }
}
