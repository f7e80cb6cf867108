"""Worker processes for CPU-bound Python (computer players, pictures)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor


def process_pool(workers: int, initializer: Callable[[], None]) -> ProcessPoolExecutor:
    """Worker processes started from a clean forkserver (never forked from the running bot,
    whose threads and sockets a fork would copy), each set up by `initializer` once."""
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=initializer)
