"""MPI data sheets: `fit` makes a sheet from the measurements `hase mpi bench` writes, as `hase
datasheet fit` does."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Optional, Union

PathLike = Union[str, "os.PathLike[str]"]


def fit(
    raw_csv: PathLike,
    *,
    name: Optional[str] = None,
    split_bytes: Optional[int] = None,
    output: Optional[PathLike] = None,
) -> Dict[str, Any]:
    """Fit every function's equations to the raw measurements in `raw_csv`.

    Returns the sheet as a dict (the JSON `hase datasheet show --json` prints: `functions`, each with
    its `name` and `fits`, and `review`) with its RON text
    under `"ron"`; `output` also writes that RON file. `split_bytes` fixes the small/large split
    (default: found per function).
    """
    from . import _hase

    ron, shown = _hase.datasheet_fit(
        os.fspath(raw_csv),
        name=name,
        split_bytes=split_bytes,
        output=None if output is None else os.fspath(output),
    )
    sheet: Dict[str, Any] = json.loads(shown)
    sheet["ron"] = ron
    return sheet
