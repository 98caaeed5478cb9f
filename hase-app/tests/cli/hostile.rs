//! Hostile input on the command line: every command that reads a token or a file's line ends with
//! an exit code of 1 to 3 and an error that quotes the input short, without the terminal escapes
//! it held; special files are refused before they are read.

use super::*;

/// A token an attacker would write: an escape that retitles the terminal, then 50,000 characters.
fn hostile_token() -> String {
    format!("\u{1b}]0;owned\u{7}\u{1b}[31m{}", "x".repeat(50_000))
}

fn bounded_failure(args: &[&str], what: &str) {
    let out = hase(args);
    let (_, err) = text(&out);
    let code = out.status.code().unwrap_or(-1);
    assert!((1..=3).contains(&code), "{what}: exit {code}, stderr {}", &err[..err.len().min(300)]);
    assert!(err.len() < 4_000, "{what}: an error of {} bytes: {}", err.len(), &err[..300]);
    assert!(!err.contains('\u{1b}'), "{what}: a terminal escape reached the terminal: {err:?}");
}

#[test]
fn long_escape_laden_tokens_and_lines_are_quoted_short() {
    let dir = tempfile::tempdir().unwrap();
    let token = hostile_token();
    let project = projects().join("fat_tree_allreduce.ron");
    let project = p(&project);
    let line_file = dir.path().join("hostile.txt");
    std::fs::write(&line_file, format!("{token}\n{token}\n")).unwrap();
    let line_file = p(&line_file);
    let platform = dir.path().join("p.xml");
    std::fs::write(
        &platform,
        "<?xml version='1.0'?>\n<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" suffix=\"\" \
         radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/></platform>\n",
    )
    .unwrap();
    let platform = p(&platform);
    let data = dir.path().join("data");
    let data = p(&data);
    let assignment = format!("p0.{token}=1");
    let vary = format!("workload.message_bytes={token}");
    for (args, what) in [
        (vec!["run", project, "--set", &assignment], "--set"),
        (vec!["sweep", project, "--vary", &token], "--vary without ="),
        (vec!["sweep", project, "--vary", &vary], "--vary values"),
        (vec!["sweep", project, "--vary", "workload.message_bytes=1K,2K", "--where", &token], "--where"),
        (vec!["import", "simgrid", platform, "--ranks", &token, "-o", "/dev/null"], "--ranks"),
        (vec!["import", "simgrid", platform, "--hostfile", line_file, "-o", "/dev/null"], "hostfile line"),
        (vec!["validate", line_file], "validate"),
        (vec!["trace", "stats", line_file], "trace stats"),
        (vec!["trace", "phases", line_file], "trace phases"),
        (vec!["trace", "phases", line_file, "--window", &token], "trace phases --window"),
        (vec!["trace", "diff", line_file, line_file], "trace diff"),
        (vec!["trace", "diff", line_file, line_file, "--tolerance", &token], "trace diff --tolerance"),
        (vec!["import", "simgrid", platform, "--np", &token, "-o", "/dev/null"], "--np"),
        (vec!["run", project, "--level", &token], "--level"),
        (vec!["datasheet", "show", line_file], "datasheet show"),
        (vec!["datasheet", "fit", line_file, "-o", "/dev/null"], "datasheet fit"),
        (vec!["experiments", "--data-dir", data, "import", line_file], "experiments import"),
    ] {
        bounded_failure(&args, what);
    }
}

#[test]
fn special_files_are_refused_before_they_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let platform = dir.path().join("p.xml");
    std::fs::write(&platform, "<?xml version='1.0'?>\n<platform version=\"4.1\"/>\n").unwrap();
    for special in [p(&fifo), "/dev/zero", "/proc/self/environ"] {
        for (args, what) in [
            (vec!["sweep", "--spec", special], "--spec"),
            (vec!["validate", special], "validate"),
            (vec!["datasheet", "fit", special, "-o", "/dev/null"], "raw CSV"),
            (vec!["import", "simgrid", special, "-o", "/dev/null"], "platform"),
            (vec!["import", "simgrid", p(&platform), "--hostfile", special, "-o", "/dev/null"], "hostfile"),
            (vec!["datasheet", "show", special], "sheet"),
        ] {
            let out = hase(&args);
            let (_, err) = text(&out);
            assert!(!out.status.success(), "{what} {special}: accepted");
            assert!(err.contains("not a regular file"), "{what} {special}: {err}");
            assert!(!err.contains("PATH="), "{what} {special}: the environment leaked: {err}");
        }
    }
}

/// A stderr line where a cause follows a text that already ends with it or says it (`File exists
/// (os error 17): File exists`, `…: No such file or directory (os error 2): No such file or
/// directory (os error 2)`): two neighbouring `: `-separated parts, the second at the start of the
/// first.
fn repeated_part(line: &str) -> Option<&str> {
    let parts: Vec<&str> = line.split(": ").map(str::trim).collect();
    parts.windows(2).find_map(|w| (w[1].len() >= 8 && w[0].starts_with(w[1])).then_some(w[1]))
}

#[test]
fn no_error_line_says_the_same_thing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("raw.csv");
    let missing = p(&missing);
    let data = dir.path().join("data");
    let data = p(&data);
    let existing_dir = p(dir.path());
    let broken = dir.path().join("broken.ron");
    let good = std::fs::read_to_string(projects().join("fat_tree_allreduce.ron")).unwrap();
    std::fs::write(&broken, good.replacen("type: \"Processor\"", "type: \"Nope\"", 2)).unwrap();
    let broken = p(&broken);
    for (args, what) in [
        (vec!["datasheet", "fit", missing, "-o", "/dev/null"], "missing raw CSV"),
        (vec!["datasheet", "show", missing], "missing sheet"),
        (vec!["validate", missing], "missing project"),
        (vec!["run", missing], "run of a missing project"),
        (vec!["trace", "stats", missing], "missing trace"),
        (vec!["trace", "phases", missing], "phases of a missing trace"),
        (vec!["import", "simgrid", missing, "-o", "/dev/null"], "missing platform"),
        (vec!["sweep", "--spec", missing], "missing spec"),
        (vec!["experiments", "--data-dir", data, "import", missing], "missing export"),
        (vec!["datasheet", "fit", existing_dir, "-o", "/dev/null"], "a directory as raw CSV"),
        (vec!["validate", broken], "validation problems"),
        (vec!["run", broken], "a run's validation problems"),
    ] {
        let out = hase(&args);
        let (_, err) = text(&out);
        assert!(!out.status.success(), "{what}: accepted");
        assert!(!err.trim().is_empty(), "{what}: no error");
        let lines: Vec<&str> = err.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            assert!(repeated_part(line).is_none(), "{what}: {line:?} repeats {:?}", repeated_part(line));
            assert!(!lines[i + 1..].contains(line), "{what}: the line {line:?} is printed twice");
        }
    }
}
