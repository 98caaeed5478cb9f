//! What an import gives: the project, the notes on what hase approximated or left out, the host
//! names in rank order and a one-line summary.

use hase_engine::model::Project;

/// Something hase approximates or leaves out, with the line it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// Line in the platform file.
    pub line: u32,
    /// What it is about.
    pub text: String,
}

/// The imported project and what the importer had to say about it.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The project (its workload idle: give one with `--workload-trace` or a program).
    pub project: Project,
    /// Approximations and ignored elements, each with its line.
    pub notes: Vec<Note>,
    /// The SimGrid host names in processor-rank order.
    pub hosts: Vec<String>,
    /// One line saying what was imported (`cluster c: FAT_TREE 2;4,4;1,2;1,2, 16 hosts`).
    pub summary: String,
}
