"""Small HTML tables for the notebook views (`_repr_html_`) of runs and experiments."""

from __future__ import annotations

import html
from typing import Iterable, Tuple


def table(title: str, rows: Iterable[Tuple[str, object]]) -> str:
    """A two-column HTML table of (label, value) rows under a bold title; values are escaped."""
    body = "".join(
        f"<tr><th style='text-align:left'>{html.escape(label)}</th>"
        f"<td style='text-align:left'>{html.escape(str(value))}</td></tr>"
        for label, value in rows
    )
    return f"<div><b>{html.escape(title)}</b><table>{body}</table></div>"


def preformatted(text: str) -> str:
    """Text kept as it is (a deadlock report), escaped."""
    return f"<pre>{html.escape(text)}</pre>"


def time_ps(ps: int) -> str:
    """A time in picoseconds with a readable unit (as hase prints times)."""
    for unit, scale in (("s", 10**12), ("ms", 10**9), ("us", 10**6), ("ns", 10**3)):
        if ps >= scale:
            return f"{ps / scale:.6g} {unit}"
    return f"{ps} ps"
