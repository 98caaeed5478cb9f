"""MPI prediction from Python: a real MPI program (a bundled sample, built with mpicc and run with
mpirun) predicted from a built-in data sheet, as `hase mpi predict` predicts it."""

from __future__ import annotations

import os

import hase


def test_a_real_program_is_predicted_per_rank(cli, tmp_path, monkeypatch):
    program = cli(["mpi", "sample", "pingpong"]).stdout.strip().splitlines()[-1]
    for name in ("OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "OMPI_MCA_rmaps_base_oversubscribe"):
        monkeypatch.setenv(name, "1")
    trace = tmp_path / "predicted.htb"
    frame = hase.mpi.predict(["mpirun", "-np", "2", program, "10", "4096"], sheet="cray_t3d", trace=trace)
    assert list(frame["rank"]) == [0, 1]
    assert (frame["predicted_us"] > 0).all()
    assert (frame["measured_us"] > 0).all()
    assert frame.attrs["sheet"] == "cray_t3d"
    assert frame.attrs["predicted_ps"] == round(frame["predicted_us"].max() * 1e6)
    assert os.path.getsize(trace) > 0
    assert len(hase.read_trace(trace).entities) == 2


def test_an_unknown_band_is_a_hase_error():
    try:
        hase.mpi.predict(["true"], sheet="cray_t3d", band="median")
    except hase.HaseError as e:
        assert "median" in str(e)
    else:
        raise AssertionError("an unknown band was accepted")
