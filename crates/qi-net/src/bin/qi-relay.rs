//! `qi-relay`: the room-code relay for Qi's online games. Anyone can run one:
//! `qi-relay --port 7477`. See the README's "Online play" section.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use clap::Parser;
use qi_net::relay::{DEFAULT_RELAY_PORT, Relay, RelayConfig};

#[derive(Parser)]
#[command(
    name = "qi-relay",
    about = "Pairs Qi players by room code and forwards their game"
)]
struct Args {
    /// TCP port to listen on.
    #[arg(long, default_value_t = DEFAULT_RELAY_PORT)]
    port: u16,
    /// Address to listen on.
    #[arg(long, default_value = "0.0.0.0")]
    bind: IpAddr,
    /// Most connections at once.
    #[arg(long, default_value_t = 4096)]
    max_connections: usize,
    /// Most rooms at once.
    #[arg(long, default_value_t = 4096)]
    max_rooms: usize,
    /// Lines a second a connection may send on average.
    #[arg(long, default_value_t = 20)]
    frames_per_sec: u32,
    /// Seconds of silence before a paired connection is closed.
    #[arg(long, default_value_t = 60)]
    idle_timeout: u64,
    /// Print the counters every this many seconds (0: never).
    #[arg(long, default_value_t = 60)]
    stats_every: u64,
}

fn main() {
    let args = Args::parse();
    let config = RelayConfig {
        max_connections: args.max_connections,
        max_rooms: args.max_rooms,
        frames_per_sec: args.frames_per_sec,
        idle_timeout: Duration::from_secs(args.idle_timeout.max(1)),
        ..RelayConfig::default()
    };
    let relay = match Relay::start(SocketAddr::new(args.bind, args.port), config) {
        Ok(r) => r,
        Err(e) => {
            eprintln!(
                "qi-relay: cannot listen on {}:{}: {e}",
                args.bind, args.port
            );
            std::process::exit(1);
        }
    };
    println!("qi-relay: listening on {}", relay.addr());
    if args.stats_every > 0 {
        let stats = relay.stats();
        let every = Duration::from_secs(args.stats_every);
        let start = Instant::now();
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(every);
                let s = stats.snapshot();
                println!(
                    "qi-relay: {:>6} s up, {} connections ({} in all), {} rooms, {} games paired, {} lines forwarded, {} refused",
                    start.elapsed().as_secs(),
                    s.connections,
                    s.connections_total,
                    s.rooms,
                    s.paired,
                    s.frames,
                    s.refused
                );
            }
        });
    }
    relay.wait();
}
