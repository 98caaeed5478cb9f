"""The extension's own Rust code has no `unsafe` block (the crate allows `unsafe_code` only for
what PyO3's macros expand to), and every public name has a docstring and a stub."""

from __future__ import annotations

import re
from pathlib import Path

import hase
from hase import _hase

from conftest import REPO


def test_the_extension_source_has_no_unsafe_code():
    for path in sorted((REPO / "python" / "src").glob("*.rs")):
        code = "\n".join(line.split("//")[0] for line in path.read_text().splitlines())
        assert not re.search(r"\bunsafe\b", code), f"{path} uses unsafe"


def test_every_public_name_has_a_docstring_and_a_stub():
    stub = (REPO / "python" / "hase" / "_hase.pyi").read_text()
    for name in dir(_hase):
        if name.startswith("_"):
            continue
        assert re.search(rf"^(class|def) {name}\b", stub, re.M), f"_hase.pyi lacks {name}"
        assert getattr(_hase, name).__doc__, f"_hase.{name} has no docstring"
    for name in hase.__all__:
        if name != "__version__":
            assert getattr(hase, name).__doc__, f"hase.{name} has no docstring"
