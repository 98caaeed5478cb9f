//! Why a built-in program could not be built.

use hase_engine::model::ParamError;

/// Why a program could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProgramError {
    /// No program of that name.
    #[error("unknown program `{name}`; built-in programs: {known}")]
    UnknownProgram {
        /// The name asked for.
        name: String,
        /// The names there are.
        known: String,
    },
    /// A parameter the program does not have.
    #[error("program `{program}` has no parameter `{param}`; its parameters: {known}")]
    UnknownParam {
        /// The program.
        program: &'static str,
        /// The parameter given.
        param: String,
        /// The parameters it has.
        known: String,
    },
    /// A value that does not fit its parameter.
    #[error("program `{program}`, parameter `{param}`: {source}")]
    BadParam {
        /// The program.
        program: &'static str,
        /// The parameter.
        param: String,
        /// What is wrong with the value.
        source: ParamError,
    },
    /// A parameter with no value and no default.
    #[error("program `{program}` needs a value for parameter `{param}`")]
    MissingParam {
        /// The program.
        program: &'static str,
        /// The parameter.
        param: String,
    },
    /// The parameters or the number of ranks do not suit the program.
    #[error("program `{program}` cannot run: {reason}")]
    Unsuitable {
        /// The program.
        program: &'static str,
        /// Why.
        reason: String,
    },
}
