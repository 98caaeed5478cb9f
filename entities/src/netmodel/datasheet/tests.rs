//! Data-sheet tests: values worked out by hand from the published equations, the small/large switch,
//! min/avg/max bands, the operation mapping, RON round trips and error messages.

use hase_engine::time::SimTime;

use super::*;
use crate::mpi::op::CollectiveKind;

fn t3d() -> DataSheet {
    builtin("cray_t3d").unwrap()
}

fn now() -> DataSheet {
    builtin("network_of_workstations").unwrap()
}

fn assert_us(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-9, "{actual} µs, expected {expected} µs");
}

#[test]
fn t3d_values_by_hand() {
    let s = t3d();
    // allreduce, p = 64, 1 KiB = 128 elements (large): 300 + 6·64 + 1·ln(64)·128.
    let allreduce = s.time_us("allreduce", 64, 1024, Estimate::Avg).unwrap();
    assert_us(allreduce, 300.0 + 384.0 + 4.158_883_083_359_672 * 128.0);
    assert_us(allreduce, 1_216.337_034_670_038);
    assert_eq!(s.time("allreduce", 64, 1024, Estimate::Avg).unwrap(), SimTime::from_ps(1_216_337_035));
    // allreduce, p = 4, 80 bytes = 10 elements (small): 300 + 6·4 + 2·ln(4)·10.
    assert_us(s.time_us("allreduce", 4, 80, Estimate::Avg).unwrap(), 351.725_887_222_397_8);
    // barrier, p = 128: 10 + 8·ln 128, whatever the size.
    assert_us(s.time_us("barrier", 128, 0, Estimate::Avg).unwrap(), 48.816_242_111_356_94);
    assert_us(s.time_us("barrier", 128, 1 << 20, Estimate::Avg).unwrap(), 48.816_242_111_356_94);
    // gather, p = 32, 8 KiB = 1024 elements (large): 200·ln 32 + 0.0009·32²·1024.
    assert_us(s.time_us("gather", 32, 8192, Estimate::Avg).unwrap(), 693.147_180_559_945_3 + 943.7184);
    // send: 8 elements (small) = 30 µs flat; 8192 elements (large) = 30 + 0.09·8192.
    assert_eq!(s.time("send", 2, 64, Estimate::Avg).unwrap(), SimTime::from_us(30));
    assert_us(s.time_us("send", 2, 65_536, Estimate::Avg).unwrap(), 767.28);
    // alltoall small, p = 8, 2 elements: 40 + 50·8 + 2·2.
    assert_us(s.time_us("alltoall", 8, 16, Estimate::Avg).unwrap(), 444.0);
}

#[test]
fn network_of_workstations_values_by_hand() {
    let s = now();
    // bcast, p = 8, 1 KiB = 256 four-byte elements: 2000 + 700·64 + 1·8·256.
    assert_eq!(s.time("bcast", 8, 1024, Estimate::Avg).unwrap(), SimTime::from_us(48_848));
    // alltoall, p = 4, 100 elements: 2000 + 4000·16 + 2·16·100.
    assert_eq!(s.time("alltoall", 4, 400, Estimate::Avg).unwrap(), SimTime::from_us(69_200));
    // barrier, p = 8: 9000·8; one fit for all sizes and bands.
    for estimate in [Estimate::Min, Estimate::Avg, Estimate::Max] {
        assert_eq!(s.time("barrier", 8, 0, estimate).unwrap(), SimTime::from_us(72_000));
    }
    // reduce, p = 8, 10 elements: (20000 + 60)·ln 8.
    assert_us(s.time_us("reduce", 8, 40, Estimate::Avg).unwrap(), 20_060.0 * 2.079_441_541_679_835_7);
}

#[test]
fn small_large_switch_at_the_limit() {
    let s = t3d();
    // bcast, p = 16. 32 elements = 256 bytes is small: 200 + 2·16 + 0.6·32.
    assert!(s.is_small(256) && !s.is_small(257));
    assert_us(s.time_us("bcast", 16, 256, Estimate::Avg).unwrap(), 251.2);
    // 257 bytes = 32.125 elements is large: 100 + 2·16 + 0.2·ln(16)·32.125.
    assert_us(s.time_us("bcast", 16, 257, Estimate::Avg).unwrap(), 149.813_882_540_390_6);
    // 33 elements: 100 + 32 + 0.2·ln(16)·33.
    assert_us(s.time_us("bcast", 16, 264, Estimate::Avg).unwrap(), 150.299_085_566_782_56);
}

/// The allreduce example of seed 000 (§3.1), with its ± standard errors as min/max, base-2 logs.
const BANDED: &str = r#"(
    name: "example",
    machine: "seed 000 allreduce example",
    element_bytes: 4,
    small_limit_elements: 32,
    log_base: Two,
    functions: {
        "allreduce": (
            small: (
                min: (constant_us: 20, startup_coeff: 190, startup: LogP, data_coeff: 3, data: D),
                avg: (constant_us: 50, startup_coeff: 200, startup: LogP, data_coeff: 4, data: D),
                max: (constant_us: 80, startup_coeff: 210, startup: LogP, data_coeff: 5, data: D),
            ),
            large: (
                min: (constant_us: 270, startup_coeff: 18, startup: P, data_coeff: 0.87, data: LogPD),
                avg: (constant_us: 300, startup_coeff: 20, startup: P, data_coeff: 0.9, data: LogPD),
                max: (constant_us: 330, startup_coeff: 22, startup: P, data_coeff: 0.93, data: LogPD),
            ),
        ),
        "negative": (small: (avg: (constant_us: -5))),
    },
)"#;

#[test]
fn min_avg_max_bands() {
    let s = from_ron(BANDED, "example.ron").unwrap();
    // p = 16, 10 elements (small), log2 16 = 4: 20 + 760 + 30, 50 + 800 + 40, 80 + 840 + 50.
    let small =
        [Estimate::Min, Estimate::Avg, Estimate::Max].map(|e| s.time("allreduce", 16, 40, e).unwrap());
    assert_eq!(small, [810, 890, 970].map(SimTime::from_us));
    // p = 16, 100 elements (large): 270 + 288 + 348, 300 + 320 + 360, 330 + 352 + 372.
    let large =
        [Estimate::Min, Estimate::Avg, Estimate::Max].map(|e| s.time("allreduce", 16, 400, e).unwrap());
    assert_eq!(large, [906, 980, 1054].map(SimTime::from_us));
    // A fit below zero is clamped to zero time.
    assert_us(s.time_us("negative", 2, 0, Estimate::Avg).unwrap(), -5.0);
    assert_eq!(s.time("negative", 2, 0, Estimate::Avg).unwrap(), SimTime::ZERO);
    assert_eq!(Estimate::from_name("MAX"), Some(Estimate::Max));
    assert_eq!(Estimate::from_name("median"), None);
}

#[test]
fn operations_map_to_sheet_functions() {
    let (t3d, now) = (t3d(), now());
    for kind in CollectiveKind::ALL {
        assert!(t3d.resolve(collective_functions(kind)).is_ok(), "{kind:?}");
        assert!(now.resolve(collective_functions(kind)).is_ok(), "{kind:?}");
    }
    // Scatter is timed as gather on both sheets.
    assert_eq!(
        t3d.collective_time(CollectiveKind::Scatter, 32, 8192, Estimate::Avg),
        t3d.time("gather", 32, 8192, Estimate::Avg)
    );
    assert_eq!(t3d.resolve(collective_functions(CollectiveKind::Scatter)), Ok("gather"));
    // Point to point: the T3D has the specific functions, the NOW model only allsend.
    assert_eq!(t3d.resolve(point_to_point_functions(PointToPoint::IrecvWait)), Ok("irecv2"));
    assert_eq!(now.point_to_point_time(PointToPoint::Send, 400, Estimate::Avg), Ok(SimTime::from_us(2100)));
    let missing = now.point_to_point_time(PointToPoint::IsendWait, 8, Estimate::Avg).unwrap_err();
    assert!(missing.to_string().contains("no function `isend2`"), "{missing}");
    // Receive rule, T3D, 100 elements (large): recvmin = 30 + 0.4·100 = 70, recv = 60 + 0.5·100 = 110.
    let at = SimTime::from_us;
    assert_eq!(t3d.receive_done(at(0), at(0), 800, Estimate::Avg), Ok(at(110)));
    assert_eq!(t3d.receive_done(at(0), at(1000), 800, Estimate::Avg), Ok(at(1070)));
    assert_eq!(t3d.receive_done(at(500), at(0), 800, Estimate::Avg), Ok(at(610)));
}

#[test]
fn a_late_receive_costs_at_most_recv() {
    // recvmin = 50 > recv = 30 + 0.01·d (d = 1000: 40): a receive posted with its send, or after
    // it, completes recv after the send, never recvmin after its own start; posted long after,
    // it costs recv (40), not recvmin.
    let text = r#"(
        name: "cold", machine: "test", element_bytes: 1, small_limit_elements: 1000000, log_base: Two,
        functions: {
            "recv": (small: (avg: (constant_us: 30, data_coeff: 0.01, data: D))),
            "recvmin": (small: (avg: (constant_us: 50))),
        },
    )"#;
    let sheet = from_ron(text, "cold.ron").expect("test sheet parses");
    let at = SimTime::from_us;
    assert_eq!(sheet.receive_done(at(0), at(0), 1000, Estimate::Avg), Ok(at(40)));
    assert_eq!(sheet.receive_done(at(0), at(5), 1000, Estimate::Avg), Ok(at(45)));
    assert_eq!(sheet.receive_done(at(0), at(1000), 1000, Estimate::Avg), Ok(at(1040)));
}

#[test]
fn t3d_sheet_has_every_published_function() {
    let sheet = t3d();
    let names: Vec<&str> = sheet.functions.keys().map(String::as_str).collect();
    let mut expected = vec![
        "send",
        "ssend",
        "rsend",
        "isend1",
        "isend2",
        "isendoverlap",
        "recv",
        "recvmin",
        "irecv1",
        "irecv2",
        "irecvoverlap",
        "sendrecv",
        "pingpong",
        "alltoall",
        "allsend",
        "gather",
        "allgather",
        "reduce",
        "allreduce",
        "bcast",
        "barrier",
    ];
    expected.sort_unstable();
    assert_eq!(names, expected);
    assert_eq!(builtin_names(), ["cray_t3d", "network_of_workstations"]);
}

#[test]
fn ron_round_trip() {
    for sheet in [t3d(), now(), from_ron(BANDED, "example.ron").unwrap()] {
        let text = to_ron(&sheet).unwrap();
        let back = from_ron(&text, &sheet.origin).unwrap();
        assert_eq!(back, sheet);
    }
    // Bands written in full only where they differ.
    let text = to_ron(&from_ron(BANDED, "example.ron").unwrap()).unwrap();
    assert_eq!(text.matches("min:").count(), 2);
    assert!(!to_ron(&t3d()).unwrap().contains("min:"));
}

#[test]
fn errors_name_the_file_and_position() {
    let s = t3d();
    let unknown = s.time("scan", 4, 8, Estimate::Avg).unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "assets/datasheets/cray_t3d.ron: data sheet `cray_t3d` has no function `scan`; it has: allgather, \
         allreduce, allsend, alltoall, barrier, bcast, gather, irecv1, irecv2, irecvoverlap, isend1, \
         isend2, isendoverlap, pingpong, recv, recvmin, reduce, rsend, send, sendrecv, ssend"
    );
    assert!(matches!(s.time("bcast", 0, 8, Estimate::Avg), Err(DataSheetError::NoProcesses { .. })));
    assert_eq!(
        builtin("cray_t3e").unwrap_err().to_string(),
        "no built-in data sheet `cray_t3e`; choose one of: cray_t3d, network_of_workstations"
    );

    let bad_form = BANDED.replace("data: D),\n                avg", "data: DD),\n                avg");
    let error = from_ron(&bad_form, "sheets/example.ron").unwrap_err();
    let DataSheetError::Syntax { place, .. } = &error else { panic!("{error}") };
    // Line 10 is the small band's `min:` line; `DD` starts at column 96 (16 spaces of indent, then 79 characters).
    assert_eq!((place.line, place.column), (10, 96), "{error}");
    assert!(error.to_string().starts_with("sheets/example.ron:10:96: "), "{error}");
    assert!(error.to_string().contains("DD"), "{error}");

    let typo = BANDED.replace("machine:", "machin:");
    let error = from_ron(&typo, "x.ron").unwrap_err().to_string();
    assert!(error.starts_with("x.ron:3:5: ") && error.contains("machin"), "{error}");

    let no_comma = BANDED.replace("\"example\",", "\"example\"");
    let error = from_ron(&no_comma, "x.ron").unwrap_err().to_string();
    assert!(error.starts_with("x.ron:3:5: "), "{error}");
}

#[test]
fn invalid_values_are_refused() {
    let cases = [
        ("element_bytes: 4", "element_bytes: 0", "x.ron: element_bytes: must be at least 1"),
        (
            "constant_us: -5",
            "constant_us: inf",
            "x.ron: functions.\"negative\".small.avg: constant_us is inf",
        ),
        (
            "constant_us: -5",
            "constant_us: -5, data_coeff: 2",
            "x.ron: functions.\"negative\".small.avg: data_coeff is given but data is None",
        ),
        (
            "(avg: (constant_us: -5))",
            "(avg: (constant_us: -5), goodness_of_fit: 2)",
            "x.ron: functions.\"negative\".small.goodness_of_fit: 2 is not in 0…1",
        ),
    ];
    for (from, to, message) in cases {
        let text = BANDED.replace(from, to);
        assert_ne!(text, BANDED);
        assert_eq!(from_ron(&text, "x.ron").unwrap_err().to_string(), message);
    }
}

#[test]
fn the_measured_band_interpolates_between_measured_sizes_and_falls_back_to_avg() {
    let mut sheet = t3d();
    let point = |procs, bytes, avg_us| MeasuredPoint { procs, bytes, avg_us, ..MeasuredPoint::default() };
    let avg = |p, d| sheet.time_us("bcast", p, d, Estimate::Avg).unwrap();
    let (avg_2_2048, avg_4_64, avg_2_0) = (avg(2, 2048), avg(4, 64), avg(2, 0));
    sheet.functions.get_mut("bcast").unwrap().measured =
        vec![point(2, 1024, 30.0), point(2, 64, 10.0), point(2, 0, 2.0), point(8, 64, 50.0)];
    let measured = |sheet: &DataSheet, p, d| sheet.time_us("bcast", p, d, Estimate::Measured).unwrap();
    assert_us(measured(&sheet, 2, 64), 10.0);
    assert_us(measured(&sheet, 2, 32), 6.0);
    assert_us(measured(&sheet, 2, 544), 20.0);
    assert_us(measured(&sheet, 2, 1024), 30.0);
    assert_us(measured(&sheet, 8, 64), 50.0);
    // Outside the measured sizes and at an unmeasured count: the avg equation.
    assert_us(measured(&sheet, 2, 2048), avg_2_2048);
    assert_us(measured(&sheet, 4, 64), avg_4_64);
    sheet.functions.get_mut("bcast").unwrap().measured = vec![point(2, 64, 10.0)];
    assert_us(measured(&sheet, 2, 0), avg_2_0);
    assert_eq!(Estimate::NAMES.map(Estimate::from_name).map(Option::unwrap)[3], Estimate::Measured);
}
