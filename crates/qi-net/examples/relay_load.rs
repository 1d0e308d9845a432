//! Load benchmark of `qi-relay`: many simultaneous games of bounded random moves through one
//! relay process on loopback, every move checked on arrival (none lost, none out of order), and
//! the relay's memory and CPU read from /proc. Not a test: run it by hand.
//!
//! ```text
//! cargo build --release -p qi-net --bins --examples
//! target/release/examples/relay_load [--games 500] [--moves 80] [--interval-ms 100]
//! ```

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use qi_core::GameKind;
use qi_core::any::AnyPosition;
use qi_core::net::protocol::{Message, decode, encode};
use qi_core::rng::Rng;
use qi_net::relay::{RELAY_VERSION, RelayOp, RelayReply, RelayRequest};

#[derive(Default)]
struct Counts {
    sent: AtomicU64,
    received: AtomicU64,
    lost_or_reordered: AtomicU64,
    games_done: AtomicUsize,
    games_failed: AtomicUsize,
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Resident memory (kB) and thread count of a process.
fn mem_threads(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |k: &str| {
        status
            .lines()
            .find(|l| l.starts_with(k))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("Threads:"))
}

/// User + system CPU time of a process, in seconds.
fn cpu_secs(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which ends with ')'): utime is the 14th field overall.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0)
        + f.get(12).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // SAFETY: sysconf has no memory effects.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    ticks / hz
}

fn uptime() -> String {
    Command::new("uptime")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

struct End {
    w: TcpStream,
    r: BufReader<TcpStream>,
}

impl End {
    fn connect(addr: &str) -> std::io::Result<End> {
        let w = TcpStream::connect(addr)?;
        w.set_nodelay(true)?;
        w.set_read_timeout(Some(Duration::from_secs(30)))?;
        let r = BufReader::new(w.try_clone()?);
        Ok(End { w, r })
    }

    fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        self.w.write_all(line.as_bytes())
    }

    fn read_line(&mut self) -> std::io::Result<String> {
        let mut s = String::new();
        if self.r.read_line(&mut s)? == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "closed",
            ));
        }
        Ok(s)
    }

    fn relay(&mut self, req: &RelayRequest) -> std::io::Result<RelayReply> {
        let mut line = serde_json::to_string(req).unwrap();
        line.push('\n');
        self.send_line(&line)?;
        let reply = self.read_line()?;
        serde_json::from_str(&reply).map_err(|e| std::io::Error::other(e.to_string()))
    }
}

/// A host and a joiner paired in a room of the relay.
fn pair(i: usize, addr: &str) -> Result<(End, End), String> {
    let e = |e: std::io::Error| format!("game {i}: {e}");
    let mut host = End::connect(addr).map_err(e)?;
    let room = host
        .relay(&RelayRequest {
            relay: RELAY_VERSION,
            op: RelayOp::Host,
            room: None,
            key: None,
        })
        .map_err(e)?
        .room
        .ok_or(format!("game {i}: no room"))?;
    let mut joiner = End::connect(addr).map_err(e)?;
    let r = joiner
        .relay(&RelayRequest {
            relay: RELAY_VERSION,
            op: RelayOp::Join,
            room: Some(room),
            key: None,
        })
        .map_err(e)?;
    if r.ok.as_deref() != Some("paired") {
        return Err(format!("game {i}: {r:?}"));
    }
    let paired = host.read_line().map_err(e)?;
    if !paired.contains("paired") {
        return Err(format!("game {i}: {paired}"));
    }
    Ok((host, joiner))
}

/// One game of at most `moves` random legal moves, each checked where it arrives.
fn play(
    i: usize,
    ends: (End, End),
    moves: u64,
    interval: Duration,
    c: &Counts,
) -> Result<(), String> {
    let e = |e: std::io::Error| format!("game {i}: {e}");
    let (mut host, mut joiner) = ends;
    let kind = GameKind::ALL[i % 4];
    let mut pos = AnyPosition::start(kind).unwrap();
    let mut rng = Rng::new(i as u64 + 1);
    // Black is the host here.
    for ply in 0..moves {
        if pos.outcome().is_some() {
            break;
        }
        let legal = pos.legal_moves();
        let mv = legal[rng.below_small(legal.len())];
        let text = pos.move_to_text(mv);
        let frame = encode(&Message::Move {
            ply: ply as u32,
            mv: text.clone(),
            spent_ms: ply,
        });
        let (from, to) = if ply % 2 == 0 {
            (&mut host, &mut joiner)
        } else {
            (&mut joiner, &mut host)
        };
        from.send_line(&frame).map_err(e)?;
        c.sent.fetch_add(1, Ordering::Relaxed);
        let got = to.read_line().map_err(e)?;
        c.received.fetch_add(1, Ordering::Relaxed);
        match decode(got.as_bytes()) {
            Ok(Message::Move { ply: p, mv, .. }) if p as u64 == ply && mv == text => {}
            other => {
                c.lost_or_reordered.fetch_add(1, Ordering::Relaxed);
                return Err(format!("game {i}: sent move {ply} {text}, got {other:?}"));
            }
        }
        pos.play(mv).map_err(|x| format!("game {i}: {x}"))?;
        std::thread::sleep(interval);
    }
    Ok(())
}

fn main() {
    let games = arg("--games", 500) as usize;
    let moves = arg("--moves", 80);
    let interval = Duration::from_millis(arg("--interval-ms", 100));
    let exe = std::env::current_exe().unwrap();
    let relay_bin = exe.parent().unwrap().parent().unwrap().join("qi-relay");
    println!("before: {}", uptime());
    let mut relay = Command::new(&relay_bin)
        .args(["--bind", "127.0.0.1", "--port", "0", "--stats-every", "0"])
        .args(["--max-connections", &(2 * games + 16).to_string()])
        .args(["--max-rooms", &(games + 16).to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {}: {e} (build it: cargo build --release -p qi-net --bins)",
                relay_bin.display()
            )
        });
    let pid = relay.id();
    let mut first = String::new();
    BufReader::new(relay.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = first.trim().rsplit(' ').next().unwrap().to_string();
    println!(
        "relay pid {pid} at {addr}; idle: {:?} (RSS kB, threads)",
        mem_threads(pid)
    );

    let counts = Arc::new(Counts::default());
    let barrier = Arc::new(Barrier::new(games + 1));
    let t0 = Instant::now();
    let mut handles = Vec::new();
    for i in 0..games {
        let (addr, c, b) = (addr.clone(), counts.clone(), barrier.clone());
        handles.push(
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || {
                    let ends = pair(i, &addr);
                    // Every game is paired before any plays (a failed pairing waits too).
                    b.wait();
                    let r = ends.and_then(|ends| play(i, ends, moves, interval, &c));
                    match &r {
                        Ok(()) => c.games_done.fetch_add(1, Ordering::Relaxed),
                        Err(_) => c.games_failed.fetch_add(1, Ordering::Relaxed),
                    };
                    r
                })
                .unwrap(),
        );
    }
    barrier.wait();
    let paired_in = t0.elapsed();
    let cpu0 = cpu_secs(pid);
    let t1 = Instant::now();
    let (rss_paired, threads_paired) = mem_threads(pid);
    println!(
        "{games} games paired in {paired_in:.2?}: relay RSS {rss_paired} kB, {threads_paired} threads"
    );
    let mut peak = rss_paired;
    while counts.games_done.load(Ordering::Relaxed) + counts.games_failed.load(Ordering::Relaxed)
        < games
    {
        std::thread::sleep(Duration::from_millis(500));
        peak = peak.max(mem_threads(pid).0);
    }
    let play = t1.elapsed();
    let cpu = cpu_secs(pid) - cpu0;
    let errors: Vec<String> = handles
        .into_iter()
        .filter_map(|h| h.join().unwrap().err())
        .collect();
    println!(
        "played in {play:.2?}: {} moves sent, {} received, {} lost or out of order; {} games done, {} failed",
        counts.sent.load(Ordering::Relaxed),
        counts.received.load(Ordering::Relaxed),
        counts.lost_or_reordered.load(Ordering::Relaxed),
        counts.games_done.load(Ordering::Relaxed),
        counts.games_failed.load(Ordering::Relaxed),
    );
    for e in errors.iter().take(10) {
        println!("  {e}");
    }
    println!(
        "relay: peak RSS {peak} kB, CPU {cpu:.2} s over {:.1} s of play ({:.1}% of one core), {:.0} moves/s",
        play.as_secs_f64(),
        100.0 * cpu / play.as_secs_f64(),
        counts.received.load(Ordering::Relaxed) as f64 / play.as_secs_f64()
    );
    println!("after: {}", uptime());
    let _ = relay.kill();
    let _ = relay.wait();
    if !errors.is_empty() || counts.lost_or_reordered.load(Ordering::Relaxed) > 0 {
        std::process::exit(1);
    }
}
