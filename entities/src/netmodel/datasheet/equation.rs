//! One fitted data-sheet equation, t(p, d) = c + s·startup(p) + k·data(p, d), in microseconds, with
//! p the number of processes in the group and d the message size in elements (the count given to
//! the MPI call). The startup and data forms are those the thesis's curve fitter chose from
//! (chapter 3: startup ∈ {p, log p, p²}, data ∈ {d, p·d, log(p)·d, p²·d}), plus `None`, `One`,
//! `PLogP` and `PLogPD` so that point-to-point fits (no p term) and other fitters can be written
//! down too.

use serde::{Deserialize, Serialize};

/// The logarithm used for `log(p)` terms. The thesis's fitter and its GNUplot models call C's and
/// GNUplot's `log()`, the natural logarithm, so its sheets use [`LogBase::Natural`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LogBase {
    /// ln p.
    Natural,
    /// log2 p.
    Two,
    /// log10 p.
    Ten,
}

impl LogBase {
    /// log of `x` in this base.
    pub fn log(self, x: f64) -> f64 {
        match self {
            LogBase::Natural => x.ln(),
            LogBase::Two => x.log2(),
            LogBase::Ten => x.log10(),
        }
    }
}

/// The process-count term multiplied by `startup_coeff`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum StartupForm {
    /// No startup term.
    #[default]
    None,
    /// 1 (a second constant).
    One,
    /// p.
    P,
    /// log p.
    LogP,
    /// p².
    P2,
    /// p·log p.
    PLogP,
}

impl StartupForm {
    /// The term's value for `p` processes.
    pub fn eval(self, p: f64, log: LogBase) -> f64 {
        match self {
            StartupForm::None => 0.0,
            StartupForm::One => 1.0,
            StartupForm::P => p,
            StartupForm::LogP => log.log(p),
            StartupForm::P2 => p * p,
            StartupForm::PLogP => p * log.log(p),
        }
    }

    /// How the term is printed (`log(p)`), empty for `None`.
    pub fn text(self) -> &'static str {
        match self {
            StartupForm::None => "",
            StartupForm::One => "1",
            StartupForm::P => "p",
            StartupForm::LogP => "log(p)",
            StartupForm::P2 => "p²",
            StartupForm::PLogP => "p·log(p)",
        }
    }
}

/// The data term multiplied by `data_coeff`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum DataForm {
    /// No data term.
    #[default]
    None,
    /// d.
    D,
    /// p·d.
    PD,
    /// log(p)·d.
    LogPD,
    /// p²·d.
    P2D,
    /// p·log(p)·d.
    PLogPD,
}

impl DataForm {
    /// The term's value for `p` processes and `d` elements.
    pub fn eval(self, p: f64, d: f64, log: LogBase) -> f64 {
        match self {
            DataForm::None => 0.0,
            DataForm::D => d,
            DataForm::PD => p * d,
            DataForm::LogPD => log.log(p) * d,
            DataForm::P2D => p * p * d,
            DataForm::PLogPD => p * log.log(p) * d,
        }
    }

    /// How the term is printed (`log(p)·d`), empty for `None`.
    pub fn text(self) -> &'static str {
        match self {
            DataForm::None => "",
            DataForm::D => "d",
            DataForm::PD => "p·d",
            DataForm::LogPD => "log(p)·d",
            DataForm::P2D => "p²·d",
            DataForm::PLogPD => "p·log(p)·d",
        }
    }
}

/// t(p, d) = constant_us + startup_coeff·startup(p) + data_coeff·data(p, d), in microseconds.
/// Fields left out of a RON file are zero / `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Equation {
    /// Constant term, µs.
    pub constant_us: f64,
    /// Coefficient of the startup term, µs per unit of `startup`.
    pub startup_coeff: f64,
    /// Startup term.
    pub startup: StartupForm,
    /// Coefficient of the data term, µs per unit of `data`.
    pub data_coeff: f64,
    /// Data term.
    pub data: DataForm,
}

impl Equation {
    /// The time in µs for `p` processes and `d` elements, with `log` for the log terms. May be
    /// negative for a fit evaluated outside its measured range; callers clamp.
    pub fn eval(&self, p: f64, d: f64, log: LogBase) -> f64 {
        self.constant_us
            + self.startup_coeff * self.startup.eval(p, log)
            + self.data_coeff * self.data.eval(p, d, log)
    }

    /// The coefficients, named as in the file, for validation messages.
    pub(super) fn coefficients(&self) -> [(&'static str, f64); 3] {
        [
            ("constant_us", self.constant_us),
            ("startup_coeff", self.startup_coeff),
            ("data_coeff", self.data_coeff),
        ]
    }
}

impl std::fmt::Display for Equation {
    /// As the data sheet prints it: `300 + 6 × p + 1 × log(p)·d` (µs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.constant_us)?;
        if self.startup != StartupForm::None {
            write!(f, " + {} × {}", self.startup_coeff, self.startup.text())?;
        }
        if self.data != DataForm::None {
            write!(f, " + {} × {}", self.data_coeff, self.data.text())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn every_form_by_hand() {
        // p = 8, d = 10: ln 8 = 2.0794415416798357, log2 8 = 3.
        let ln8 = 2.079_441_541_679_835_7;
        let cases = [
            (StartupForm::None, DataForm::None, 5.0, 5.0),
            (StartupForm::One, DataForm::D, 5.0 + 2.0 + 30.0, 5.0 + 2.0 + 30.0),
            (StartupForm::P, DataForm::PD, 5.0 + 16.0 + 240.0, 5.0 + 16.0 + 240.0),
            (StartupForm::LogP, DataForm::LogPD, 5.0 + 2.0 * ln8 + 30.0 * ln8, 5.0 + 6.0 + 90.0),
            (StartupForm::P2, DataForm::P2D, 5.0 + 128.0 + 1920.0, 5.0 + 128.0 + 1920.0),
            (StartupForm::PLogP, DataForm::PLogPD, 5.0 + 16.0 * ln8 + 240.0 * ln8, 5.0 + 48.0 + 720.0),
        ];
        for (startup, data, natural, base_two) in cases {
            let e = Equation { constant_us: 5.0, startup_coeff: 2.0, startup, data_coeff: 3.0, data };
            assert!(close(e.eval(8.0, 10.0, LogBase::Natural), natural), "{e}");
            assert!(close(e.eval(8.0, 10.0, LogBase::Two), base_two), "{e}");
        }
        assert!(close(LogBase::Ten.log(1000.0), 3.0));
    }

    #[test]
    fn prints_like_the_sheet() {
        let e = Equation {
            constant_us: 300.0,
            startup_coeff: 6.0,
            startup: StartupForm::P,
            data_coeff: 1.0,
            data: DataForm::LogPD,
        };
        assert_eq!(e.to_string(), "300 + 6 × p + 1 × log(p)·d");
        let barrier = Equation {
            constant_us: 10.0,
            startup_coeff: 8.0,
            startup: StartupForm::LogP,
            ..Equation::default()
        };
        assert_eq!(barrier.to_string(), "10 + 8 × log(p)");
    }
}
