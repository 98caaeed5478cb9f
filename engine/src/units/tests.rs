//! The units parser against the values the issue and SimGrid name, its errors, and round trips
//! through every unit spelling.

use proptest::prelude::*;

use super::*;
use crate::time::{PS_PER_MS, PS_PER_NS, PS_PER_S, PS_PER_US};

fn unit(d: Dimension, s: &str) -> Unit {
    Unit::new(d, s).unwrap()
}

#[test]
fn rates_are_decimal_unless_written_binary() {
    for (text, expected) in [
        ("1G", 1_000_000_000),
        ("1GB/s", 1_000_000_000),
        ("1GBps", 1_000_000_000),
        ("1 GB/s", 1_000_000_000),
        ("10Gbps", 1_250_000_000),
        ("10 Gbit/s", 1_250_000_000),
        ("100 Mb/s", 12_500_000),
        ("125MB/s", 125_000_000),
        ("1.5 kB", 1_500),
        ("1kBps", 1_000),
        ("1GiB/s", 1 << 30),
        ("1GiBps", 1 << 30),
        ("2MiB/s", 2 << 20),
        ("1_000", 1_000),
        ("unlimited", 0),
        ("0", 0),
    ] {
        assert_eq!(parse_rate(text), Ok(expected), "{text}");
    }
}

#[test]
fn sizes_are_binary() {
    for (text, expected) in [
        ("512", 512),
        ("64K", 65_536),
        ("64k", 65_536),
        ("64KB", 65_536),
        ("64KiB", 65_536),
        ("2M", 2 << 20),
        ("1G", 1 << 30),
        ("1.5K", 1_536),
        ("4 bytes", 4),
        ("16B", 16),
    ] {
        assert_eq!(parse_size(text), Ok(expected), "{text}");
    }
    assert!(matches!(parse_size("1.1K"), Err(UnitError::NotWhole(..))));
    assert!(matches!(parse_size("0.5"), Err(UnitError::NotWhole(..))));
}

#[test]
fn times_and_flop_rates() {
    assert_eq!(parse_time("10us"), Ok(SimTime(10_000_000)));
    assert_eq!(parse_time("1.1us"), Ok(SimTime(1_100_000)));
    assert_eq!(parse_time("2.5 ms"), Ok(SimTime(2_500_000_000)));
    assert_eq!(parse_time("1e-6s"), Ok(SimTime(1_000_000)));
    assert_eq!(parse_time("1.5e3ns"), Ok(SimTime(1_500_000)));
    assert_eq!(parse_time("1µs"), Ok(SimTime(1_000_000)));
    assert_eq!(parse_time("17"), Ok(SimTime(17)));
    assert_eq!(parse_time("0.4ps"), Ok(SimTime(0)));
    assert_eq!(parse_flop_rate("1Gf"), Ok(1e9));
    assert_eq!(parse_flop_rate("100Mf"), Ok(1e8));
    assert_eq!(parse_flop_rate("2.5e9"), Ok(2.5e9));
    assert_eq!(parse_flop_rate("1 Gflops"), Ok(1e9));
    assert_eq!(parse_flop_rate("1Gif"), Ok(1_073_741_824.0));
}

#[test]
fn integers_keep_their_binary_suffixes() {
    assert_eq!(parse_int("64K"), Ok(65_536));
    assert_eq!(parse_int("-1"), Ok(-1));
    assert_eq!(parse_int("1_000"), Ok(1_000));
    assert!(parse_int("1.5").is_err());
    assert!(parse_int("--1").is_err());
    assert!(matches!(parse_int("99999999999G"), Err(UnitError::Overflow(_))));
}

#[test]
fn errors_say_what_is_wrong() {
    assert!(matches!(parse_time(""), Err(UnitError::Empty { .. })));
    assert!(matches!(parse_time("10 parsecs"), Err(UnitError::BadUnit { .. })));
    assert!(matches!(parse_time("abc"), Err(UnitError::BadUnit { .. })));
    assert!(matches!(parse_time("-3us"), Err(UnitError::Negative(_))));
    assert!(matches!(parse_time("1.2.3us"), Err(UnitError::BadNumber { .. })));
    assert!(matches!(parse_time("99999999999s"), Err(UnitError::Overflow(_))));
    assert!(matches!(parse_rate("3 XB/s"), Err(UnitError::BadUnit { .. })));
    assert!(matches!(parse_rate("1G/s"), Err(UnitError::BadUnit { .. })));
    assert!(matches!(parse_rate("1ps"), Err(UnitError::BadUnit { .. })));
    assert!(matches!(parse_rate("-1GBps"), Err(UnitError::Negative(_))));
    assert!(matches!(parse_flop_rate("1GB"), Err(UnitError::BadUnit { .. })));
    assert!(matches!(parse_rate(&"1".repeat(200)), Err(UnitError::TooLong(_))));
    let message = parse_rate("fast").unwrap_err().to_string();
    assert!(message.contains("unknown unit `fast`") && message.contains("GBps"), "{message}");
    let message = parse_size("x1").unwrap_err().to_string();
    assert!(message.contains("unknown unit"), "{message}");
}

#[test]
fn values_are_shown_in_the_unit_typed() {
    let (value, typed) = parse_rate_typed("10Gbps").unwrap();
    assert_eq!(format_in(value, &typed), "10 Gbps");
    let (value, typed) = parse_time_typed("1.5 ms").unwrap();
    assert_eq!(format_in(value.as_ps(), &typed), "1.5 ms");
    assert_eq!(format_in(2_500_000, &typed), "0.0025 ms");
    let (value, typed) = parse_size_typed("64K").unwrap();
    assert_eq!(format_in(value, &typed), "64 K");
    let (value, typed) = parse_rate_typed("1000000").unwrap();
    assert_eq!(format_in(value, &typed), "1000000");
    assert_eq!(format_time(SimTime(1_500_000)), "1.5 us");
    assert_eq!(format_time(SimTime(0)), "0 ps");
    assert_eq!(format_rate(1_000_000_000), "1 GB/s");
    assert_eq!(format_rate(1_250_000_000), "1.25 GB/s");
    assert_eq!(format_rate(999), "999 B/s");
    assert_eq!(format_rate(0), "unlimited");
    assert_eq!(format_flop_rate(1e9), "1 Gf");
    let (value, typed) = parse_flop_rate_typed("250Mf").unwrap();
    assert_eq!(format_flops_in(value, &typed), "250 Mf");
}

#[test]
fn unit_labels_name_dimensions() {
    assert_eq!(Dimension::of_unit_label("B/s"), Some(Dimension::Rate));
    assert_eq!(Dimension::of_unit_label("bytes"), Some(Dimension::Size));
    assert_eq!(Dimension::of_unit_label("flop/s"), Some(Dimension::FlopRate));
    assert_eq!(Dimension::of_unit_label("ports"), None);
}

const TIME_UNITS: [&str; 6] = ["", "ps", "ns", "us", "ms", "s"];
const SIZE_UNITS: [&str; 8] = ["", "B", "K", "KiB", "KB", "M", "G", "T"];
const RATE_UNITS: [&str; 14] = [
    "", "B/s", "kB/s", "MBps", "GB/s", "GBps", "G", "Gbps", "Gbit/s", "Mb/s", "TB/s", "GiB/s", "KiBps",
    "Gibps",
];

proptest! {
    #[test]
    fn times_round_trip_in_every_unit(ps in any::<u64>(), u in prop::sample::select(TIME_UNITS.to_vec())) {
        let text = format_in(ps, &unit(Dimension::Time, u));
        prop_assert_eq!(parse_time(&text), Ok(SimTime(ps)), "{}", text);
    }

    #[test]
    fn sizes_round_trip_in_every_unit(bytes in any::<u64>(), u in prop::sample::select(SIZE_UNITS.to_vec())) {
        let text = format_in(bytes, &unit(Dimension::Size, u));
        prop_assert_eq!(parse_size(&text), Ok(bytes), "{}", text);
    }

    #[test]
    fn rates_round_trip_in_every_unit(rate in any::<u64>(), u in prop::sample::select(RATE_UNITS.to_vec())) {
        let text = format_in(rate, &unit(Dimension::Rate, u));
        prop_assert_eq!(parse_rate(&text), Ok(rate), "{}", text);
    }

    #[test]
    fn default_displays_round_trip(v in any::<u64>()) {
        prop_assert_eq!(parse_time(&format_time(SimTime(v))), Ok(SimTime(v)));
        prop_assert_eq!(parse_rate(&format_rate(v)), Ok(v));
    }

    #[test]
    fn flop_rates_round_trip_closely(f in 1.0f64..1e18, u in prop::sample::select(vec!["", "f", "kf", "Mf", "Gf", "Tf", "Gif"])) {
        let text = format_flops_in(f, &unit(Dimension::FlopRate, u));
        let back = parse_flop_rate(&text).unwrap();
        prop_assert!((back - f).abs() <= f * 1e-12, "{} -> {} -> {}", f, text, back);
    }

    #[test]
    fn integers_round_trip(v in any::<i64>().prop_filter("i64::MIN has no positive twin", |v| *v != i64::MIN)) {
        prop_assert_eq!(parse_int(&v.to_string()), Ok(v));
    }

    #[test]
    fn whatever_reads_is_shown_back_the_same(text in "[0-9a-zA-Z ._/+-]{0,24}|.{0,120}") {
        // Any text is either refused with a reason or read to a value that its own unit shows back.
        for dimension in [Dimension::Time, Dimension::Size, Dimension::Rate] {
            if let Ok((value, typed)) = parse_typed(dimension, &text) {
                let shown = format_in(value, &typed);
                prop_assert_eq!(parse_typed(dimension, &shown).map(|(v, _)| v), Ok(value), "{} -> {}", text, shown);
            }
        }
        if let Ok(v) = parse_int(&text) {
            prop_assert_eq!(parse_int(&v.to_string()), Ok(v));
        }
        prop_assert!(parse_flop_rate(&text).is_err() || parse_flop_rate(&text).is_ok_and(|f| f.is_finite() && f >= 0.0));
    }
}

#[test]
fn long_fractions_of_binary_units_read_back() {
    // Found by the `units` fuzz target: 42 digits of a fraction of a tebibyte.
    let text = ".288800000000000000000004404787372557977372Ti";
    for dimension in [Dimension::Size, Dimension::Rate] {
        let (value, typed) = parse_typed(dimension, text).unwrap();
        let shown = format_in(value, &typed);
        assert_eq!(
            parse_typed(dimension, &shown).map(|(v, _)| v),
            Ok(value),
            "{dimension:?}: {text} -> {shown}"
        );
    }
}

#[test]
fn the_finest_value_of_every_binary_unit_is_written_in_full_and_reads_back() {
    // One byte (or byte/s) in the largest binary units needs 40 to 60 fractional digits.
    for (dimension, symbol) in [
        (Dimension::Size, "T"),
        (Dimension::Rate, "PiB/s"),
        (Dimension::Rate, "EiB/s"),
        (Dimension::Rate, "Eibps"),
    ] {
        let unit = Unit::new(dimension, symbol).unwrap();
        for value in [1, 3, u64::MAX] {
            let shown = format_in(value, &unit);
            assert_eq!(
                parse_typed(dimension, &shown).map(|(v, _)| v),
                Ok(value),
                "{value} in {symbol} -> {shown}"
            );
        }
    }
}

proptest! {
    #[test]
    fn display_then_parse_is_close(ps in 0u64..1_000_000_000_000_000) {
        let t = SimTime(ps);
        let text = t.display_with(12).replace(' ', "");
        let back = parse_time(&text).unwrap();
        let err = back.0.abs_diff(ps);
        prop_assert!(err <= ps / 1_000_000_000 + 1, "{t:?} -> {text} -> {back:?}");
    }

    #[test]
    fn integer_forms_round_trip(n in 0u64..1_000_000, unit in prop::sample::select(vec!["ps", "ns", "us", "ms", "s"])) {
        let t = parse_time(&format!("{n}{unit}")).unwrap();
        let scale = match unit { "ps" => 1, "ns" => PS_PER_NS, "us" => PS_PER_US, "ms" => PS_PER_MS, _ => PS_PER_S };
        prop_assert_eq!(t.0, n * scale);
    }
}
