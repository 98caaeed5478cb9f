//! Byte layout of the experiment store's keys and records. Records start with a layout byte, like
//! the project store's, so a later store format can tell old records from new ones.
//!
//! - experiment key: the id as 8 big-endian bytes (ids count up from 1 and are never reused);
//! - run key: experiment id (8 bytes), point (8 bytes), repetition (4 bytes), all big-endian — so
//!   a prefix scan over the id yields one experiment's runs in (point, repetition) order;
//! - header record: layout byte, then the RON text of [`HeaderRecord`] (compact, no runs);
//! - run record: layout byte, then the RON text of a `RunRecord`.

use super::experiment_header::{ExperimentHeader, NoRuns};
use crate::experiment::record::RunKey;

/// Layout byte of every experiment record written by store format 1.
pub(crate) const LAYOUT: u8 = 1;

/// Key of the id counter in the experiment meta tree.
pub(crate) const NEXT_ID_KEY: &[u8] = b"next_id";

/// The key of an experiment.
pub(crate) fn experiment_key(id: u64) -> [u8; 8] {
    id.to_be_bytes()
}

/// The key of one run.
pub(crate) fn run_key(id: u64, key: RunKey) -> [u8; 20] {
    let mut bytes = [0; 20];
    bytes[..8].copy_from_slice(&id.to_be_bytes());
    bytes[8..16].copy_from_slice(&key.point.to_be_bytes());
    bytes[16..].copy_from_slice(&key.repetition.to_be_bytes());
    bytes
}

/// Split a run key into experiment id and run.
pub(crate) fn parse_run_key(bytes: &[u8]) -> Option<(u64, RunKey)> {
    let bytes: &[u8; 20] = bytes.try_into().ok()?;
    let id = u64::from_be_bytes(bytes[..8].try_into().ok()?);
    let point = u64::from_be_bytes(bytes[8..16].try_into().ok()?);
    let repetition = u32::from_be_bytes(bytes[16..].try_into().ok()?);
    Some((id, RunKey { point, repetition }))
}

/// Read an experiment key.
pub(crate) fn parse_experiment_key(bytes: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(bytes.try_into().ok()?))
}

/// Everything stored about an experiment but its runs: the header with its spec and project as
/// RON text.
pub(crate) type HeaderRecord = ExperimentHeader<String, String, NoRuns>;

/// Encode a RON text record.
pub(crate) fn encode(ron: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(1 + ron.len());
    bytes.push(LAYOUT);
    bytes.extend_from_slice(ron.as_bytes());
    bytes
}

/// The RON text of a record, if the layout byte is known.
pub(crate) fn decode(bytes: &[u8]) -> Option<&str> {
    match bytes.split_first() {
        Some((&LAYOUT, rest)) => std::str::from_utf8(rest).ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_keys_sort_by_experiment_point_and_repetition() {
        let k = |id, point, repetition| run_key(id, RunKey { point, repetition });
        let mut keys = [k(2, 0, 0), k(1, 256, 0), k(1, 3, 1), k(1, 3, 0)];
        keys.sort_unstable();
        let parsed: Vec<_> = keys.iter().map(|b| parse_run_key(b).unwrap()).collect();
        let flat: Vec<(u64, u64, u32)> = parsed.iter().map(|(i, r)| (*i, r.point, r.repetition)).collect();
        assert_eq!(flat, [(1, 3, 0), (1, 3, 1), (1, 256, 0), (2, 0, 0)]);
        assert!(k(1, 9, 9).starts_with(&experiment_key(1)));
        assert_eq!(parse_run_key(&[0; 19]), None);
        assert_eq!(decode(&encode("(x)")), Some("(x)"));
        assert_eq!(decode(b"\x09(x)"), None);
    }
}
