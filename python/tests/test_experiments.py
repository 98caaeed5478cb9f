"""The experiment store from Python: what `hase sweep --store` stored is listed and loaded, its
results equal `hase experiments export --csv`, and a database held by another process is a clear
`StoreInUseError`."""

from __future__ import annotations

import fcntl

import pytest

import hase

from conftest import PROJECTS


@pytest.fixture
def stored(cli, tmp_path):
    data = tmp_path / "data"
    cli(["sweep", str(PROJECTS / "fat_tree_allreduce.ron"), "--vary", "workload.message_bytes=1K,2K",
         "--repeat", "2", "--store", "--data-dir", str(data), "--name", "from the cli", "-q"])
    return data


def test_stored_experiments_are_listed_and_loaded(cli, stored, tmp_path):
    experiments = hase.Experiments(stored)
    listed = experiments.list()
    assert list(listed["name"]) == ["from the cli"]
    assert list(listed["runs_stored"]) == [4]
    experiment = experiments[int(listed["id"][0])]
    assert experiment.info["variables"] == ["workload.message_bytes"]
    exported = tmp_path / "export.csv"
    cli(["experiments", "export", str(experiment.id), "--csv", str(exported), "--data-dir", str(stored)])
    assert experiment.csv() == exported.read_text()
    assert len(experiment.results()) == 4
    assert "from the cli" in experiment._repr_html_()
    assert "from the cli" in experiments._repr_html_()


def test_a_missing_experiment_is_a_hase_error(stored):
    with pytest.raises(hase.HaseError):
        hase.Experiments(stored)[99]


def test_a_database_held_by_another_process_is_a_clear_error(stored):
    # hase holds `hase.lock` with flock while a database is open; hold it as another process would.
    with open(stored / "hase.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(hase.StoreInUseError, match="in use by another hase instance"):
            hase.Experiments(stored).list()
    assert len(hase.Experiments(stored).list()) == 1


def test_a_directory_without_a_database_is_an_error_and_stays_empty(tmp_path):
    with pytest.raises(hase.HaseError, match="no hase database"):
        hase.Experiments(tmp_path).list()
    assert list(tmp_path.iterdir()) == []
