"""Data sheets from Python: `hase.datasheet.fit` writes the sheet `hase datasheet fit` writes."""

from __future__ import annotations

import pytest

import hase

from conftest import REPO

RAW = """# machine: test
function,procs,bytes,repeat,time_us
send,2,0,0,1.0
send,2,1024,0,2.0
send,2,4096,0,5.0
send,2,16384,0,17.0
send,2,65536,0,65.0
"""


def test_fit_writes_the_sheet_of_the_cli(cli, tmp_path):
    raw = tmp_path / "raw.csv"
    raw.write_text(RAW)
    cli_sheet = tmp_path / "cli.ron"
    cli(["datasheet", "fit", str(raw), "-o", str(cli_sheet), "--name", "test"])
    py_sheet = tmp_path / "py.ron"
    sheet = hase.datasheet.fit(raw, name="test", output=py_sheet)
    assert py_sheet.read_text() == cli_sheet.read_text()
    assert sheet["ron"] == cli_sheet.read_text()
    assert [f["name"] for f in sheet["functions"]] == ["send"]


def test_fit_of_a_malformed_file_is_a_hase_error(tmp_path):
    raw = tmp_path / "raw.csv"
    raw.write_text("function,procs\nsend,lots\n")
    with pytest.raises(hase.HaseError, match="raw.csv"):
        hase.datasheet.fit(raw)
