//! `qi-engine match`: two engines play each other under Qi's own referee; `qi-engine bench`:
//! search speed.
//!
//! Either side is a Qi level (`level=N` plus the game's evaluation settings, e.g.
//! `level=6,frontier=5` for Ataxx, `level=6,playouts=2000` for Go) played inside this process,
//! or an external engine behind its protocol: `uai:<command>` (Ataxx), `nboard:<command>`
//! (Reversi), `gtp:<command>` (Go), `gomocup:<command>` (Gomoku); see [`super::external`].
//! The core's rules decide legality and the result. An engine that plays an illegal move,
//! answers something the protocol does not allow, dies, stays silent past its time (plus the
//! margin) or overruns its clock loses that game; the fault is reported and the engine is
//! restarted for the next game. A move forced by the rules (the only legal move is a pass) is
//! played by the referee without asking. Each opening (random plies, or a line of a file) is
//! played twice with colours swapped. Go games end after two passes and are scored by the
//! area count with every stone alive (Tromp-Taylor), so the Qi level plays in clean-up mode and
//! GTP engines are asked with `kgs-genmove_cleanup` when they know it.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use crate::ai::go::GoCpu;
use crate::ai::go::time::{self, Clock, MoveTime};
use crate::ai::{Ai, Cpu};
use crate::ataxx::Ataxx;
use crate::game::{Game, Outcome, Side};
use crate::go::Go;
use crate::gomoku::{Gomoku, GomokuRule};
use crate::reversi::Reversi;
use crate::search::{Limits, Rng, Searcher};

use super::external::{Fault, GomocupPlayer, GtpPlayer, NboardPlayer, Protocol, UaiPlayer};

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

impl std::fmt::Display for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level={}", self.level)?;
        for (k, v) in &self.settings {
            write!(f, ",{k}={v}")?;
        }
        Ok(())
    }
}

/// One side of a match: a Qi level or an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    Qi(Config),
    External {
        protocol: Protocol,
        command: String,
        /// Lines sent after the handshake (`setoption …`, `set depth …`, `qi-playouts …`).
        init: Vec<String>,
    },
}

impl std::str::FromStr for Spec {
    type Err = String;
    fn from_str(s: &str) -> Result<Spec, String> {
        let t = s.trim();
        for p in [
            Protocol::Uai,
            Protocol::Nboard,
            Protocol::Gtp,
            Protocol::Gomocup,
        ] {
            if let Some(rest) = t.strip_prefix(p.name()).and_then(|r| r.strip_prefix(':')) {
                let command = rest.trim();
                if command.is_empty() {
                    return Err(format!("'{t}': no command after '{}:'", p.name()));
                }
                return Ok(Spec::External {
                    protocol: p,
                    command: command.to_string(),
                    init: Vec::new(),
                });
            }
        }
        Ok(Spec::Qi(t.parse()?))
    }
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Qi(c) => write!(f, "{c}"),
            Spec::External {
                protocol, command, ..
            } => write!(f, "{}:{command}", protocol.name()),
        }
    }
}

/// How long the engines may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time for each move.
    MoveTime(Duration),
    /// A clock per side: `base` for the game plus `inc` after each move.
    Clock { base: Duration, inc: Duration },
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::MoveTime(t) => write!(f, "{} ms/move", t.as_millis()),
            TimeControl::Clock { base, inc } => {
                write!(f, "{}+{} s", base.as_secs_f64(), inc.as_secs_f64())
            }
        }
    }
}

/// Reads a clock `base+inc` in seconds (`10+0.1`, `60`).
pub fn parse_clock(s: &str) -> Result<TimeControl, String> {
    let (b, i) = s.split_once('+').unwrap_or((s, "0"));
    let secs = |t: &str| -> Result<Duration, String> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("'{t}' in '{s}' is not a number of seconds"))?;
        if !(0.0..1e7).contains(&v) {
            return Err(format!("'{t}' in '{s}' is out of range"));
        }
        Ok(Duration::from_secs_f64(v))
    };
    let base = secs(b)?;
    if base.is_zero() {
        return Err(format!("clock '{s}' has no base time"));
    }
    Ok(TimeControl::Clock {
        base,
        inc: secs(i)?,
    })
}

/// What a player is asked for one move.
pub struct MoveRequest<'a, G: Game> {
    /// Where the game started (the opening's position) and the moves since.
    pub start: &'a G,
    pub moves: &'a [G::Move],
    /// The position now (`start` after `moves`).
    pub pos: &'a G,
    pub tc: TimeControl,
    /// Clock time left `[black, white]` (with a clock).
    pub left: [Duration; 2],
    /// When the referee stops waiting.
    pub deadline: Instant,
    pub seed: u64,
}

/// A player's answer.
pub enum Reply<G: Game> {
    Move(G::Move),
    Resign,
}

/// One side as the referee sees it.
pub trait Player<G: Game> {
    fn name(&self) -> String;
    /// Whether the referee holds it to its time (external engines). Qi's levels 2-5 are depth
    /// caps that ignore the clock, so they are not.
    fn timed(&self) -> bool {
        false
    }
    /// The time a move may take when the match gives `t` a move (protocols that count whole
    /// seconds round up).
    fn allowance(&self, t: Duration) -> Duration {
        t
    }
    fn new_game(&mut self, start: &G) -> Result<(), Fault>;
    fn think(&mut self, req: &MoveRequest<G>) -> Result<Reply<G>, Fault>;
    /// Gets ready again after a fault (an external engine is restarted).
    fn recover(&mut self) -> Result<(), Fault> {
        Ok(())
    }
    fn quit(&mut self) {}
}

/// The time a Qi level spends on a move from a clock: a share of what is left plus most of
/// the increment, never more than half of what is left.
pub fn clock_budget(left: Duration, inc: Duration) -> Duration {
    let share = left / 25 + inc * 3 / 4;
    share
        .min(left.saturating_sub(Duration::from_millis(20)) / 2)
        .max(Duration::from_millis(1))
}

fn qi_movetime<G: Game>(req: &MoveRequest<G>) -> Duration {
    match req.tc {
        TimeControl::MoveTime(t) => t,
        TimeControl::Clock { inc, .. } => {
            clock_budget(req.left[req.pos.side_to_move().index()], inc)
        }
    }
}

/// A game the match runner can play: the CPU plus settings for trying evaluation changes.
pub trait Tunable: Ai {
    /// Changes one evaluation setting of `eval`.
    fn tune(eval: &mut Self::Eval, key: &str, value: i32) -> Result<(), String>;
}

/// A Qi level of a game with an alpha-beta CPU, inside this process.
pub struct QiPlayer<G: Tunable> {
    cpu: Cpu<G>,
    config: Config,
}

impl<G: Tunable> QiPlayer<G> {
    pub fn new(config: &Config) -> Result<QiPlayer<G>, String> {
        // check the settings once
        let mut e = G::eval_for_level(config.level, 0);
        for (k, v) in &config.settings {
            G::tune(&mut e, k, *v)?;
        }
        Ok(QiPlayer {
            cpu: Cpu::new(config.level, 16),
            config: config.clone(),
        })
    }
}

impl<G: Tunable> Player<G> for QiPlayer<G> {
    fn name(&self) -> String {
        self.config.to_string()
    }

    fn new_game(&mut self, _start: &G) -> Result<(), Fault> {
        self.cpu.new_game();
        Ok(())
    }

    fn think(&mut self, req: &MoveRequest<G>) -> Result<Reply<G>, Fault> {
        let stop = Arc::new(AtomicBool::new(false));
        let settings = self.config.settings.clone();
        let r = self.cpu.choose_tuned(
            req.pos,
            qi_movetime(req),
            &stop,
            req.seed,
            &mut |e| {
                for (k, v) in &settings {
                    G::tune(e, k, *v).expect("checked");
                }
            },
            &mut |_| {},
        );
        r.best
            .map(Reply::Move)
            .ok_or_else(|| Fault::Garbage("no move in a position that is not over".into()))
    }
}

/// A Qi Go level inside this process, in clean-up mode (see the module docs).
pub struct QiGoPlayer {
    cpu: GoCpu,
    config: Config,
}

impl QiGoPlayer {
    pub fn new(config: &Config) -> Result<QiGoPlayer, String> {
        let mut cpu = GoCpu::new(config.level);
        cpu.set_threads(1);
        for (k, v) in &config.settings {
            match k.as_str() {
                "playouts" => cpu.set_playouts((*v > 0).then_some(*v as u64)),
                "threads" => cpu.set_threads((*v).max(1) as usize),
                other => {
                    return Err(format!("unknown Go setting '{other}' (playouts, threads)"));
                }
            }
        }
        cpu.set_cleanup(true);
        Ok(QiGoPlayer {
            cpu,
            config: config.clone(),
        })
    }
}

impl Player<Go> for QiGoPlayer {
    fn name(&self) -> String {
        self.config.to_string()
    }

    fn new_game(&mut self, _start: &Go) -> Result<(), Fault> {
        self.cpu.new_game();
        Ok(())
    }

    fn think(&mut self, req: &MoveRequest<Go>) -> Result<Reply<Go>, Fault> {
        let stop = Arc::new(AtomicBool::new(false));
        let mt = match req.tc {
            TimeControl::MoveTime(t) => MoveTime::fixed(t),
            TimeControl::Clock { inc, .. } => {
                let pos = req.pos;
                let stones = pos.piece_counts();
                let n = pos.size() as usize;
                let clock = Clock {
                    main: req.left[pos.side_to_move().index()],
                    increment: inc,
                    ..Clock::default()
                };
                let empty = (n * n).saturating_sub((stones[0] + stones[1]) as usize);
                time::allocate(&clock, pos.size(), empty, pos.history_len())
                    .unwrap_or_else(|| MoveTime::fixed(qi_movetime(req)))
            }
        };
        let r = self
            .cpu
            .choose_timed(req.pos, mt, &stop, req.seed, &mut |_| {});
        if self.cpu.resigns() {
            return Ok(Reply::Resign);
        }
        Ok(Reply::Move(r.best.unwrap_or(crate::go::PASS)))
    }
}

/// Board options of a match (Go and Gomoku).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardOptions {
    pub size: Option<u8>,
    pub komi: Option<f32>,
    pub rule: Option<String>,
}

/// A game `qi-engine match` can referee.
pub trait MatchGame: Game {
    /// The empty start position with the match's board options.
    fn match_start(opts: &BoardOptions) -> Result<Self, String>;
    /// A player for `spec`, started and ready.
    fn player(spec: &Spec, label: &str, debug: bool) -> Result<Box<dyn Player<Self>>, String>;
    /// Plies after which a game is stopped and adjudicated.
    fn ply_cap(&self) -> u32;
    /// The result of a game stopped at the ply cap.
    fn adjudicate(&self) -> Outcome {
        Outcome::Draw
    }
    /// How the finished position looks in a result line.
    fn result_text(&self) -> String {
        let [b, w] = self.piece_counts();
        format!("{b}-{w}")
    }
}

fn wrong_protocol<G: Game>(p: Protocol) -> String {
    let want = match G::KIND {
        crate::game::GameKind::Ataxx => "uai",
        crate::game::GameKind::Reversi => "nboard",
        crate::game::GameKind::Gomoku => "gomocup",
        crate::game::GameKind::Go => "gtp",
    };
    format!("{} is played over {want}, not {}", G::KIND, p.name())
}

fn start_failed(spec: &Spec, f: Fault) -> String {
    format!("{spec}: {f}")
}

impl MatchGame for Ataxx {
    fn match_start(_: &BoardOptions) -> Result<Self, String> {
        Ok(Ataxx::start())
    }

    fn player(spec: &Spec, label: &str, debug: bool) -> Result<Box<dyn Player<Self>>, String> {
        match spec {
            Spec::Qi(c) => Ok(Box::new(QiPlayer::<Ataxx>::new(c)?)),
            Spec::External {
                protocol: Protocol::Uai,
                command,
                init,
            } => Ok(Box::new(
                UaiPlayer::start(label, command, init, debug).map_err(|f| start_failed(spec, f))?,
            )),
            Spec::External { protocol, .. } => Err(wrong_protocol::<Self>(*protocol)),
        }
    }

    fn ply_cap(&self) -> u32 {
        2000
    }
}

impl MatchGame for Reversi {
    fn match_start(_: &BoardOptions) -> Result<Self, String> {
        Ok(Reversi::start())
    }

    fn player(spec: &Spec, label: &str, debug: bool) -> Result<Box<dyn Player<Self>>, String> {
        match spec {
            Spec::Qi(c) => Ok(Box::new(QiPlayer::<Reversi>::new(c)?)),
            Spec::External {
                protocol: Protocol::Nboard,
                command,
                init,
            } => Ok(Box::new(
                NboardPlayer::start(label, command, init, debug)
                    .map_err(|f| start_failed(spec, f))?,
            )),
            Spec::External { protocol, .. } => Err(wrong_protocol::<Self>(*protocol)),
        }
    }

    fn ply_cap(&self) -> u32 {
        200
    }
}

impl MatchGame for Gomoku {
    fn match_start(o: &BoardOptions) -> Result<Self, String> {
        let rule = match &o.rule {
            Some(r) => r.parse::<GomokuRule>().map_err(|e| e.to_string())?,
            None => GomokuRule::Freestyle,
        };
        let size = o.size.unwrap_or(crate::gomoku::DEFAULT_SIZE);
        if !(crate::gomoku::MIN_SIZE..=crate::gomoku::MAX_SIZE).contains(&size) {
            return Err(format!("Gomoku boards are 5-19, not {size}"));
        }
        Ok(Gomoku::new(size, rule))
    }

    fn player(spec: &Spec, label: &str, debug: bool) -> Result<Box<dyn Player<Self>>, String> {
        match spec {
            Spec::Qi(c) => Ok(Box::new(QiPlayer::<Gomoku>::new(c)?)),
            Spec::External {
                protocol: Protocol::Gomocup,
                command,
                init,
            } => Ok(Box::new(
                GomocupPlayer::start(label, command, init, debug)
                    .map_err(|f| start_failed(spec, f))?,
            )),
            Spec::External { protocol, .. } => Err(wrong_protocol::<Self>(*protocol)),
        }
    }

    fn ply_cap(&self) -> u32 {
        let (n, _) = self.dimensions();
        n as u32 * n as u32 + 1
    }

    fn result_text(&self) -> String {
        format!("{} stones", self.stone_count())
    }
}

impl MatchGame for Go {
    fn match_start(o: &BoardOptions) -> Result<Self, String> {
        Go::new(o.size.unwrap_or(9), o.komi.unwrap_or(7.0)).map_err(|e| e.to_string())
    }

    fn player(spec: &Spec, label: &str, debug: bool) -> Result<Box<dyn Player<Self>>, String> {
        match spec {
            Spec::Qi(c) => Ok(Box::new(QiGoPlayer::new(c)?)),
            Spec::External {
                protocol: Protocol::Gtp,
                command,
                init,
            } => Ok(Box::new(
                GtpPlayer::start(label, command, init, debug).map_err(|f| start_failed(spec, f))?,
            )),
            Spec::External { protocol, .. } => Err(wrong_protocol::<Self>(*protocol)),
        }
    }

    fn ply_cap(&self) -> u32 {
        3 * self.size() as u32 * self.size() as u32
    }

    fn adjudicate(&self) -> Outcome {
        self.area_score().outcome()
    }

    fn result_text(&self) -> String {
        if let Some(s) = self.resigned() {
            return format!("{}+R", if s == Side::Black { "W" } else { "B" });
        }
        self.area_score().result_text()
    }
}

/// Where a game starts: a position and the moves played from it before the engines take
/// over.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    pub start: G,
    pub moves: Vec<G::Move>,
}

impl<G: Game> Opening<G> {
    pub fn position(&self) -> G {
        let mut p = self.start.clone();
        for &m in &self.moves {
            p.make(m);
        }
        p
    }

    fn text(&self) -> String {
        let mut p = self.start.clone();
        let mut s = self.start.to_text();
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for &m in &self.moves {
                s.push(' ');
                s.push_str(&p.move_to_text(m));
                p.make(m);
            }
        }
        s
    }
}

/// Reads one line of an openings file: a position in the game's text form, or moves from
/// `base` (the empty board), or `<position> moves <m1> <m2> …`.
pub fn parse_opening<G: Game>(line: &str, base: &G) -> Result<Opening<G>, String> {
    let t = line.trim();
    let (head, tail) = match t.split_once(" moves") {
        Some((h, rest)) => (h.trim(), Some(rest.trim())),
        None => (t, None),
    };
    let (start, moves_text) = match G::from_text(head) {
        Ok(p) if !head.is_empty() => (p, tail.unwrap_or("")),
        _ if tail.is_none() => (base.clone(), head),
        Err(e) => return Err(format!("'{head}' is not a position: {e}")),
        Ok(_) => unreachable!(),
    };
    let mut p = start.clone();
    let mut moves = Vec::new();
    for w in moves_text.split_whitespace() {
        let m = p
            .parse_move(w)
            .map_err(|e| format!("opening '{t}': move '{w}': {e}"))?;
        p.play(m)
            .map_err(|e| format!("opening '{t}': move '{w}': {e}"))?;
        moves.push(m);
    }
    if p.outcome().is_some() {
        return Err(format!("opening '{t}': the game is already over"));
    }
    Ok(Opening { start, moves })
}

/// `plies` random legal moves from `base` (a pass only when nothing else is legal), avoiding
/// finished games.
pub fn random_moves<G: Game>(base: &G, plies: u32, rng: &mut Rng) -> Opening<G> {
    'retry: loop {
        let mut pos = base.clone();
        let mut moves = Vec::new();
        let mut legal = Vec::new();
        for _ in 0..plies {
            pos.legal_moves(&mut legal);
            if legal.len() > 1
                && let Some(pass) = pos.pass_move()
            {
                legal.retain(|&m| m != pass);
            }
            if legal.is_empty() {
                continue 'retry;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            pos.make(m);
            moves.push(m);
        }
        if pos.outcome().is_none() {
            return Opening {
                start: base.clone(),
                moves,
            };
        }
    }
}

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// A random number of random plies in `lo..=hi`.
    Random { lo: u32, hi: u32 },
    /// Lines of a file, used in order (and again from the top when there are more games).
    Lines(Vec<String>),
}

impl Openings {
    /// `k` or `lo-hi` random plies.
    pub fn parse_plies(s: &str) -> Result<Openings, String> {
        let (lo, hi) = s.split_once('-').unwrap_or((s, s));
        let n = |t: &str| {
            t.trim()
                .parse::<u32>()
                .map_err(|_| format!("'{s}' is not a number of plies or a range lo-hi"))
        };
        let (lo, hi) = (n(lo)?, n(hi)?);
        if lo > hi {
            return Err(format!("'{s}': the range is empty"));
        }
        Ok(Openings::Random { lo, hi })
    }

    pub fn describe(&self) -> String {
        match self {
            Openings::Random { lo, hi } if lo == hi => format!("{lo} random plies"),
            Openings::Random { lo, hi } => format!("{lo}-{hi} random plies"),
            Openings::Lines(v) => format!("{} openings from a file", v.len()),
        }
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
                format!("Elo > {bound:+.0} (95%)")
            } else {
                format!("Elo < {:+.0} (95%)", -bound)
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

/// A sequential probability ratio test of H0 "A is elo0 better" against H1 "A is elo1 better"
/// (logistic Elo), with the usual normal approximation of the log-likelihood ratio over the
/// game results (as cutechess-cli computes it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1: A is at least elo1 stronger.
    H1,
    /// H0: A is at most elo0 stronger.
    H0,
    Continue,
}

impl std::str::FromStr for Sprt {
    type Err = String;
    fn from_str(s: &str) -> Result<Sprt, String> {
        let mut t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("SPRT: '{part}' is not key=value"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("SPRT: '{v}' is not a number"))?;
            match k.trim() {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                other => return Err(format!("SPRT: unknown '{other}' (elo0, elo1, alpha, beta)")),
            }
        }
        if t.elo1 <= t.elo0 {
            return Err("SPRT: elo1 must be above elo0".into());
        }
        if !(t.alpha > 0.0 && t.alpha < 0.5 && t.beta > 0.0 && t.beta < 0.5) {
            return Err("SPRT: alpha and beta must be between 0 and 0.5".into());
        }
        Ok(t)
    }
}

impl Sprt {
    /// The bounds (lower, upper) of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `t`; `None` while the results have no
    /// spread (e.g. all draws, or no game yet).
    pub fn llr(&self, t: &Tally) -> Option<f64> {
        let n = t.games() as f64;
        if n == 0.0 {
            return None;
        }
        let (w, d) = (t.wins as f64 / n, t.draws as f64 / n);
        let s = w + d / 2.0;
        let var = w + d / 4.0 - s * s;
        if var <= 0.0 {
            return None;
        }
        let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let (s0, s1) = (score(self.elo0), score(self.elo1));
        Some((s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var / n))
    }

    pub fn verdict(&self, t: &Tally) -> Verdict {
        let (lo, hi) = self.bounds();
        match self.llr(t) {
            Some(l) if l >= hi => Verdict::H1,
            Some(l) if l <= lo => Verdict::H0,
            _ => Verdict::Continue,
        }
    }

    pub fn text(&self, t: &Tally) -> String {
        let (lo, hi) = self.bounds();
        let llr = self
            .llr(t)
            .map(|l| format!("{l:.2}"))
            .unwrap_or_else(|| "n/a".into());
        let v = match self.verdict(t) {
            Verdict::H1 => format!("H1 accepted: A is at least {} Elo stronger", self.elo1),
            Verdict::H0 => format!("H0 accepted: A is not {} Elo stronger", self.elo1),
            Verdict::Continue => "no decision yet".to_string(),
        };
        format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr} ({lo:.2}, {hi:.2}) {v}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// Everything about a match but the two players.
#[derive(Clone, Debug)]
pub struct MatchOptions {
    pub games: u32,
    pub tc: TimeControl,
    /// Extra time a timed engine gets on each move before it loses on time.
    pub margin: Duration,
    pub openings: Openings,
    pub board: BoardOptions,
    pub seed: u64,
    pub concurrency: u32,
    pub sprt: Option<Sprt>,
    /// A line per game on stderr.
    pub verbose: bool,
    /// Every line to and from the external engines on stderr (and their stderr).
    pub debug: bool,
}

impl MatchOptions {
    pub fn openings_text(&self) -> String {
        self.openings.describe()
    }
}

impl Default for MatchOptions {
    fn default() -> MatchOptions {
        MatchOptions {
            games: 20,
            tc: TimeControl::MoveTime(Duration::from_millis(50)),
            margin: Duration::from_millis(1000),
            openings: Openings::Random { lo: 4, hi: 4 },
            board: BoardOptions::default(),
            seed: 1,
            concurrency: 1,
            sprt: None,
            verbose: false,
            debug: false,
        }
    }
}

/// The players: A is 0, B is 1.
const NAMES: [&str; 2] = ["A", "B"];

/// How one game ended.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub index: u32,
    pub a_side: Side,
    /// A's result: 1 win, 0 draw, -1 loss.
    pub a_result: i32,
    /// Why it ended, e.g. `x 30-19`, `B forfeits: illegal move: …`.
    pub reason: String,
    /// The player (0 = A, 1 = B) that lost by a fault, and the fault.
    pub fault: Option<(usize, Fault)>,
    pub plies: u32,
    pub record: String,
    /// Time each player (A, B) spent on its moves, and how many moves it was asked for.
    pub think: [(Duration, u32); 2],
}

/// A whole match's results.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    pub tally: Tally,
    /// Games lost by a fault, per player.
    pub faults: [u32; 2],
    pub results: Vec<GameResult>,
    pub verdict: Option<Verdict>,
}

impl MatchSummary {
    /// The average time a move of each player (A, B) took, over the games played.
    pub fn average_move_time(&self) -> [Option<Duration>; 2] {
        let mut out = [None; 2];
        for (who, o) in out.iter_mut().enumerate() {
            let (t, n) = self.results.iter().fold((Duration::ZERO, 0u32), |acc, r| {
                (acc.0 + r.think[who].0, acc.1 + r.think[who].1)
            });
            if n > 0 {
                *o = Some(t / n);
            }
        }
        out
    }
}

/// Plays one game; `players[0]` is A and plays `a_side`.
#[allow(clippy::too_many_arguments)]
pub fn play_game<G: MatchGame>(
    players: &mut [Box<dyn Player<G>>; 2],
    broken: &mut [bool; 2],
    index: u32,
    a_side: Side,
    opening: &Opening<G>,
    opts: &MatchOptions,
    seed: u64,
) -> GameResult {
    let who_plays = |s: Side| if s == a_side { 0 } else { 1 };
    let mut rng = Rng::new(seed);
    let mut result = GameResult {
        index,
        a_side,
        a_result: 0,
        reason: String::new(),
        fault: None,
        plies: 0,
        record: opening.text(),
        think: [(Duration::ZERO, 0); 2],
    };
    let forfeit = |r: &mut GameResult, who: usize, f: Fault| {
        r.a_result = if who == 0 { -1 } else { 1 };
        r.reason = format!("{} forfeits: {f}", NAMES[who]);
        r.fault = Some((who, f));
    };
    // get both players ready; a broken one is restarted first
    for who in 0..2 {
        let ready = if broken[who] {
            players[who].recover()
        } else {
            Ok(())
        }
        .and_then(|_| players[who].new_game(&opening.start));
        match ready {
            Ok(()) => broken[who] = false,
            Err(f) => {
                broken[who] = true;
                forfeit(&mut result, who, f);
                return result;
            }
        }
    }
    let mut pos = opening.position();
    let mut moves = opening.moves.clone();
    let base = match opts.tc {
        TimeControl::Clock { base, .. } => base,
        TimeControl::MoveTime(t) => t,
    };
    let mut left = [base; 2];
    let mut legal = Vec::new();
    let mut played = Vec::new();
    loop {
        if let Some(o) = pos.outcome() {
            result.a_result = match o {
                Outcome::Draw => 0,
                Outcome::Win(s) if s == a_side => 1,
                Outcome::Win(_) => -1,
            };
            result.reason = pos.result_text();
            break;
        }
        if result.plies >= pos.ply_cap() {
            result.a_result = match pos.adjudicate() {
                Outcome::Draw => 0,
                Outcome::Win(s) if s == a_side => 1,
                Outcome::Win(_) => -1,
            };
            result.reason = format!(
                "stopped after {} plies: {}",
                result.plies,
                pos.result_text()
            );
            break;
        }
        let side = pos.side_to_move();
        let who = who_plays(side);
        pos.legal_moves(&mut legal);
        if legal.len() == 1 && Some(legal[0]) == pos.pass_move() {
            // a forced pass: nothing to ask
            let m = legal[0];
            played.push(pos.move_to_text(m));
            pos.make(m);
            moves.push(m);
            result.plies += 1;
            continue;
        }
        let allowed = match opts.tc {
            TimeControl::MoveTime(t) => players[who].allowance(t),
            TimeControl::Clock { .. } => left[side.index()],
        };
        let t0 = Instant::now();
        let req = MoveRequest {
            start: &opening.start,
            moves: &moves,
            pos: &pos,
            tc: opts.tc,
            left,
            deadline: crate::search::deadline_after(t0, allowed.saturating_add(opts.margin)),
            seed: rng.next_u64(),
        };
        let reply = players[who].think(&req);
        let elapsed = t0.elapsed();
        result.think[who].0 += elapsed;
        result.think[who].1 += 1;
        let mv = match reply {
            Err(Fault::Timeout(m)) => {
                broken[who] = true;
                let f = Fault::Timeout(format!(
                    "{m} ({} ms after the request; {} ms allowed + {} ms margin)",
                    elapsed.as_millis(),
                    allowed.as_millis(),
                    opts.margin.as_millis()
                ));
                forfeit(&mut result, who, f);
                break;
            }
            Err(f) => {
                broken[who] = true;
                forfeit(&mut result, who, f);
                break;
            }
            Ok(Reply::Resign) => {
                result.a_result = if who == 0 { -1 } else { 1 };
                result.reason = format!("{} resigns", NAMES[who]);
                break;
            }
            Ok(Reply::Move(m)) => m,
        };
        if !pos.is_legal(mv) {
            broken[who] = true;
            let f = Fault::Illegal(format!("{} in {}", pos.move_to_text(mv), pos.to_text()));
            forfeit(&mut result, who, f);
            break;
        }
        if players[who].timed() && elapsed > allowed + opts.margin {
            broken[who] = true;
            let f = Fault::Time(format!(
                "{} ms for a move with {} ms (+{} ms margin)",
                elapsed.as_millis(),
                allowed.as_millis(),
                opts.margin.as_millis()
            ));
            forfeit(&mut result, who, f);
            break;
        }
        if let TimeControl::Clock { inc, .. } = opts.tc {
            left[side.index()] = left[side.index()].saturating_sub(elapsed) + inc;
        }
        played.push(pos.move_to_text(mv));
        pos.make(mv);
        moves.push(mv);
        result.plies += 1;
    }
    if !played.is_empty() {
        result.record.push_str(" | ");
        result.record.push_str(&played.join(" "));
    }
    result
}

/// Plays the match between `a` and `b` and prints the faults (always) and a line per game
/// (with `verbose`) on stderr. Stops early when the SPRT decides.
pub fn run_match<G: MatchGame>(
    a: &Spec,
    b: &Spec,
    opts: &MatchOptions,
) -> Result<MatchSummary, String> {
    let base = G::match_start(&opts.board)?;
    // the openings, one per pair of games, fixed by the seed
    let mut rng = Rng::new(opts.seed);
    let pairs = opts.games.div_ceil(2) as usize;
    let mut openings: Vec<Opening<G>> = Vec::with_capacity(pairs);
    for i in 0..pairs {
        openings.push(match &opts.openings {
            Openings::Random { lo, hi } => {
                let k = lo + rng.below((hi - lo + 1) as u64) as u32;
                random_moves(&base, k, &mut rng)
            }
            Openings::Lines(lines) => {
                if lines.is_empty() {
                    return Err("the openings file has no openings".into());
                }
                parse_opening(&lines[i % lines.len()], &base)?
            }
        });
    }
    let seeds: Vec<u64> = (0..opts.games).map(|_| rng.next_u64()).collect();
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Result<GameResult, String>>();
    let mut summary = MatchSummary::default();
    std::thread::scope(|scope| -> Result<(), String> {
        for w in 0..opts.concurrency.max(1) {
            let tx = tx.clone();
            let (openings, seeds, next, stop) = (&openings, &seeds, &next, &stop);
            scope.spawn(move || {
                let made = (|| -> Result<[Box<dyn Player<G>>; 2], String> {
                    Ok([
                        G::player(a, &format!("A{w}"), opts.debug)?,
                        G::player(b, &format!("B{w}"), opts.debug)?,
                    ])
                })();
                let mut players = match made {
                    Ok(p) => p,
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                let mut broken = [false; 2];
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= opts.games {
                        break;
                    }
                    let a_side = if g % 2 == 0 { Side::Black } else { Side::White };
                    let r = play_game(
                        &mut players,
                        &mut broken,
                        g,
                        a_side,
                        &openings[g as usize / 2],
                        opts,
                        seeds[g as usize],
                    );
                    if tx.send(Ok(r)).is_err() {
                        break;
                    }
                }
                for p in players.iter_mut() {
                    p.quit();
                }
            });
        }
        drop(tx);
        let mut error = None;
        for msg in rx {
            let r = match msg {
                Ok(r) => r,
                Err(e) => {
                    error.get_or_insert(e);
                    continue;
                }
            };
            let t = &mut summary.tally;
            match r.a_result {
                1 => t.wins += 1,
                0 => t.draws += 1,
                _ => t.losses += 1,
            }
            if let Some((who, f)) = &r.fault {
                summary.faults[*who] += 1;
                let spec = if *who == 0 { a } else { b };
                eprintln!(
                    "game {}: {} ({spec}) loses by a fault: {f}",
                    r.index + 1,
                    NAMES[*who]
                );
            }
            if opts.verbose {
                let res = match r.a_result {
                    1 => "A wins",
                    0 => "draw",
                    _ => "B wins",
                };
                let avg = |who: usize| {
                    let (d, n) = r.think[who];
                    d.as_secs_f64() / n.max(1) as f64
                };
                eprintln!(
                    "game {} A={:?}: {res}, {} after {} plies; W/D/L {}/{}/{}; a move: A {:.2} s, B {:.2} s",
                    r.index + 1,
                    r.a_side,
                    r.reason,
                    r.plies,
                    t.wins,
                    t.draws,
                    t.losses,
                    avg(0),
                    avg(1)
                );
                eprintln!("  {}", r.record);
            }
            summary.results.push(r);
            if let Some(s) = &opts.sprt {
                let v = s.verdict(&summary.tally);
                summary.verdict = Some(v);
                if v != Verdict::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        match error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    })?;
    summary.results.sort_by_key(|r| r.index);
    Ok(summary)
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

/// Searches a fixed set of positions to a fixed depth; returns (nodes, seconds, checksum),
/// the checksum of the searches' results (their best moves and scores), which stays the same
/// as long as the search does.
pub fn bench<G: Tunable>(
    depth: u32,
    positions: u32,
    seed: u64,
    settings: &[(String, i32)],
) -> Result<(u64, f64, u64), String> {
    use std::hash::{Hash, Hasher};
    let mut rng = Rng::new(seed);
    let (mut total, mut checksum) = (0u64, 0u64);
    let t0 = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    for i in 0..positions {
        let pos: G = random_opening(4 + 2 * i, &mut rng);
        let mut eval = G::eval_for_level(6, 0);
        for (k, v) in settings {
            G::tune(&mut eval, k, *v)?;
        }
        let mut s = Searcher::new(eval, 16);
        // through the level's own search (Gomoku's is not the shared framework's)
        let r = G::search_at_level(&mut s, &pos, 6, &Limits::depth(depth), &stop, &mut |_| {});
        total += r.info.nodes;
        // (the standard library's hasher with its fixed keys: the same from run to run)
        let mut h = std::hash::DefaultHasher::new();
        (r.best, r.score).hash(&mut h);
        checksum = checksum.rotate_left(7).wrapping_add(h.finish());
    }
    Ok((total, t0.elapsed().as_secs_f64(), checksum))
}

/// What [`bench_go`] measured: playouts, seconds, and a checksum of the searches' results
/// (their moves and win rates), which stays the same as long as the search is the same.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoBench {
    pub playouts: u64,
    pub seconds: f64,
    pub checksum: u64,
}

/// Go search speed: level 6 on one thread, capped at `playouts` a move (with no clock that
/// binds), from `positions` positions of `size` × `size` reached by random moves (12, 20, 28,
/// ... plies, no passes), each with a fresh tree.
pub fn bench_go(size: u8, playouts: u64, positions: u32, seed: u64) -> Result<GoBench, String> {
    let mut rng = Rng::new(seed);
    let stop = Arc::new(AtomicBool::new(false));
    let (mut total, mut checksum) = (0u64, 0u64);
    let t0 = Instant::now();
    for i in 0..positions {
        let mut pos = Go::new(size, 7.0).map_err(|e| e.0)?;
        let mut moves = Vec::new();
        for _ in 0..12 + 8 * i {
            pos.legal_moves(&mut moves);
            moves.retain(|&m| m != crate::go::PASS);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len() as u64) as usize]);
        }
        let mut cpu = GoCpu::new(6);
        cpu.set_threads(1);
        cpu.set_playouts(Some(playouts));
        let r = cpu.choose(
            &pos,
            Duration::from_secs(3600),
            &stop,
            i as u64 + 1,
            &mut |_| {},
        );
        total += r.info.nodes;
        let mv = r.best.map_or(u64::MAX, |m| m as u64);
        checksum = checksum
            .rotate_left(7)
            .wrapping_add(mv.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ r.score as u64);
    }
    Ok(GoBench {
        playouts: total,
        seconds: t0.elapsed().as_secs_f64(),
        checksum,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configs_parse() {
        let c: Config = "level=3,frontier=5".parse().unwrap();
        assert_eq!(c.level, 3);
        assert_eq!(c.settings, vec![("frontier".to_string(), 5)]);
        assert_eq!(c.to_string(), "level=3,frontier=5");
        assert!("level=9".parse::<Config>().is_err());
        assert!("level".parse::<Config>().is_err());
        assert!("frontier=x".parse::<Config>().is_err());
    }

    #[test]
    fn specs_parse() {
        assert_eq!(
            "level=4".parse::<Spec>().unwrap(),
            Spec::Qi("level=4".parse().unwrap())
        );
        match "uai:./tiktaxx --x 'a b'".parse::<Spec>().unwrap() {
            Spec::External {
                protocol, command, ..
            } => {
                assert_eq!(protocol, Protocol::Uai);
                assert_eq!(command, "./tiktaxx --x 'a b'");
            }
            other => panic!("{other:?}"),
        }
        assert!("gtp:".parse::<Spec>().is_err());
        assert!("ugi:x".parse::<Spec>().is_err());
    }

    #[test]
    fn clocks_and_plies_parse() {
        assert_eq!(
            parse_clock("10+0.1").unwrap(),
            TimeControl::Clock {
                base: Duration::from_secs(10),
                inc: Duration::from_millis(100)
            }
        );
        assert!(parse_clock("0+1").is_err());
        assert!(parse_clock("x").is_err());
        assert_eq!(
            Openings::parse_plies("2-4").unwrap(),
            Openings::Random { lo: 2, hi: 4 }
        );
        assert_eq!(
            Openings::parse_plies("3").unwrap(),
            Openings::Random { lo: 3, hi: 3 }
        );
        assert!(Openings::parse_plies("4-2").is_err());
    }

    #[test]
    fn openings_parse() {
        let base = Ataxx::start();
        let o = parse_opening("f2 b2", &base).unwrap();
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.start, base);
        let o = parse_opening("7/7/7/2x1o2/7/7/7 x 0 1", &base).unwrap();
        assert!(o.moves.is_empty());
        assert_eq!(o.position().to_text(), "7/7/7/2x1o2/7/7/7 x 0 1");
        let o = parse_opening("7/7/7/2x1o2/7/7/7 x 0 1 moves c3", &base).unwrap();
        assert_eq!(o.moves.len(), 1);
        assert!(parse_opening("f2 zz", &base).is_err());
        assert!(parse_opening("a1", &base).is_err(), "not a legal move");
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
        // two games say little: the bound is below zero
        let two = Tally {
            wins: 0,
            draws: 0,
            losses: 2,
        };
        assert_eq!(two.elo_text(), "Elo < +216 (95%)");
    }

    #[test]
    fn sprt_decides() {
        let s: Sprt = "elo0=0,elo1=10,alpha=0.05,beta=0.05".parse().unwrap();
        let (lo, hi) = s.bounds();
        assert!(
            (lo + 2.944).abs() < 0.01 && (hi - 2.944).abs() < 0.01,
            "{lo} {hi}"
        );
        // an even result is evidence for H0 (A not 10 Elo better)
        let even = Tally {
            wins: 4000,
            draws: 2000,
            losses: 4000,
        };
        let l = s.llr(&even).unwrap();
        assert!(l < 0.0, "{l}");
        assert_eq!(s.verdict(&even), Verdict::H0);
        // a clear edge accepts H1
        let strong = Tally {
            wins: 700,
            draws: 200,
            losses: 300,
        };
        assert_eq!(s.verdict(&strong), Verdict::H1);
        // few games decide nothing
        let few = Tally {
            wins: 3,
            draws: 1,
            losses: 2,
        };
        assert_eq!(s.verdict(&few), Verdict::Continue);
        assert_eq!(s.llr(&Tally::default()), None);
        assert!("elo0=5,elo1=1".parse::<Sprt>().is_err());
        assert!("alpha=0.7".parse::<Sprt>().is_err());
    }
}
