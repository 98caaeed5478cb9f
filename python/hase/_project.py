"""`Project` (load, generate from a template, change with `set`, run) and `Run` (what a run
produced: outcome, makespan, statistics as dicts and DataFrames, deadlock report, trace)."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Mapping, Optional, Union

import pandas as pd

from . import _hase, _html
from ._trace import Trace

PathLike = Union[str, "os.PathLike[str]"]


class Project:
    """A hase project in memory.

    Load one with `Project.load(path)` or generate one with `Project.from_template(...)`; change
    parameters with `set(target, value)` (the CLI's `--set` targets, units and errors); run it with
    `run(...)`, or sweep it with `hase.sweep(project, vary=...)`.
    """

    def __init__(self, native: _hase.NativeProject) -> None:
        self._native = native

    @classmethod
    def load(cls, path: PathLike) -> "Project":
        """Load a project file (`.ron`); relative paths inside it resolve against its directory."""
        return cls(_hase.NativeProject.load(os.fspath(path)))

    @classmethod
    def from_template(
        cls,
        template: str,
        dims: Union[str, int],
        *,
        name: Optional[str] = None,
        compound: bool = False,
        latency: Optional[str] = None,
        bandwidth: Optional[str] = None,
        host_latency: Optional[str] = None,
        host_bandwidth: Optional[str] = None,
        program: Optional[str] = None,
        params: Optional[Mapping[str, Any]] = None,
    ) -> "Project":
        """Generate a project from a topology template, as `hase new` does.

        `template` is a family name (`torus`, `mesh`, `fat_tree`, ...), `dims` its dimensions as
        `hase new --dims` takes them (`"4x4"`, `8`, `"2,3"`). Times and rates take units
        (`latency="50ns"`, `bandwidth="10Gbps"`). `program` names a built-in MPI program and
        `params` its parameters (`{"message_bytes": "64K"}`).
        """
        given = {k: str(v) for k, v in (params or {}).items()}
        return cls(
            _hase.NativeProject.from_template(
                template,
                str(dims),
                name=name,
                compound=compound,
                latency=latency,
                bandwidth=bandwidth,
                host_latency=host_latency,
                host_bandwidth=host_bandwidth,
                program=program,
                params=given,
            )
        )

    @property
    def name(self) -> str:
        """The project's name."""
        return self._native.name

    @property
    def path(self) -> Optional[str]:
        """The file the project was loaded from, if any."""
        path = self._native.path
        return None if path is None else os.fspath(path)

    def set(self, target: str, value: Any) -> "Project":
        """Set a parameter: `set("workload.message_bytes", "64K")`, `set("fabric.level",
        "behavioural")`, `set("link:p0.net.latency", "10ns")` (the CLI's `--set TARGET=VALUE`).

        Raises `HaseError` with the library's message for an unknown target or a bad value.
        Returns the project, so calls chain.
        """
        self._native.set(f"{target}={value}")
        return self

    def to_ron(self) -> str:
        """The project as RON text."""
        return self._native.to_ron()

    def save(self, path: PathLike) -> None:
        """Write the project to a `.ron` file."""
        self._native.save(os.fspath(path))

    def run(
        self,
        *,
        seed: Optional[int] = None,
        level: Optional[int] = None,
        until: Optional[str] = None,
        trace: Union[bool, PathLike, None] = None,
        live_values: Optional[bool] = None,
        fingerprint: bool = False,
        tie_seed: Optional[int] = None,
    ) -> "Run":
        """Run the project and return a `Run`.

        `seed` and `level` (1-5) default to the project's; `until` stops at a simulated time
        (`"10us"`). `trace=True` keeps the trace in memory for `Run.trace()`; a path streams it to
        that file (`.htb` compact, `.gz` compressed text, else text). The GIL is released while the
        simulation runs; Ctrl-C cancels it and raises KeyboardInterrupt. `tie_seed` takes the events
        of each instant in an order drawn from it instead of the order they were scheduled in
        (`hase run --tie-seed`), on one thread.
        """
        keep = trace is True
        path = None if trace is None or isinstance(trace, bool) else os.fspath(trace)
        native = self._native.run(
            seed=seed,
            level=level,
            until=until,
            trace=path,
            keep_trace=keep,
            live_values=live_values,
            fingerprint=fingerprint,
            tie_seed=tie_seed,
        )
        return Run(native, self.name)

    def __repr__(self) -> str:
        return repr(self._native)


class Run:
    """What one run produced. `stats` is the dict `hase run --stats` writes as JSON; `entities`,
    `links` and `pair_latency` are DataFrames of it."""

    def __init__(self, native: _hase.NativeRun, project_name: str) -> None:
        self._native = native
        self._project_name = project_name
        self._stats: Optional[Dict[str, Any]] = None

    @property
    def outcome(self) -> str:
        """`completed`, `deadlock`, `reached-until` or `cancelled`."""
        return self._native.outcome

    @property
    def makespan_ps(self) -> int:
        """Simulated time at the end of the run, in picoseconds."""
        return self._native.makespan_ps

    @property
    def events(self) -> int:
        """Events handled."""
        return self._native.events

    @property
    def seed(self) -> int:
        """The run's seed."""
        return self._native.seed

    @property
    def deadlock_report(self) -> Optional[str]:
        """Who waited for what, if the run deadlocked (as `hase run` prints it)."""
        return self._native.deadlock_report

    @property
    def fingerprint(self) -> Optional[str]:
        """The trace fingerprint, if the run was asked for one."""
        return self._native.fingerprint

    @property
    def stats(self) -> Dict[str, Any]:
        """Every statistic as nested dicts (the JSON of `hase run --stats`)."""
        if self._stats is None:
            self._stats = json.loads(self._native.stats_json())
        return self._stats

    @property
    def entities(self) -> pd.DataFrame:
        """One row per entity (index: its path): type, busy fraction, time in each state
        (`<STATE>_ps` columns) and the entity's other figures."""
        rows = {}
        for path, e in self.stats["entities"].items():
            row: Dict[str, Any] = {"type": e["type_name"], "busy_fraction": e["busy_fraction"]}
            row.update({f"{state}_ps": t for state, t in e["state_time_ps"].items()})
            row.update(e.get("extra", {}))
            rows[path] = row
        return pd.DataFrame.from_dict(rows, orient="index").rename_axis("entity")

    @property
    def links(self) -> pd.DataFrame:
        """One row per link direction (`from.port -> to.port`): busy time, utilisation, messages, bytes."""
        return pd.DataFrame.from_dict(self.stats["links"], orient="index").rename_axis("link")

    @property
    def pair_latency(self) -> pd.DataFrame:
        """One row per pair of ranks (`src`, `dst`): message count and latency percentiles in ps."""
        rows = [{k: v for k, v in p.items() if k != "buckets"} for p in self.stats.get("pair_latency", [])]
        return pd.DataFrame(rows)

    def trace(self) -> Trace:
        """The run's trace as DataFrames (see `Trace`): run with `trace=True` or `trace=PATH`."""
        return Trace(self._native.trace_columns())

    def _repr_html_(self) -> str:
        rows = [
            ("outcome", self.outcome),
            ("makespan", _html.time_ps(self.makespan_ps)),
            ("events", f"{self.events:,}"),
            ("seed", self.seed),
            ("messages", self.stats["latency"]["count"]),
        ]
        out = _html.table(f"hase run: {self._project_name}", rows)
        if self.deadlock_report:
            out += _html.preformatted(self.deadlock_report)
        return out

    def __repr__(self) -> str:
        return f"Run({self._project_name}: {self.outcome} at {_html.time_ps(self.makespan_ps)}, {self.events} events)"
