"""A neighbour that burns every core with threads, and an honest submission next to it."""
import threading
import time


def burn_all_cores(seconds, threads=8):
    def spin():
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            pass
    workers = [threading.Thread(target=spin) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return "burnt"


def honest(cpu_seconds):
    start = time.process_time()
    n = 0
    while time.process_time() - start < cpu_seconds:
        n += 1
    return 42
