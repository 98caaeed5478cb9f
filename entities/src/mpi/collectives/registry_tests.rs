//! One test over every row of the collective registry: its name reads back to it, it builds
//! schedules that the symbolic executor runs to completion under both protocols for several
//! communicator sizes and message sizes, every operation has one default, and
//! `docs/collectives.md` describes it.

use std::collections::BTreeSet;

use super::executor::{Protocol, execute};
use super::registry::{ALGORITHMS, Needs};
use super::{Algorithm, ScheduleParams, schedule};
use crate::mpi::kind::CollectiveKind;
use crate::mpi::op::Collective;

const DOCS: &str = include_str!("../../../../docs/collectives.md");

#[test]
fn every_registered_algorithm_reads_back_runs_and_is_documented() {
    let mut pairs = BTreeSet::new();
    for row in ALGORITHMS {
        assert!(pairs.insert((row.kind, row.name)), "{:?}/{} is registered twice", row.kind, row.name);
        let algorithm = Algorithm::from_name(row.name).expect("a registered name reads back");
        assert_eq!(algorithm.name(), row.name);
        assert_eq!(Algorithm::from_name(&row.name.replace('_', "-")), Some(algorithm));
        assert!(algorithm.applies_to(row.kind), "{} does not apply to {:?}", row.name, row.kind);
        assert!(Algorithm::for_kind(row.kind).contains(&algorithm));
        assert!(!row.doc.is_empty(), "{} has no description", row.name);
        assert!(
            DOCS.contains(&format!("`{}`", row.name)),
            "docs/collectives.md does not name `{}`",
            row.name
        );
        for size in [1_u32, 2, 3, 4, 5, 7, 8, 12, 16] {
            if row.needs == Needs::PowerOfTwo && !size.is_power_of_two() {
                continue;
            }
            let root = if row.kind.has_root() { size / 2 } else { 0 };
            for bytes in [0, 1, 1000, 4099] {
                let call = Collective { kind: row.kind, root, bytes, algorithm: Some(algorithm) };
                let params = ScheduleParams { segment_bytes: 1024 };
                let schedules: Vec<_> = (0..size)
                    .map(|rank| schedule(&call, rank, size, params).expect("a valid call builds"))
                    .collect();
                for protocol in [Protocol::Eager, Protocol::Rendezvous] {
                    let run = execute(&schedules, protocol);
                    assert!(run.is_ok(), "{:?}/{} size {size}, {bytes} bytes: {run:?}", row.kind, row.name);
                }
            }
        }
    }
    for kind in CollectiveKind::ALL {
        let defaults = ALGORITHMS.iter().filter(|r| r.kind == kind && r.default).count();
        assert_eq!(defaults, 1, "{kind:?} has {defaults} default algorithms");
        assert!(Algorithm::default_for(kind).applies_to(kind));
    }
}
