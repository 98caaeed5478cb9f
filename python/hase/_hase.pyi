"""Type stubs of `hase._hase`, the compiled half of the package (see `python/src/`)."""

from os import PathLike
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

_Path = Union[str, PathLike[str]]

__version__: str

class HaseError(Exception):
    """An error from hase, with the library's message."""

class StoreInUseError(HaseError):
    """The hase database is open in another process (a running sweep, the GUI)."""

class NativeProject:
    """A hase project held in memory."""

    @staticmethod
    def load(path: _Path) -> NativeProject: ...
    @staticmethod
    def from_template(
        template: str,
        dims: str,
        *,
        name: Optional[str] = None,
        compound: bool = False,
        latency: Optional[str] = None,
        bandwidth: Optional[str] = None,
        host_latency: Optional[str] = None,
        host_bandwidth: Optional[str] = None,
        program: Optional[str] = None,
        params: Mapping[str, str] = ...,
    ) -> NativeProject: ...
    def set(self, assignment: str) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def path(self) -> Optional[str]: ...
    def to_ron(self) -> str: ...
    def save(self, path: _Path) -> None: ...
    def run(
        self,
        *,
        seed: Optional[int] = None,
        level: Optional[int] = None,
        until: Optional[str] = None,
        trace: Optional[_Path] = None,
        keep_trace: bool = False,
        live_values: Optional[bool] = None,
        fingerprint: bool = False,
    ) -> NativeRun: ...

class NativeRun:
    """One finished run."""

    @property
    def outcome(self) -> str: ...
    @property
    def makespan_ps(self) -> int: ...
    @property
    def events(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def deadlock_report(self) -> Optional[str]: ...
    @property
    def fingerprint(self) -> Optional[str]: ...
    @property
    def trace_error(self) -> Optional[str]: ...
    def stats_json(self) -> str: ...
    def trace_columns(self) -> Dict[str, Any]: ...

def sweep_csv(
    project: NativeProject,
    vary: Sequence[str],
    *,
    repeat: Optional[int] = None,
    seed: Optional[int] = None,
    jobs: Optional[int] = None,
    metrics: Sequence[str] = ...,
    zip: bool = False,
    constraint: Optional[str] = None,
    name: Optional[str] = None,
    csv: Optional[_Path] = None,
) -> Tuple[str, List[str]]: ...
def read_trace_columns(path: _Path) -> Dict[str, Any]: ...
def experiments_list(data_dir: Optional[_Path] = None) -> Tuple[List[Dict[str, Any]], str]: ...
def experiment_info(id: int, data_dir: Optional[_Path] = None) -> Dict[str, Any]: ...
def experiment_csv(id: int, data_dir: Optional[_Path] = None) -> str: ...
def datasheet_fit(
    raw_csv: _Path,
    *,
    name: Optional[str] = None,
    split_bytes: Optional[int] = None,
    output: Optional[_Path] = None,
) -> Tuple[str, str]: ...
def mpi_predict(
    command: Sequence[str],
    *,
    sheet: str,
    band: str = "measured",
    cpu_scale: float = 1.0,
    trace: Optional[_Path] = None,
) -> Dict[str, Any]: ...
