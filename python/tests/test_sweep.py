"""Sweeps: the Python sweep's CSV is byte for byte the CSV of `hase sweep --csv` for the same
project and variables, whatever the number of worker threads, and its DataFrame is that CSV."""

from __future__ import annotations

import io

import pandas as pd
import pytest

import hase

from conftest import PROJECTS

PROJECT = PROJECTS / "fat_tree_allreduce.ron"
VARY_CLI = ["workload.message_bytes=1K..16K *4", "workload.algorithm=ring,recursive_doubling"]


def test_the_python_sweep_csv_equals_the_cli_csv_byte_for_byte(cli, tmp_path):
    cli_csv = tmp_path / "cli.csv"
    args = ["sweep", str(PROJECT), "--repeat", "2", "--seed", "5", "--jobs", "2", "--csv", str(cli_csv), "-q"]
    for vary in VARY_CLI:
        args += ["--vary", vary]
    cli(args)
    py_csv = tmp_path / "py.csv"
    frame = hase.sweep(
        PROJECT,
        vary={"workload.message_bytes": "1K..16K *4", "workload.algorithm": ["ring", "recursive_doubling"]},
        repeat=2,
        seed=5,
        jobs=1,
        csv=py_csv,
    )
    expected = cli_csv.read_bytes()
    assert py_csv.read_bytes() == expected
    assert frame.attrs["csv"].encode() == expected
    pd.testing.assert_frame_equal(frame, pd.read_csv(io.BytesIO(expected), keep_default_na=False, na_values=[""]))
    assert len(frame) == 3 * 2 * 2
    assert set(frame["outcome"]) == {"completed"}


def test_a_sweep_groups_in_pandas():
    frame = hase.sweep(
        hase.Project.load(PROJECT), vary={"workload.message_bytes": [1024, 4096]}, repeat=2, metrics=["makespan_ps"]
    )
    means = frame.groupby("workload.message_bytes")["makespan_ps"].mean()
    assert list(means.index) == [1024, 4096]
    assert means[4096] > means[1024]


def test_a_bad_variable_is_a_hase_error_with_the_library_message():
    with pytest.raises(hase.HaseError, match="colour"):
        hase.sweep(PROJECT, vary={"workload.colour": "1,2"})


def test_shuffled_ties_spread_the_repetitions_as_the_cli_does(cli, tmp_path):
    torus = PROJECTS / "torus3d_halo.ron"
    cli_csv = tmp_path / "cli.csv"
    args = ["sweep", str(torus), "--repeat", "4", "--shuffle-ties", "--metric", "makespan_ps"]
    cli(args + ["--csv", str(cli_csv), "-q"])
    frame = hase.sweep(torus, {}, repeat=4, metrics=["makespan_ps"], shuffle_ties=True)
    assert frame.attrs["csv"] == cli_csv.read_text()
    assert frame["makespan_ps"].nunique() > 1
    scheduled = hase.sweep(torus, {}, repeat=4, metrics=["makespan_ps"])
    assert scheduled["makespan_ps"].nunique() == 1
