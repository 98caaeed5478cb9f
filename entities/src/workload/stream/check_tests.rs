//! Rank checks of a stream against the number of ranks.

use super::*;
use crate::workload::stream::parse_stream;

#[test]
fn reports_each_bad_line_once() {
    let text = "REPEAT 3\n  SEND 4 1K\n  RECV ANY\nEND\nBCAST 9 8\nALLREDUCE 8\nIRECV 2 AS r\nWAIT r\n";
    let ops = parse_stream(text, "p0.txt").unwrap();
    let errors = check_ranks(&ops, 4).unwrap_err();
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        vec![
            "p0.txt:2: SEND destination 4 is not a rank: the run has 4 ranks (0..=3)",
            "p0.txt:5: BCAST root 9 is not a rank: the run has 4 ranks (0..=3)",
        ]
    );
    assert!(check_ranks(&ops, 10).is_ok());
    assert_eq!(check_ranks(&ops, 2).unwrap_err().len(), 3);
}
