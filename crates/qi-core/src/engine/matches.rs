//! `qi-engine match`: engine configurations play each other; `qi-engine bench`: search speed.
//!
//! A configuration is a comma-separated list: `level=N` (1-6, default 6) and the game's
//! evaluation settings, e.g. `level=6,frontier=5` for Ataxx. Each opening (k random plies from
//! the start) is played twice with colours swapped.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::ai::{Ai, Cpu};
use crate::game::{Game, Outcome, Side};
use crate::search::{Limits, Rng, Searcher};

/// An engine configuration for matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub level: u8,
    pub settings: Vec<(String, i32)>,
}

impl std::str::FromStr for Config {
    type Err = String;
    fn from_str(s: &str) -> Result<Config, String> {
        let mut c = Config {
            level: 6,
            settings: Vec::new(),
        };
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not key=value"))?;
            let v: i32 = v
                .trim()
                .parse()
                .map_err(|_| format!("'{v}' in '{part}' is not a number"))?;
            match k.trim() {
                "level" if (1..=6).contains(&v) => c.level = v as u8,
                "level" => return Err(format!("level {v} is not 1-6")),
                key => c.settings.push((key.to_string(), v)),
            }
        }
        Ok(c)
    }
}

/// A game the match runner can play: the CPU plus settings for trying evaluation changes.
pub trait Tunable: Ai {
    /// Changes one evaluation setting of `eval`.
    fn tune(eval: &mut Self::Eval, key: &str, value: i32) -> Result<(), String>;
}

struct Player<G: Tunable> {
    cpu: Cpu<G>,
    config: Config,
}

impl<G: Tunable> Player<G> {
    fn new(config: &Config) -> Result<Player<G>, String> {
        // check the settings once
        let mut e = G::eval_for_level(config.level, 0);
        for (k, v) in &config.settings {
            G::tune(&mut e, k, *v)?;
        }
        Ok(Player {
            cpu: Cpu::new(config.level, 16),
            config: config.clone(),
        })
    }

    fn choose(&mut self, pos: &G, movetime: Duration, seed: u64) -> G::Move {
        let stop = Arc::new(AtomicBool::new(false));
        let settings = self.config.settings.clone();
        let r = self.cpu.choose_tuned(
            pos,
            movetime,
            &stop,
            seed,
            &mut |e| {
                for (k, v) in &settings {
                    G::tune(e, k, *v).expect("checked");
                }
            },
            &mut |_| {},
        );
        r.best.expect("a position that is not over has a move")
    }
}

/// Wins, draws and losses of A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score, 0..1.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// A text of the Elo difference A - B with its 95% interval; when one side won every
    /// game only a bound can be given.
    pub fn elo_text(&self) -> String {
        let n = self.games() as f64;
        if n == 0.0 {
            return "Elo n/a".into();
        }
        if self.draws == 0 && (self.wins == 0 || self.losses == 0) {
            // all games won (or lost): p^n = 0.05 bounds the true score at 95%
            let p = 0.05f64.powf(1.0 / n);
            let bound = -400.0 * (1.0 / p - 1.0).log10();
            return if self.losses == 0 {
                format!("Elo > +{bound:.0} (95%)")
            } else {
                format!("Elo < -{bound:.0} (95%)")
            };
        }
        let (e, err) = self.elo();
        format!("Elo {e:+.0} +/- {err:.0}")
    }

    /// The Elo difference A - B and the half-width of its 95% interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let se = (var / n).sqrt();
        let elo = |p: f64| {
            let p = p.clamp(1e-3, 1.0 - 1e-3);
            -400.0 * (1.0 / p - 1.0).log10()
        };
        let lo = elo(s - 1.96 * se);
        let hi = elo(s + 1.96 * se);
        (elo(s), (hi - lo) / 2.0)
    }
}

/// Plays `games` games between `a` and `b` and prints a line per pair and the totals.
pub fn run_match<G: Tunable>(
    a: &Config,
    b: &Config,
    games: u32,
    movetime: Duration,
    openings: u32,
    seed: u64,
    verbose: bool,
) -> Result<Tally, String> {
    let mut pa = Player::<G>::new(a)?;
    let mut pb = Player::<G>::new(b)?;
    let mut tally = Tally::default();
    let mut rng = Rng::new(seed);
    let mut opening = G::start();
    for g in 0..games {
        if g % 2 == 0 {
            opening = random_opening::<G>(openings, &mut rng);
            pa.cpu.new_game();
            pb.cpu.new_game();
        }
        let a_side = if g % 2 == 0 { Side::Black } else { Side::White };
        let mut pos = opening.clone();
        let mut plies = 0u32;
        let mut record = Vec::new();
        while pos.outcome().is_none() {
            let seed = rng.next_u64();
            let mv = if pos.side_to_move() == a_side {
                pa.choose(&pos, movetime, seed)
            } else {
                pb.choose(&pos, movetime, seed)
            };
            if verbose {
                record.push(pos.move_to_text(mv));
            }
            pos.play(mv)
                .map_err(|e| format!("engine played an illegal move: {e}"))?;
            plies += 1;
            if plies > 2000 {
                return Err("a game ran past 2000 plies".into());
            }
        }
        let outcome = pos.outcome().expect("over");
        match outcome {
            Outcome::Draw => tally.draws += 1,
            Outcome::Win(s) if s == a_side => tally.wins += 1,
            Outcome::Win(_) => tally.losses += 1,
        }
        if verbose {
            let [x, o] = pos.piece_counts();
            eprintln!(
                "game {} A={:?} {outcome:?} {x}-{o} after {plies} plies; W/D/L {}/{}/{}",
                g + 1,
                a_side,
                tally.wins,
                tally.draws,
                tally.losses
            );
            eprintln!("  from {}: {}", opening.to_text(), record.join(" "));
        }
    }
    Ok(tally)
}

/// `plies` random legal moves from the start, avoiding finished games.
pub fn random_opening<G: Game>(plies: u32, rng: &mut Rng) -> G {
    'retry: loop {
        let mut pos = G::start();
        let mut moves = Vec::new();
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                continue 'retry;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.make(m);
        }
        if pos.outcome().is_none() {
            return pos;
        }
    }
}

/// Searches a fixed set of positions to a fixed depth; returns (nodes, seconds).
pub fn bench<G: Ai>(depth: u32, positions: u32, seed: u64) -> (u64, f64) {
    let mut rng = Rng::new(seed);
    let mut total = 0u64;
    let t0 = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    for i in 0..positions {
        let pos: G = random_opening(4 + 2 * i, &mut rng);
        let mut s = Searcher::new(G::eval_for_level(6, 0), 16);
        let r = s.search(&pos, &Limits::depth(depth), &stop, &mut |_| {});
        total += r.info.nodes;
    }
    (total, t0.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_parse() {
        let c: Config = "level=3,frontier=5".parse().unwrap();
        assert_eq!(c.level, 3);
        assert_eq!(c.settings, vec![("frontier".to_string(), 5)]);
        assert!("level=9".parse::<Config>().is_err());
        assert!("level".parse::<Config>().is_err());
        assert!("frontier=x".parse::<Config>().is_err());
    }

    #[test]
    fn elo_figures() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert_eq!(even.score(), 0.5);
        let (e, err) = even.elo();
        assert!(e.abs() < 1e-9 && err > 100.0 && err < 300.0, "{e} {err}");
        let t = Tally {
            wins: 15,
            draws: 0,
            losses: 5,
        };
        let (e, _) = t.elo();
        assert!((e - 190.8).abs() < 0.5, "{e}");
        let all = Tally {
            wins: 20,
            draws: 0,
            losses: 0,
        };
        assert_eq!(all.elo_text(), "Elo > +317 (95%)");
    }
}
