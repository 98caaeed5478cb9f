//! Test-only check of an OTF2 export with the OTF2 tools' own reader: `otf2-print` (Debian's
//! `otf2-tools`) must read the archive's definitions and events without a message on standard
//! error, and the events it lists, counted by kind, must be those the trace implies. The tool must
//! be installed: a missing tool fails the test.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

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
