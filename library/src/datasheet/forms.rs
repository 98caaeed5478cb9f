//! Which equations a function's measurements are fitted with. The thesis's fitter (seed `002`,
//! §3.5.1) fits t(p, d) = c + s·startup(p) + k·data(p, d) with startup ∈ {p, log p, p²} and
//! data ∈ {d, p·d, log p·d, p²·d}: 12 forms, each three coefficients. Two kinds of function cannot
//! use them all: point-to-point functions are measured between two processes only (p is fixed, so
//! a startup term cannot be told from the constant: they get c + k·d), and barriers move no data
//! (c + s·startup(p): three forms).

use hase_entities::netmodel::datasheet::{DataForm, LogBase, StartupForm};

/// The log base of fitted sheets (`log p` is log₂ p, as `hase datasheet show --json` reports).
pub const FIT_LOG_BASE: LogBase = LogBase::Two;

/// The startup terms the fitter tries.
pub const STARTUP_FORMS: [StartupForm; 3] = [StartupForm::P, StartupForm::LogP, StartupForm::P2];

/// The data terms the fitter tries.
pub const DATA_FORMS: [DataForm; 4] = [DataForm::D, DataForm::PD, DataForm::LogPD, DataForm::P2D];

/// Every MPI function `hase mpi bench` times, by its data-sheet name, the
/// [`BENCHMARKED_POINT_TO_POINT`] point-to-point ones first.
pub const BENCHMARKED_FUNCTIONS: [&str; 18] = [
    "send",
    "recv",
    "recvmin",
    "isend1",
    "isend2",
    "irecv1",
    "irecv2",
    "sendrecv",
    "pingpong",
    "selfsend",
    "barrier",
    "bcast",
    "reduce",
    "allreduce",
    "gather",
    "scatter",
    "allgather",
    "alltoall",
];

/// How many of [`BENCHMARKED_FUNCTIONS`] are point-to-point.
pub const BENCHMARKED_POINT_TO_POINT: usize = 10;

/// Point-to-point functions of sheets that the benchmark does not time (the shipped sheets have
/// them).
const OTHER_POINT_TO_POINT: [&str; 3] = ["ssend", "rsend", "isendoverlap"];

/// How a function's measurements are fitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionClass {
    /// Two processes, varying size: c + k·d, robust centre (median of means).
    PointToPoint,
    /// Varying process count, no data: c + s·startup(p).
    Barrier,
    /// Varying both: the 12 forms.
    Collective,
}

impl FunctionClass {
    /// The class of a sheet function name.
    pub fn of(function: &str) -> Self {
        let benchmarked = &BENCHMARKED_FUNCTIONS[..BENCHMARKED_POINT_TO_POINT];
        if benchmarked.contains(&function) || OTHER_POINT_TO_POINT.contains(&function) {
            FunctionClass::PointToPoint
        } else if function == "barrier" {
            FunctionClass::Barrier
        } else {
            FunctionClass::Collective
        }
    }

    /// The candidate (startup, data) forms.
    pub fn forms(self) -> Vec<Form> {
        match self {
            FunctionClass::PointToPoint => vec![Form { startup: StartupForm::None, data: DataForm::D }],
            FunctionClass::Barrier => {
                STARTUP_FORMS.iter().map(|&startup| Form { startup, data: DataForm::None }).collect()
            }
            FunctionClass::Collective => STARTUP_FORMS
                .iter()
                .flat_map(|&startup| DATA_FORMS.iter().map(move |&data| Form { startup, data }))
                .collect(),
        }
    }

    /// True if the function's size varies (everything but barriers).
    pub fn has_data(self) -> bool {
        self != FunctionClass::Barrier
    }

    /// True if the function's process count varies (everything but point-to-point).
    pub fn has_startup(self) -> bool {
        self != FunctionClass::PointToPoint
    }
}

/// One equation shape: which startup and data terms accompany the constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Form {
    /// Startup term.
    pub startup: StartupForm,
    /// Data term.
    pub data: DataForm,
}

impl Form {
    /// Number of coefficients fitted (the constant plus each term present).
    pub fn parameters(self) -> usize {
        1 + usize::from(self.startup != StartupForm::None) + usize::from(self.data != DataForm::None)
    }

    /// The basis functions' values at (p, d bytes), in coefficient order (constant, startup, data),
    /// absent terms left out.
    pub fn basis(self, p: f64, d: f64) -> Vec<f64> {
        let mut row = vec![1.0];
        if self.startup != StartupForm::None {
            row.push(self.startup.eval(p, FIT_LOG_BASE));
        }
        if self.data != DataForm::None {
            row.push(self.data.eval(p, d, FIT_LOG_BASE));
        }
        row
    }
}

impl std::fmt::Display for Form {
    /// `c + s·log(p) + k·p·d`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "c")?;
        if self.startup != StartupForm::None {
            write!(f, " + s·{}", self.startup.text())?;
        }
        if self.data != DataForm::None {
            write!(f, " + k·{}", self.data.text())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_collective_forms_three_barrier_forms_one_point_to_point_form() {
        assert_eq!(FunctionClass::of("allreduce").forms().len(), 12);
        assert_eq!(FunctionClass::of("barrier").forms().len(), 3);
        assert_eq!(
            FunctionClass::of("isend2").forms(),
            [Form { startup: StartupForm::None, data: DataForm::D }]
        );
        let f = Form { startup: StartupForm::LogP, data: DataForm::P2D };
        assert_eq!(f.parameters(), 3);
        // p = 8, d = 10: log2 8 = 3, p²·d = 640.
        assert_eq!(f.basis(8.0, 10.0), [1.0, 3.0, 640.0]);
        assert_eq!(f.to_string(), "c + s·log(p) + k·p²·d");
    }
}
