"""Traces as DataFrames: `read_trace(path)` or `Run.trace()` give a `Trace` whose tables are built
from columns the library fills in one pass (numpy arrays over byte buffers, names as pandas
categoricals), never one Python object per record."""

from __future__ import annotations

import os
from typing import Any, Dict, Union

import numpy as np
import pandas as pd

from . import _hase


def _frame(columns: Dict[str, tuple]) -> pd.DataFrame:
    """A DataFrame from `{name: (dtype, buffer)}` or `{name: (dtype, codes, names)}` columns (writable
    bytearrays, viewed by numpy without a copy)."""
    data = {}
    for name, column in columns.items():
        values = np.frombuffer(column[1], dtype=column[0])
        if len(column) == 3:
            data[name] = pd.Categorical.from_codes(values, categories=pd.Index(column[2], dtype=object))
        else:
            data[name] = values
    return pd.DataFrame(data, copy=False)


class Trace:
    """A hase trace as four DataFrames.

    - `entities`: one row per entity (index: its number in the other tables): `path`, `type`.
    - `states`: one row per interval an entity spent in a state: `entity`, `state`, `start_ps`,
      `end_ps` (intervals of zero length are left out; the last one of each entity ends at the
      end of the trace). Rows are in the order the intervals end.
    - `messages`: one row per send: `time_ps` (issued), `depart_ps`, `arrive_ps`, `from_entity`,
      `from_port`, `to_entity`, `to_port`, `bytes`, `label`.
    - `values`: one row per live-value or array-element update: `time_ps`, `entity`, `param`,
      `index` (-1 for a scalar), `value` (float64: integers above 2**53 lose precision) and `text`
      (for text values, else missing).
    """

    def __init__(self, columns: Dict[str, Any]) -> None:
        self.project: str = columns["project"]
        self.seed: int = columns["seed"]
        self.level: int = columns["level"]
        self.end_ps: int = columns["end_ps"]
        self.entities = pd.DataFrame(columns["entities"]).rename_axis("entity")
        self.states = _frame(columns["states"])
        self.messages = _frame(columns["messages"])
        self.values = _frame(columns["values"])

    def __len__(self) -> int:
        """Rows over the states, messages and values tables."""
        return len(self.states) + len(self.messages) + len(self.values)

    def __repr__(self) -> str:
        return (
            f"Trace({self.project!r}: {len(self.entities)} entities, {len(self.states)} state intervals, "
            f"{len(self.messages)} messages, {len(self.values)} values)"
        )


def read_trace(path: Union[str, "os.PathLike[str]"]) -> Trace:
    """Read a trace file (text, `.gz` or `.htb`) into a `Trace`."""
    return Trace(_hase.read_trace_columns(os.fspath(path)))
