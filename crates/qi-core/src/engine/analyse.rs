//! `qi-engine analyse FILE [--budget ms] [--write OUT]`: the window's whole-game analysis as a
//! table, so that it can be checked and scripted.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::analysis::{self, GameAnalysis};
use crate::records;

pub fn run(file: &Path, budget_ms: u64, write: Option<&Path>) -> Result<(), String> {
    let mut record = records::import_file(file)?;
    let history = record.history().map_err(|e| e.to_string())?;
    let start = history.start().clone();
    let moves = history.all_moves().to_vec();
    let stop = Arc::new(AtomicBool::new(false));
    let began = Instant::now();
    let mut err = std::io::stderr();
    let analysis = analysis::analyse(
        &start,
        &moves,
        Duration::from_millis(budget_ms),
        &stop,
        &mut |done, total| {
            let _ = write!(err, "\ranalysed {done}/{total} positions");
            let _ = err.flush();
        },
    )
    .map_err(|e| e.to_string())?
    .ok_or("the analysis was stopped")?;
    eprintln!(" in {:.1} s", began.elapsed().as_secs_f64());
    if let Some(line) = opening_line(&start, &moves) {
        println!("{line}");
    }
    print!("{}", table(&analysis));
    if let Some(out) = write {
        analysis.write_comments(&mut record.comments);
        record.export_file(out).map_err(|e| e.to_string())?;
        eprintln!("written with its analysis: {}", out.display());
    }
    Ok(())
}

/// "opening: Tiger (move 5)": the last named opening (Go: joseki) the game reached.
pub fn opening_line(
    start: &crate::any::AnyPosition,
    moves: &[crate::any::AnyMove],
) -> Option<String> {
    let book = crate::openings::book(start.kind())?;
    let r = book.recognise(start, moves)?;
    let names: Vec<&str> = book
        .names_to(r.node)
        .iter()
        .map(|n| n.en.as_str())
        .collect();
    Some(format!("opening: {} (move {})", names.join(" > "), r.ply))
}

/// The per-move table and the summary.
pub fn table(a: &GameAnalysis) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:>4}  {:<5}  {:<6}  {:<6}  {:>10}  {:>10}  {:>8}  {}\n",
        "move", "side", "played", "best", "before", "after", "loss", "mark"
    ));
    let units = |v: i32| match a.kind {
        crate::GameKind::Go => format!("{:+.1}%", v as f32 / 100.0),
        _ if crate::search::is_decided(v) => if v > 0 { "win" } else { "loss" }.to_string(),
        _ => format!("{:+.2}", v as f32 / 100.0),
    };
    for m in &a.moves {
        out.push_str(&format!(
            "{:>4}  {:<5}  {:<6}  {:<6}  {:>10}  {:>10}  {:>8}  {}\n",
            m.ply,
            a.kind.side_name(m.side),
            m.played,
            m.best.as_deref().unwrap_or("-"),
            units(m.before),
            units(m.after),
            units(m.loss).trim_start_matches('+'),
            m.mark.map_or("", |k| k.name())
        ));
    }
    for (side, s) in [crate::Side::Black, crate::Side::White]
        .into_iter()
        .zip(a.summary())
    {
        let count = |k: usize| s.by_phase.iter().map(|p| p[k]).sum::<usize>();
        out.push_str(&format!(
            "{}: {} moves, average loss {}, {} inaccuracies, {} mistakes, {} blunders \
             (opening/middle/end: {:?})\n",
            a.kind.side_name(side),
            s.moves,
            units(s.average_loss.round() as i32).trim_start_matches('+'),
            count(0),
            count(1),
            count(2),
            s.by_phase
        ));
    }
    out
}
