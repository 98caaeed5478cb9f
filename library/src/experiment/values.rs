//! The values of a swept variable, from text: a list `a,b,c`, a linear range `lo..hi +step`
//! (`lo..hi` steps by 1 for integers), a geometric range `lo..hi *factor` (`1K..1M *2`), or several
//! of these separated by commas. Every bound, step and listed value is read with the parameter's
//! own definition (`ParamDef::parse`: `64K`, `10us`, `1G` for a rate, `cut_through`, `[1, 2]`), so there
//! is one units parser in the program; every generated value is checked against the kind's bounds.

use hase_engine::model::{ParamDef, ParamError, ParamKind, ParamValue};
use hase_engine::time::SimTime;
use hase_engine::units::parse_time;

/// Most values one variable may take (ranges beyond this are refused, not truncated).
pub const MAX_VALUES: usize = hase_engine::limits::MAX_SWEEP_VALUES;

/// Why the values of a variable cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValuesError {
    /// Two commas with nothing between them.
    #[error("an empty value in `{text}`")]
    Empty {
        /// The whole text.
        text: String,
    },
    /// More values than a variable may take.
    #[error("more than {MAX_VALUES} values")]
    TooMany,
    /// No values at all.
    #[error("no values given")]
    NoValues,
    /// A listed value that does not read as the parameter's kind.
    #[error(transparent)]
    Value(#[from] ParamError),
    /// A range that does not make values.
    #[error("`{item}`: {reason}")]
    Range {
        /// The range as written.
        item: String,
        /// Why.
        reason: RangeError,
    },
}

/// Why a range `lo..hi [+step|*factor]` does not make values.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RangeError {
    /// No `..`.
    #[error("expected `lo..hi`")]
    Form,
    /// A factor that is not a number.
    #[error("`{text}` is not a factor")]
    NotAFactor {
        /// The text after `*`.
        text: String,
    },
    /// A factor of 1 or less (or not finite).
    #[error("a geometric range needs a factor above 1, not {factor}")]
    SmallFactor {
        /// The factor.
        factor: f64,
    },
    /// A bound, or a value made, that does not fit the parameter.
    #[error(transparent)]
    Value(#[from] ParamError),
    /// A range of times without a step.
    #[error("a range of times needs `+step` or `*factor`")]
    TimesNeedStep,
    /// A range of numbers without a step.
    #[error("a range of numbers needs `+step` or `*factor`")]
    NumbersNeedStep,
    /// A kind that takes no ranges.
    #[error("only integers, numbers and times take ranges; list the values")]
    NotRangeable,
    /// `lo` above `hi`.
    #[error("the range runs backwards ({lo} > {hi})")]
    Backwards {
        /// The low bound as shown.
        lo: String,
        /// The high bound as shown.
        hi: String,
    },
    /// A step that does not read with the kind.
    #[error("`{text}` is not a step of this kind")]
    NotAStep {
        /// The text after `+`.
        text: String,
    },
    /// A step that is not a number.
    #[error("`{text}` is not a number")]
    NotANumber {
        /// The text after `+`.
        text: String,
    },
    /// A step of zero or less.
    #[error("the step must be positive, not {text}")]
    StepNotPositive {
        /// The step as written.
        text: String,
    },
    /// More values than a variable may take.
    #[error("the range has more than {MAX_VALUES} values")]
    TooMany,
    /// A geometric range from zero or below.
    #[error("a geometric range must start above 0")]
    GeometricStart,
    /// A factor that rounds back to the same integer.
    #[error("a factor of {factor} does not move past {at}")]
    Stuck {
        /// The factor.
        factor: f64,
        /// The value it stays at.
        at: i64,
    },
}

/// Read `text` as values of the parameter `def`; the error says what is wrong with which part.
pub fn parse_values(text: &str, def: &ParamDef) -> Result<Vec<ParamValue>, ValuesError> {
    let mut values = Vec::new();
    for item in split_items(text) {
        if item.is_empty() {
            return Err(ValuesError::Empty { text: text.into() });
        }
        if is_range(item) {
            values
                .extend(range(item, def).map_err(|reason| ValuesError::Range { item: item.into(), reason })?);
        } else {
            values.push(def.parse(item)?);
        }
        if values.len() > MAX_VALUES {
            return Err(ValuesError::TooMany);
        }
    }
    if values.is_empty() {
        return Err(ValuesError::NoValues);
    }
    Ok(values)
}

/// The text of a value that reads back as the same value and is what results show: integers and
/// numbers in full, times as whole picoseconds (a bare number is read as picoseconds).
pub fn canonical(value: &ParamValue) -> String {
    match value {
        ParamValue::Int(v) => v.to_string(),
        ParamValue::Float(v) => v.to_string(),
        ParamValue::Bool(v) => v.to_string(),
        ParamValue::Text(v) => v.clone(),
        ParamValue::IntArray(v) => format!("{v:?}"),
        ParamValue::FloatArray(v) => format!("{v:?}"),
        ParamValue::Time(t) => t.as_ps().to_string(),
    }
}

/// Split at commas that are not inside brackets (`[1, 2], [3, 4]` is two values).
pub(crate) fn split_items(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0_i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(text[start..].trim());
    items
}

/// True for a `lo..hi` item.
pub(crate) fn is_range(item: &str) -> bool {
    !item.starts_with('[') && item.contains("..")
}

/// How a range advances.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step<'a> {
    /// By one (integers only).
    Unit,
    /// Adding this (read with the kind).
    Add(&'a str),
    /// Multiplying by this.
    Times(f64),
}

/// Split `lo..hi [+step|*factor]` into its parts.
fn range_parts(item: &str) -> Result<(&str, &str, Step<'_>), RangeError> {
    let (lo, rest) = item.split_once("..").ok_or(RangeError::Form)?;
    let rest = rest.trim();
    let plus = rest
        .char_indices()
        .find(|&(i, c)| c == '+' && (i == 0 || !matches!(rest.as_bytes()[i - 1], b'e' | b'E')));
    let (hi, step) = if let Some((i, _)) = rest.char_indices().find(|&(_, c)| c == '*') {
        let factor: f64 = rest[i + 1..]
            .trim()
            .parse()
            .map_err(|_| RangeError::NotAFactor { text: rest[i + 1..].trim().into() })?;
        if !(factor > 1.0 && factor.is_finite()) {
            return Err(RangeError::SmallFactor { factor });
        }
        (&rest[..i], Step::Times(factor))
    } else if let Some((i, _)) = plus {
        (&rest[..i], Step::Add(rest[i + 1..].trim()))
    } else {
        (rest, Step::Unit)
    };
    Ok((lo.trim(), hi.trim(), step))
}

fn range(item: &str, def: &ParamDef) -> Result<Vec<ParamValue>, RangeError> {
    let kind = &def.kind;
    let (lo, hi, step) = range_parts(item)?;
    let (lo_v, hi_v) = (def.parse(lo)?, def.parse(hi)?);
    let values = match (kind, &lo_v, &hi_v) {
        (ParamKind::Int { .. }, ParamValue::Int(a), ParamValue::Int(b)) => {
            let step = match step {
                Step::Unit => Step::Add("1"),
                other => other,
            };
            // Steps are read in the parameter's unit but without its bounds (`+1G` for a rate).
            let unbounded = ParamDef { kind: ParamKind::Int { min: None, max: None }, ..def.clone() };
            let ints = integer_range(*a, *b, step, |t| unbounded.parse(t).ok().and_then(|v| v.as_int()))?;
            ints.into_iter().map(ParamValue::Int).collect()
        }
        (ParamKind::Time { .. }, ParamValue::Time(a), ParamValue::Time(b)) => {
            if step == Step::Unit {
                return Err(RangeError::TimesNeedStep);
            }
            let to_i = |t: SimTime| i64::try_from(t.as_ps()).unwrap_or(i64::MAX);
            let ints = integer_range(to_i(*a), to_i(*b), step, |t| parse_time(t).ok().map(to_i))?;
            ints.into_iter().map(|ps| ParamValue::Time(SimTime(ps.unsigned_abs()))).collect()
        }
        (ParamKind::Float { .. } | ParamKind::Range { .. }, ParamValue::Float(a), ParamValue::Float(b)) => {
            float_range(*a, *b, step)?.into_iter().map(ParamValue::Float).collect()
        }
        _ => return Err(RangeError::NotRangeable),
    };
    for v in &values {
        kind.check(v)?;
    }
    Ok(values)
}

/// `lo..=hi` stepping by an added amount (read by `read`) or a factor.
fn integer_range(
    lo: i64,
    hi: i64,
    step: Step<'_>,
    read: impl Fn(&str) -> Option<i64>,
) -> Result<Vec<i64>, RangeError> {
    if lo > hi {
        return Err(RangeError::Backwards { lo: lo.to_string(), hi: hi.to_string() });
    }
    let mut values = vec![lo];
    match step {
        Step::Unit => unreachable!("callers choose a step"),
        Step::Add(text) => {
            let by = read(text).ok_or_else(|| RangeError::NotAStep { text: text.into() })?;
            if by <= 0 {
                return Err(RangeError::StepNotPositive { text: text.into() });
            }
            // Unsigned: `lo..hi` may span the whole of `i64`, which `hi - lo` would overflow.
            let count = hi.abs_diff(lo) / by.unsigned_abs() + 1;
            if count > MAX_VALUES as u64 {
                return Err(RangeError::TooMany);
            }
            values =
                std::iter::successors(Some(lo), |v| v.checked_add(by).filter(|next| *next <= hi)).collect();
        }
        Step::Times(factor) => {
            if lo <= 0 {
                return Err(RangeError::GeometricStart);
            }
            let mut v = lo;
            loop {
                let next = if factor.fract() == 0.0 {
                    v.checked_mul(factor as i64)
                } else {
                    Some((v as f64 * factor).round() as i64)
                };
                match next {
                    Some(n) if n <= hi => {
                        if n <= v {
                            return Err(RangeError::Stuck { factor, at: v });
                        }
                        values.push(n);
                        v = n;
                    }
                    _ => break,
                }
                if values.len() > MAX_VALUES {
                    return Err(RangeError::TooMany);
                }
            }
        }
    }
    Ok(values)
}

fn float_range(lo: f64, hi: f64, step: Step<'_>) -> Result<Vec<f64>, RangeError> {
    if lo > hi {
        return Err(RangeError::Backwards { lo: lo.to_string(), hi: hi.to_string() });
    }
    // A bound reached up to rounding counts as reached (0.1..0.3 +0.1 has three values).
    let slack = 1e-9;
    match step {
        Step::Unit => Err(RangeError::NumbersNeedStep),
        Step::Add(text) => {
            let by: f64 = text.parse().map_err(|_| RangeError::NotANumber { text: text.into() })?;
            if !(by > 0.0 && by.is_finite()) {
                return Err(RangeError::StepNotPositive { text: text.into() });
            }
            let count = ((hi - lo) / by + slack).floor() + 1.0;
            if count > MAX_VALUES as f64 {
                return Err(RangeError::TooMany);
            }
            Ok((0..count as usize).map(|i| lo + i as f64 * by).collect())
        }
        Step::Times(factor) => {
            if lo <= 0.0 {
                return Err(RangeError::GeometricStart);
            }
            let count = ((hi / lo).ln() / factor.ln() + slack).floor() + 1.0;
            if count > MAX_VALUES as f64 {
                return Err(RangeError::TooMany);
            }
            Ok((0..count as i32).map(|i| lo * factor.powi(i)).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The values of a parameter of `kind` with no unit (most tests).
    fn parse_values(text: &str, kind: &ParamKind) -> Result<Vec<ParamValue>, ValuesError> {
        super::parse_values(text, &ParamDef::new("x", kind.clone(), ParamValue::Int(0)))
    }

    #[test]
    fn rates_are_read_in_the_parameters_unit() {
        let rate = ParamDef::new("bandwidth", ParamKind::Int { min: Some(0), max: None }, ParamValue::Int(0))
            .unit("B/s");
        let got = super::parse_values("1G..4G +1G, 10Gbps", &rate).unwrap();
        let want = [1_000_000_000, 2_000_000_000, 3_000_000_000, 4_000_000_000, 1_250_000_000];
        assert_eq!(got, want.map(ParamValue::Int), "rates are decimal, bits per second divide by 8");
        let size = ParamDef::new("bytes", ParamKind::Int { min: Some(0), max: None }, ParamValue::Int(0))
            .unit("bytes");
        assert_eq!(super::parse_values("1K..4K *2", &size).unwrap(), [1024, 2048, 4096].map(ParamValue::Int));
    }

    fn int() -> ParamKind {
        ParamKind::Int { min: Some(0), max: None }
    }

    fn ints(text: &str) -> Vec<i64> {
        parse_values(text, &int()).unwrap().iter().map(|v| v.as_int().unwrap()).collect()
    }

    #[test]
    fn lists_and_ranges_of_integers() {
        assert_eq!(ints("1, 2,5"), [1, 2, 5]);
        assert_eq!(ints("2..6"), [2, 3, 4, 5, 6]);
        assert_eq!(ints("0..10 +4"), [0, 4, 8]);
        assert_eq!(ints("1K..1M *4"), [1024, 4096, 16_384, 65_536, 262_144, 1_048_576]);
        assert_eq!(ints("1K..8K +1K, 64K"), [1024, 2048, 3072, 4096, 5120, 6144, 7168, 8192, 65_536]);
        assert_eq!(ints("10..30 *1.5"), [10, 15, 23]);
    }

    #[test]
    fn times_and_numbers_use_their_units() {
        let time = ParamKind::Time { min: None, max: None };
        let times = parse_values("10ns..40ns +10ns, 1us", &time).unwrap();
        let ps: Vec<u64> = times.iter().map(|t| t.as_time().unwrap().as_ps()).collect();
        assert_eq!(ps, [10_000, 20_000, 30_000, 40_000, 1_000_000]);
        assert_eq!(canonical(&times[4]), "1000000");
        assert_eq!(
            parse_values(&canonical(&times[4]), &time).unwrap()[0],
            times[4],
            "canonical text reads back"
        );
        let float = ParamKind::Float { min: None, max: None };
        let xs = parse_values("0.1..0.3 +0.1", &float).unwrap();
        assert_eq!(xs.len(), 3);
        let geo = parse_values("1..1000 *10", &float).unwrap();
        assert_eq!(geo, [1.0, 10.0, 100.0, 1000.0].map(ParamValue::Float));
    }

    #[test]
    fn enums_and_arrays_are_listed() {
        let choice = ParamKind::Enum { choices: vec!["ring".into(), "binomial".into()] };
        assert_eq!(parse_values("ring,binomial", &choice).unwrap().len(), 2);
        let err = parse_values("ring,tree", &choice).unwrap_err().to_string();
        assert!(err.contains("tree"), "{err}");
        let err = parse_values("ring..binomial", &choice).unwrap_err().to_string();
        assert!(err.contains("only integers, numbers and times take ranges"), "{err}");
        let arrays = parse_values("[1, 2], [3, 4]", &ParamKind::IntArray { len: Some(2) }).unwrap();
        assert_eq!(arrays, [ParamValue::IntArray(vec![1, 2]), ParamValue::IntArray(vec![3, 4])]);
    }

    #[test]
    fn bad_ranges_say_why() {
        let bounded = ParamKind::Int { min: Some(1), max: Some(8) };
        for (text, why) in [
            ("4..2", "backwards"),
            ("1..8 +0", "positive"),
            ("1..9", "out of range"),
            ("1..4 *1", "factor above 1"),
            ("1..4 *x", "not a factor"),
            ("1,,2", "empty value"),
        ] {
            let err = parse_values(text, &bounded).unwrap_err().to_string();
            assert!(err.contains(why), "{text}: {err}");
        }
        assert!(parse_values("0..1000000000", &int()).unwrap_err().to_string().contains("more than"));
        let any = ParamKind::Int { min: None, max: None };
        let whole = "-9223372036854775807..9223372036854775807";
        for step in ["", " +1", " +2"] {
            let err = parse_values(&format!("{whole}{step}"), &any).unwrap_err().to_string();
            assert!(err.contains("more than"), "{step}: {err}");
        }
        let three = parse_values(&format!("{whole} +9223372036854775807"), &any).unwrap();
        assert_eq!(three, [-i64::MAX, 0, i64::MAX].map(ParamValue::Int), "steps that reach the top");
        let four = parse_values(&format!("{whole} +4611686018427387904"), &any).unwrap();
        assert_eq!(four.len(), 4, "the last step stops short of the top: {four:?}");
        assert!(parse_values("0..4 *2", &int()).unwrap_err().to_string().contains("start above 0"));
        assert!(
            parse_values("1us..2us", &ParamKind::Time { min: None, max: None })
                .unwrap_err()
                .to_string()
                .contains("+step")
        );
    }

    proptest! {
        /// A linear range holds exactly the arithmetic sequence from lo up to hi.
        #[test]
        fn linear_ranges_are_arithmetic(lo in 0i64..1000, len in 0i64..500, step in 1i64..50) {
            let hi = lo + len;
            let got = ints(&format!("{lo}..{hi} +{step}"));
            prop_assert_eq!(got.len() as i64, len / step + 1);
            prop_assert!(got.windows(2).all(|w| w[1] - w[0] == step));
            prop_assert_eq!(got[0], lo);
            prop_assert!(*got.last().unwrap() <= hi && *got.last().unwrap() + step > hi);
        }

        /// A geometric range with an integer factor holds lo·f^i up to hi.
        #[test]
        fn geometric_ranges_multiply(lo in 1i64..100, factor in 2i64..5, steps in 0u32..8) {
            let hi = lo * factor.pow(steps);
            let got = ints(&format!("{lo}..{hi} *{factor}"));
            let want: Vec<i64> = (0..=steps).map(|i| lo * factor.pow(i)).collect();
            prop_assert_eq!(got, want);
        }

        /// Canonical text reads back as the same value for every integer.
        #[test]
        fn canonical_integers_read_back(v in 0i64..i64::MAX) {
            let value = ParamValue::Int(v);
            prop_assert_eq!(parse_values(&canonical(&value), &int()).unwrap(), vec![value]);
        }
    }
}
