"""A reader whose module takes long to import in a pool process, as a real reader's imports do on a
loaded machine (tests/test_reading_pool.py)."""

import multiprocessing
import time

if multiprocessing.parent_process() is not None:  # only in the pool's processes
    time.sleep(3.0)


def read(text: str) -> int:
    return len(text)
