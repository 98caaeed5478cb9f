//! Byte layout of the project store's keys and records. Every record starts with a layout byte
//! so that a later store format can tell old records from new ones.
//!
//! - version key: project name (UTF-8, never contains 0), one 0 byte, version as 8 big-endian
//!   bytes — so a prefix scan over `name\0` yields one project's versions in version order;
//! - index record: layout, first version kept, latest version, save time of the latest;
//! - version record: layout, save time, RON text (exactly what `project_to_ron` produced);
//! - recovery record: layout, autosave time, latest stored version when autosaved (0 = none), RON.

use super::timestamp::Timestamp;

/// Layout byte of every record written by store format 1.
const LAYOUT: u8 = 1;

/// The key of one stored version of a project.
pub(crate) fn version_key(name: &str, version: u64) -> Vec<u8> {
    let mut key = version_prefix(name);
    key.extend_from_slice(&version.to_be_bytes());
    key
}

/// The prefix shared by every version key of a project.
pub(crate) fn version_prefix(name: &str) -> Vec<u8> {
    let mut prefix = Vec::with_capacity(name.len() + 9);
    prefix.extend_from_slice(name.as_bytes());
    prefix.push(0);
    prefix
}

/// Split a version key into project name and version.
pub(crate) fn parse_version_key(key: &[u8]) -> Option<(&str, u64)> {
    let split = key.len().checked_sub(9)?;
    if key[split] != 0 {
        return None;
    }
    let name = std::str::from_utf8(&key[..split]).ok()?;
    let version = u64::from_be_bytes(key[split + 1..].try_into().ok()?);
    Some((name, version))
}

/// What the index holds per project: the kept versions are exactly `first..=latest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct IndexRecord {
    /// Oldest version still kept.
    pub first: u64,
    /// Newest version.
    pub latest: u64,
    /// When the newest version was saved.
    pub saved_at: Timestamp,
}

impl IndexRecord {
    /// Number of versions kept.
    pub fn count(self) -> u64 {
        self.latest - self.first + 1
    }

    pub fn encode(self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(25);
        bytes.push(LAYOUT);
        bytes.extend_from_slice(&self.first.to_be_bytes());
        bytes.extend_from_slice(&self.latest.to_be_bytes());
        bytes.extend_from_slice(&self.saved_at.to_be_bytes());
        bytes
    }

    /// `None` if the bytes are not an index record or break its invariant `1 <= first <= latest`.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != 25 || bytes[0] != LAYOUT {
            return None;
        }
        let first = u64::from_be_bytes(bytes[1..9].try_into().ok()?);
        let latest = u64::from_be_bytes(bytes[9..17].try_into().ok()?);
        let saved_at = Timestamp::from_be_bytes(bytes[17..25].try_into().ok()?);
        (1 <= first && first <= latest).then_some(IndexRecord { first, latest, saved_at })
    }
}

/// Encode a version record.
pub(crate) fn encode_version(saved_at: Timestamp, ron: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(9 + ron.len());
    bytes.push(LAYOUT);
    bytes.extend_from_slice(&saved_at.to_be_bytes());
    bytes.extend_from_slice(ron.as_bytes());
    bytes
}

/// Decode a version record into its save time and RON text.
pub(crate) fn decode_version(bytes: &[u8]) -> Option<(Timestamp, &str)> {
    if bytes.len() < 9 || bytes[0] != LAYOUT {
        return None;
    }
    let saved_at = Timestamp::from_be_bytes(bytes[1..9].try_into().ok()?);
    let ron = std::str::from_utf8(&bytes[9..]).ok()?;
    Some((saved_at, ron))
}

/// Encode a recovery record; `based_on` is the latest stored version when it was written.
pub(crate) fn encode_recovery(saved_at: Timestamp, based_on: Option<u64>, ron: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(17 + ron.len());
    bytes.push(LAYOUT);
    bytes.extend_from_slice(&saved_at.to_be_bytes());
    bytes.extend_from_slice(&based_on.unwrap_or(0).to_be_bytes());
    bytes.extend_from_slice(ron.as_bytes());
    bytes
}

/// Decode a recovery record into its time, base version and RON text.
pub(crate) fn decode_recovery(bytes: &[u8]) -> Option<(Timestamp, Option<u64>, &str)> {
    if bytes.len() < 17 || bytes[0] != LAYOUT {
        return None;
    }
    let saved_at = Timestamp::from_be_bytes(bytes[1..9].try_into().ok()?);
    let based_on = u64::from_be_bytes(bytes[9..17].try_into().ok()?);
    let ron = std::str::from_utf8(&bytes[17..]).ok()?;
    Some((saved_at, (based_on != 0).then_some(based_on), ron))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_keys_sort_by_project_then_version() {
        let mut keys =
            [version_key("ab", 1), version_key("a", 256), version_key("a", 2), version_key("a", 10)];
        keys.sort();
        let parsed: Vec<_> = keys.iter().map(|k| parse_version_key(k).unwrap()).collect();
        assert_eq!(parsed, [("a", 2), ("a", 10), ("a", 256), ("ab", 1)]);
        // The prefix of "a" does not match keys of "ab".
        assert!(!version_key("ab", 1).starts_with(&version_prefix("a")));
    }

    #[test]
    fn index_record_round_trips_and_rejects_broken_ranges() {
        let record =
            IndexRecord { first: 3, latest: 52, saved_at: Timestamp::from_unix_ms(1_700_000_000_000) };
        assert_eq!(IndexRecord::decode(&record.encode()), Some(record));
        assert_eq!(record.count(), 50);
        let backwards = IndexRecord { first: 5, latest: 4, ..record }.encode();
        assert_eq!(IndexRecord::decode(&backwards), None);
        assert_eq!(IndexRecord::decode(&record.encode()[..24]), None);
    }

    #[test]
    fn version_and_recovery_records_round_trip() {
        let t = Timestamp::from_unix_ms(42);
        let bytes = encode_version(t, "(name: \"ü\")");
        assert_eq!(decode_version(&bytes), Some((t, "(name: \"ü\")")));
        assert_eq!(decode_recovery(&encode_recovery(t, None, "x")), Some((t, None, "x")));
        assert_eq!(decode_recovery(&encode_recovery(t, Some(9), "")), Some((t, Some(9), "")));
        assert_eq!(decode_version(b"\x02garbage-garbage"), None);
    }
}
