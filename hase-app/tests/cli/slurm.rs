//! `hase sweep` on a real single-node Slurm cluster (Debian's slurm-wlm with munge), started and
//! stopped by `scripts/slurm-cluster`: a 12-point sweep submitted as a job array, waited for with
//! a bounded timeout, collected byte-identical to the local run; then one result file lost,
//! named by `--collect` and `--status`, and resubmitted alone (the resume). The test fails — it
//! never skips — when Slurm cannot run here.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use super::{p, projects, text};

/// How long the array may take before the test fails (a 12-task array takes 5–15 s here).
const ARRAY_TIMEOUT: Duration = Duration::from_mins(3);

/// A private cluster under a temporary directory, stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/slurm-cluster")
}

impl Cluster {
    fn start() -> Cluster {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(script())
            .args(["start", p(dir.path())])
            .output()
            .expect("scripts/slurm-cluster runs");
        assert!(out.status.success(), "the Slurm cluster did not start: {:?}", text(&out));
        Cluster { dir }
    }

    fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// `hase ARGS` as a Slurm client of this cluster.
    fn hase(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_hase"))
            .args(args)
            .env("SLURM_CONF", self.conf())
            .output()
            .expect("the hase binary runs")
    }

    /// The daemons' logs, for a failure message.
    fn logs(&self) -> String {
        let mut all = Vec::new();
        for name in ["slurmctld.log", "slurmd.log"] {
            let log = std::fs::read_to_string(self.dir.path().join("log").join(name)).unwrap_or_default();
            let lines: Vec<&str> = log.lines().collect();
            let tail = lines[lines.len().saturating_sub(30)..].join("\n");
            all.push(format!("---- {name}\n{tail}"));
        }
        all.join("\n")
    }

    /// Wait until every run of the job in `job` has a result file, or fail with what is known.
    fn wait_for_results(&self, job: &Path, runs: usize) {
        let start = Instant::now();
        loop {
            let present = std::fs::read_dir(job.join("results"))
                .unwrap()
                .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with("point-"))
                .count();
            if present == runs {
                return;
            }
            if start.elapsed() > ARRAY_TIMEOUT {
                let status = self.hase(&["sweep", "--status", p(job)]);
                let logs: Vec<String> = std::fs::read_dir(job.join("logs"))
                    .unwrap()
                    .map(|e| {
                        let path = e.unwrap().path();
                        format!("{}: {}", path.display(), std::fs::read_to_string(&path).unwrap_or_default())
                    })
                    .collect();
                panic!(
                    "{present} of {runs} results after {ARRAY_TIMEOUT:?}\nstatus: {:?}\ntask logs: {logs:#?}\n{}",
                    text(&status),
                    self.logs()
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(script()).args(["stop", p(self.dir.path())]).output();
    }
}

/// The job id in `submitted job N (array …)`.
fn submitted_job(stderr: &str) -> String {
    let line = stderr.lines().find(|l| l.starts_with("submitted job ")).unwrap_or_else(|| panic!("{stderr}"));
    line["submitted job ".len()..].split(' ').next().unwrap().to_string()
}

#[test]
fn a_sweep_runs_as_a_slurm_job_array_collects_like_a_local_run_and_resumes_a_lost_result() {
    let work = tempfile::tempdir().unwrap();
    let spec = work.path().join("trees.sweep.ron");
    let project = projects().join("experiments/allreduce_trees.ron");
    std::fs::write(
        &spec,
        format!(
            r#"(
  schema_version: 1,
  name: "trees on slurm",
  project: File({project:?}),
  variables: [
    (target: "template.topology", values: "fat_tree:2x3, binary_tree:8", name: "network"),
    (target: "algorithm", values: "ring, recursive_doubling"),
    (target: "workload.message_bytes", values: "1K..16K *4", name: "bytes"),
  ],
  metrics: ["makespan_ps", "events", "link_bytes", "max_link_utilisation"],
)"#,
            project = p(&project)
        ),
    )
    .unwrap();
    let local = work.path().join("local.csv");
    let out = super::hase(&["sweep", "--spec", p(&spec), "--csv", p(&local), "--jobs", "2", "--quiet"]);
    assert!(out.status.success(), "{:?}", text(&out));
    let local = std::fs::read_to_string(&local).unwrap();
    assert_eq!(local.lines().count(), 13, "{local}");

    let cluster = Cluster::start();
    let job = work.path().join("job");
    let out = cluster.hase(&[
        "sweep",
        "--spec",
        p(&spec),
        "--slurm",
        p(&job),
        "--throttle",
        "4",
        "--time",
        "00:05:00",
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}\n{}", cluster.logs());
    assert!(stderr.contains("12 runs in 12 array tasks"), "{stderr}");
    let first = submitted_job(&stderr);
    let script = std::fs::read_to_string(job.join("job.sbatch")).unwrap();
    assert!(script.contains("#SBATCH --array=0-11%4\n"), "{script}");
    assert!(script.contains(&format!("sweep --run-task {}", p(&job.canonicalize().unwrap()))), "{script}");
    cluster.wait_for_results(&job, 12);

    let collected = work.path().join("slurm.csv");
    let out = cluster.hase(&["sweep", "--collect", p(&job), "--csv", p(&collected)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(
        text(&out).1.contains("12 of 12 runs collected (0 did not go to their end), 0 missing"),
        "{:?}",
        text(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&collected).unwrap(),
        local,
        "collected CSV differs from the local run"
    );
    let task_log = std::fs::read_to_string(job.join(format!("logs/{first}_5.err"))).unwrap();
    assert!(task_log.contains("task 5: points 5..6: 1 runs written, 0 already present"), "{task_log}");

    // Lose task 5's result: collect and status name it, a resubmission runs task 5 alone.
    std::fs::remove_file(job.join("results/point-000005-rep-000.ron")).unwrap();
    let out = cluster.hase(&["sweep", "--collect", p(&job), "--csv", p(&collected)]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    let stderr_file = job.canonicalize().unwrap().join(format!("logs/{first}_5.err"));
    let expected = format!("point 5 rep 0: missing (job {first} task 5, stderr {})", p(&stderr_file));
    assert!(stderr.contains(&expected), "{stderr}\nwanted: {expected}");
    assert_eq!(std::fs::read_to_string(&collected).unwrap().lines().count(), 12);
    let out = cluster.hase(&["sweep", "--status", p(&job)]);
    let (stdout, _) = text(&out);
    assert!(
        stdout.contains("12 runs: 11 done, 1 missing") && stdout.contains("point 5 rep 0: missing"),
        "{stdout}"
    );
    assert!(stdout.contains("queue states from squeue"), "{stdout}");

    let out = cluster.hase(&["sweep", "--resubmit", p(&job)]);
    let (_, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("(array 5%4)"), "{stderr}");
    let second = submitted_job(&stderr);
    assert_ne!(first, second);
    cluster.wait_for_results(&job, 12);
    let out = cluster.hase(&["sweep", "--collect", p(&job), "--csv", p(&collected)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(
        std::fs::read_to_string(&collected).unwrap(),
        local,
        "the resumed CSV differs from the local run"
    );
    // Only task 5 ran again.
    let mut again: Vec<String> = std::fs::read_dir(job.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&format!("{second}_")))
        .collect();
    again.sort();
    assert_eq!(again, [format!("{second}_5.err"), format!("{second}_5.out")]);
    let out = cluster.hase(&["sweep", "--resubmit", p(&job)]);
    assert!(text(&out).1.contains("nothing to submit"), "{:?}", text(&out));

    // Into the experiment store: its CSV export is the local CSV too.
    let data = work.path().join("data");
    let out = cluster.hase(&[
        "sweep",
        "--collect",
        p(&job),
        "--store",
        "--data-dir",
        p(&data),
        "--csv",
        p(&collected),
    ]);
    assert!(out.status.success() && text(&out).1.contains("stored as experiment 1"), "{:?}", text(&out));
    let exported = work.path().join("exported.csv");
    let out = cluster.hase(&["experiments", "export", "1", "--csv", p(&exported), "--data-dir", p(&data)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert_eq!(std::fs::read_to_string(&exported).unwrap(), local);

    // --dry-run writes the directory and prints the command instead of submitting.
    let dry = work.path().join("dry");
    let out = cluster.hase(&[
        "sweep",
        "--spec",
        p(&spec),
        "--slurm",
        p(&dry),
        "--points-per-task",
        "5",
        "--dry-run",
    ]);
    let (_, stderr) = text(&out);
    assert!(out.status.success() && stderr.contains("12 runs in 3 array tasks (5 points each)"), "{stderr}");
    assert!(
        stderr.contains("not submitted (--dry-run); submit with: sbatch --parsable --array=0-2 "),
        "{stderr}"
    );
    assert!(!dry.join("submissions.ron").exists());
}
