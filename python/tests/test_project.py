"""Projects and runs: loading, templates, `set` with the CLI's units and errors, and a run's
outcome and statistics equal to what `hase run --stats` writes for the same project and seed."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest

import hase

from conftest import PROJECTS, REPO


def test_a_run_gives_the_statistics_of_the_cli_run(cli, tmp_path):
    path = PROJECTS / "fat_tree_allreduce.ron"
    stats_file = tmp_path / "stats.json"
    cli(["run", str(path), "--seed", "7", "--stats", str(stats_file), "-q"])
    expected = json.loads(stats_file.read_text())
    run = hase.Project.load(path).run(seed=7)
    for varying in ("wall_time_s", "events_per_s"):
        expected.pop(varying)
        run.stats.pop(varying)
    assert run.stats == expected
    assert run.outcome == "completed"
    assert run.makespan_ps == expected["makespan_ps"]
    assert run.deadlock_report is None
    entities = run.entities
    assert entities.loc["p0", "type"] == "Processor"
    assert entities.loc["p0", "COMPUTE_ps"] == expected["entities"]["p0"]["state_time_ps"]["COMPUTE"]
    assert run.links["msgs"].sum() == sum(l["msgs"] for l in expected["links"].values())
    assert len(run.pair_latency) == len(expected["pair_latency"])
    assert "completed" in run._repr_html_()


def test_set_takes_the_cli_units_and_changes_the_run():
    project = hase.Project.load(PROJECTS / "fat_tree_allreduce.ron")
    small = project.run().makespan_ps
    project.set("workload.message_bytes", "256K")  # the project has 64 KiB
    assert project.run().makespan_ps > small


def test_set_raises_the_library_message_for_a_bad_target_or_value():
    project = hase.Project.load(PROJECTS / "fat_tree_allreduce.ron")
    with pytest.raises(hase.HaseError, match="colour"):
        project.set("workload.colour", "1")
    with pytest.raises(hase.HaseError, match="lots"):
        project.set("workload.message_bytes", "lots")


def test_a_missing_project_file_is_a_hase_error_naming_it(tmp_path):
    with pytest.raises(hase.HaseError, match="nothing.ron"):
        hase.Project.load(tmp_path / "nothing.ron")


def test_a_template_project_runs_its_program(cli, tmp_path):
    made = hase.Project.from_template(
        "torus", "4x4", latency="20ns", bandwidth="10Gbps", program="collective_loop",
        params={"message_bytes": "4K"},
    )
    cli_file = tmp_path / "cli.ron"
    cli(["new", "--template", "torus", "--dims", "4x4", "--latency", "20ns", "--bandwidth", "10Gbps",
         "--program", "collective_loop", "--param", "message_bytes=4K", "-o", str(cli_file)])
    assert made.to_ron() == cli_file.read_text()
    assert made.run(seed=3).makespan_ps == hase.Project.load(cli_file).run(seed=3).makespan_ps


def test_a_bad_template_argument_is_a_hase_error():
    with pytest.raises(hase.HaseError):
        hase.Project.from_template("no_such_family", "4")
    with pytest.raises(hase.HaseError, match="latency"):
        hase.Project.from_template("torus", "4x4", latency="soon")


def test_until_stops_the_run_early():
    run = hase.Project.load(PROJECTS / "fat_tree_allreduce.ron").run(until="10us")
    assert run.outcome == "reached-until"
    assert run.makespan_ps <= 10_000_000


def test_a_receive_cycle_reports_a_deadlock_naming_each_rank(tmp_path):
    project = hase.Project.from_template("linear", "2")
    text = project.to_ron().replace(
        "workload: Idle,",
        'workload: Streams(streams: {0: Inline("RECV 1\\nSEND 1 8"), 1: Inline("RECV 0\\nSEND 0 8")}),',
    )
    path = tmp_path / "cycle.ron"
    path.write_text(text)
    run = hase.Project.load(path).run()
    assert run.outcome == "deadlock"
    assert "rank 0 waits for receive from rank 1" in run.deadlock_report
    assert "rank 1 waits for receive from rank 0" in run.deadlock_report
    assert "rank 0 waits" in run._repr_html_()


def _long_project() -> hase.Project:
    return hase.Project.from_template(
        "torus", "8x8", program="collective_loop", params={"iterations": "100000"}
    )


def test_the_gil_is_released_while_a_run_runs():
    project = _long_project()
    result = {}
    started = threading.Event()

    def work():
        started.set()
        result["run"] = project.run(until="2ms")

    worker = threading.Thread(target=work)
    worker.start()
    started.wait()
    ticks = 0
    while worker.is_alive():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert result["run"].outcome == "reached-until"
    # The main thread ran Python while the simulation ran: a run holding the GIL for its whole
    # length (a second or more here) would leave it one or two turns.
    assert ticks > 20, ticks


CANCEL_SCRIPT = """
import sys, time, hase
project = hase.Project.from_template("torus", "8x8", program="collective_loop", params={"iterations": "100000"})
print("running", flush=True)
start = time.monotonic()
try:
    run = project.run()
    print("finished", run.outcome, flush=True)
except KeyboardInterrupt:
    print(f"interrupted after {time.monotonic() - start:.2f} s", flush=True)
"""


def test_ctrl_c_cancels_a_run_and_raises_keyboard_interrupt():
    import signal
    import subprocess
    import sys

    # A test run started in the background (`nohup`, `cmd &` in a script) inherits SIGINT ignored,
    # and Python installs no Ctrl-C handler then: the child gets the default disposition back, as
    # a program started from a terminal has it.
    child = subprocess.Popen(
        [sys.executable, "-c", CANCEL_SCRIPT],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    first = child.stdout.readline().strip()
    assert first == "running", first
    # Let the run get going; a Ctrl-C before it starts would not test the cancel flag.
    time.sleep(1.0)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=120)
    waited = time.monotonic() - sent
    assert re.match(r"interrupted after [0-9.]+ s", out.strip()), out
    assert child.returncode == 0, out
    # The run itself would take minutes; the kernel checks the flag every 200,000 events. The
    # bound is loose for a loaded machine.
    assert waited < 30, f"the run took {waited:.1f} s to stop after Ctrl-C: {out}"


def test_a_sheet_named_relative_to_the_project_gives_the_cli_expected_time(cli, tmp_path):
    """A data sheet the project names by a relative path is read beside the project, whatever the
    working directory, for the expected makespan as for the run (as `hase run` reads it)."""
    project_file = tmp_path / "ring.ron"
    cli(["new", "--template", "ring", "--dims", "8", "--compound", "--program", "collective_loop",
         "--param", "operation=allreduce", "--param", "message_bytes=1K", "--param", "iterations=3",
         "--param", "compute_time=2us", "-o", str(project_file)])
    (tmp_path / "sheets").mkdir()
    (tmp_path / "sheets" / "mine.ron").write_text((REPO / "assets" / "datasheets" / "cray_t3d.ron").read_text())
    project = hase.Project.load(project_file)
    for target, value in [("fabric.level", "behavioural"), ("fabric.model", "datasheet"),
                          ("fabric.sheet", "sheets/mine.ron")]:
        project.set(target, value)
    project.save(project_file)
    stats_file = tmp_path / "stats.json"
    cli(["run", str(project_file), "--stats", str(stats_file), "-q"])
    expected = json.loads(stats_file.read_text())
    run = hase.Project.load(project_file).run()
    assert run.stats["expected"] == expected["expected"]
    assert run.stats["expected"]["makespan_ps"] == run.makespan_ps


def test_a_tie_seed_gives_the_cli_runs_shuffled_order(cli, tmp_path):
    path = PROJECTS / "torus3d_halo.ron"
    stats_file = tmp_path / "stats.json"
    cli(["run", str(path), "--tie-seed", "5", "--stats", str(stats_file), "-q"])
    expected = json.loads(stats_file.read_text())
    project = hase.Project.load(path)
    shuffled = project.run(tie_seed=5)
    assert shuffled.makespan_ps == expected["makespan_ps"]
    assert shuffled.makespan_ps != project.run().makespan_ps
