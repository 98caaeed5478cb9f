//! Tests of the text form: the documented example parses to known values and is exactly what the
//! writer produces; malformed input of every kind is rejected at the right line; random traces
//! survive a write/read round trip.

use proptest::prelude::*;

use super::read::{TraceRead, records};
use super::record::{Record, TraceHeader, TraceValue};
use super::sink::TraceSink;
use super::testgen;
use super::{TextTraceReader, TextTraceWriter, TraceError};
use crate::time::SimTime;

/// The example of `docs/trace-format.md`.
pub(crate) const EXAMPLE: &str = "\
$hase-trace 2
project \"ring of 2\"
seed 42
level 1
$types
0 Processor IDLE BUSY
1 Link
$params
0 queue
$ports
0 net
1 a b
$groups
0 fabric Fabric -
$bars
0 p0 0 -
1 p1 0 -
2 fabric/l0 1 0
$links
0 0 2 0
1 0 2 1
$events
0 S 0 1
10 M 0 0 2 0 10 20 64 \"data p0→p1\"
15 P 1 0 i 3
20 A 1 0 7 f 2.5
22 R 1 0 7
25 C 0 \"hello world\"
30 F 0 time_in.BUSY i 30
$end 7
";

pub(crate) fn read_all(text: &str) -> Result<(TraceHeader, Vec<Record>), TraceError> {
    let mut reader = TextTraceReader::new(text.as_bytes(), "trace.txt")?;
    let records = records(&mut reader).collect::<Result<Vec<_>, _>>()?;
    Ok((reader.header().clone(), records))
}

pub(crate) fn write_all(header: &TraceHeader, records: &[Record]) -> Vec<u8> {
    let mut writer = TextTraceWriter::new(Vec::new());
    writer.header(header).unwrap();
    for r in records {
        writer.record(r).unwrap();
    }
    writer.finish().unwrap();
    writer.into_inner().unwrap()
}

#[test]
fn example_parses_to_known_values_and_writes_back_identically() {
    let (header, records) = read_all(EXAMPLE).unwrap();
    assert_eq!((header.version, header.project.as_str(), header.seed, header.level), (2, "ring of 2", 42, 1));
    assert_eq!(header.entities.len(), 3);
    assert_eq!(*header.entities[1].states, ["IDLE", "BUSY"]);
    assert_eq!(*header.entities[1].params, ["queue"]);
    assert_eq!(*header.entities[2].ports, ["a", "b"]);
    assert_eq!(header.entities[2].group, Some(0));
    assert_eq!(header.links[1].a, (1, 0));
    assert_eq!(header.links[1].b, (2, 1));
    assert_eq!(records.len(), 7);
    assert_eq!(
        records[1],
        Record::Send {
            time: SimTime(10),
            depart: SimTime(10),
            from: 0,
            from_port: 0,
            to: 2,
            to_port: 0,
            arrive: SimTime(20),
            bytes: 64,
            label: "data p0→p1".into()
        }
    );
    assert_eq!(
        records[3],
        Record::Array { time: SimTime(20), entity: 1, param: 0, index: 7, value: TraceValue::Float(2.5) }
    );
    assert_eq!(records[4], Record::ArrayRead { time: SimTime(22), entity: 1, param: 0, index: 7 });
    assert_eq!(String::from_utf8(write_all(&header, &records)).unwrap(), EXAMPLE);
}

/// Replace line `n` (1-based) of the example, or drop it if `new` is None.
fn with_line(n: usize, new: Option<&str>) -> String {
    let mut lines: Vec<&str> = EXAMPLE.lines().collect();
    match new {
        Some(s) => lines[n - 1] = s,
        None => {
            lines.remove(n - 1);
        }
    }
    lines.join("\n") + "\n"
}

fn error_at(text: &str) -> (u64, u64, String) {
    match read_all(text).unwrap_err() {
        TraceError::Text { place, message } => {
            assert_eq!(place.path, "trace.txt");
            (place.line as u64, place.column as u64, message)
        }
        other => panic!("expected a text error, got {other}"),
    }
}

#[test]
fn malformed_header_lines_are_rejected_where_they_are() {
    let (line, _, msg) = error_at(&with_line(1, Some("$hase-trac 1")));
    assert_eq!(
        (line, msg.as_str()),
        (1, "expected `$hase-trace <version>` on the first line, found `$hase-trac`")
    );
    let (line, column, msg) = error_at(&with_line(1, Some("$hase-trace 3")));
    assert_eq!((line, column), (1, 13));
    assert_eq!(msg, "trace format version 3 is newer than this build supports (up to 2)");
    // Version 1 (no array reads yet) is still read.
    let (old, _) =
        read_all(&with_line(27, None).replace("$hase-trace 2", "$hase-trace 1").replace("$end 7", "$end 6"))
            .unwrap();
    assert_eq!(old.version, 1);
    let (line, _, msg) = error_at(&with_line(3, Some("seed forty")));
    assert_eq!((line, msg.as_str()), (3, "expected a seed number after `seed`, found `forty`"));
    let (line, _, msg) = error_at(&with_line(4, Some("level 7")));
    assert_eq!((line, msg.as_str()), (4, "trace level 7 is not between 1 and 5"));
    let (line, _, msg) = error_at(&with_line(19, Some("$wires")));
    assert_eq!((line, msg.as_str()), (19, "unknown section `$wires`"));
    let (line, _, msg) = error_at(&with_line(19, Some("$ports")));
    assert_eq!(
        (line, msg.as_str()),
        (19, "section `$ports` is out of order: expected `$links` or `$events`")
    );
    let (line, column, msg) = error_at(&with_line(16, Some("0 p0 5 -")));
    assert_eq!((line, column, msg.as_str()), (16, 6, "type 5 does not exist (`$types` lists 2)"));
    let (line, _, msg) = error_at(&with_line(17, Some("2 p1 0 -")));
    assert_eq!((line, msg.as_str()), (17, "expected entity index 1, found 2"));
    let (line, _, msg) = error_at(&with_line(20, Some("0 0 2 2")));
    assert_eq!((line, msg.as_str()), (20, "port 2 does not exist for entity 2 (its type has 2)"));
    let (line, _, msg) = error_at("$hase-trace 1\nproject x\n");
    assert_eq!((line, msg.as_str()), (3, "expected `seed <number>`"));
}

#[test]
fn malformed_records_are_rejected_with_line_column_and_expectation() {
    let (line, column, msg) = error_at(&with_line(23, Some("0 S 0")));
    assert_eq!((line, column, msg.as_str()), (23, 6, "expected a state index after entity 0"));
    let (line, _, msg) = error_at(&with_line(23, Some("0 S 0 5")));
    assert_eq!(
        (line, msg.as_str()),
        (23, "state 5 does not exist for entity 0 `p0` (its type Processor has 2)")
    );
    let (line, column, msg) = error_at(&with_line(23, Some("0 S 9 1")));
    assert_eq!((line, column, msg.as_str()), (23, 5, "entity 9 does not exist (the trace has 3 entities)"));
    let (line, _, msg) = error_at(&with_line(24, Some("10 M 0 3 2 0 10 20 64 x")));
    assert_eq!(
        (line, msg.as_str()),
        (24, "port 3 does not exist for entity 0 `p0` (its type Processor has 1)")
    );
    let (line, _, msg) = error_at(&with_line(24, Some("10 M 0 0 2 0 12 11 64 x")));
    assert_eq!((line, msg.as_str()), (24, "arrival 11 is before departure 12"));
    let (line, column, msg) = error_at(&with_line(25, Some("15 P 1 0 i 3x")));
    assert_eq!((line, column, msg.as_str()), (25, 12, "expected an integer for parameter 0, found `3x`"));
    let (line, _, msg) = error_at(&with_line(25, Some("1.5 P 1 0 i 3")));
    assert_eq!(
        (line, msg.as_str()),
        (25, "expected a time in picoseconds at the start of the record, found `1.5`")
    );
    let (line, column, msg) = error_at(&with_line(23, Some("0 S 0 70000")));
    assert_eq!((line, column, msg.as_str()), (23, 7, "expected a state index after entity 0, found `70000`"));
    let (line, _, msg) = error_at(&with_line(23, Some("18446744073709551616 S 0 0")));
    assert_eq!(
        (line, msg.as_str()),
        (23, "expected a time in picoseconds at the start of the record, found `18446744073709551616`")
    );
    let (line, column, msg) = error_at(&with_line(24, Some("10 M 0 0 2 0 10 20 64 \"x\\q\"")));
    assert_eq!((line, column, msg.as_str()), (24, 25, "unknown escape `\\q`"));
    let (line, _, msg) = error_at(&with_line(26, Some("20 Q 1 0")));
    assert_eq!((line, msg.as_str()), (26, "expected a record kind (S, M, P, A, R, C or F), found `Q`"));
    let (line, column, msg) = error_at(&with_line(27, Some("22 R 1 0")));
    assert_eq!((line, column, msg.as_str()), (27, 9, "expected an element index after parameter 0"));
    let (line, _, msg) = error_at(&with_line(27, Some("22 R 1 1 7")));
    assert_eq!(
        (line, msg.as_str()),
        (27, "parameter 1 does not exist for entity 1 `p1` (its type Processor has 1)")
    );
    let (line, _, msg) = error_at(&with_line(27, Some("22 R 1 0 7 i 3")));
    assert_eq!((line, msg.as_str()), (27, "expected the end of the line after the record, found `i`"));
    let (line, _, msg) = error_at(&with_line(28, Some("25 C 0 \"hello")));
    assert_eq!((line, msg.as_str()), (28, "expected a closing quote before the end of the line"));
    let (line, _, msg) = error_at(&with_line(29, Some("30 F 0 k i 1 extra")));
    assert_eq!((line, msg.as_str()), (29, "expected the end of the line after the record, found `extra`"));
    let (line, _, msg) = error_at(&with_line(30, Some("$end 8")));
    assert_eq!((line, msg.as_str()), (30, "`$end` says 8 records but the trace has 7"));
    let (line, _, msg) = error_at(&(EXAMPLE.to_string() + "0 S 0 1\n"));
    assert_eq!((line, msg.as_str()), (31, "expected the end of the file after `$end`"));
}

#[test]
fn truncated_files_are_rejected_at_the_cut() {
    // Cut in the middle of line 24.
    let cut = EXAMPLE.find("10 M 0 0").unwrap() + 8;
    let (line, column, msg) = error_at(&EXAMPLE[..cut]);
    assert_eq!((line, column), (24, 9));
    assert_eq!(msg, "truncated line: the file ends without an end-of-line");
    // Cut cleanly after a record: the missing `$end` is noticed.
    let (line, _, msg) = error_at(&with_line(30, None));
    assert_eq!((line, msg.as_str()), (30, "expected a record or `$end <count>`: the trace is truncated"));
}

#[test]
fn records_below_the_trace_level_are_rejected() {
    let text = with_line(4, Some("level 3"));
    let (line, column, msg) = error_at(&text);
    assert_eq!((line, column), (24, 4));
    assert_eq!(msg, "a message record (level 2) cannot appear in a level-3 trace");
}

#[test]
fn writer_refuses_records_that_do_not_match_the_header() {
    let (header, _) = read_all(EXAMPLE).unwrap();
    let mut writer = TextTraceWriter::new(Vec::new());
    writer.header(&header).unwrap();
    let bad = Record::State { time: SimTime(1), entity: 0, state: 2 };
    let err = writer.record(&bad).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    assert!(err.to_string().contains("state 2 does not exist"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn text_round_trip((header, records) in testgen::trace(40)) {
        let bytes = write_all(&header, &records);
        let text = String::from_utf8(bytes).unwrap();
        let (read_header, read_records) = read_all(&text).unwrap();
        prop_assert_eq!(read_header, header);
        prop_assert_eq!(read_records, records);
    }
}
