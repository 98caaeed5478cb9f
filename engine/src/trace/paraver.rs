//! Export of states and communications to Paraver (BSC's trace viewer, used with Dimemas): a
//! `.prv` trace, a `.pcf` configuration naming the states, and a `.row` file naming the rows. Each
//! entity is one application task with one thread on its own CPU of a single node. Paraver counts
//! time in nanoseconds, so picosecond times are truncated to whole nanoseconds. The header date is
//! fixed so that the export is deterministic.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use super::record::{Record, TraceHeader};
use crate::time::SimTime;

fn ns(t: SimTime) -> u64 {
    t.as_ps() / 1000
}

/// Global state values: 0 is "NONE" (before an entity's first state), then each distinct state
/// name in order of first appearance in the header, from 1.
fn state_values(header: &TraceHeader) -> (Vec<String>, Vec<Vec<u32>>) {
    let mut names = vec!["NONE".to_string()];
    let mut value_of: BTreeMap<&str, u32> = BTreeMap::new();
    let per_entity = header
        .entities
        .iter()
        .map(|e| {
            e.states
                .iter()
                .map(|s| {
                    *value_of.entry(s.as_str()).or_insert_with(|| {
                        names.push(s.clone());
                        (names.len() - 1) as u32
                    })
                })
                .collect()
        })
        .collect();
    (names, per_entity)
}

/// Write the three Paraver files for `records` of `header`. Lines of the `.prv` are sorted by
/// time (ties keep record order), so the body is assembled in memory before writing.
pub fn export_paraver<R: Borrow<Record>>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = R>,
    mut prv: impl Write,
    mut pcf: impl Write,
    mut row: impl Write,
) -> std::io::Result<()> {
    let (names, values) = state_values(header);
    let value = |e: u32, s: u16| -> u32 {
        values.get(e as usize).and_then(|v| v.get(usize::from(s))).copied().unwrap_or(0)
    };
    let n = header.entities.len();
    // Per entity: since when it is in which state value (None until its first state record).
    let mut open: Vec<Option<(u64, u32)>> = vec![None; n];
    let mut lines: Vec<(u64, String)> = Vec::new();
    let mut end = 0_u64;
    let state_line = |e: usize, (start, v): (u64, u32), stop: u64| {
        let id = e + 1;
        (start, format!("1:{id}:1:{id}:1:{start}:{stop}:{v}"))
    };
    for record in records {
        let record = record.borrow();
        end = end.max(ns(record.time()));
        match record {
            Record::State { time, entity, state } if (*entity as usize) < n => {
                let e = *entity as usize;
                let now = ns(*time);
                let current = open[e].unwrap_or((0, 0));
                if now > current.0 {
                    lines.push(state_line(e, current, now));
                }
                open[e] = Some((now, value(*entity, *state)));
            }
            Record::Send { time, from, from_port, to, depart, arrive, bytes, .. } => {
                let (s, r, sent, depart, arrive) = (from + 1, to + 1, ns(*time), ns(*depart), ns(*arrive));
                end = end.max(arrive);
                lines.push((
                    depart,
                    format!(
                        "3:{s}:1:{s}:1:{sent}:{depart}:{r}:1:{r}:1:{arrive}:{arrive}:{bytes}:{from_port}"
                    ),
                ));
            }
            _ => {}
        }
    }
    for (e, state) in open.into_iter().enumerate() {
        if let Some(state) = state
            && end > state.0
        {
            lines.push(state_line(e, state, end));
        }
    }
    lines.sort_by_key(|(t, _)| *t);
    let threads = vec!["1:1"; n].join(",");
    writeln!(prv, "#Paraver (01/01/70 at 00:00):{end}_ns:1({n}):1:{n}({threads})")?;
    for (_, line) in &lines {
        writeln!(prv, "{line}")?;
    }
    prv.flush()?;

    writeln!(pcf, "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC")?;
    writeln!(pcf, "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED")?;
    writeln!(pcf, "NUM_OF_STATE_COLORS {}\nYMAX_SCALE          37\n", names.len().max(1))?;
    writeln!(pcf, "DEFAULT_SEMANTIC\n\nTHREAD_FUNC          State As Is\n\n\nSTATES")?;
    for (i, name) in names.iter().enumerate() {
        writeln!(pcf, "{i:<4} {name}")?;
    }
    writeln!(pcf, "\n\nSTATES_COLOR")?;
    for i in 0..names.len() {
        let (r, g, b) = colour(i);
        writeln!(pcf, "{i:<4} {{{r},{g},{b}}}")?;
    }
    pcf.flush()?;

    writeln!(row, "LEVEL CPU SIZE {n}")?;
    for (i, e) in header.entities.iter().enumerate() {
        writeln!(row, "{}.{}", i + 1, e.path)?;
    }
    writeln!(row, "\nLEVEL NODE SIZE 1\n{}\n\nLEVEL THREAD SIZE {n}", header.project)?;
    for e in &header.entities {
        writeln!(row, "{}", e.path)?;
    }
    row.flush()
}

/// A deterministic, well-spread colour per state value (0 is Paraver's light blue "idle").
fn colour(i: usize) -> (u8, u8, u8) {
    const PALETTE: [(u8, u8, u8); 8] = [
        (117, 195, 255),
        (0, 0, 255),
        (255, 255, 255),
        (255, 0, 0),
        (255, 0, 174),
        (179, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
    ];
    PALETTE[i % PALETTE.len()]
}

/// Write `<base>.prv`, `<base>.pcf` and `<base>.row`.
pub fn export_paraver_files<R: Borrow<Record>>(
    header: &TraceHeader,
    records: impl IntoIterator<Item = R>,
    base: &Path,
) -> std::io::Result<()> {
    let create = |ext: &str| -> std::io::Result<std::io::BufWriter<std::fs::File>> {
        Ok(std::io::BufWriter::new(std::fs::File::create(base.with_extension(ext))?))
    };
    export_paraver(header, records, create("prv")?, create("pcf")?, create("row")?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::text_tests::{EXAMPLE, read_all};

    #[test]
    fn example_states_and_communications() {
        let text = EXAMPLE.replace("$end 7", "4000 S 1 0\n5000 S 0 0\n6000 M 1 0 0 0 6000 9500 8 x\n$end 10");
        let (header, records) = read_all(&text).unwrap();
        let (mut prv, mut pcf, mut row) = (Vec::new(), Vec::new(), Vec::new());
        export_paraver(&header, &records, &mut prv, &mut pcf, &mut row).unwrap();
        let prv = String::from_utf8(prv).unwrap();
        // Times in ns: p0 BUSY(2) 0–5, IDLE(1) 5–9 (end = arrival 9.5 ns); p1 NONE until 4,
        // IDLE 4–9; the 10 ps message falls inside ns 0.
        let expected = "\
#Paraver (01/01/70 at 00:00):9_ns:1(3):1:3(1:1,1:1,1:1)
3:1:1:1:1:0:0:3:1:3:1:0:0:64:0
1:2:1:2:1:0:4:0
1:1:1:1:1:0:5:2
1:2:1:2:1:4:9:1
1:1:1:1:1:5:9:1
3:2:1:2:1:6:6:1:1:1:1:9:9:8:0
";
        assert_eq!(prv, expected);
        let pcf = String::from_utf8(pcf).unwrap();
        assert!(pcf.contains("STATES\n0    NONE\n1    IDLE\n2    BUSY\n"), "{pcf}");
        let row = String::from_utf8(row).unwrap();
        assert!(row.starts_with("LEVEL CPU SIZE 3\n1.p0\n2.p1\n3.fabric/l0\n"), "{row}");
        assert!(row.ends_with("LEVEL THREAD SIZE 3\np0\np1\nfabric/l0\n"), "{row}");
    }
}
