"""How long `hase.read_trace` takes on a large trace, in CPU and wall time, and the peak memory.

Make a trace of about 10 M records and measure it:

    hase new --template torus --dims 8x8 --program collective_loop --param iterations=2450 -o big.ron
    hase run big.ron --level 2 --trace big.htb -q
    python python/benches/read_trace.py big.htb

CPU time is the figure to compare on a shared machine; wall time waits for the cores too.
"""

from __future__ import annotations

import resource
import sys
import time

import hase


def main(path: str, rounds: int = 2) -> None:
    for attempt in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        trace = hase.read_trace(path)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"load {attempt}: cpu {cpu:.2f} s, wall {wall:.2f} s; {len(trace.states)} state intervals, "
            f"{len(trace.messages)} messages, {len(trace.values)} values"
        )
    print(f"peak resident size {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main(sys.argv[1])
