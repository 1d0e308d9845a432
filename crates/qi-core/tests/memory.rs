//! Memory: what long games and big records cost, measured with a counting allocator (this test
//! file has a single test, so nothing else allocates while it measures).
//!
//! GTP's undo list and `GameHistory` once kept a whole position per move, and a Go position
//! carries its whole superko history: memory grew with the square of the game's length
//! (a 160 KB record of 20,000 passes took 2.2 GB through GTP `loadsgf`). Now they keep the
//! moves and a position every `CHECKPOINT_EVERY` plies.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

mod common;

use qi_core::GameKind;
use qi_core::any::AnyPosition;
use qi_core::engine::gtp::GtpEngine;
use qi_core::records::{MAX_RECORD_BYTES, import_text};
use qi_core::saves::{Clocks, PlayerInfo, SaveGame};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call goes straight to the system allocator; the counters only watch.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            grew(l.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(l) };
        if !p.is_null() {
            grew(l.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new_size) };
        if !q.is_null() {
            LIVE.fetch_sub(l.size(), Ordering::Relaxed);
            grew(new_size);
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const MB: usize = 1 << 20;

/// Runs `f`; returns its result, the bytes it left allocated and the most it had allocated at
/// once (both over what was live before).
fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    let after = LIVE.load(Ordering::Relaxed);
    let peak = PEAK.load(Ordering::Relaxed);
    (out, after.saturating_sub(before), peak - before)
}

#[test]
fn long_games_and_big_records_stay_small() {
    // GTP: 4,000 passes (GTP plays on after two passes). Before: a 30 KB position plus its
    // history per move, about 190 MB.
    let mut e = GtpEngine::new();
    let (_, kept, peak) = measure(|| {
        for i in 0..4000 {
            let c = if i % 2 == 0 { "b" } else { "w" };
            assert_eq!(e.handle_line(&format!("play {c} pass")).unwrap(), "=\n\n");
        }
    });
    eprintln!(
        "GTP, 4000 passes: {} KB kept, {} KB at most",
        kept / 1024,
        peak / 1024
    );
    assert!(kept < 12 * MB, "{kept} bytes for 4000 moves");
    assert!(peak < 16 * MB, "{peak} bytes at most");
    // and undo still goes all the way back
    for _ in 0..4000 {
        assert_eq!(e.handle_line("undo").unwrap(), "=\n\n");
    }
    assert!(e.handle_line("undo").unwrap().starts_with('?'));
    drop(e);

    // GameHistory (the app, saves, records): a long Go game on 19x19
    let start = AnyPosition::from_text(
        GameKind::Go,
        &format!("19 7.5 b {}", ["..................."; 19].join("/")),
    )
    .unwrap();
    let (h, kept, _) = measure(|| common::play_line(start, 3000, |i, n| (i * 7919 + 17) % n));
    let n = h.ply();
    eprintln!("GameHistory, {n} Go moves: {} KB kept", kept / 1024);
    assert!(n >= 1000, "the game ended after {n} moves");
    // before: n positions of 30 KB and their histories
    assert!(kept < 4 * MB, "{kept} bytes for {n} moves");
    // a save of it loads into as little
    let save = SaveGame::new(
        &h,
        [PlayerInfo::human("a"), PlayerInfo::human("b")],
        Clocks::default(),
    );
    let text = save.to_ron().unwrap();
    drop(h);
    let (loaded, kept, peak) = measure(|| SaveGame::load_text(&text).unwrap());
    eprintln!(
        "loading it: {} KB kept, {} KB at most",
        kept / 1024,
        peak / 1024
    );
    assert_eq!(loaded.history.ply(), n);
    assert!(peak < 8 * MB, "{peak} bytes at most");
    drop(loaded);

    // a record at the size cap (a comment of nearly 8 MiB) is read with a few times its size;
    // one byte over the cap is refused before anything is parsed
    let head = "(;GM[1]FF[4]SZ[9]C[";
    let tail = "];B[ee];W[cc])";
    let body = "x".repeat(MAX_RECORD_BYTES - head.len() - tail.len());
    let text = format!("{head}{body}{tail}");
    assert_eq!(text.len(), MAX_RECORD_BYTES);
    let (rec, _, peak) = measure(|| import_text(&text).unwrap());
    eprintln!("an 8 MiB record: {} MB at most", peak / MB);
    assert_eq!(rec.moves, ["E5", "C7"]);
    assert!(peak < 12 * MAX_RECORD_BYTES, "{peak} bytes at most");
    drop(rec);
    let over = format!("{head}x{body}{tail}");
    let (r, _, peak) = measure(|| import_text(&over));
    assert!(matches!(
        r,
        Err(qi_core::records::RecordError::TooBig { .. })
    ));
    assert!(peak < MB, "{peak} bytes to refuse it");
}
