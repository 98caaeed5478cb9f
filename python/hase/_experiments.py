"""`Experiments(data_dir)`: the experiment store, read-only. Each call opens the database and
closes it again, so a notebook never blocks a later `hase sweep --store`; while another process
(a running `hase sweep --store`, the GUI) holds it, a call raises `StoreInUseError`."""

from __future__ import annotations

import io
import os
from typing import Any, Dict, List, Optional, Union

import pandas as pd

from . import _hase, _html

PathLike = Union[str, "os.PathLike[str]"]


class Experiment:
    """One stored experiment: its description (`info`) and its results (`results()`)."""

    def __init__(self, info: Dict[str, Any], data_dir: Optional[str]) -> None:
        self.info = info
        self._data_dir = data_dir

    @property
    def id(self) -> int:
        """The experiment's id."""
        return self.info["id"]

    @property
    def name(self) -> str:
        """The experiment's name."""
        return self.info["name"]

    def csv(self) -> str:
        """The results as the CSV text `hase experiments export ID --csv` writes."""
        return _hase.experiment_csv(self.id, self._data_dir)

    def results(self) -> pd.DataFrame:
        """The results, one row per stored run (the CSV export read by pandas)."""
        return pd.read_csv(io.StringIO(self.csv()), keep_default_na=False, na_values=[""])

    def _repr_html_(self) -> str:
        i = self.info
        rows = [
            ("project", f"{i['project']} ({i['source']})"),
            ("started", i["started_at"]),
            ("finished", i["finished_at"] or "not yet"),
            ("variables", ", ".join(i["variables"])),
            ("metrics", ", ".join(i["metrics"])),
            ("runs", f"{i['runs_stored']} of {i['runs_planned']} ({i['points']} points x {i['repetitions']} repetitions)"),
        ]
        return _html.table(f"experiment {i['id']}: {i['name']}", rows)

    def __repr__(self) -> str:
        return f"Experiment({self.id}: {self.name!r}, {self.info['runs_stored']}/{self.info['runs_planned']} runs)"


class Experiments:
    """The experiments stored in a hase data directory (default: `$HASE_DATA_DIR`, else the
    platform's data directory, as the CLI chooses)."""

    def __init__(self, data_dir: Optional[PathLike] = None) -> None:
        self._data_dir = None if data_dir is None else os.fspath(data_dir)

    def list(self) -> pd.DataFrame:
        """One row per stored experiment: id, name, started_at, finished_at, runs_planned, runs_stored."""
        rows, _ = _hase.experiments_list(self._data_dir)
        columns = ["id", "name", "started_at", "finished_at", "runs_planned", "runs_stored"]
        return pd.DataFrame(rows, columns=columns)

    def __getitem__(self, experiment_id: int) -> Experiment:
        """The stored experiment with this id (`HaseError` if there is none)."""
        return Experiment(_hase.experiment_info(experiment_id, self._data_dir), self._data_dir)

    def load(self, experiment_id: int) -> Experiment:
        """The stored experiment with this id (as `experiments[id]`)."""
        return self[experiment_id]

    def all(self) -> List[Experiment]:
        """Every stored experiment."""
        return [self[int(i)] for i in self.list()["id"]]

    def _repr_html_(self) -> str:
        rows, data_dir = _hase.experiments_list(self._data_dir)
        lines = [(f"{r['id']}: {r['name']}", f"{r['runs_stored']}/{r['runs_planned']} runs, started {r['started_at']}") for r in rows]
        return _html.table(f"hase experiments in {os.fspath(data_dir)}", lines or [("", "none")])

    def __repr__(self) -> str:
        return f"Experiments({self._data_dir or 'default data directory'})"
