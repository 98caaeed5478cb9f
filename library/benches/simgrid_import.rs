//! SimGrid import of explicit platforms, built in code: a chain of 10,000 links between two hosts
//! (one route through 9,999 anonymous routers), a star of 20,000 hosts around one router (one route
//! per host), a 400-host Full routing (every host on its own link to one router, a route for every
//! pair) and a star of 70,000 hosts. The goal is at most 1 s each for the first three.
//!
//! Printed once, first: for each platform its size, the wall and CPU time of `import_simgrid` and
//! of writing the project file (what `hase import simgrid` does). The criterion group then times the
//! import of each shape at a quarter, half and full size in elements per second: equal rates mean
//! the import is linear in the platform's size.
//!
//! `cargo bench -p hase-library --bench simgrid_import`; `cargo bench -p hase-library --bench
//! simgrid_import -- --list` prints the one-off figures only. With `HASE_SIMGRID_DUMP=DIR` each
//! imported project is also written to `DIR/SHAPE.ron` (to compare two builds' output).

#![allow(missing_docs, reason = "criterion's macros generate undocumented items")]
#![allow(
    clippy::unwrap_used,
    reason = "a benchmark that cannot import its platform has nothing to measure: failing loudly is right"
)]

use std::fmt::Write;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hase_library::generated::save_project;
use hase_library::import::simgrid::{ImportOptions, import_simgrid};

fn platform(body: &str) -> String {
    format!(
        "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n{body}</zone>\n</platform>\n"
    )
}

fn link(body: &mut String, id: &str) {
    writeln!(body, "<link id=\"{id}\" bandwidth=\"1GBps\" latency=\"1us\" sharing_policy=\"SPLITDUPLEX\"/>")
        .unwrap();
}

/// Two hosts joined by one route through `links` links.
fn chain(links: usize) -> String {
    let mut body = String::from("<host id=\"a\" speed=\"1Gf\"/>\n<host id=\"b\" speed=\"1Gf\"/>\n");
    for l in 0..links {
        link(&mut body, &format!("l{l}"));
    }
    body.push_str("<route src=\"a\" dst=\"b\">");
    for l in 0..links {
        write!(body, "<link_ctn id=\"l{l}\"/>").unwrap();
    }
    body.push_str("</route>\n");
    platform(&body)
}

/// `hosts` hosts, each on its own link to one router, with a route from each host to the router.
fn star(hosts: usize) -> String {
    let mut body = String::from("<router id=\"centre\"/>\n");
    for h in 0..hosts {
        writeln!(body, "<host id=\"h{h}\" speed=\"1Gf\"/>").unwrap();
        link(&mut body, &format!("l{h}"));
        writeln!(body, "<route src=\"h{h}\" dst=\"centre\"><link_ctn id=\"l{h}\"/></route>").unwrap();
    }
    platform(&body)
}

/// `hosts` hosts, each on its own link to one router, with a route between every pair.
fn full(hosts: usize) -> String {
    let mut body = String::from("<router id=\"centre\"/>\n");
    for h in 0..hosts {
        writeln!(body, "<host id=\"h{h}\" speed=\"1Gf\"/>").unwrap();
        link(&mut body, &format!("l{h}"));
    }
    for a in 0..hosts {
        for b in a + 1..hosts {
            writeln!(
                body,
                "<route src=\"h{a}\" dst=\"h{b}\"><link_ctn id=\"l{a}\"/><link_ctn id=\"l{b}\"/></route>"
            )
            .unwrap();
        }
    }
    platform(&body)
}

/// CPU time of this process so far (user + system), from `/proc/self/stat`.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Fields 14 and 15 of the whole line (utime, stime) are 12 and 13 after the name and state.
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    Duration::from_millis(ticks * 10)
}

type Shape = (&'static str, fn(usize) -> String, usize);

const SHAPES: [Shape; 4] =
    [("chain", chain, 10_000), ("star", star, 20_000), ("full", full, 400), ("star", star, 70_000)];

fn one_off(_: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let dump = std::env::var_os("HASE_SIMGRID_DUMP").map(std::path::PathBuf::from);
    for (shape, build, n) in SHAPES {
        let text = build(n);
        let (wall, cpu) = (Instant::now(), cpu_time());
        let imported = import_simgrid(&text, "platform.xml", &ImportOptions::default()).unwrap();
        let (import_wall, import_cpu) = (wall.elapsed(), cpu_time().saturating_sub(cpu));
        let path = dir.path().join("p.ron");
        save_project(&imported.project, &path).unwrap();
        let (total_wall, total_cpu) = (wall.elapsed(), cpu_time().saturating_sub(cpu));
        eprintln!(
            "{shape} {n}: {} bytes, {}: import {:.3} s wall {:.2} s CPU; with the project file {:.3} s wall {:.2} s CPU",
            text.len(),
            imported.summary,
            import_wall.as_secs_f64(),
            import_cpu.as_secs_f64(),
            total_wall.as_secs_f64(),
            total_cpu.as_secs_f64(),
        );
        if let Some(dump) = &dump {
            std::fs::copy(&path, dump.join(format!("{shape}{n}.ron"))).unwrap();
        }
    }
}

fn import_is_linear(c: &mut Criterion) {
    let mut group = c.benchmark_group("simgrid_import");
    group.sample_size(10);
    for (shape, build, n) in &SHAPES[..3] {
        for n in [n / 4, n / 2, *n] {
            let text = build(n);
            // A Full routing's size is its routes, one per pair of hosts.
            let elements = if *shape == "full" { n * (n - 1) / 2 } else { n };
            group.throughput(Throughput::Elements(elements as u64));
            group.bench_function(format!("{shape}{n}"), |b| {
                b.iter(|| import_simgrid(&text, "platform.xml", &ImportOptions::default()).unwrap().summary);
            });
        }
    }
    group.finish();
}

criterion_group!(benches, one_off, import_is_linear);
criterion_main!(benches);
