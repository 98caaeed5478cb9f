//! A trace as columns for pandas, built in one streaming pass with no Python object per record:
//! every column is a little-endian byte buffer (`numpy.frombuffer` views it without a copy) and
//! every name column is integer codes into a list of names (a pandas `Categorical`). Tables:
//! `entities`, `states` (intervals per entity), `messages` (sends) and `values` (live values and
//! array elements).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hase_engine::time::SimTime;
use hase_engine::trace::record::{Record, TraceHeader, TraceValue};
use hase_engine::trace::{TraceRead, open_trace};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict};

use crate::errors::hase_error_in;

/// The code of "no name" in a name column (pandas reads −1 as missing).
const NO_NAME: i32 = -1;

/// Distinct names in first-seen order, each with its code.
#[derive(Default)]
struct Names {
    codes: BTreeMap<Arc<str>, i32>,
    names: Vec<Arc<str>>,
}

impl Names {
    fn code(&mut self, name: &Arc<str>) -> i32 {
        if let Some(code) = self.codes.get(name) {
            return *code;
        }
        let code = self.names.len() as i32;
        self.codes.insert(name.clone(), code);
        self.names.push(name.clone());
        code
    }

    fn code_of_str(&mut self, name: &str) -> i32 {
        match self.codes.get(name) {
            Some(code) => *code,
            None => self.code(&Arc::from(name)),
        }
    }
}

/// One column: its numpy type (`<u8`, `<i4`, `<f8`) and its values' bytes.
struct Column {
    dtype: &'static str,
    bytes: Vec<u8>,
}

impl Column {
    fn new(dtype: &'static str) -> Self {
        Column { dtype, bytes: Vec::new() }
    }
    fn u64(&mut self, v: u64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn i64(&mut self, v: i64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
}

/// A table: named columns in order, the name columns with the table of names they index.
struct Table {
    columns: Vec<(&'static str, Column, Option<&'static str>)>,
}

impl Table {
    fn new(columns: &[(&'static str, &'static str, Option<&'static str>)]) -> Self {
        Table {
            columns: columns.iter().map(|(name, dtype, names)| (*name, Column::new(dtype), *names)).collect(),
        }
    }
    fn col(&mut self, i: usize) -> &mut Column {
        &mut self.columns[i].1
    }
}

/// Per entity, the codes of its state, parameter and port names.
struct EntityCodes {
    states: Vec<i32>,
    params: Vec<i32>,
    ports: Vec<i32>,
}

/// The columns of one trace, filled record by record.
pub struct TraceColumns {
    state_names: Names,
    param_names: Names,
    port_names: Names,
    labels: Names,
    texts: Names,
    entity_codes: Vec<EntityCodes>,
    /// Per entity, the state it is in and since when.
    open_states: Vec<Option<(SimTime, i32)>>,
    states: Table,
    messages: Table,
    values: Table,
    end: SimTime,
}

fn codes_of(names: &mut Names, list: &[String]) -> Vec<i32> {
    list.iter().map(|n| names.code_of_str(n)).collect()
}

fn code_at(codes: &[i32], index: usize) -> i32 {
    codes.get(index).copied().unwrap_or(NO_NAME)
}

impl TraceColumns {
    /// Empty columns for a trace with `header`.
    pub fn new(header: &TraceHeader) -> Self {
        let mut state_names = Names::default();
        let mut param_names = Names::default();
        let mut port_names = Names::default();
        let entity_codes = header
            .entities
            .iter()
            .map(|e| EntityCodes {
                states: codes_of(&mut state_names, &e.states),
                params: codes_of(&mut param_names, &e.params),
                ports: codes_of(&mut port_names, &e.ports),
            })
            .collect();
        TraceColumns {
            state_names,
            param_names,
            port_names,
            labels: Names::default(),
            texts: Names::default(),
            entity_codes,
            open_states: vec![None; header.entities.len()],
            states: Table::new(&[
                ("entity", "<u4", None),
                ("state", "<i4", Some("states")),
                ("start_ps", "<u8", None),
                ("end_ps", "<u8", None),
            ]),
            messages: Table::new(&[
                ("time_ps", "<u8", None),
                ("depart_ps", "<u8", None),
                ("arrive_ps", "<u8", None),
                ("from_entity", "<u4", None),
                ("from_port", "<i4", Some("ports")),
                ("to_entity", "<u4", None),
                ("to_port", "<i4", Some("ports")),
                ("bytes", "<u8", None),
                ("label", "<i4", Some("labels")),
            ]),
            values: Table::new(&[
                ("time_ps", "<u8", None),
                ("entity", "<u4", None),
                ("param", "<i4", Some("params")),
                ("index", "<i8", None),
                ("value", "<f8", None),
                ("text", "<i4", Some("texts")),
            ]),
            end: SimTime::ZERO,
        }
    }

    fn codes(&self, entity: u32) -> Option<&EntityCodes> {
        self.entity_codes.get(entity as usize)
    }

    /// Add one record.
    pub fn push(&mut self, record: &Record) {
        let time = record.time();
        self.end = self.end.max(time);
        match record {
            Record::State { entity, state, .. } => {
                let code = self.codes(*entity).map_or(NO_NAME, |c| code_at(&c.states, usize::from(*state)));
                if let Some(slot) = self.open_states.get_mut(*entity as usize) {
                    let previous = slot.replace((time, code));
                    if let Some((start, previous_code)) = previous {
                        self.close_state(*entity, start, previous_code, time);
                    }
                }
            }
            Record::Send { depart, from, from_port, to, to_port, arrive, bytes, label, .. } => {
                self.end = self.end.max(*arrive);
                let from_code =
                    self.codes(*from).map_or(NO_NAME, |c| code_at(&c.ports, usize::from(*from_port)));
                let to_code = self.codes(*to).map_or(NO_NAME, |c| code_at(&c.ports, usize::from(*to_port)));
                let label = self.labels.code(label);
                let m = &mut self.messages;
                m.col(0).u64(time.0);
                m.col(1).u64(depart.0);
                m.col(2).u64(arrive.0);
                m.col(3).u32(*from);
                m.col(4).i32(from_code);
                m.col(5).u32(*to);
                m.col(6).i32(to_code);
                m.col(7).u64(*bytes);
                m.col(8).i32(label);
            }
            Record::Param { entity, param, value, .. } => self.push_value(time, *entity, *param, -1, value),
            Record::Array { entity, param, index, value, .. } => {
                self.push_value(time, *entity, *param, i64::from(*index), value);
            }
            Record::Comment { .. } | Record::ArrayRead { .. } | Record::Summary { .. } => {}
        }
    }

    fn push_value(&mut self, time: SimTime, entity: u32, param: u16, index: i64, value: &TraceValue) {
        let param = self.codes(entity).map_or(NO_NAME, |c| code_at(&c.params, usize::from(param)));
        let (number, text) = match value {
            TraceValue::Int(v) => (*v as f64, NO_NAME),
            TraceValue::Float(v) => (*v, NO_NAME),
            TraceValue::Text(t) => (f64::NAN, self.texts.code_of_str(t)),
        };
        let v = &mut self.values;
        v.col(0).u64(time.0);
        v.col(1).u32(entity);
        v.col(2).i32(param);
        v.col(3).i64(index);
        v.col(4).f64(number);
        v.col(5).i32(text);
    }

    fn close_state(&mut self, entity: u32, start: SimTime, code: i32, end: SimTime) {
        if end <= start {
            return;
        }
        let s = &mut self.states;
        s.col(0).u32(entity);
        s.col(1).i32(code);
        s.col(2).u64(start.0);
        s.col(3).u64(end.0);
    }

    /// Close the open state intervals at `end` (or the last time seen, if later) and hand the
    /// tables to Python: `{table: {column: (dtype, bytes) | (dtype, bytes, names)}}`, plus
    /// `entities` (`path`, `type` lists) and `end_ps`.
    pub fn finish<'py>(
        mut self,
        py: Python<'py>,
        header: &TraceHeader,
        end: SimTime,
    ) -> PyResult<Bound<'py, PyDict>> {
        let end = self.end.max(end);
        let open = std::mem::take(&mut self.open_states);
        for (entity, slot) in open.into_iter().enumerate() {
            if let Some((start, code)) = slot {
                self.close_state(entity as u32, start, code, end);
            }
        }
        let names: BTreeMap<&str, &Names> = [
            ("states", &self.state_names),
            ("params", &self.param_names),
            ("ports", &self.port_names),
            ("labels", &self.labels),
            ("texts", &self.texts),
        ]
        .into_iter()
        .collect();
        let out = PyDict::new(py);
        for (table_name, table) in
            [("states", &self.states), ("messages", &self.messages), ("values", &self.values)]
        {
            let columns = PyDict::new(py);
            for (name, column, names_of) in &table.columns {
                // A bytearray, so that numpy's view of it (and the DataFrame) is writable.
                let bytes = PyByteArray::new(py, &column.bytes);
                match names_of.and_then(|n| names.get(n)) {
                    Some(list) => {
                        let list: Vec<&str> = list.names.iter().map(|n| &**n).collect();
                        columns.set_item(*name, (column.dtype, bytes, list))?;
                    }
                    None => columns.set_item(*name, (column.dtype, bytes))?,
                }
            }
            out.set_item(table_name, columns)?;
        }
        let entities = PyDict::new(py);
        entities.set_item("path", header.entities.iter().map(|e| e.path.as_str()).collect::<Vec<_>>())?;
        entities
            .set_item("type", header.entities.iter().map(|e| e.type_name.as_str()).collect::<Vec<_>>())?;
        out.set_item("entities", entities)?;
        out.set_item("end_ps", end.0)?;
        out.set_item("project", header.project.as_str())?;
        out.set_item("seed", header.seed)?;
        out.set_item("level", header.level)?;
        Ok(out)
    }
}

/// Read a trace file (text, `.gz` or `.htb`) into columns.
pub fn read_trace_file<'py>(py: Python<'py>, path: &Path) -> PyResult<Bound<'py, PyDict>> {
    let fail = |e: &(dyn std::error::Error + 'static)| hase_error_in(&path.display().to_string(), e);
    let owned = path.to_path_buf();
    // Decoding runs with the GIL released; only the hand-over to Python needs it.
    let (header, columns) = py
        .detach(move || -> Result<_, hase_engine::trace::TraceError> {
            let mut reader = open_trace(&owned)?;
            let header = reader.header().clone();
            let mut columns = TraceColumns::new(&header);
            while let Some(record) = reader.next_record()? {
                columns.push(&record);
            }
            Ok((header, columns))
        })
        .map_err(|e| fail(&e))?;
    columns.finish(py, &header, SimTime::ZERO)
}

/// Read a trace file into columns (see the module header).
#[pyfunction]
pub fn read_trace_columns(py: Python<'_>, path: PathBuf) -> PyResult<Bound<'_, PyDict>> {
    read_trace_file(py, &path)
}
