//! The text of `job.sbatch`: `#SBATCH` lines (array, logs, partition, time, memory, any extra
//! arguments) and one command, the recorded hase binary running `hase sweep --run-task DIR`.
//! Paths in `#SBATCH` lines cannot be quoted, so the job directory must not hold white space,
//! quotes, backslashes or `%` (Slurm's file-name patterns); [`check_script_path`] says so.

use std::fmt::Write as _;
use std::path::Path;

use super::error::SlurmError;
use super::layout::SlurmJob;

/// Refuse a job directory that `#SBATCH --output=` could not name.
pub fn check_script_path(dir: &Path) -> Result<(), SlurmError> {
    let text = dir.to_str().ok_or_else(|| SlurmError::BadPath {
        path: dir.to_path_buf(),
        reason: "the job directory's path is not UTF-8".into(),
    })?;
    if let Some(c) = text.chars().find(|c| c.is_whitespace() || matches!(c, '%' | '"' | '\'' | '\\')) {
        return Err(SlurmError::BadPath {
            path: dir.to_path_buf(),
            reason: format!(
                "the job directory's path holds {c:?}, which #SBATCH lines cannot take; choose another"
            ),
        });
    }
    Ok(())
}

/// A word quoted for the shell (`'…'`, with `'` written as `'\''`).
pub fn shell_quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c)) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The array line's value: `0-(T-1)`, with `%N` when throttled.
pub fn array_value(tasks: u64, throttle: Option<u32>) -> String {
    let mut value = format!("0-{}", tasks.saturating_sub(1));
    if let Some(n) = throttle {
        let _ = write!(value, "%{n}");
    }
    value
}

/// The script of `job` (see the module documentation).
pub fn job_script(job: &SlurmJob) -> String {
    let m = &job.manifest;
    let s = &m.settings;
    let dir = job.dir.display();
    let mut text = String::from("#!/bin/bash\n");
    let _ = writeln!(text, "# hase sweep as a Slurm job array, written by hase {}.", m.hase_version);
    let _ = writeln!(
        text,
        "# Experiment: {} — {} points × {} repetitions, {} per task, {} tasks.",
        m.name.replace('\n', " "),
        m.points,
        m.repetitions,
        s.points_per_task,
        m.tasks
    );
    let _ = writeln!(text, "# Submit: sbatch {dir}/job.sbatch   Collect: hase sweep --collect {dir}");
    let job_name: String = m
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' })
        .collect();
    let _ = writeln!(text, "#SBATCH --job-name=hase-{job_name}");
    let _ = writeln!(text, "#SBATCH --array={}", array_value(m.tasks, s.throttle));
    let _ = writeln!(text, "#SBATCH --output={dir}/logs/%A_%a.out");
    let _ = writeln!(text, "#SBATCH --error={dir}/logs/%A_%a.err");
    let _ = writeln!(text, "#SBATCH --ntasks=1");
    for (option, value) in [("partition", &s.partition), ("time", &s.time), ("mem", &s.mem)] {
        if let Some(value) = value {
            let _ = writeln!(text, "#SBATCH --{option}={value}");
        }
    }
    for arg in &s.sbatch_args {
        let _ = writeln!(text, "#SBATCH {arg}");
    }
    text += "set -eu\n";
    if let Some(data_dir) = &s.data_dir {
        let _ = writeln!(text, "export HASE_DATA_DIR={}", shell_quote(&data_dir.display().to_string()));
    }
    let _ = writeln!(
        text,
        "exec {} sweep --run-task {}",
        shell_quote(&s.hase_binary.display().to_string()),
        shell_quote(&job.dir.display().to_string())
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::slurm::layout::{MANIFEST_VERSION, SlurmManifest, SlurmSettings};
    use std::path::PathBuf;

    fn job(settings: SlurmSettings) -> SlurmJob {
        SlurmJob {
            dir: PathBuf::from("/shared/exp1"),
            manifest: SlurmManifest {
                version: MANIFEST_VERSION,
                name: "allreduce sizes".into(),
                hase_version: "0.1.0".into(),
                created_unix_s: 0,
                base_dir: PathBuf::from("/home/u/p"),
                points: 12,
                repetitions: 2,
                tasks: 4,
                settings,
            },
        }
    }

    #[test]
    fn script_has_array_logs_limits_and_the_recorded_binary() {
        let mut settings = SlurmSettings::new(PathBuf::from("/opt/hase it/bin/hase"));
        settings.points_per_task = 3;
        settings.partition = Some("short".into());
        settings.time = Some("00:10:00".into());
        settings.mem = Some("2G".into());
        settings.throttle = Some(2);
        settings.sbatch_args = vec!["--account=abc".into(), "--qos=low".into()];
        settings.data_dir = Some(PathBuf::from("/shared/hase-data"));
        let text = job_script(&job(settings));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "#!/bin/bash");
        let sbatch: Vec<&str> = lines.iter().copied().filter(|l| l.starts_with("#SBATCH")).collect();
        assert_eq!(
            sbatch,
            [
                "#SBATCH --job-name=hase-allreduce_sizes",
                "#SBATCH --array=0-3%2",
                "#SBATCH --output=/shared/exp1/logs/%A_%a.out",
                "#SBATCH --error=/shared/exp1/logs/%A_%a.err",
                "#SBATCH --ntasks=1",
                "#SBATCH --partition=short",
                "#SBATCH --time=00:10:00",
                "#SBATCH --mem=2G",
                "#SBATCH --account=abc",
                "#SBATCH --qos=low",
            ]
        );
        // Every #SBATCH line comes before the first command (sbatch stops reading at it).
        let first_command = lines.iter().position(|l| !l.starts_with('#')).unwrap();
        assert!(lines.iter().rposition(|l| l.starts_with("#SBATCH")).unwrap() < first_command);
        assert_eq!(lines[lines.len() - 2], "export HASE_DATA_DIR=/shared/hase-data");
        assert_eq!(lines[lines.len() - 1], "exec '/opt/hase it/bin/hase' sweep --run-task /shared/exp1");
    }

    #[test]
    fn unthrottled_array_and_no_optional_lines() {
        let text = job_script(&job(SlurmSettings::new(PathBuf::from("/usr/bin/hase"))));
        assert!(text.contains("#SBATCH --array=0-3\n"), "{text}");
        for absent in ["--partition", "--time", "--mem", "HASE_DATA_DIR"] {
            assert!(!text.contains(absent), "{absent} in {text}");
        }
        assert_eq!(array_value(1, None), "0-0");
    }

    #[test]
    fn paths_sbatch_cannot_name_are_refused_and_words_are_quoted() {
        assert!(check_script_path(Path::new("/shared/exp-1_a")).is_ok());
        for bad in ["/shared/my exp", "/shared/100%", "/shared/it's"] {
            let err = check_script_path(Path::new(bad)).unwrap_err().to_string();
            assert!(err.contains(bad) && err.contains("#SBATCH"), "{err}");
        }
        assert_eq!(shell_quote("/a/b-c"), "/a/b-c");
        assert_eq!(shell_quote("it's here"), r"'it'\''s here'");
        assert_eq!(shell_quote(""), "''");
    }
}
