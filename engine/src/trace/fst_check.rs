//! Checks of an FST export, for tests (feature `wave-checks` outside the engine's own): GTKWave's `fst2vcd` (Debian `gtkwave`) must read it back
//! (a missing tool fails the test), and what it prints, parsed with the `vcd` crate, has the same
//! signals taking the same values at the same times as hase's own VCD of the same trace, parsed the
//! same way. The FST's state integers are turned back into names through the trace header (`x` is
//! `NONE`); a real's NaN before its first value (the VCD leaves it unset) and a value repeated
//! without change are left out on both sides.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::record::TraceHeader;
use super::vcd_check::{Seen, parse, walk};
use super::waves::wave_name;

/// `fst2vcd`'s VCD text of `fst`, or why it failed.
pub fn fst2vcd(fst: &Path) -> Result<String, String> {
    let out = Command::new("fst2vcd")
        .arg(fst)
        .output()
        .map_err(|e| format!("cannot run fst2vcd (install Debian's gtkwave): {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || stderr.to_lowercase().contains("error") {
        return Err(format!("fst2vcd {} failed ({}): {stderr}", fst.display(), out.status));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("fst2vcd printed no UTF-8: {e}"))
}

/// The declared signals of VCD `text`, by path.
fn declared(text: &str) -> Result<Vec<String>, String> {
    let header = vcd::Parser::new(text.as_bytes()).parse_header().map_err(|e| format!("VCD header: {e}"))?;
    let mut names = BTreeMap::new();
    walk(&header.items, "", &mut names);
    let mut names: Vec<String> = names.into_values().collect();
    names.sort();
    Ok(names)
}

/// Changes without a NaN and without a repeat of the value before.
fn distinct(changes: &[(u64, Seen)]) -> Vec<(u64, Seen)> {
    let mut out: Vec<(u64, Seen)> = Vec::new();
    for (t, v) in changes {
        if matches!(v, Seen::Real(r) if r.is_nan()) || out.last().is_some_and(|(_, last)| last == v) {
            continue;
        }
        out.push((*t, v.clone()));
    }
    out
}

/// Compare `fst_as_vcd` (what `fst2vcd` printed for the FST export of `header`'s trace) with
/// `vcd` (the VCD export of the same trace). Returns the number of signals that change.
pub fn check_fst_against_vcd(fst_as_vcd: &str, vcd: &str, header: &TraceHeader) -> Result<usize, String> {
    let (fst_declared, vcd_declared) = (declared(fst_as_vcd)?, declared(vcd)?);
    if fst_declared != vcd_declared {
        return Err(format!("FST declares {fst_declared:?}, VCD declares {vcd_declared:?}"));
    }
    let from_fst = parse(fst_as_vcd)?;
    let from_vcd = parse(vcd)?;
    let state_names: BTreeMap<String, &[String]> = header
        .entities
        .iter()
        .filter(|e| !e.states.is_empty())
        .map(|e| {
            let path: Vec<String> = e.path.split('/').map(wave_name).collect();
            (format!("{}/state", path.join("/")), &e.states[..])
        })
        .collect();
    let named = |signal: &str, value: &Seen| -> Result<Seen, String> {
        let Some(names) = state_names.get(signal) else { return Ok(value.clone()) };
        // A one-bit state signal prints as a scalar.
        let bits = match value {
            Seen::Vector(bits) => bits.clone(),
            Seen::Bit(bit) => u8::from(*bit).to_string(),
            other => return Err(format!("{signal}: {other:?} is not a state number")),
        };
        if bits.contains(['x', 'z']) {
            return Ok(Seen::Text("NONE".into()));
        }
        let index = usize::from_str_radix(&bits, 2).map_err(|e| format!("{signal}: {bits}: {e}"))?;
        let name = names.get(index).ok_or(format!("{signal}: state {index} of {}", names.len()))?;
        Ok(Seen::Text(wave_name(name)))
    };
    let mut fst_changes = BTreeMap::new();
    for (signal, changes) in &from_fst {
        let named =
            changes.iter().map(|(t, v)| named(signal, v).map(|v| (*t, v))).collect::<Result<Vec<_>, _>>()?;
        fst_changes.insert(signal.clone(), distinct(&named));
    }
    fst_changes.retain(|_, changes| !changes.is_empty());
    let mut vcd_changes: BTreeMap<String, Vec<(u64, Seen)>> =
        from_vcd.iter().map(|(signal, changes)| (signal.clone(), distinct(changes))).collect();
    vcd_changes.retain(|_, changes| !changes.is_empty());
    let fst_names: Vec<&String> = fst_changes.keys().collect();
    let vcd_names: Vec<&String> = vcd_changes.keys().collect();
    if fst_names != vcd_names {
        return Err(format!("FST signals {fst_names:?}, VCD signals {vcd_names:?}"));
    }
    for (signal, got) in &fst_changes {
        let expected = &vcd_changes[signal];
        if got != expected {
            return Err(format!("signal {signal}: FST has {got:?}, VCD has {expected:?}"));
        }
    }
    Ok(fst_changes.len())
}
