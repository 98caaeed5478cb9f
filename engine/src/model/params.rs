//! Parameters: their kinds (int, float, bool, enum, text, range, array, file, time), values,
//! definitions with defaults and units, and the check of a value against its kind.

use serde::{Deserialize, Serialize};

use crate::time::SimTime;
use crate::units::{self, Dimension, Unit};

/// What values a parameter accepts; the editor for it is chosen by kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ParamKind {
    /// A whole number with optional inclusive bounds.
    Int {
        /// Smallest allowed value.
        #[serde(default)]
        min: Option<i64>,
        /// Largest allowed value.
        #[serde(default)]
        max: Option<i64>,
    },
    /// A real number with optional inclusive bounds.
    Float {
        /// Smallest allowed value.
        #[serde(default)]
        min: Option<f64>,
        /// Largest allowed value.
        #[serde(default)]
        max: Option<f64>,
    },
    /// True or false.
    Bool,
    /// One of a fixed list of choices (stored as text).
    Enum {
        /// The allowed choices, in display order.
        choices: Vec<String>,
    },
    /// Free text (possibly several lines, e.g. an inline instruction stream).
    Text,
    /// A real number within bounds, edited with a slider.
    Range {
        /// Lower bound.
        min: f64,
        /// Upper bound.
        max: f64,
        /// Slider step (0 = continuous).
        #[serde(default)]
        step: f64,
    },
    /// A list of integers (e.g. coordinates, a memory array).
    IntArray {
        /// Required length, if fixed.
        #[serde(default)]
        len: Option<usize>,
    },
    /// A list of reals.
    FloatArray {
        /// Required length, if fixed.
        #[serde(default)]
        len: Option<usize>,
    },
    /// A path to a file, relative to the project file (stored as text).
    File {
        /// Accepted extensions without the dot; empty means any.
        #[serde(default)]
        extensions: Vec<String>,
    },
    /// A simulated time with units (`10us`).
    Time {
        /// Smallest allowed value.
        #[serde(default)]
        min: Option<SimTime>,
        /// Largest allowed value.
        #[serde(default)]
        max: Option<SimTime>,
    },
}

/// An instance's parameter overrides, by parameter name (see [`crate::vecmap`]).
pub type ParamMap = crate::vecmap::VecMap<String, ParamValue>;

/// A parameter value. Enum choices and file paths are `Text`; ranges are `Float`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ParamValue {
    /// Whole number.
    Int(i64),
    /// Real number.
    Float(f64),
    /// Flag.
    Bool(bool),
    /// Text, enum choice or file path.
    Text(String),
    /// Integer list.
    IntArray(Vec<i64>),
    /// Real list.
    FloatArray(Vec<f64>),
    /// Simulated time.
    Time(SimTime),
}

impl ParamValue {
    /// The value as an integer, if it is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            ParamValue::Int(v) => Some(*v),
            _ => None,
        }
    }
    /// The value as a float (integers widen).
    pub fn as_float(&self) -> Option<f64> {
        match self {
            ParamValue::Float(v) => Some(*v),
            ParamValue::Int(v) => Some(*v as f64),
            _ => None,
        }
    }
    /// The value as a flag.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            ParamValue::Bool(v) => Some(*v),
            _ => None,
        }
    }
    /// The value as text (enum choice, path, text).
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ParamValue::Text(v) => Some(v),
            _ => None,
        }
    }
    /// The value as a time.
    pub fn as_time(&self) -> Option<SimTime> {
        match self {
            ParamValue::Time(v) => Some(*v),
            _ => None,
        }
    }
    /// The value as an integer list.
    pub fn as_int_array(&self) -> Option<&[i64]> {
        match self {
            ParamValue::IntArray(v) => Some(v),
            _ => None,
        }
    }
    /// A short human-readable rendering, as shown on the canvas and in the inspector.
    pub fn display(&self) -> String {
        match self {
            ParamValue::Int(v) => v.to_string(),
            ParamValue::Float(v) => format!("{v}"),
            ParamValue::Bool(v) => v.to_string(),
            ParamValue::Text(v) => v.clone(),
            ParamValue::IntArray(v) => format!("{v:?}"),
            ParamValue::FloatArray(v) => format!("{v:?}"),
            ParamValue::Time(t) => t.to_string(),
        }
    }
}

/// The definition of one parameter of an entity type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParamDef {
    /// Name, unique within the type; units belong in the name or in `unit` (`latency`, unit `ps`).
    pub name: String,
    /// Accepted values.
    pub kind: ParamKind,
    /// Default value; `None` makes the parameter required on every instance.
    #[serde(default)]
    pub default: Option<ParamValue>,
    /// Unit shown next to the value (`B/s`, `bytes`), if any.
    #[serde(default)]
    pub unit: Option<String>,
    /// One line for tooltips.
    #[serde(default)]
    pub description: String,
}

impl ParamDef {
    /// A definition with a default and no unit or description.
    pub fn new(name: &str, kind: ParamKind, default: ParamValue) -> Self {
        ParamDef {
            name: name.to_string(),
            kind,
            default: Some(default),
            unit: None,
            description: String::new(),
        }
    }
    /// Builder: set the unit.
    #[must_use]
    pub fn unit(mut self, unit: &str) -> Self {
        self.unit = Some(unit.to_string());
        self
    }
    /// Builder: set the description.
    #[must_use]
    pub fn describe(mut self, text: &str) -> Self {
        self.description = text.to_string();
        self
    }
}

impl ParamDef {
    /// The quantity the parameter holds, if its values carry units: a time, or an integer whose unit
    /// label is `B/s` (a rate: `10Gbps`), `bytes` (a size: `64K`), or a float in `flop/s` (`1Gf`).
    pub fn dimension(&self) -> Option<Dimension> {
        match (&self.kind, self.unit.as_deref().and_then(Dimension::of_unit_label)) {
            (ParamKind::Time { .. }, _) => Some(Dimension::Time),
            (ParamKind::Int { .. }, Some(d @ (Dimension::Rate | Dimension::Size)))
            | (ParamKind::Float { .. }, Some(d @ Dimension::FlopRate)) => Some(d),
            _ => None,
        }
    }

    /// Read a value of this parameter from user text with the one units parser, then check it.
    pub fn parse(&self, text: &str) -> Result<ParamValue, ParamError> {
        self.parse_typed(text).map(|(value, _)| value)
    }

    /// [`ParamDef::parse`], also returning the unit the value was written in (for showing it back).
    pub fn parse_typed(&self, text: &str) -> Result<(ParamValue, Option<Unit>), ParamError> {
        let Some(dimension) = self.dimension() else {
            return self.kind.parse(text).map(|v| (v, None));
        };
        let unreadable =
            |e: units::UnitError| ParamError::Unreadable { text: text.trim().into(), reason: e.into() };
        let (value, unit) = match dimension {
            Dimension::Time => {
                let (t, unit) = units::parse_time_typed(text).map_err(unreadable)?;
                (ParamValue::Time(t), unit)
            }
            Dimension::FlopRate => {
                let (f, unit) = units::parse_flop_rate_typed(text).map_err(unreadable)?;
                (ParamValue::Float(f), unit)
            }
            Dimension::Rate | Dimension::Size => {
                let (v, unit) = units::parse_typed(dimension, text).map_err(unreadable)?;
                let v = i64::try_from(v)
                    .map_err(|_| unreadable(units::UnitError::Overflow(text.trim().into())))?;
                (ParamValue::Int(v), unit)
            }
        };
        self.kind.check(&value)?;
        Ok((value, Some(unit)))
    }

    /// The value as the editors show it: in `unit` when given (the unit it was typed in), else in the
    /// parameter's default display (times and rates in the largest unit they reach, sizes as bytes).
    pub fn display(&self, value: &ParamValue, unit: Option<&Unit>) -> String {
        let dimension = self.dimension();
        match (value, dimension) {
            (ParamValue::Time(t), _) => {
                unit.map_or_else(|| units::format_time(*t), |u| units::format_in(t.as_ps(), u))
            }
            (ParamValue::Int(v), Some(Dimension::Rate | Dimension::Size)) if *v >= 0 => {
                let v = v.unsigned_abs();
                match unit {
                    Some(u) => units::format_in(v, u),
                    None if dimension == Some(Dimension::Rate) => units::format_rate(v),
                    None => v.to_string(),
                }
            }
            (ParamValue::Float(f), Some(Dimension::FlopRate)) => {
                unit.map_or_else(|| units::format_flop_rate(*f), |u| units::format_flops_in(*f, u))
            }
            _ => value.display(),
        }
    }
}

/// Why a value does not fit its parameter's kind.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    /// The value is of another kind.
    #[error("expected {expected}, got {got}")]
    WrongKind {
        /// What the kind wants.
        expected: String,
        /// What was given.
        got: String,
    },
    /// Outside the bounds.
    #[error("{value} is out of range {range}")]
    OutOfRange {
        /// The value given.
        value: String,
        /// The allowed range.
        range: String,
    },
    /// Not one of the choices.
    #[error("`{value}` is not one of {choices:?}")]
    NotAChoice {
        /// The value given.
        value: String,
        /// The allowed choices.
        choices: Vec<String>,
    },
    /// An array longer than [`MAX_ARRAY_LEN`](crate::limits::MAX_ARRAY_LEN).
    #[error("an array of {got} elements; the limit is {limit}")]
    ArrayTooLong {
        /// Given length.
        got: usize,
        /// The limit.
        limit: u64,
    },
    /// An array of the wrong length.
    #[error("expected {expected} elements, got {got}")]
    WrongLength {
        /// Required length.
        expected: usize,
        /// Given length.
        got: usize,
    },
    /// Text that could not be read as the kind's value.
    #[error("cannot read `{text}`: {reason}")]
    Unreadable {
        /// The text.
        text: String,
        /// Why.
        reason: UnreadableReason,
    },
}

/// Why text could not be read as a parameter's value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnreadableReason {
    /// Not a quantity of the parameter's unit (or not a whole number).
    #[error(transparent)]
    Quantity(Box<units::UnitError>),
    /// Not a number.
    #[error("not a number")]
    NotANumber,
    /// Not a truth value.
    #[error("not true/false")]
    NotABool,
    /// Not a list of whole numbers.
    #[error("not a list of integers")]
    NotIntegers,
    /// Not a list of numbers.
    #[error("not a list of numbers")]
    NotNumbers,
}

impl From<units::UnitError> for UnreadableReason {
    fn from(error: units::UnitError) -> Self {
        UnreadableReason::Quantity(Box::new(error))
    }
}

fn kind_word(value: &ParamValue) -> &'static str {
    match value {
        ParamValue::Int(_) => "an integer",
        ParamValue::Float(_) => "a number",
        ParamValue::Bool(_) => "true/false",
        ParamValue::Text(_) => "text",
        ParamValue::IntArray(_) => "an integer list",
        ParamValue::FloatArray(_) => "a number list",
        ParamValue::Time(_) => "a time",
    }
}

fn wrong(expected: &str, got: &ParamValue) -> ParamError {
    ParamError::WrongKind { expected: expected.to_string(), got: kind_word(got).to_string() }
}

fn bounds<T: PartialOrd + std::fmt::Display + Copy>(
    value: T,
    min: Option<T>,
    max: Option<T>,
) -> Result<(), ParamError> {
    let below = min.is_some_and(|m| value < m);
    let above = max.is_some_and(|m| value > m);
    if below || above {
        let lo = min.map_or_else(|| "-inf".to_string(), |m| m.to_string());
        let hi = max.map_or_else(|| "inf".to_string(), |m| m.to_string());
        return Err(ParamError::OutOfRange { value: value.to_string(), range: format!("[{lo}, {hi}]") });
    }
    Ok(())
}

impl ParamKind {
    /// Check that `value` is acceptable for this kind.
    pub fn check(&self, value: &ParamValue) -> Result<(), ParamError> {
        match (self, value) {
            (ParamKind::Int { min, max }, ParamValue::Int(v)) => bounds(*v, *min, *max),
            (ParamKind::Float { min, max }, ParamValue::Float(v)) => {
                if v.is_finite() {
                    bounds(*v, *min, *max)
                } else {
                    Err(ParamError::OutOfRange { value: v.to_string(), range: "finite numbers".into() })
                }
            }
            (ParamKind::Float { min, max }, ParamValue::Int(v)) => bounds(*v as f64, *min, *max),
            (ParamKind::Range { min, max, .. }, ParamValue::Float(v)) => bounds(*v, Some(*min), Some(*max)),
            (ParamKind::Range { min, max, .. }, ParamValue::Int(v)) => {
                bounds(*v as f64, Some(*min), Some(*max))
            }
            (ParamKind::Bool, ParamValue::Bool(_))
            | (ParamKind::Text | ParamKind::File { .. }, ParamValue::Text(_)) => Ok(()),
            (ParamKind::Enum { choices }, ParamValue::Text(v)) => {
                if choices.iter().any(|c| c == v) {
                    Ok(())
                } else {
                    Err(ParamError::NotAChoice { value: v.clone(), choices: choices.clone() })
                }
            }
            (ParamKind::IntArray { len }, ParamValue::IntArray(v)) => check_len(*len, v.len()),
            (ParamKind::FloatArray { len }, ParamValue::FloatArray(v)) => check_len(*len, v.len()),
            (ParamKind::Time { min, max }, ParamValue::Time(t)) => bounds(*t, *min, *max),
            (kind, value) => Err(wrong(kind.expected(), value)),
        }
    }

    /// A phrase naming what this kind expects, for error messages.
    pub fn expected(&self) -> &'static str {
        match self {
            ParamKind::Int { .. } => "an integer",
            ParamKind::Float { .. } | ParamKind::Range { .. } => "a number",
            ParamKind::Bool => "true/false",
            ParamKind::Enum { .. } => "one of the choices",
            ParamKind::Text => "text",
            ParamKind::IntArray { .. } => "an integer list",
            ParamKind::FloatArray { .. } => "a number list",
            ParamKind::File { .. } => "a file path",
            ParamKind::Time { .. } => "a time such as 10us",
        }
    }

    /// Read a value of this kind from user text, then check it. Integers take binary suffixes
    /// (`64K`), times their units; [`ParamDef::parse`] also reads rates and flop rates by the
    /// parameter's unit label, and is what the command line and the editors use.
    pub fn parse(&self, text: &str) -> Result<ParamValue, ParamError> {
        let text = text.trim();
        let unreadable = |reason: UnreadableReason| ParamError::Unreadable { text: text.to_string(), reason };
        let value = match self {
            ParamKind::Int { .. } => {
                ParamValue::Int(units::parse_int(text).map_err(|e| unreadable(e.into()))?)
            }
            ParamKind::Float { .. } | ParamKind::Range { .. } => {
                ParamValue::Float(text.parse().map_err(|_| unreadable(UnreadableReason::NotANumber))?)
            }
            ParamKind::Bool => ParamValue::Bool(match text {
                "true" | "yes" | "on" | "1" => true,
                "false" | "no" | "off" | "0" => false,
                _ => return Err(unreadable(UnreadableReason::NotABool)),
            }),
            ParamKind::Enum { .. } | ParamKind::Text | ParamKind::File { .. } => {
                ParamValue::Text(text.to_string())
            }
            ParamKind::IntArray { .. } => ParamValue::IntArray(
                split_list(text)
                    .map(|t| units::parse_int(t).map_err(|_| unreadable(UnreadableReason::NotIntegers)))
                    .collect::<Result<_, _>>()?,
            ),
            ParamKind::FloatArray { .. } => ParamValue::FloatArray(
                split_list(text)
                    .map(|t| t.parse().map_err(|_| unreadable(UnreadableReason::NotNumbers)))
                    .collect::<Result<_, _>>()?,
            ),
            ParamKind::Time { .. } => {
                ParamValue::Time(units::parse_time(text).map_err(|e| unreadable(e.into()))?)
            }
        };
        self.check(&value)?;
        Ok(value)
    }
}

fn split_list(text: &str) -> impl Iterator<Item = &str> {
    text.trim_start_matches('[')
        .trim_end_matches(']')
        .split([',', ' '])
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

fn check_len(expected: Option<usize>, got: usize) -> Result<(), ParamError> {
    let limit = crate::limits::MAX_ARRAY_LEN;
    match expected {
        _ if got as u64 > limit => Err(ParamError::ArrayTooLong { got, limit }),
        Some(n) if n != got => Err(ParamError::WrongLength { expected: n, got }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_labels_choose_the_reading() {
        let int = |unit: &str| {
            ParamDef::new("x", ParamKind::Int { min: Some(0), max: None }, ParamValue::Int(0)).unit(unit)
        };
        let rate = int("B/s");
        assert_eq!(rate.parse("1G"), Ok(ParamValue::Int(1_000_000_000)));
        assert_eq!(rate.parse("10Gbps"), Ok(ParamValue::Int(1_250_000_000)));
        let (value, typed) = rate.parse_typed("10Gbps").unwrap();
        assert_eq!(rate.display(&value, typed.as_ref()), "10 Gbps");
        assert_eq!(rate.display(&value, None), "1.25 GB/s");
        let size = int("bytes");
        assert_eq!(size.parse("1G"), Ok(ParamValue::Int(1 << 30)));
        assert_eq!(size.display(&ParamValue::Int(65_536), None), "65536");
        assert_eq!(int("ports").parse("1K"), Ok(ParamValue::Int(1024)));
        let speed =
            ParamDef::new("s", ParamKind::Float { min: Some(1.0), max: None }, ParamValue::Float(1e9))
                .unit("flop/s");
        assert_eq!(speed.parse("2Gf"), Ok(ParamValue::Float(2e9)));
        assert_eq!(speed.display(&ParamValue::Float(2e9), None), "2 Gf");
        assert!(matches!(speed.parse("0.5"), Err(ParamError::OutOfRange { .. })));
        let time =
            ParamDef::new("t", ParamKind::Time { min: None, max: None }, ParamValue::Time(SimTime::ZERO));
        let (value, typed) = time.parse_typed("1500ns").unwrap();
        assert_eq!(time.display(&value, typed.as_ref()), "1500 ns");
        assert_eq!(time.display(&value, None), "1.5 us");
    }

    #[test]
    fn checks_bounds_and_kinds() {
        let k = ParamKind::Int { min: Some(1), max: Some(8) };
        assert!(k.check(&ParamValue::Int(4)).is_ok());
        assert!(matches!(k.check(&ParamValue::Int(9)), Err(ParamError::OutOfRange { .. })));
        assert!(matches!(k.check(&ParamValue::Bool(true)), Err(ParamError::WrongKind { .. })));
        let e = ParamKind::Enum { choices: vec!["a".into(), "b".into()] };
        assert!(e.check(&ParamValue::Text("b".into())).is_ok());
        assert!(matches!(e.check(&ParamValue::Text("c".into())), Err(ParamError::NotAChoice { .. })));
        let arr = ParamKind::IntArray { len: Some(2) };
        assert!(matches!(arr.check(&ParamValue::IntArray(vec![1])), Err(ParamError::WrongLength { .. })));
        let huge = vec![0.0; crate::limits::MAX_ARRAY_LEN as usize + 1];
        assert_eq!(
            ParamKind::FloatArray { len: None }.check(&ParamValue::FloatArray(huge)),
            Err(ParamError::ArrayTooLong { got: (1 << 20) + 1, limit: 1 << 20 })
        );
    }

    #[test]
    fn parses_user_text() {
        assert_eq!(ParamKind::Int { min: None, max: None }.parse("64K"), Ok(ParamValue::Int(65_536)));
        assert_eq!(ParamKind::Int { min: None, max: None }.parse("1_000"), Ok(ParamValue::Int(1000)));
        assert_eq!(
            ParamKind::IntArray { len: None }.parse("[1, 2,3]"),
            Ok(ParamValue::IntArray(vec![1, 2, 3]))
        );
        assert_eq!(
            ParamKind::Time { min: None, max: None }.parse("2us"),
            Ok(ParamValue::Time(SimTime::from_us(2)))
        );
        assert!(ParamKind::Bool.parse("maybe").is_err());
        assert!(ParamKind::Int { min: None, max: None }.parse("1.5").is_err());
        assert!(ParamKind::Float { min: Some(0.0), max: None }.parse("-1").is_err());
    }
}
