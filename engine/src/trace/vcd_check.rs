//! Checks of a VCD export, for tests: GTKWave's converter `vcd2fst` (Debian `gtkwave`) must read it
//! without error (a missing tool fails the test), and a round trip through the `vcd` crate's parser
//! gives back what the trace says: every entity's state signal takes the trace's states in order
//! (the last of each timestamp), every numeric parameter's real signal its values, and every
//! message sent over a link keeps that link's wire at 1 from its departure to its arrival.

#![cfg_attr(
    not(test),
    allow(dead_code, reason = "outside the engine's tests only the parser serves `fst_check`")
)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::record::{Record, TraceHeader, TraceValue};

/// Run `vcd2fst` on `vcd`, writing the FST beside it; why it failed, if it did.
pub(crate) fn check_vcd2fst(vcd: &Path) -> Result<(), String> {
    let fst = vcd.with_extension("fst");
    let out = Command::new("vcd2fst")
        .arg(vcd)
        .arg(&fst)
        .output()
        .map_err(|e| format!("cannot run vcd2fst (install Debian's gtkwave): {e}"))?;
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() || said.to_lowercase().contains("error") {
        return Err(format!("vcd2fst {} failed ({}): {said}", vcd.display(), out.status));
    }
    match std::fs::metadata(&fst) {
        Ok(m) if m.len() > 0 => Ok(()),
        _ => Err(format!("vcd2fst wrote no {}", fst.display())),
    }
}

/// What a signal took over time, as parsed back.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Seen {
    /// A string value.
    Text(String),
    /// A real value.
    Real(f64),
    /// A scalar 0 or 1 (a scalar `x` or `z` is a one-digit vector).
    Bit(bool),
    /// A vector's digits (`0`, `1`, `x`, `z`), most significant first.
    Vector(String),
}

/// Name every variable of `items` by its scope path (`a/b/name`).
pub(crate) fn walk(items: &[vcd::ScopeItem], prefix: &str, names: &mut BTreeMap<vcd::IdCode, String>) {
    for item in items {
        match item {
            vcd::ScopeItem::Scope(s) => walk(&s.items, &format!("{prefix}{}/", s.identifier), names),
            vcd::ScopeItem::Var(v) => {
                names.insert(v.code, format!("{prefix}{}", v.reference));
            }
            _ => {}
        }
    }
}

/// Parse `text` with the `vcd` crate: signal reference path (scopes joined by `/`) → changes.
/// Changes before the first timestamp are at time 0; `$dumpvars` and the like are read through.
pub(crate) fn parse(text: &str) -> Result<BTreeMap<String, Vec<(u64, Seen)>>, String> {
    let mut parser = vcd::Parser::new(text.as_bytes());
    let header = parser.parse_header().map_err(|e| format!("VCD header: {e}"))?;
    let mut names = BTreeMap::new();
    walk(&header.items, "", &mut names);
    if header.timescale != Some((1, vcd::TimescaleUnit::PS)) {
        return Err(format!("timescale is {:?}, not 1 ps", header.timescale));
    }
    let mut seen: BTreeMap<String, Vec<(u64, Seen)>> = BTreeMap::new();
    let mut now = 0;
    for command in parser {
        let value = match command.map_err(|e| format!("VCD body: {e}"))? {
            vcd::Command::Timestamp(t) => {
                if t < now {
                    return Err(format!("time goes back from {now} to {t}"));
                }
                now = t;
                continue;
            }
            vcd::Command::ChangeString(id, v) => (id, Seen::Text(v)),
            vcd::Command::ChangeReal(id, v) => (id, Seen::Real(v)),
            vcd::Command::ChangeScalar(id, v @ (vcd::Value::V0 | vcd::Value::V1)) => {
                (id, Seen::Bit(v == vcd::Value::V1))
            }
            vcd::Command::ChangeScalar(id, v) => (id, Seen::Vector(v.to_string())),
            vcd::Command::ChangeVector(id, v) => (id, Seen::Vector(v.to_string())),
            vcd::Command::Begin(_) | vcd::Command::End(_) => continue,
            other => return Err(format!("unexpected VCD command {other:?}")),
        };
        let name = names.get(&value.0).ok_or(format!("change of undeclared signal {}", value.0))?;
        seen.entry(name.clone()).or_default().push((now, value.1));
    }
    Ok(seen)
}

/// Keep the last change of each time.
fn last_per_time<T>(changes: Vec<(u64, T)>) -> Vec<(u64, T)> {
    let mut out: Vec<(u64, T)> = Vec::new();
    for (t, v) in changes {
        match out.last_mut() {
            Some(last) if last.0 == t => last.1 = v,
            _ => out.push((t, v)),
        }
    }
    out
}

/// Parse the VCD `text` exported from `header` and `records` and compare it with the trace.
/// Returns the number of signals seen changing.
pub(crate) fn check_vcd_round_trip(
    text: &str,
    header: &TraceHeader,
    records: &[Record],
) -> Result<usize, String> {
    let seen = parse(text)?;
    let mut states: BTreeMap<String, Vec<(u64, Seen)>> = BTreeMap::new();
    let mut params: BTreeMap<String, Vec<(u64, Seen)>> = BTreeMap::new();
    let mut sends: Vec<(u32, u16, u64, u64)> = Vec::new();
    for e in &header.entities {
        if !e.states.is_empty() {
            states.insert(format!("{}/state", e.path), vec![(0, Seen::Text("NONE".into()))]);
        }
    }
    for r in records {
        let t = r.time().as_ps();
        match r {
            Record::State { entity, state, .. } => {
                let e = &header.entities[*entity as usize];
                let name = e.states[usize::from(*state)].clone();
                states.entry(format!("{}/state", e.path)).or_default().push((t, Seen::Text(name)));
            }
            Record::Param { entity, param, value, .. } => {
                let e = &header.entities[*entity as usize];
                let v = match value {
                    TraceValue::Int(v) => *v as f64,
                    TraceValue::Float(v) => *v,
                    TraceValue::Text(_) => continue,
                };
                params
                    .entry(format!("{}/{}", e.path, e.params[usize::from(*param)]))
                    .or_default()
                    .push((t, Seen::Real(v)));
            }
            Record::Send { from, from_port, depart, arrive, .. } => {
                sends.push((*from, *from_port, depart.as_ps(), arrive.as_ps()));
            }
            _ => {}
        }
    }
    for (name, expected) in states.into_iter().chain(params) {
        let expected = last_per_time(expected);
        let got = seen.get(&name).cloned().unwrap_or_default();
        if got != expected {
            return Err(format!("signal {name}: parsed {got:?}, trace says {expected:?}"));
        }
    }
    // Every message keeps its wire at 1 over [departure, arrival).
    for (from, port, depart, arrive) in sends {
        let Some(link) = header.links.iter().find(|l| l.a == (from, port) || l.b == (from, port)) else {
            continue;
        };
        let to = if link.a == (from, port) { link.b } else { link.a };
        let end = |(e, p): (u32, u16)| {
            let info = &header.entities[e as usize];
            format!("{}.{}", info.path.replace('/', "."), info.ports[usize::from(p)])
        };
        let wire = format!("links/{}->{}", end((from, port)), end(to));
        let changes = seen.get(&wire).ok_or(format!("no wire {wire}"))?;
        let value_at = |t: u64| changes.iter().take_while(|(at, _)| *at <= t).last().map(|(_, v)| v.clone());
        if depart < arrive && value_at(depart) != Some(Seen::Bit(true)) {
            return Err(format!("wire {wire} is not busy at departure {depart}"));
        }
        if depart + 1 < arrive && value_at(arrive - 1) != Some(Seen::Bit(true)) {
            return Err(format!("wire {wire} is not busy just before arrival {arrive}"));
        }
    }
    Ok(seen.len())
}
