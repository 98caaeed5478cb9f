//! Test-only check of an OTF2 export with the OTF2 tools' own reader: `otf2-print` (Debian's
//! `otf2-tools`) must read the archive's definitions and events without a message on standard
//! error, and the events it lists, counted by kind, must be those the trace implies. The tool must
//! be installed: a missing tool fails the test.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::otf2_defs::is_collective_state;
use super::record::{Record, TraceHeader, TraceValue};

/// Run `otf2-print` with `args` on `anchor`; its standard output, or why it failed.
fn otf2_print(args: &[&str], anchor: &Path) -> Result<String, String> {
    let out = Command::new("otf2-print")
        .args(args)
        .arg(anchor)
        .output()
        .map_err(|e| format!("cannot run otf2-print (install Debian's otf2-tools): {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || !stderr.trim().is_empty() {
        return Err(format!("otf2-print {args:?} {} failed ({}): {stderr}", anchor.display(), out.status));
    }
    String::from_utf8(out.stdout).map_err(|e| e.to_string())
}

/// Read the archive at `anchor` with `otf2-print`: its events counted by kind.
pub(crate) fn check_otf2(anchor: &Path) -> Result<BTreeMap<String, u64>, String> {
    let defs = otf2_print(&["-G"], anchor)?;
    if !defs.contains("CLOCK_PROPERTIES") || !defs.contains("LOCATION ") {
        return Err(format!("otf2-print -G shows no clock or locations:\n{defs}"));
    }
    let events = otf2_print(&[], anchor)?;
    let mut counts = BTreeMap::new();
    let mut body = false;
    for line in events.lines() {
        if line.starts_with("----") {
            body = true;
        } else if body && let Some(kind) = line.split_whitespace().next() {
            *counts.entry(kind.to_string()).or_default() += 1;
        }
    }
    Ok(counts)
}

/// The events an OTF2 export of `records` holds, by kind: each state change leaves the previous
/// state and enters the next (collective calls with their begin and end), each message is a send
/// and a receive, each numeric live value a metric.
pub(crate) fn expected_otf2_events(header: &TraceHeader, records: &[Record]) -> BTreeMap<String, u64> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    let mut add = |kind: &str, n: u64| {
        if n > 0 {
            *counts.entry(kind.to_string()).or_default() += n;
        }
    };
    for r in records {
        match r {
            Record::State { entity, state, .. } => {
                let Some(name) = header.entities.get(*entity as usize).and_then(|e| e.states.get(usize::from(*state)))
                else {
                    continue;
                };
                add("ENTER", 1);
                add("LEAVE", 1);
                if is_collective_state(name) {
                    add("MPI_COLLECTIVE_BEGIN", 1);
                    add("MPI_COLLECTIVE_END", 1);
                }
            }
            Record::Send { .. } => {
                add("MPI_SEND", 1);
                add("MPI_RECV", 1);
            }
            Record::Param { entity, param, value: TraceValue::Int(_) | TraceValue::Float(_), .. }
                if header.entities.get(*entity as usize).is_some_and(|e| usize::from(*param) < e.params.len()) =>
            {
                add("METRIC", 1);
            }
            _ => {}
        }
    }
    counts
}
