//! Platforms: the PGFT and dragonfly templates with their routing choices, placing ranks with
//! `--np`, a list or a hostfile, SimGrid platform import (hostfiles, flow latency), and the
//! imported platforms against real SMPI.

use super::*;

#[test]
fn pgft_and_dragonfly_templates_with_their_routing_choices_and_host_links() {
    let dir = tempfile::tempdir().unwrap();
    let pgft = dir.path().join("pgft.ron");
    let out = hase(&[
        "new",
        "--template",
        "pgft",
        "--dims",
        "2;4,4;1,2;1,2",
        "--down-choice",
        "source",
        "--up-choice",
        "source",
        "--program",
        "collective_loop",
        "--param",
        "operation=alltoall",
        "-o",
        p(&pgft),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).1.contains("6 switches, 16 processors, 32 links"), "{:?}", text(&out));
    let saved = hase_library::generated::load_project(&pgft).unwrap();
    assert!(matches!(
        saved.network.routing,
        hase_engine::model::Routing::Pgft {
            up_choice: hase_engine::model::UpChoice::BySource,
            down_choice: hase_engine::model::DownChoice::BySource,
            ..
        }
    ));
    let out = hase(&["run", p(&pgft), "--quiet"]);
    assert!(out.status.success() && text(&out).0.contains("completed"), "{:?}", text(&out));

    // Direct network with ideal processor links; switch links as given.
    let torus = dir.path().join("torus.ron");
    let out = hase(&[
        "new",
        "--template",
        "torus2d",
        "--dims",
        "4x4",
        "--latency",
        "1us",
        "--bandwidth",
        "1GBps",
        "--ideal-host-links",
        "-o",
        p(&torus),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let saved = hase_library::generated::load_project(&torus).unwrap();
    let (hosts, routers): (Vec<_>, Vec<_>) = saved
        .network
        .links
        .iter()
        .partition(|l| l.a.instance.starts_with('p') || l.b.instance.starts_with('p'));
    assert_eq!((hosts.len(), routers.len()), (16, 32));
    assert!(hosts.iter().all(|l| l.latency.as_ps() == 0 && l.bandwidth_bytes_per_s == 0));
    assert!(
        routers.iter().all(|l| l.latency.as_ps() == 1_000_000 && l.bandwidth_bytes_per_s == 1_000_000_000)
    );
    let out = hase(&[
        "new",
        "--template",
        "mesh2d",
        "--dims",
        "2x2",
        "--host-latency",
        "5ns",
        "--host-bandwidth",
        "10Gbps",
        "-o",
        p(&torus),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let saved = hase_library::generated::load_project(&torus).unwrap();
    let host = saved.network.links.iter().find(|l| l.a.instance == "p0" || l.b.instance == "p0").unwrap();
    assert_eq!((host.latency.as_ps(), host.bandwidth_bytes_per_s), (5_000, 1_250_000_000));

    let fly = dir.path().join("fly.ron");
    let out = hase(&["new", "--template", "dragonfly", "--dims", "3,1;2,1;3,1;2", "-o", p(&fly)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).1.contains("18 switches, 36 processors"), "{:?}", text(&out));
    assert!(hase(&["validate", p(&fly)]).status.success());
}

#[test]
fn ranks_are_placed_with_np_a_list_or_a_hostfile() {
    let dir = tempfile::tempdir().unwrap();
    let line = dir.path().join("line.ron");
    let out = hase(&[
        "new",
        "--template",
        "linear",
        "--dims",
        "8",
        "--program",
        "ping_pong",
        "--np",
        "2",
        "-o",
        p(&line),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(std::fs::read_to_string(&line).unwrap().contains("placement: First(2)"));
    let makespan = |extra: &[&str]| {
        let mut args = vec!["run", p(&line), "--quiet"];
        args.extend_from_slice(extra);
        let out = hase(&args);
        assert!(out.status.success(), "{:?}", text(&out));
        text(&out).0
    };
    let near = makespan(&[]);
    let far = makespan(&["--ranks", "0,7"]);
    assert_ne!(near, far, "ranks 7 hops apart take longer than neighbours");
    let hostfile = dir.path().join("hosts");
    std::fs::write(&hostfile, "# SMPI hostfile\np0\np7:1\n").unwrap();
    assert_eq!(makespan(&["--hostfile", p(&hostfile)]), far);
    std::fs::write(&hostfile, "p0\np0\n").unwrap();
    let out = hase(&["run", p(&line), "--hostfile", p(&hostfile)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("placement entries 0 and 1 both name processor `p0`"), "{:?}", text(&out));
}

#[test]
fn a_simgrid_platform_imports_and_replays_a_trace_on_the_hosts_of_a_hostfile() {
    let dir = tempfile::tempdir().unwrap();
    let platform = dir.path().join("cluster.xml");
    std::fs::write(
        &platform,
        "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n\
         <zone id=\"world\" routing=\"Full\">\n\
         <cluster id=\"ft\" prefix=\"node-\" suffix=\".sg\" radical=\"0-15\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" \
         topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\"><prop id=\"wattage\" value=\"100\"/></cluster>\n\
         </zone>\n</platform>\n",
    )
    .unwrap();
    let hosts = dir.path().join("hosts");
    std::fs::write(&hosts, "node-15.sg\nnode-0.sg\n").unwrap();
    let project = dir.path().join("ft.ron");
    let out = hase(&["import", "simgrid", p(&platform), "--hostfile", p(&hosts), "-o", p(&project)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let err = text(&out).1;
    assert!(err.contains("cluster.xml:5: note: cluster property `wattage` ignored"), "{err}");
    assert!(
        err.contains(
            "cluster ft: FAT_TREE 2;4,4;1,2;1,2, 16 hosts (22 entities, 32 links); ranks on 2 processors"
        ),
        "{err}"
    );
    let trace = dir.path().join("pair.ti");
    std::fs::write(&trace, "0 init\n0 send 1 0 1000000\n1 init\n1 recv 0 0 1000000\n").unwrap();
    let out = hase(&["run", p(&project), "--workload-trace", p(&trace), "--quiet"]);
    assert!(out.status.success() && text(&out).0.contains("completed"), "{:?}", text(&out));

    std::fs::write(
        &platform,
        "<platform version=\"4.1\">\n  <cluster id=\"c\" radical=\"0-3\"\n</platform>\n",
    )
    .unwrap();
    let out = hase(&["import", "simgrid", p(&platform), "-o", p(&project)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("cluster.xml:3:"), "{:?}", text(&out));
}

/// SimGrid's 16-host two-level fat tree (`2;4,4;1,2;1,2`, 1 GBps, 1 us), written as `ft.xml` in
/// `dir`.
fn write_ft16(dir: &Path) -> PathBuf {
    let platform = dir.join("ft.xml");
    std::fs::write(
        &platform,
        "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n\
         <cluster id=\"ft\" prefix=\"node-\" suffix=\"\" radical=\"0-15\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" \
         topology=\"FAT_TREE\" topo_parameters=\"2;4,4;1,2;1,2\"/>\n</zone>\n</platform>\n",
    )
    .unwrap();
    platform
}

#[test]
fn a_hostfile_longer_than_the_ranks_lends_its_first_hosts_and_np_takes_its_first_lines() {
    let dir = tempfile::tempdir().unwrap();
    let platform = write_ft16(dir.path());
    let project = dir.path().join("ft.ron");
    let out = hase(&["import", "simgrid", p(&platform), "-o", p(&project)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let trace = dir.path().join("pair.ti");
    std::fs::write(&trace, "0 init\n0 send 1 0 1000000\n1 init\n1 recv 0 0 1000000\n").unwrap();
    let hosts = dir.path().join("hosts");
    let makespan = |lines: &str, extra: &[&str]| {
        std::fs::write(&hosts, lines).unwrap();
        let mut args =
            vec!["run", p(&project), "--workload-trace", p(&trace), "--hostfile", p(&hosts), "--quiet"];
        args.extend_from_slice(extra);
        let out = hase(&args);
        assert!(out.status.success(), "{:?}", text(&out));
        text(&out).0
    };
    // Two ranks on a three-line hostfile run on its first two hosts, as smpirun places them.
    let across = makespan("node-15\nnode-0\n", &[]);
    let same_leaf = makespan("node-1\nnode-0\n", &[]);
    assert_ne!(across, same_leaf, "4 links take longer than 2");
    assert_eq!(makespan("node-15\nnode-0\nnode-1\n", &[]), across);
    assert_eq!(makespan("node-1\nnode-0\nnode-15\n", &[]), same_leaf);
    // --np N takes the hostfile's first N lines.
    assert_eq!(makespan("node-15\nnode-0\nnode-1\nnode-2\n", &["--np", "2"]), across);
    std::fs::write(&hosts, "node-15\nnode-0\nnode-1\n").unwrap();
    let out =
        hase(&["import", "simgrid", p(&platform), "--hostfile", p(&hosts), "--np", "2", "-o", p(&project)]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).1.contains("ranks on 2 processors: node-15, node-0"), "{:?}", text(&out));
    let out =
        hase(&["import", "simgrid", p(&platform), "--hostfile", p(&hosts), "--np", "4", "-o", p(&project)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).1.contains("--np 4: the hostfile"), "{:?}", text(&out));
    assert!(text(&out).1.contains("lists only 3 hosts"), "{:?}", text(&out));
}

#[test]
fn import_simgrid_latency_flow_pays_each_route_latency_at_the_interface() {
    let dir = tempfile::tempdir().unwrap();
    let platform = write_ft16(dir.path());
    let (links, flow) = (dir.path().join("links.ron"), dir.path().join("flow.ron"));
    let out = hase(&["import", "simgrid", p(&platform), "-o", p(&links)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let out = hase(&["import", "simgrid", p(&platform), "--latency", "flow", "-o", p(&flow)]);
    assert!(out.status.success(), "{:?}", text(&out));
    let saved = std::fs::read_to_string(&flow).unwrap();
    assert!(saved.contains("\"route_latency_per_router_link\": Time(1000000)"), "{saved}");
    let trace = dir.path().join("two.ti");
    let run = |project: &Path, lines: &str| {
        std::fs::write(&trace, lines).unwrap();
        let args = ["run", p(project), "--workload-trace", p(&trace), "--np", "5", "--quiet"];
        let out = hase(&[&args[..], &["--set", "type:Processor.max_packet=16"]].concat());
        assert!(out.status.success(), "{:?}", text(&out));
        text(&out).0
    };
    // 8192 + 16 bytes over 4 links of 1 us at 1 GB/s: 4 us + 8.208 us either way.
    let one = "0 init\n1 init\n2 init\n3 init\n4 init\n0 send 4 0 8192\n4 recv 0 0 8192\n";
    assert!(run(&flow, one).contains("completed at 12.208 us"), "{}", run(&flow, one));
    assert!(run(&links, one).contains("completed at 12.208 us"), "{}", run(&links, one));
    // Rank 0 sends to 1 (2 links) and 4 (4 links) at once: with flow latency the link is busy from
    // 2 us on and the last byte arrives at 2 us + 2 × 8.208 us, as in SimGrid; with the latency
    // on the links, the long route pays its 4 us after the shared transfer.
    let two = "0 init\n1 init\n2 init\n3 init\n4 init\n0 isend 1 0 8192\n0 isend 4 0 8192\n0 waitall\n\
               1 recv 0 0 8192\n4 recv 0 0 8192\n";
    assert!(run(&flow, two).contains("completed at 18.416 us"), "{}", run(&flow, two));
    assert!(run(&links, two).contains("completed at 20.416 us"), "{}", run(&links, two));
    let out = hase(&["import", "simgrid", p(&platform), "--latency", "hops", "-o", p(&flow)]);
    assert_eq!(out.status.code(), Some(2));
}

/// A few cases of `scripts/crosscheck-simgrid` against real SMPI (SimGrid 3.32, `libsimgrid-dev`):
/// the imported platforms, set as SMPI times messages, agree within 2 % on cases that hase's
/// defaults miss by 12 to 32 % (the 8 KiB ring allreduce and the dissemination barrier, whose
/// messages wait for their receives in SMPI) and on the 64 KiB bcast, which is rendezvous only
/// below SMPI's eager limit. Fails (never skips) when SimGrid is missing.
#[test]
fn imported_platforms_agree_with_smpi_within_two_percent() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/crosscheck-simgrid");
    let mut command = Command::new("python3");
    command.arg(&script).args(["--quick", "--fail-above", "2"]);
    for case in [
        "ft16 allreduce ring 8192 B",
        "torus16 allreduce ring 8192 B",
        "ft16 barrier dissemination",
        "torus16 barrier dissemination",
        "ft16 bcast binomial_blocking 65536 B",
        // Round-robin router outputs and SimGrid's way halfway round a torus ring.
        "torus16 alltoall pairwise 65536 B",
        "torus16 allreduce recursive_doubling 8192 B",
    ] {
        command.args(["--filter", case]);
    }
    let out = command.env("HASE", env!("CARGO_BIN_EXE_hase")).output().expect("python3 runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stdout.lines().filter(|l| l.ends_with('%')).count(), 7, "{stdout}\n{stderr}");
}

/// With the latency paid per route (`--latency flow`, SimGrid's flow model), the 8 KiB binomial
/// bcast agrees with SMPI within 2 % on a fat tree and a torus; with the latency on the links it is
/// 3.7–4.2 % off. So does the 8 KiB pairwise alltoall on the 4 × 4 × 4 torus, whose flows of
/// different route lengths share links: with the imported latency-weighted sharing (SimGrid's
/// max-min weighs each flow by its route's latency) it is +1.9 %, with one packet of each message
/// in turn +4.2 %. Fails (never skips) when SimGrid is missing.
#[test]
fn flow_latency_brings_the_small_bcast_and_the_torus_alltoall_within_two_percent_of_smpi() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/crosscheck-simgrid");
    let mut command = Command::new("python3");
    command.arg(&script).args(["--fail-above", "2", "--latency", "flow"]);
    let cases = [
        "ft16 bcast binomial_blocking 8192 B",
        "torus16 bcast binomial_blocking 8192 B",
        "torus64 alltoall pairwise 8192 B",
    ];
    for case in cases {
        command.args(["--filter", case]);
    }
    let out = command.env("HASE", env!("CARGO_BIN_EXE_hase")).output().expect("python3 runs");
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(stdout.lines().filter(|l| l.ends_with('%')).count(), 3, "{stdout}\n{stderr}");
}
