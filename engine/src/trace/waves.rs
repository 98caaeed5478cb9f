//! The waveform view of a trace that the VCD and FST exporters share: which signals a trace has and,
//! fed its records in time order, what each signal takes at each timestamp.
//!
//! Signals: each entity is a scope nested by its path (`fabric/level1/switch3` → `fabric` ▸
//! `level1` ▸ `switch3`) holding `state` (for an entity with states: the index of its state in its
//! type's state list, none before the first state) and one real signal per traced parameter (its
//! live value; integers as reals, text values left out). The scope `links` holds one wire per link
//! direction (`<from>.<port>-><to>.<port>`, `/` in paths written `.`), 1 while a message sent that
//! way is between its departure and its arrival. Comments, arrays and summaries have no signal.
//!
//! Streaming: the changes of one timestamp are collected (the last of a signal wins) and handed on
//! when the trace's time moves past it; a link's busy edges lie ahead of the record that causes
//! them, so they wait in a queue until the trace's time reaches them. What is held is the messages
//! in flight and the changes of one timestamp, whatever the trace's length.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::record::{Record, TraceHeader, TraceValue};

/// What a signal carries.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum WaveKind {
    /// An entity's state: an index into these names.
    State(Arc<[String]>),
    /// A live value.
    Real,
    /// A link direction's busy bit.
    Wire,
}

/// One line of the signal declarations, in order: scopes open and close around variables, and the
/// n-th `Var` is signal n.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum WaveDecl {
    /// Open a scope.
    Scope(String),
    /// Close the innermost open scope.
    Up,
    /// Declare the next signal.
    Var {
        /// Its name inside its scope.
        name: String,
        /// What it carries.
        kind: WaveKind,
    },
}

/// A value a signal takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum WaveValue {
    /// A state index, or none before the entity's first state.
    State(Option<u16>),
    /// A live value.
    Real(f64),
    /// A busy bit.
    Bit(bool),
}

/// What a waveform export wrote, for tests and messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WaveStats {
    /// Signals declared.
    pub signals: usize,
    /// Value changes written.
    pub changes: u64,
    /// Timestamps written.
    pub timestamps: u64,
    /// Most link edges waiting at once.
    pub max_pending_edges: usize,
}

/// A name usable as a scope or variable name in a waveform file (no white space).
pub(crate) fn wave_name(text: &str) -> String {
    let name: String = text.chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect();
    if name.is_empty() { "_".to_string() } else { name }
}

/// The signals of a trace and the changes of its records, one timestamp at a time.
pub(crate) struct WaveChanges {
    /// Per entity: the signal of its state (None without states).
    state_signal: Vec<Option<usize>>,
    /// Per entity: the first signal of its parameters (one per parameter, in order) and how many.
    param_signal: Vec<(usize, usize)>,
    /// The wire of messages sent from (entity, port).
    link_wire: BTreeMap<(u32, u16), usize>,
    /// Messages on each wire.
    busy: BTreeMap<usize, u32>,
    /// Link edges ahead: (time, order) → (wire, +1 at departure or −1 at arrival).
    edges: BTreeMap<(u64, u64), (usize, bool)>,
    seq: u64,
    /// The timestamp being collected and its changes.
    now: u64,
    changes: BTreeMap<usize, WaveValue>,
    stats: WaveStats,
}

impl WaveChanges {
    /// The declarations of `header`'s signals, and the change stream starting at time 0 with every
    /// state at none and every wire at 0 (real signals have no value until their first record).
    pub(crate) fn new(header: &TraceHeader) -> (Vec<WaveDecl>, Self) {
        let mut decls = Vec::new();
        let mut next = 0usize;
        let mut state_signal = vec![None; header.entities.len()];
        let mut param_signal = vec![(0, 0); header.entities.len()];
        let mut initial = BTreeMap::new();
        // Entities in path order, so that scopes nest.
        let mut order: Vec<usize> = (0..header.entities.len()).collect();
        order.sort_by(|a, b| header.entities[*a].path.split('/').cmp(header.entities[*b].path.split('/')));
        let mut open: Vec<String> = Vec::new();
        for e in order {
            let info = &header.entities[e];
            let scopes: Vec<String> = info.path.split('/').map(wave_name).collect();
            let common = open.iter().zip(&scopes).take_while(|(a, b)| a == b).count();
            decls.extend((common..open.len()).map(|_| WaveDecl::Up));
            open.truncate(common);
            for s in &scopes[common..] {
                decls.push(WaveDecl::Scope(s.clone()));
                open.push(s.clone());
            }
            if !info.states.is_empty() {
                decls
                    .push(WaveDecl::Var { name: "state".into(), kind: WaveKind::State(info.states.clone()) });
                initial.insert(next, WaveValue::State(None));
                state_signal[e] = Some(next);
                next += 1;
            }
            param_signal[e] = (next, info.params.len());
            for p in info.params.iter() {
                decls.push(WaveDecl::Var { name: wave_name(p), kind: WaveKind::Real });
                next += 1;
            }
        }
        decls.extend(open.iter().map(|_| WaveDecl::Up));
        let mut link_wire = BTreeMap::new();
        if !header.links.is_empty() {
            decls.push(WaveDecl::Scope("links".into()));
            let end = |(e, p): (u32, u16)| {
                let info = header.entities.get(e as usize);
                let path = info.map_or(String::from("?"), |i| i.path.replace('/', "."));
                let port =
                    info.and_then(|i| i.ports.get(usize::from(p)).cloned()).unwrap_or_else(|| p.to_string());
                wave_name(&format!("{path}.{port}"))
            };
            for link in &header.links {
                for (from, to) in [(link.a, link.b), (link.b, link.a)] {
                    if link_wire.contains_key(&from) {
                        continue;
                    }
                    decls.push(WaveDecl::Var {
                        name: format!("{}->{}", end(from), end(to)),
                        kind: WaveKind::Wire,
                    });
                    initial.insert(next, WaveValue::Bit(false));
                    link_wire.insert(from, next);
                    next += 1;
                }
            }
            decls.push(WaveDecl::Up);
        }
        let changes = WaveChanges {
            state_signal,
            param_signal,
            link_wire,
            busy: BTreeMap::new(),
            edges: BTreeMap::new(),
            seq: 0,
            now: 0,
            changes: initial,
            stats: WaveStats { signals: next, ..WaveStats::default() },
        };
        (decls, changes)
    }

    /// Hand the changes of the timestamp being collected to `emit`.
    fn emit_block<E>(
        &mut self,
        emit: &mut impl FnMut(u64, &BTreeMap<usize, WaveValue>) -> Result<(), E>,
    ) -> Result<(), E> {
        if self.changes.is_empty() {
            return Ok(());
        }
        emit(self.now, &self.changes)?;
        self.stats.timestamps += 1;
        self.stats.changes += self.changes.len() as u64;
        self.changes.clear();
        Ok(())
    }

    /// Set `signal` to `value` at `time_ps`.
    fn change<E>(
        &mut self,
        time_ps: u64,
        signal: usize,
        value: WaveValue,
        emit: &mut impl FnMut(u64, &BTreeMap<usize, WaveValue>) -> Result<(), E>,
    ) -> Result<(), E> {
        if time_ps > self.now {
            self.emit_block(emit)?;
            self.now = time_ps;
        }
        self.changes.insert(signal, value);
        Ok(())
    }

    /// Apply the link edges due by `time_ps`.
    fn edges_until<E>(
        &mut self,
        time_ps: u64,
        emit: &mut impl FnMut(u64, &BTreeMap<usize, WaveValue>) -> Result<(), E>,
    ) -> Result<(), E> {
        while let Some(entry) = self.edges.first_entry() {
            if entry.key().0 > time_ps {
                break;
            }
            let ((at, _), (wire, up)) = entry.remove_entry();
            let count = self.busy.entry(wire).or_default();
            let before = *count > 0;
            if up {
                *count += 1;
            } else {
                *count = count.saturating_sub(1);
            }
            let after = *count > 0;
            if after != before {
                self.change(at, wire, WaveValue::Bit(after), emit)?;
            }
        }
        Ok(())
    }

    /// One record (records must come in time order); `emit` gets each finished timestamp's changes
    /// (signal → value), in time order.
    pub(crate) fn record<E>(
        &mut self,
        r: &Record,
        emit: &mut impl FnMut(u64, &BTreeMap<usize, WaveValue>) -> Result<(), E>,
    ) -> Result<(), E> {
        let now = r.time().as_ps();
        self.edges_until(now, emit)?;
        match r {
            Record::State { entity, state, .. } => {
                if let Some(signal) = self.state_signal.get(*entity as usize).copied().flatten() {
                    self.change(now, signal, WaveValue::State(Some(*state)), emit)?;
                }
            }
            Record::Param { entity, param, value, .. } => {
                let real = match value {
                    TraceValue::Int(v) => *v as f64,
                    TraceValue::Float(v) => *v,
                    TraceValue::Text(_) => return Ok(()),
                };
                if let Some((first, count)) = self.param_signal.get(*entity as usize).copied()
                    && usize::from(*param) < count
                {
                    self.change(now, first + usize::from(*param), WaveValue::Real(real), emit)?;
                }
            }
            Record::Send { from, from_port, depart, arrive, .. } => {
                if let Some(wire) = self.link_wire.get(&(*from, *from_port)).copied() {
                    let depart = depart.as_ps().max(now);
                    let arrive = arrive.as_ps().max(depart);
                    self.edges.insert((depart, self.seq), (wire, true));
                    self.edges.insert((arrive, self.seq + 1), (wire, false));
                    self.seq += 2;
                    self.stats.max_pending_edges = self.stats.max_pending_edges.max(self.edges.len());
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Apply the remaining edges and hand on the last timestamp; what was written.
    pub(crate) fn finish<E>(
        mut self,
        emit: &mut impl FnMut(u64, &BTreeMap<usize, WaveValue>) -> Result<(), E>,
    ) -> Result<WaveStats, E> {
        self.edges_until(u64::MAX, emit)?;
        self.emit_block(emit)?;
        Ok(self.stats)
    }
}
