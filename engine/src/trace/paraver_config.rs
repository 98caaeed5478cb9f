//! The Paraver side files and the numbering behind them: state values, event types and event
//! values, the `.pcf` configuration that names them, and the `.row` file that names the rows of
//! each level (CPU, node, application, task, thread).
//!
//! Event types (Paraver event values are integers):
//! - `1000` comment; its values number the distinct comment texts (at most [`MAX_TEXT_VALUES`]
//!   named, later ones share value 0 "other comment");
//! - `10000 + k` integer updates of parameter k, `20000 + k` real updates (value × 1000, rounded),
//!   `30000 + k` text updates (values number the distinct texts, as comments do), `40000 + k` the
//!   element index of an array update (written beside the value's own type). Parameters are
//!   numbered k = 0, 1, … over the distinct (entity type, parameter) pairs of the header in sorted
//!   order; live values are parameters too.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use super::record::{TraceHeader, TraceValue};

/// Event type of comments.
pub const COMMENT_TYPE: u64 = 1000;
/// Base of integer parameter updates.
pub const INT_BASE: u64 = 10_000;
/// Base of real parameter updates (value × [`REAL_SCALE`]).
pub const REAL_BASE: u64 = 20_000;
/// Base of text parameter updates.
pub const TEXT_BASE: u64 = 30_000;
/// Base of array element indices.
pub const INDEX_BASE: u64 = 40_000;
/// Real values are written multiplied by this and rounded.
pub const REAL_SCALE: f64 = 1000.0;
/// Parameters beyond this many (type, name) pairs get no event type.
pub const MAX_PARAM_TYPES: usize = 10_000;
/// Distinct texts named per event type; later texts share value 0.
pub const MAX_TEXT_VALUES: usize = 4096;

/// Distinct texts of one event type, numbered from 1 in order of first appearance.
#[derive(Debug, Default)]
pub(crate) struct TextValues {
    numbers: BTreeMap<String, u64>,
    overflowed: bool,
}

impl TextValues {
    fn number(&mut self, text: &str) -> u64 {
        if let Some(n) = self.numbers.get(text) {
            return *n;
        }
        if self.numbers.len() >= MAX_TEXT_VALUES {
            self.overflowed = true;
            return 0;
        }
        let n = self.numbers.len() as u64 + 1;
        self.numbers.insert(text.to_string(), n);
        n
    }
}

/// State values, parameter numbering and the event types and values seen so far.
#[derive(Debug)]
pub(crate) struct ParaverNames {
    /// State names by global value (0 is "NONE").
    pub states: Vec<String>,
    /// Per entity, its local state index → global value.
    pub state_values: Vec<Vec<u32>>,
    /// Per entity, its local parameter index → k.
    param_keys: Vec<Vec<Option<u64>>>,
    /// k → "Type.param".
    param_names: Vec<String>,
    comments: TextValues,
    texts: BTreeMap<u64, TextValues>,
    used: BTreeSet<u64>,
}

/// The `type:value` pairs of one event record.
pub(crate) type Events = Vec<(u64, i64)>;

impl ParaverNames {
    pub fn new(header: &TraceHeader) -> Self {
        let mut states = vec!["NONE".to_string()];
        let mut value_of: BTreeMap<&str, u32> = BTreeMap::new();
        let state_values = header
            .entities
            .iter()
            .map(|e| {
                e.states
                    .iter()
                    .map(|s| {
                        *value_of.entry(s.as_str()).or_insert_with(|| {
                            states.push(s.clone());
                            (states.len() - 1) as u32
                        })
                    })
                    .collect()
            })
            .collect();
        let pairs: BTreeSet<(String, String)> = header
            .entities
            .iter()
            .flat_map(|e| e.params.iter().map(|p| (e.type_name.clone(), p.clone())))
            .collect();
        let key_of: BTreeMap<&(String, String), u64> =
            pairs.iter().take(MAX_PARAM_TYPES).enumerate().map(|(k, pair)| (pair, k as u64)).collect();
        let param_keys = header
            .entities
            .iter()
            .map(|e| {
                e.params.iter().map(|p| key_of.get(&(e.type_name.clone(), p.clone())).copied()).collect()
            })
            .collect();
        let param_names = pairs.iter().take(MAX_PARAM_TYPES).map(|(t, p)| format!("{t}.{p}")).collect();
        ParaverNames {
            states,
            state_values,
            param_keys,
            param_names,
            comments: TextValues::default(),
            texts: BTreeMap::new(),
            used: BTreeSet::new(),
        }
    }

    /// The global state value of an entity's state (0 if unknown).
    pub fn state_value(&self, entity: u32, state: u16) -> u32 {
        self.state_values.get(entity as usize).and_then(|v| v.get(usize::from(state))).copied().unwrap_or(0)
    }

    pub fn comment(&mut self, text: &str) -> Events {
        self.used.insert(COMMENT_TYPE);
        vec![(COMMENT_TYPE, self.comments.number(text) as i64)]
    }

    /// The events of a parameter (or, with `index`, an array element) update; empty if the
    /// parameter has no event type or the value cannot be written (a non-finite real).
    pub fn update(&mut self, entity: u32, param: u16, index: Option<u32>, value: &TraceValue) -> Events {
        let Some(k) =
            self.param_keys.get(entity as usize).and_then(|p| p.get(usize::from(param))).copied().flatten()
        else {
            return Vec::new();
        };
        let event = match value {
            TraceValue::Int(v) => (INT_BASE + k, *v),
            TraceValue::Float(v) if v.is_finite() => (REAL_BASE + k, (v * REAL_SCALE).round() as i64),
            TraceValue::Float(_) => return Vec::new(),
            TraceValue::Text(t) => {
                (TEXT_BASE + k, self.texts.entry(TEXT_BASE + k).or_default().number(t) as i64)
            }
        };
        self.used.insert(event.0);
        let mut events = vec![event];
        if let Some(i) = index {
            self.used.insert(INDEX_BASE + k);
            events.push((INDEX_BASE + k, i64::from(i)));
        }
        events
    }

    /// Write the `.pcf`: options, states with colours, and every event type that was used.
    pub fn write_pcf(&self, mut pcf: impl Write) -> std::io::Result<()> {
        writeln!(pcf, "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC")?;
        writeln!(pcf, "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED")?;
        writeln!(pcf, "NUM_OF_STATE_COLORS {}\nYMAX_SCALE          37\n", self.states.len().max(1))?;
        writeln!(pcf, "DEFAULT_SEMANTIC\n\nTHREAD_FUNC          State As Is\n\n\nSTATES")?;
        for (i, name) in self.states.iter().enumerate() {
            writeln!(pcf, "{i:<4} {}", one_line(name))?;
        }
        writeln!(pcf, "\n\nSTATES_COLOR")?;
        for i in 0..self.states.len() {
            let (r, g, b) = colour(i);
            writeln!(pcf, "{i:<4} {{{r},{g},{b}}}")?;
        }
        for &event_type in &self.used {
            writeln!(pcf, "\n\nEVENT_TYPE")?;
            let (label, values) = self.describe(event_type);
            writeln!(pcf, "0    {event_type:<10} {label}")?;
            if let Some(values) = values {
                writeln!(pcf, "VALUES")?;
                let mut listed: Vec<(&u64, &String)> = values.numbers.iter().map(|(t, n)| (n, t)).collect();
                listed.sort();
                if values.overflowed {
                    writeln!(pcf, "0      (other: more than {MAX_TEXT_VALUES} distinct texts)")?;
                }
                for (n, text) in listed {
                    writeln!(pcf, "{n:<6} {}", one_line(text))?;
                }
            }
        }
        pcf.flush()
    }

    fn describe(&self, event_type: u64) -> (String, Option<&TextValues>) {
        if event_type == COMMENT_TYPE {
            return ("Comment".into(), Some(&self.comments));
        }
        let (base, kind) = match event_type {
            t if t >= INDEX_BASE => (INDEX_BASE, "array element index"),
            t if t >= TEXT_BASE => (TEXT_BASE, "text"),
            t if t >= REAL_BASE => (REAL_BASE, "real x1000"),
            _ => (INT_BASE, "integer"),
        };
        let name = self.param_names.get((event_type - base) as usize).map_or("?", String::as_str);
        (format!("{} ({kind})", one_line(name)), self.texts.get(&event_type))
    }
}

/// Text on one `.pcf` or `.row` line: control characters become spaces, and an empty text
/// becomes `fallback` (a blank line would end a `.row` level early).
fn one_line_or(text: &str, fallback: &str) -> String {
    let line: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if line.trim().is_empty() { fallback.to_string() } else { line }
}

fn one_line(text: &str) -> String {
    one_line_or(text, "(empty)")
}

/// Write the `.row` file: one name per CPU, the node, the application, and per task and thread.
pub(crate) fn write_row(header: &TraceHeader, mut row: impl Write) -> std::io::Result<()> {
    let n = header.entities.len();
    let project = one_line_or(&header.project, "(unnamed project)");
    let names: Vec<String> = header
        .entities
        .iter()
        .enumerate()
        .map(|(i, e)| one_line_or(&e.path, &format!("(entity {i})")))
        .collect();
    writeln!(row, "LEVEL CPU SIZE {n}")?;
    for (i, name) in names.iter().enumerate() {
        writeln!(row, "{}.{name}", i + 1)?;
    }
    writeln!(row, "\nLEVEL NODE SIZE 1\n{project}\n\nLEVEL APPL SIZE 1\n{project}\n\nLEVEL TASK SIZE {n}")?;
    for name in &names {
        writeln!(row, "{name}")?;
    }
    writeln!(row, "\nLEVEL THREAD SIZE {n}")?;
    for name in &names {
        writeln!(row, "{name}")?;
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
