//! External engines for `qi-engine match`: a child process spoken to through its protocol
//! (UAI for Ataxx, NBoard for Reversi, GTP for Go, Gomocup for Gomoku).
//!
//! Every read from a child has a deadline, so a silent or hung engine cannot stall a match: the
//! referee gets a [`Fault`] instead and the engine loses that game. The protocols are spoken
//! statelessly where they allow it (UAI sends the whole game with each `position`, NBoard the
//! whole GGF game, Gomocup the whole board with `BOARD`), GTP by replaying the moves the
//! engine has not seen yet.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::ataxx::Ataxx;
use crate::game::{Cell, Game, Side, Square};
use crate::go::Go;
use crate::gomoku::{Gomoku, GomokuRule};
use crate::reversi::Reversi;

use super::matches::{MoveRequest, Player, Reply, TimeControl};

/// How long an engine may take to start up or to answer a command that is not a move.
pub const SETUP_TIMEOUT: Duration = Duration::from_secs(10);

/// What went wrong with an engine; it loses the game it happened in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No (usable) answer before the deadline.
    Timeout(String),
    /// The process ended or its pipes closed.
    Crash(String),
    /// An answer that is not what the protocol allows (or a move that cannot be read).
    Garbage(String),
    /// A move that the rules do not allow here.
    Illegal(String),
    /// It used more time than it had.
    Time(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Timeout(m) => write!(f, "no answer in time: {m}"),
            Fault::Crash(m) => write!(f, "crashed: {m}"),
            Fault::Garbage(m) => write!(f, "garbage: {m}"),
            Fault::Illegal(m) => write!(f, "illegal move: {m}"),
            Fault::Time(m) => write!(f, "lost on time: {m}"),
        }
    }
}

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uai,
    Nboard,
    Gtp,
    Gomocup,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uai => "uai",
            Protocol::Nboard => "nboard",
            Protocol::Gtp => "gtp",
            Protocol::Gomocup => "gomocup",
        }
    }
}

/// A running engine process: its stdin, and its stdout lines arriving through a reader
/// thread so that every read can have a deadline.
pub struct Child {
    label: String,
    proc: std::process::Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    debug: bool,
}

impl Child {
    /// Starts `cmd` (split like a shell would, without running a shell); stderr is dropped.
    pub fn spawn(label: &str, cmd: &str, debug: bool) -> Result<Child, String> {
        let argv = shlex::split(cmd).ok_or_else(|| format!("cannot split command '{cmd}'"))?;
        let (prog, args) = argv
            .split_first()
            .ok_or_else(|| format!("empty engine command for {label}"))?;
        let mut proc = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if debug {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| format!("cannot start '{cmd}': {e}"))?;
        let stdin = proc.stdin.take();
        let stdout = proc.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\r', '\n'])
                            .to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Child {
            label: label.to_string(),
            proc,
            stdin,
            lines,
            debug,
        })
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        if self.debug {
            eprintln!("{} < {line}", self.label);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Fault::Crash("its input is closed".into()));
        };
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|e| Fault::Crash(format!("writing '{line}': {e}{}", self.exit_text())))
    }

    fn exit_text(&mut self) -> String {
        match self.proc.try_wait() {
            Ok(Some(status)) => format!(" (exited: {status})"),
            _ => String::new(),
        }
    }

    /// The next line, or a fault at the deadline or when the engine's output ends.
    pub fn recv(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                if self.debug {
                    eprintln!("{} > {line}", self.label);
                }
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout(format!(
                "the deadline passed waiting for {waiting_for}"
            ))),
            Err(RecvTimeoutError::Disconnected) => {
                // give the process a moment to be reaped so that its status can be shown
                std::thread::sleep(Duration::from_millis(20));
                Err(Fault::Crash(format!(
                    "output ended while waiting for {waiting_for}{}",
                    self.exit_text()
                )))
            }
        }
    }

    /// Reads lines until one for which `want` returns `Some`, skipping the others.
    pub fn recv_until<T>(
        &mut self,
        deadline: Instant,
        waiting_for: &str,
        mut want: impl FnMut(&str) -> Option<Result<T, Fault>>,
    ) -> Result<T, Fault> {
        loop {
            let line = self.recv(deadline, waiting_for)?;
            if let Some(r) = want(line.trim()) {
                return r;
            }
        }
    }

    /// Asks the engine to quit (`quit_line`), then kills it if it has not ended soon.
    pub fn close(&mut self, quit_line: &str) {
        if self.proc.try_wait().ok().flatten().is_none() {
            let _ = self.send(quit_line);
            self.stdin = None;
            let t = Instant::now() + Duration::from_millis(500);
            while Instant::now() < t {
                if self.proc.try_wait().ok().flatten().is_some() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        let _ = self.proc.kill();
        let _ = self.proc.wait();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.proc.kill();
        let _ = self.proc.wait();
    }
}

/// The part shared by the protocol players: the command, its set-up lines and the process.
struct Proc {
    label: String,
    cmd: String,
    init: Vec<String>,
    debug: bool,
    child: Option<Child>,
}

impl Proc {
    fn new(label: &str, cmd: &str, init: &[String], debug: bool) -> Proc {
        Proc {
            label: label.to_string(),
            cmd: cmd.to_string(),
            init: init.to_vec(),
            debug,
            child: None,
        }
    }

    fn child(&mut self) -> Result<&mut Child, Fault> {
        self.child
            .as_mut()
            .ok_or_else(|| Fault::Crash("not running".into()))
    }

    fn spawn(&mut self) -> Result<&mut Child, Fault> {
        let c = Child::spawn(&self.label, &self.cmd, self.debug).map_err(Fault::Crash)?;
        self.child = Some(c);
        self.child()
    }
}

fn setup_deadline() -> Instant {
    Instant::now() + SETUP_TIMEOUT
}

/// Reads the engine's move token as a move of `pos`.
fn read_move<G: Game>(pos: &G, token: &str) -> Result<G::Move, Fault> {
    pos.parse_move(token)
        .map_err(|e| Fault::Garbage(format!("move '{token}': {e}")))
}

// ---------------------------------------------------------------------------------------------
// UAI (Ataxx)

/// An Ataxx engine over UAI: `uai`/`uaiok`, the set-up lines, `isready`/`readyok`; each move
/// `position fen <start> moves …` and `go movetime N` or `go wtime … btime … winc … binc …`,
/// answered by `bestmove <move>`.
pub struct UaiPlayer {
    p: Proc,
}

impl UaiPlayer {
    pub fn start(label: &str, cmd: &str, init: &[String], debug: bool) -> Result<Self, Fault> {
        let mut me = UaiPlayer {
            p: Proc::new(label, cmd, init, debug),
        };
        me.handshake()?;
        Ok(me)
    }

    fn handshake(&mut self) -> Result<(), Fault> {
        let init = self.p.init.clone();
        let c = self.p.spawn()?;
        let d = setup_deadline();
        c.send("uai")?;
        c.recv_until(d, "uaiok", |l| (l == "uaiok").then_some(Ok(())))?;
        for line in &init {
            c.send(line)?;
        }
        c.send("isready")?;
        c.recv_until(d, "readyok", |l| (l == "readyok").then_some(Ok(())))
    }
}

impl Player<Ataxx> for UaiPlayer {
    fn name(&self) -> String {
        format!("uai:{}", self.p.cmd)
    }

    fn timed(&self) -> bool {
        true
    }

    fn new_game(&mut self, _start: &Ataxx) -> Result<(), Fault> {
        let c = self.p.child()?;
        c.send("uainewgame")?;
        c.send("isready")?;
        c.recv_until(setup_deadline(), "readyok", |l| {
            (l == "readyok").then_some(Ok(()))
        })
    }

    fn think(&mut self, req: &MoveRequest<Ataxx>) -> Result<Reply<Ataxx>, Fault> {
        let mut position = format!("position fen {}", req.start.to_text());
        if !req.moves.is_empty() {
            position.push_str(" moves");
            let mut p = *req.start;
            for &m in req.moves {
                position.push(' ');
                position.push_str(&p.move_to_text(m));
                p.make(m);
            }
        }
        let go = match req.tc {
            TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis().max(1)),
            TimeControl::Clock { inc, .. } => format!(
                "go btime {} wtime {} binc {} winc {}",
                req.left[0].as_millis(),
                req.left[1].as_millis(),
                inc.as_millis(),
                inc.as_millis()
            ),
        };
        let c = self.p.child()?;
        c.send(&position)?;
        c.send(&go)?;
        let pos = req.pos;
        c.recv_until(req.deadline, "bestmove", |l| {
            let mut w = l.split_whitespace();
            if w.next() != Some("bestmove") {
                return None;
            }
            Some(match w.next() {
                Some(t) => read_move(pos, t).map(Reply::Move),
                None => Err(Fault::Garbage("'bestmove' without a move".into())),
            })
        })
    }

    fn recover(&mut self) -> Result<(), Fault> {
        if let Some(mut c) = self.p.child.take() {
            c.close("quit");
        }
        self.handshake()
    }

    fn quit(&mut self) {
        if let Some(mut c) = self.p.child.take() {
            c.close("quit");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// NBoard (Reversi)

/// A Reversi engine over NBoard: `nboard 2`, the set-up lines (e.g. `set depth 10`), a
/// `ping`/`pong` to synchronise; each move `set game <GGF>` and `go`, answered by
/// `=== <move>[/eval/time]`. The clock (when there is one) goes into the GGF's `TI[]`.
pub struct NboardPlayer {
    p: Proc,
    pings: u32,
}

impl NboardPlayer {
    pub fn start(label: &str, cmd: &str, init: &[String], debug: bool) -> Result<Self, Fault> {
        let mut me = NboardPlayer {
            p: Proc::new(label, cmd, init, debug),
            pings: 0,
        };
        me.handshake()?;
        Ok(me)
    }

    fn handshake(&mut self) -> Result<(), Fault> {
        let init = self.p.init.clone();
        self.p.spawn()?;
        let c = self.p.child()?;
        c.send("nboard 2")?;
        for line in &init {
            c.send(line)?;
        }
        self.sync()
    }

    fn sync(&mut self) -> Result<(), Fault> {
        self.pings += 1;
        let n = self.pings;
        let c = self.p.child()?;
        c.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        c.recv_until(setup_deadline(), &want.clone(), |l| {
            (l == want).then_some(Ok(()))
        })
    }
}

/// The GGF record of a Reversi game from `start` through `moves`, with `secs` on the clock.
pub fn ggf(start: &Reversi, moves: &[crate::reversi::Move], secs: Option<u64>) -> String {
    let text = start.to_text();
    let (board, side) = text.split_once(' ').unwrap_or((&text, "X"));
    let conv = |c: char| match c {
        'X' => '*',
        other => other,
    };
    let board: String = board.chars().map(conv).collect();
    let side: String = side.chars().map(conv).collect();
    let mut s = String::from("(;GM[Othello]PC[qi-engine]PB[?]PW[?]RE[?]");
    if let Some(t) = secs {
        s.push_str(&format!("TI[{}:{:02}]", t / 60, t % 60));
    }
    s.push_str(&format!("TY[8]BO[8 {board} {side}]"));
    let mut p = *start;
    for &m in moves {
        let tag = if p.side_to_move() == Side::Black {
            'B'
        } else {
            'W'
        };
        let t = if Some(m) == p.pass_move() {
            "PA".to_string()
        } else {
            p.move_to_text(m)
        };
        s.push_str(&format!("{tag}[{t}]"));
        p.make(m);
    }
    s.push_str(";)");
    s
}

impl Player<Reversi> for NboardPlayer {
    fn name(&self) -> String {
        format!("nboard:{}", self.p.cmd)
    }

    fn timed(&self) -> bool {
        true
    }

    fn new_game(&mut self, _start: &Reversi) -> Result<(), Fault> {
        self.sync()
    }

    fn think(&mut self, req: &MoveRequest<Reversi>) -> Result<Reply<Reversi>, Fault> {
        let secs = match req.tc {
            TimeControl::MoveTime(_) => None,
            TimeControl::Clock { .. } => Some(req.left[req.pos.side_to_move().index()].as_secs()),
        };
        let game = ggf(req.start, req.moves, secs);
        let c = self.p.child()?;
        c.send(&format!("set game {game}"))?;
        c.send("go")?;
        let pos = req.pos;
        c.recv_until(req.deadline, "=== <move>", |l| {
            let rest = l.strip_prefix("===")?;
            let t = rest.trim().split('/').next().unwrap_or("").trim();
            Some(read_move(pos, t).map(Reply::Move))
        })
    }

    fn recover(&mut self) -> Result<(), Fault> {
        if let Some(mut c) = self.p.child.take() {
            c.close("quit");
        }
        self.handshake()
    }

    fn quit(&mut self) {
        if let Some(mut c) = self.p.child.take() {
            c.close("quit");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// GTP (Go)

/// A Go engine over GTP 2: `protocol_version`, the set-up lines; each game `boardsize`,
/// `komi`, `clear_board`, `time_settings`; before each `genmove` the moves it has not seen as
/// `play`. Games are scored by the core's area count with every stone alive, so an engine that
/// knows `kgs-genmove_cleanup` is asked with it (it then captures dead stones before passing).
pub struct GtpPlayer {
    p: Proc,
    cleanup: bool,
    /// How many of the game's moves (from the empty board) the engine has been told.
    synced: usize,
}

impl GtpPlayer {
    pub fn start(label: &str, cmd: &str, init: &[String], debug: bool) -> Result<Self, Fault> {
        let mut me = GtpPlayer {
            p: Proc::new(label, cmd, init, debug),
            cleanup: false,
            synced: 0,
        };
        me.handshake()?;
        Ok(me)
    }

    fn handshake(&mut self) -> Result<(), Fault> {
        self.p.spawn()?;
        self.command("protocol_version", setup_deadline())?;
        for line in self.p.init.clone() {
            self.command(&line, setup_deadline())?;
        }
        self.cleanup =
            self.command("known_command kgs-genmove_cleanup", setup_deadline())? == "true";
        Ok(())
    }

    /// Sends a command and returns the text of its `=` answer; `?` is a fault.
    fn command(&mut self, cmd: &str, deadline: Instant) -> Result<String, Fault> {
        let c = self.p.child()?;
        c.send(cmd)?;
        let mut reply: Vec<String> = Vec::new();
        loop {
            let line = c.recv(deadline, &format!("the answer to '{cmd}'"))?;
            let t = line.trim();
            if reply.is_empty() {
                if t.is_empty() {
                    continue;
                }
                if !t.starts_with('=') && !t.starts_with('?') {
                    return Err(Fault::Garbage(format!("'{t}' in answer to '{cmd}'")));
                }
                reply.push(t.to_string());
            } else if t.is_empty() {
                break;
            } else {
                reply.push(t.to_string());
            }
        }
        let text = reply.join("\n");
        let body = text[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim();
        if text.starts_with('?') {
            return Err(Fault::Garbage(format!("'{cmd}' was refused: {body}")));
        }
        Ok(body.to_string())
    }
}

fn gtp_colour(s: Side) -> &'static str {
    match s {
        Side::Black => "b",
        Side::White => "w",
    }
}

impl Player<Go> for GtpPlayer {
    fn name(&self) -> String {
        format!("gtp:{}", self.p.cmd)
    }

    fn timed(&self) -> bool {
        true
    }

    fn allowance(&self, t: Duration) -> Duration {
        // GTP counts whole seconds
        Duration::from_secs(t.as_millis().div_ceil(1000).max(1) as u64)
    }

    fn new_game(&mut self, start: &Go) -> Result<(), Fault> {
        if start.history_len() > 1 || start.piece_counts() != [0, 0] {
            return Err(Fault::Garbage(
                "a GTP game must start from the empty board (give openings as moves)".into(),
            ));
        }
        let d = setup_deadline();
        self.command(&format!("boardsize {}", start.size()), d)?;
        self.command(&format!("komi {}", start.komi()), d)?;
        self.command("clear_board", d)?;
        self.synced = 0;
        Ok(())
    }

    fn think(&mut self, req: &MoveRequest<Go>) -> Result<Reply<Go>, Fault> {
        if self.synced == 0 {
            let d = setup_deadline();
            match req.tc {
                TimeControl::MoveTime(t) => {
                    let s = self.allowance(t).as_secs();
                    self.command(&format!("time_settings 0 {s} 1"), d)?;
                }
                TimeControl::Clock { base, .. } => {
                    self.command(&format!("time_settings {} 0 0", base.as_secs()), d)?;
                }
            }
        }
        let mut p = req.start.clone();
        for (i, &m) in req.moves.iter().enumerate() {
            if i >= self.synced {
                let cmd = format!(
                    "play {} {}",
                    gtp_colour(p.side_to_move()),
                    p.move_to_text(m)
                );
                self.command(&cmd, setup_deadline())?;
            }
            p.make(m);
        }
        self.synced = req.moves.len();
        let side = req.pos.side_to_move();
        if let TimeControl::Clock { .. } = req.tc {
            let left = req.left[side.index()].as_secs();
            self.command(
                &format!("time_left {} {left} 0", gtp_colour(side)),
                setup_deadline(),
            )?;
        }
        let verb = if self.cleanup {
            "kgs-genmove_cleanup"
        } else {
            "genmove"
        };
        let answer = self.command(&format!("{verb} {}", gtp_colour(side)), req.deadline)?;
        // the engine has played its move on its own board
        self.synced += 1;
        if answer.eq_ignore_ascii_case("resign") {
            return Ok(Reply::Resign);
        }
        read_move(req.pos, &answer).map(Reply::Move)
    }

    fn recover(&mut self) -> Result<(), Fault> {
        if let Some(mut c) = self.p.child.take() {
            c.close("quit");
        }
        self.handshake()
    }

    fn quit(&mut self) {
        if let Some(mut c) = self.p.child.take() {
            c.close("quit");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Gomocup (Gomoku)

/// A Gomoku engine over the Gomocup protocol: each game `START n` (`OK`), `INFO rule`, the
/// time as `INFO timeout_turn/timeout_match/time_left`, the set-up lines (more `INFO`s); each
/// move the whole board as `BOARD` … `DONE` (1 = the engine's stones, 2 = the opponent's),
/// answered by `x,y`. `MESSAGE`/`DEBUG` lines are skipped; `ERROR` or `UNKNOWN` is a fault.
pub struct GomocupPlayer {
    p: Proc,
}

impl GomocupPlayer {
    pub fn start(label: &str, cmd: &str, init: &[String], debug: bool) -> Result<Self, Fault> {
        let mut p = Proc::new(label, cmd, init, debug);
        p.spawn()?;
        Ok(GomocupPlayer { p })
    }

    fn expect_ok(&mut self, cmd: &str) -> Result<(), Fault> {
        let c = self.p.child()?;
        c.send(cmd)?;
        c.recv_until(setup_deadline(), &format!("OK to '{cmd}'"), |l| {
            let w = l
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            match w.as_str() {
                "OK" => Some(Ok(())),
                "ERROR" | "UNKNOWN" => Some(Err(Fault::Garbage(format!("'{l}' to '{cmd}'")))),
                _ => None,
            }
        })
    }
}

fn gomocup_rule(r: GomokuRule) -> u32 {
    match r {
        GomokuRule::Freestyle => 0,
        GomokuRule::Standard => 1,
        GomokuRule::Renju => 4,
    }
}

impl Player<Gomoku> for GomocupPlayer {
    fn name(&self) -> String {
        format!("gomocup:{}", self.p.cmd)
    }

    fn timed(&self) -> bool {
        true
    }

    fn new_game(&mut self, start: &Gomoku) -> Result<(), Fault> {
        self.expect_ok(&format!("START {}", start.size()))?;
        let c = self.p.child()?;
        c.send(&format!("INFO rule {}", gomocup_rule(start.rule())))?;
        for line in self.p.init.clone() {
            self.p.child()?.send(&line)?;
        }
        Ok(())
    }

    fn think(&mut self, req: &MoveRequest<Gomoku>) -> Result<Reply<Gomoku>, Fault> {
        let me = req.pos.side_to_move();
        let mut lines = Vec::new();
        match req.tc {
            TimeControl::MoveTime(t) => {
                lines.push(format!("INFO timeout_turn {}", t.as_millis()));
                lines.push("INFO timeout_match 0".to_string());
            }
            TimeControl::Clock { base, .. } => {
                let left = req.left[me.index()].as_millis();
                lines.push(format!("INFO timeout_turn {left}"));
                lines.push(format!("INFO timeout_match {}", base.as_millis()));
                lines.push(format!("INFO time_left {left}"));
            }
        }
        lines.push("BOARD".to_string());
        let who = |s: Side| if s == me { 1 } else { 2 };
        let (n, _) = req.start.dimensions();
        for y in 0..n {
            for x in 0..n {
                if let Cell::Piece(s) = req.start.cell(Square::new(x, y)) {
                    lines.push(format!("{},{},{}", x, n - 1 - y, who(s)));
                }
            }
        }
        let mut p = req.start.clone();
        for &m in req.moves {
            let s = p.side_to_move();
            lines.push(format!("{},{}", p.to_gomocup(m), who(s)));
            p.make(m);
        }
        lines.push("DONE".to_string());
        let c = self.p.child()?;
        for l in &lines {
            c.send(l)?;
        }
        let pos = req.pos;
        c.recv_until(req.deadline, "x,y", |l| {
            let w = l
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            match w.as_str() {
                "MESSAGE" | "DEBUG" | "SUGGEST" | "OK" | "" => None,
                "ERROR" | "UNKNOWN" => Some(Err(Fault::Garbage(format!("'{l}'")))),
                _ => Some(
                    pos.parse_gomocup(l)
                        .map(Reply::Move)
                        .map_err(|e| Fault::Garbage(format!("move '{l}': {e}"))),
                ),
            }
        })
    }

    fn recover(&mut self) -> Result<(), Fault> {
        if let Some(mut c) = self.p.child.take() {
            c.close("END");
        }
        self.p.spawn()?;
        Ok(())
    }

    fn quit(&mut self) {
        if let Some(mut c) = self.p.child.take() {
            c.close("END");
        }
    }
}
