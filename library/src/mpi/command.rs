//! Starting `mpirun` (or any launcher a user names) with the environment the shims read, either
//! reading the program's output line by line (the benchmark's CSV rows) or letting it through to
//! the terminal and keeping it (a user's program under `record` or `predict`, whose `hase-time`
//! lines are read afterwards). Errors name the command and end
//! with what it printed to stderr.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::error::MpiError;

/// How MPI programs are launched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MpiRun {
    /// The launcher's words before `-np N` (`mpirun`, or `mpirun --oversubscribe`).
    pub launcher: Vec<String>,
    /// Extra environment for the launcher and the ranks it starts.
    pub env: Vec<(String, String)>,
}

impl Default for MpiRun {
    fn default() -> Self {
        MpiRun { launcher: vec!["mpirun".into()], env: Vec::new() }
    }
}

impl MpiRun {
    /// A launcher from a command line such as `mpirun --oversubscribe` (split at white space).
    pub fn from_command_line(text: &str) -> Result<Self, MpiError> {
        let launcher: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        if launcher.is_empty() {
            return Err(MpiError::Argument("the MPI launcher command is empty".into()));
        }
        Ok(MpiRun { launcher, env: Vec::new() })
    }
}

/// The last `lines` lines of `text`.
fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

fn command_of(argv: &[String], env: &[(String, String)]) -> Result<Command, MpiError> {
    let (program, args) =
        argv.split_first().ok_or_else(|| MpiError::Argument("no command to run was given".into()))?;
    let mut cmd = Command::new(program);
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    Ok(cmd)
}

fn failed(argv: &[String], status: std::process::ExitStatus, stderr: &str) -> MpiError {
    MpiError::Failed { command: argv.join(" "), status: status.to_string(), stderr: tail(stderr, 20) }
}

/// Run `argv`, calling `on_line` with every line it writes to stdout; its stderr is kept for the
/// error if it fails.
pub fn run_reading_lines(
    argv: &[String],
    env: &[(String, String)],
    mut on_line: impl FnMut(&str) -> Result<(), MpiError>,
) -> Result<(), MpiError> {
    let mut cmd = command_of(argv, env)?;
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| MpiError::Tool { program: argv[0].clone(), source: e })?;
    let mut stderr_pipe = child.stderr.take();
    let stderr_reader = std::thread::Builder::new()
        .name("hase-mpi-stderr".into())
        .spawn(move || {
            let mut text = String::new();
            if let Some(pipe) = stderr_pipe.as_mut() {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
        .map_err(|e| MpiError::Tool { program: argv[0].clone(), source: e })?;
    let mut result = Ok(());
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| MpiError::Tool { program: argv[0].clone(), source: e })?;
            if let Err(e) = on_line(&line) {
                result = Err(e);
                let _ = child.kill();
                break;
            }
        }
    }
    let status = child.wait().map_err(|e| MpiError::Tool { program: argv[0].clone(), source: e })?;
    let stderr = stderr_reader.join().unwrap_or_default();
    result?;
    if status.success() { Ok(()) } else { Err(failed(argv, status, &stderr)) }
}

/// Run `argv` with its standard output going to the terminal line by line and kept (its standard
/// error is kept for the error should it fail); returns the wall time it took and the output (for
/// the `hase-time` lines of programs that time themselves).
pub fn run_keeping_output(argv: &[String], env: &[(String, String)]) -> Result<(Duration, String), MpiError> {
    let started = Instant::now();
    let mut kept = String::new();
    run_reading_lines(argv, env, |line| {
        println!("{line}");
        kept.push_str(line);
        kept.push('\n');
        Ok(())
    })?;
    Ok((started.elapsed(), kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_and_failures_name_the_command_and_its_stderr() {
        let sh = |script: &str| vec!["sh".to_string(), "-c".to_string(), script.to_string()];
        let mut lines = Vec::new();
        run_reading_lines(&sh("echo a; echo b"), &[("X".into(), "1".into())], |l| {
            lines.push(l.to_string());
            Ok(())
        })
        .unwrap();
        assert_eq!(lines, ["a", "b"]);
        let err = run_reading_lines(&sh("echo oops >&2; exit 3"), &[], |_| Ok(())).unwrap_err().to_string();
        assert_eq!(err, "`sh -c echo oops >&2; exit 3` failed (exit status: 3):\noops");
        let err =
            run_reading_lines(&["/nonexistent/mpirun".into()], &[], |_| Ok(())).unwrap_err().to_string();
        assert!(err.starts_with("cannot run `/nonexistent/mpirun`"), "{err}");
        let (_, kept) = run_keeping_output(&sh("echo hase-time x 8 1 0.5; echo other"), &[]).unwrap();
        assert_eq!(kept, "hase-time x 8 1 0.5\nother\n");
        assert_eq!(
            MpiRun::from_command_line("mpirun  --oversubscribe").unwrap().launcher,
            ["mpirun", "--oversubscribe"]
        );
    }
}
