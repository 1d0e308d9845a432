//! Helpers shared by the core crate's test files.

#![allow(dead_code)]

use qi_core::any::{AnyPosition, GameHistory};

/// A game from `start` with up to `n` moves: at ply `i` the `pick(i, count)`-th legal move that
/// is not a pass (a pass when it is the only move), so the line is deterministic.
pub fn play_line(
    start: AnyPosition,
    n: usize,
    pick: impl Fn(usize, usize) -> usize,
) -> GameHistory {
    let mut h = GameHistory::new(start);
    for i in 0..n {
        let pos = h.current();
        if pos.outcome().is_some() {
            break;
        }
        let moves = pos.legal_moves();
        let pass = pos.legal_pass();
        let non_pass: Vec<_> = moves.iter().filter(|m| Some(**m) != pass).collect();
        let mv = if non_pass.is_empty() {
            moves[0]
        } else {
            *non_pass[pick(i, non_pass.len()) % non_pass.len()]
        };
        h.play(mv).unwrap();
    }
    h
}

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The `qi-engine` binary of this build.
pub fn engine_path() -> &'static str {
    env!("CARGO_BIN_EXE_qi-engine")
}

/// A child process driven line by line: every read has a time limit, and a process still
/// running when this is dropped is killed, so a test that goes wrong fails instead of hanging.
pub struct Driven {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub seen: Vec<String>,
}

impl Driven {
    /// Starts `program` with `args`; stderr is inherited.
    pub fn start(program: &str, args: &[&str]) -> Driven {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("start {program}: {e}"));
        let stdin = child.stdin.take();
        let out = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(out);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let l = String::from_utf8_lossy(&buf);
                        let l = l.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Driven {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// `qi-engine <args>`.
    pub fn engine(args: &[&str]) -> Driven {
        Driven::start(engine_path(), args)
    }

    /// Writes raw bytes to the child's input.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).expect("write to the child");
        stdin.flush().expect("flush");
    }

    /// Writes a line (with `\n`).
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Closes the child's input (its end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line of output, or a panic after `within`.
    pub fn line(&mut self, within: Duration) -> String {
        match self.lines.recv_timeout(within) {
            Ok(l) => {
                self.seen.push(l.clone());
                l
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!("no output within {within:?}; so far {:?}", self.seen)
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!("the program closed its output; so far {:?}", self.seen)
            }
        }
    }

    /// The next line, `None` if there is none within `within` or the output is closed.
    pub fn try_line(&mut self, within: Duration) -> Option<String> {
        let l = self.lines.recv_timeout(within).ok()?;
        self.seen.push(l.clone());
        Some(l)
    }

    /// Lines up to and including the first that starts with `prefix`, within `within` in all.
    pub fn until(&mut self, prefix: &str, within: Duration) -> Vec<String> {
        let end = Instant::now() + within;
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let l = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(_) => panic!("no '{prefix}' within {within:?}; got {got:?}"),
            };
            self.seen.push(l.clone());
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return got;
            }
        }
    }

    /// Every line until the output closes, within `within`.
    pub fn rest(&mut self, within: Duration) -> Vec<String> {
        let end = Instant::now() + within;
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    got.push(l)
                }
                Err(RecvTimeoutError::Disconnected) => return got,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("the output did not close within {within:?}; got {got:?}")
                }
            }
        }
    }

    /// Waits for the child to exit (its input closed first), killing it and panicking after
    /// `within`.
    pub fn wait(&mut self, within: Duration) -> ExitStatus {
        self.stdin = None;
        wait_child(&mut self.child, within)
    }
}

impl Drop for Driven {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Waits for `child` to exit; kills it and panics after `within`.
pub fn wait_child(child: &mut Child, within: Duration) -> ExitStatus {
    let end = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            return status;
        }
        if Instant::now() >= end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the program did not exit within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `program args` with `input` on its standard input to the end; returns the exit code,
/// stdout and stderr. The process is killed and the test fails after `within`.
pub fn run_with_input(
    program: &str,
    args: &[&str],
    input: &[u8],
    within: Duration,
) -> (Option<i32>, Vec<u8>, String) {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {program}: {e}"));
    let mut stdin = child.stdin.take().expect("piped stdin");
    let bytes = input.to_vec();
    // writing may block until the child reads: a thread of its own
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let status = wait_child(&mut child, within);
    let _ = writer.join();
    let stdout = out_reader.join().unwrap_or_default();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    (status.code(), stdout, stderr)
}

/// `qi-engine args` with no input; (exit code, stdout, stderr), within `within`.
pub fn run_engine(args: &[&str], within: Duration) -> (Option<i32>, String, String) {
    let (code, out, err) = run_with_input(engine_path(), args, b"", within);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// Whether a time `took` keeps to a budget: at most 10% or 20 ms over it, whichever is more.
pub fn within_budget(took: Duration, budget: Duration) -> bool {
    took <= budget + (budget / 10).max(Duration::from_millis(20))
}

/// Runs `attempt` (which returns the time it took against its budget) up to five times and
/// passes if one attempt keeps to the budget ([`within_budget`]): a machine busy with other
/// work can hold up any one run (Reversi's level 6 once missed three in a row at load 5, with
/// the other test binaries' searches on both cores), but a search that ignores its clock fails
/// all five.
pub fn keeps_budget(what: &str, budget: Duration, mut attempt: impl FnMut() -> Duration) {
    let mut times = Vec::new();
    for _ in 0..5 {
        let took = attempt();
        times.push(took);
        if within_budget(took, budget) {
            return;
        }
    }
    panic!("{what}: budget {budget:?}, took {times:?}");
}
