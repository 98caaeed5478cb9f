"""`sweep`: a parameter sweep of a project, run by the library exactly as `hase sweep PROJECT
--vary ...` runs it, returned as a DataFrame read from the same CSV text the CLI writes."""

from __future__ import annotations

import io
import os
import warnings
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import pandas as pd

from . import _hase
from ._project import Project


def _values(values: Any) -> str:
    """A variable's values in the CLI's syntax: a string as it is (`"1K..1M *2"`, `"ring,binomial"`),
    a list or range joined with commas."""
    if isinstance(values, str):
        return values
    if isinstance(values, Iterable):
        return ",".join(str(v) for v in values)
    return str(values)


def sweep(
    project: Union[Project, str, "os.PathLike[str]"],
    vary: Mapping[str, Any],
    *,
    repeat: Optional[int] = None,
    seed: Optional[int] = None,
    jobs: Optional[int] = None,
    metrics: Sequence[str] = (),
    zip: bool = False,
    where: Optional[str] = None,
    name: Optional[str] = None,
    csv: Union[str, "os.PathLike[str]", None] = None,
    shuffle_ties: bool = False,
) -> pd.DataFrame:
    """Run a sweep and return one row per run, as `hase sweep --csv` writes them.

    `vary` maps each target to its values, the first changing slowest:
    `{"workload.message_bytes": "1K..1M *2", "algorithm": ["ring", "binomial"]}` (the CLI's
    `--vary TARGET=VALUES`). `repeat` runs each point that many times with derived seeds from
    `seed`; `jobs` worker threads (default: every core); `metrics` the metric columns (default:
    makespan_ps, events, messages, latency_mean_ps, latency_max_ps); `zip` advances the variables
    together; `where` keeps the points where the expression holds. `csv` also writes the CSV text,
    byte for byte what `hase sweep --csv` writes for the same sweep; it is in `df.attrs["csv"]`
    either way. `shuffle_ties` takes the events of each instant of every run in an order drawn
    from its seed (`hase sweep --shuffle-ties`), so that repetitions show how far that order moves
    a point. Runs that fail are rows with their outcome, and a warning lists them. Ctrl-C cancels
    the sweep and raises KeyboardInterrupt.
    """
    if not isinstance(project, Project):
        project = Project.load(project)
    text, failures = _hase.sweep_csv(
        project._native,
        [f"{target}={_values(values)}" for target, values in vary.items()],
        repeat=repeat,
        seed=seed,
        jobs=jobs,
        metrics=list(metrics),
        zip=zip,
        constraint=where,
        name=name,
        csv=None if csv is None else os.fspath(csv),
        shuffle_ties=shuffle_ties,
    )
    if failures:
        warnings.warn("runs that did not succeed:\n" + "\n".join(failures), stacklevel=2)
    frame = pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])
    frame.attrs["csv"] = text
    return frame
