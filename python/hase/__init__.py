"""hase from Python: projects, runs, sweeps, stored experiments and traces as pandas DataFrames.

The simulation runs in the hase library itself (a compiled extension, no command-line tool
involved), with the GIL released; Ctrl-C cancels a run or a sweep and raises KeyboardInterrupt.

>>> import hase
>>> project = hase.Project.load("projects/fat_tree_allreduce.ron")
>>> run = project.run(seed=1)
>>> run.outcome, run.makespan_ps
>>> df = hase.sweep(project, vary={"workload.message_bytes": "1K..64K *4"}, repeat=2)
"""

from . import datasheet, mpi
from ._experiments import Experiment, Experiments
from ._hase import HaseError, StoreInUseError, __version__
from ._project import Project, Run
from ._sweep import sweep
from ._trace import Trace, read_trace

__all__ = [
    "Experiment",
    "Experiments",
    "HaseError",
    "Project",
    "Run",
    "StoreInUseError",
    "Trace",
    "__version__",
    "datasheet",
    "mpi",
    "read_trace",
    "sweep",
]
