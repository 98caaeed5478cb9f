"""Traces as DataFrames: the tables agree with `hase trace stats` on the same file (record counts,
bytes per entity, time per state), and a run's in-memory trace equals its file read back."""

from __future__ import annotations

import io
import re

import pandas as pd

import hase

from conftest import PROJECTS


def _run_with_trace(tmp_path, level):
    path = tmp_path / "run.htb"
    run = hase.Project.load(PROJECTS / "fat_tree_allreduce.ron").run(seed=2, level=level, trace=path)
    return run, path


def test_the_tables_agree_with_trace_stats(cli, tmp_path):
    run, path = _run_with_trace(tmp_path, 1)
    trace = hase.read_trace(path)
    text = cli(["trace", "stats", str(path)]).stdout
    messages = int(re.search(r"messages (\d+)", text).group(1))
    assert len(trace.messages) == messages
    sent = trace.messages.groupby("from_entity")["bytes"].sum()
    for line in text.splitlines():
        m = re.match(r"^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", line)
        if m and m.group(1) != "entity":
            entity = trace.entities.index[trace.entities["path"] == m.group(1)][0]
            assert sent.get(entity, 0) == int(m.group(3)), line
    table = pd.read_csv(io.StringIO(cli(["trace", "stats", str(path), "--csv"]).stdout))
    spent = (trace.states["end_ps"] - trace.states["start_ps"]).groupby(
        [trace.states["entity"], trace.states["state"]], observed=True
    ).sum()
    paths = trace.entities["path"]
    for (entity, state), ps in spent.items():
        row = table[table["entity"] == paths[entity]]
        assert int(row[f"{state}_ps"].iloc[0]) == ps, (paths[entity], state)
    assert trace.end_ps == run.makespan_ps
    assert trace.states["state"].dtype == "category"


def test_a_kept_trace_equals_its_file_read_back(tmp_path):
    _, path = _run_with_trace(tmp_path, 2)
    from_file = hase.read_trace(path)
    kept = hase.Project.load(PROJECTS / "fat_tree_allreduce.ron").run(seed=2, level=2, trace=True).trace()
    for name in ("states", "messages", "values"):
        pd.testing.assert_frame_equal(getattr(kept, name), getattr(from_file, name))
    pd.testing.assert_frame_equal(kept.entities, from_file.entities)


def test_live_values_become_the_values_table(tmp_path):
    path = tmp_path / "values.htb"
    hase.Project.load(PROJECTS / "fat_tree_allreduce.ron").run(level=3, live_values=True, trace=path)
    values = hase.read_trace(path).values
    assert len(values) > 0
    assert values["param"].notna().all()
    assert (values["time_ps"].diff().dropna() >= 0).all()


def test_a_run_without_a_trace_says_how_to_keep_one():
    run = hase.Project.load(PROJECTS / "fat_tree_allreduce.ron").run()
    try:
        run.trace()
    except hase.HaseError as e:
        assert "keep_trace" in str(e) or "trace=" in str(e)
    else:
        raise AssertionError("a run without a trace returned one")


def test_a_broken_trace_file_is_a_hase_error_naming_it(tmp_path):
    path = tmp_path / "broken.htb"
    path.write_bytes(b"not a trace")
    try:
        hase.read_trace(path)
    except hase.HaseError as e:
        assert "broken.htb" in str(e)
    else:
        raise AssertionError("a broken file was read")


def test_the_tables_can_be_changed_in_place(tmp_path):
    _, path = _run_with_trace(tmp_path, 2)
    states = hase.read_trace(path).states
    states.loc[0, "end_ps"] = 1
    states["end_ps"] += 0
    assert states["end_ps"].min() == 1
