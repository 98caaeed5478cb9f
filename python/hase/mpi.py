"""Real MPI programs: `predict` runs one under hase's reverse profiler and predicts each rank's
time from a data sheet, as `hase mpi predict` does."""

from __future__ import annotations

import os
from typing import Optional, Sequence, Union

import pandas as pd


def predict(
    command: Sequence[str],
    *,
    sheet: str,
    band: str = "measured",
    cpu_scale: float = 1.0,
    trace: Union[str, "os.PathLike[str]", None] = None,
) -> pd.DataFrame:
    """Run `command` (`["mpirun", "-np", "4", "./prog"]`) and predict it from `sheet` (a `.ron`
    file or a built-in sheet name).

    Returns one row per rank: `rank`, `predicted_us`, `measured_us`, `measured_cpu_us`, `missing`
    (functions the sheet lacks, predicted as 0). `df.attrs` holds `sheet` and `predicted_ps` (the
    slowest rank). `trace` also writes the predicted run as a hase trace.
    """
    from . import _hase

    result = _hase.mpi_predict(
        list(command),
        sheet=sheet,
        band=band,
        cpu_scale=cpu_scale,
        trace=None if trace is None else os.fspath(trace),
    )
    frame = pd.DataFrame(result["ranks"], columns=["rank", "predicted_us", "measured_us", "measured_cpu_us", "missing"])
    frame.attrs["sheet"] = result["sheet"]
    frame.attrs["predicted_ps"] = result["predicted_ps"]
    return frame
