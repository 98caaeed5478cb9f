//! Figures for the interval between the cursors: per row, the time spent in each state (for a
//! group, summed over its members; for a parameter, per value) and the messages sent and received,
//! plus their CSV export.

use crate::replay::Replay;

use super::rows::{Row, RowKind, row_path};

/// One row's figures over `[t0, t1)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowFigures {
    /// Row path.
    pub path: String,
    /// (state or value, time in ps) for every state with time in the interval, in state order.
    pub states: Vec<(String, u64)>,
    /// Messages departing in the interval.
    pub sent: usize,
    /// Messages arriving in the interval.
    pub received: usize,
}

fn add(states: &mut Vec<(String, u64)>, name: &str, ps: u64) {
    if ps == 0 {
        return;
    }
    match states.iter_mut().find(|(n, _)| n == name) {
        Some((_, t)) => *t += ps,
        None => states.push((name.to_string(), ps)),
    }
}

fn entity_figures(replay: &Replay, e: u32, t0: u64, t1: u64, out: &mut RowFigures) {
    let Some(info) = replay.header.entities.get(e as usize) else {
        return;
    };
    let times = replay.rows[e as usize].time_in_states(t0, t1, info.states.len());
    for (name, ps) in info.states.iter().zip(times) {
        add(&mut out.states, name, ps);
    }
    let (sent, received) = replay.messages_between(e, t0, t1);
    out.sent += sent;
    out.received += received;
}

/// The figures of `rows` over `[t0, t1)`.
pub fn figures(replay: &Replay, rows: &[Row], t0: u64, t1: u64) -> Vec<RowFigures> {
    rows.iter()
        .map(|row| {
            let mut f =
                RowFigures { path: row_path(replay, row.kind), states: Vec::new(), sent: 0, received: 0 };
            match row.kind {
                RowKind::Entity(e) => entity_figures(replay, e, t0, t1, &mut f),
                RowKind::Group(g) => {
                    for &e in replay.groups.get(g as usize).map_or(&[][..], |g| g.members.as_slice()) {
                        entity_figures(replay, e, t0, t1, &mut f);
                    }
                }
                RowKind::Param(p) => {
                    if let Some(param) = replay.params.get(p) {
                        let times = param.values.time_in_states(t0, t1, param.labels.len());
                        for (name, ps) in param.labels.iter().zip(times) {
                            add(&mut f.states, name, ps);
                        }
                    }
                }
            }
            f
        })
        .collect()
}

/// CSV: one line per row with the interval, the time in every state that occurs (ps, one column
/// per state name in order of first appearance) and the message counts.
pub fn to_csv(figures: &[RowFigures], t0: u64, t1: u64) -> String {
    let mut columns: Vec<&str> = Vec::new();
    for f in figures {
        for (name, _) in &f.states {
            if !columns.contains(&name.as_str()) {
                columns.push(name);
            }
        }
    }
    let mut header = vec!["row".to_string(), "from_ps".into(), "to_ps".into()];
    header.extend(columns.iter().map(|c| format!("{c}_ps")));
    header.extend(["sent".into(), "received".into()]);
    let mut rows = vec![header];
    for f in figures {
        let mut row = vec![f.path.clone(), t0.to_string(), t1.to_string()];
        for c in &columns {
            let ps = f.states.iter().find(|(n, _)| n == c).map_or(0, |(_, t)| *t);
            row.push(ps.to_string());
        }
        row.extend([f.sent.to_string(), f.received.to_string()]);
        rows.push(row);
    }
    crate::csv_text::csv_text(&rows)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use hase_engine::time::SimTime;
    use hase_engine::trace::{EntityInfo, GroupInfo, LinkInfo, Record, Trace, TraceHeader};

    use super::*;
    use crate::session::timing::rows::{RowOptions, rows};

    fn replay() -> Replay {
        let entity = |path: &str, group| EntityInfo {
            path: path.into(),
            states: vec!["IDLE".into(), "COMPUTE".into(), "SEND".into()].into(),
            ports: vec!["net".into()].into(),
            group,
            ..EntityInfo::default()
        };
        let header = TraceHeader {
            entities: vec![entity("g/a", Some(0)), entity("g/b", Some(0)), entity("c,d", None)],
            groups: vec![GroupInfo { path: "g".into(), type_name: "G".into(), parent: None }],
            links: vec![LinkInfo { a: (0, 0), b: (2, 0) }],
            ..TraceHeader::default()
        };
        let s = |t, e, st| Record::State { time: SimTime(t), entity: e, state: st };
        let send = Record::Send {
            time: SimTime(40),
            depart: SimTime(40),
            from: 0,
            from_port: 0,
            to: 2,
            to_port: 0,
            arrive: SimTime(60),
            bytes: 8,
            label: "".into(),
        };
        // a: COMPUTE 0–40, SEND 40–100; b: IDLE 0–50, COMPUTE 50–100; c: IDLE throughout.
        let records = vec![s(0, 0, 1), s(0, 1, 0), s(0, 2, 0), s(40, 0, 2), send, s(50, 1, 1), s(100, 2, 0)];
        Replay::build(&Trace { header, records })
    }

    #[test]
    fn figures_per_row_and_summed_for_groups() {
        let r = replay();
        let unfolded = BTreeSet::from(["g".to_string()]);
        let shown = rows(&r, RowOptions { unfolded: &unfolded, filter: "", params: false });
        // Between 30 and 70.
        let f = figures(&r, &shown, 30, 70);
        assert_eq!(f[0].path, "g");
        assert_eq!(
            f[0].states,
            vec![("COMPUTE".to_string(), 10 + 20), ("SEND".to_string(), 30), ("IDLE".to_string(), 20)]
        );
        assert_eq!((f[0].sent, f[0].received), (1, 0));
        assert_eq!(f[1].states, vec![("COMPUTE".to_string(), 10), ("SEND".to_string(), 30)]);
        assert_eq!(f[3].states, vec![("IDLE".to_string(), 40)]);
        assert_eq!((f[3].sent, f[3].received), (0, 1));
        let csv = to_csv(&f, 30, 70);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "row,from_ps,to_ps,COMPUTE_ps,SEND_ps,IDLE_ps,sent,received");
        assert_eq!(lines[1], "g,30,70,30,30,20,1,0");
        assert_eq!(lines[4], "\"c,d\",30,70,0,0,40,0,1");
        assert_eq!(lines.len(), 5);
    }
}
