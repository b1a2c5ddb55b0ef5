"""One function whose behaviour depends on its argument: for batched calls."""
import os
import signal
import sys
import threading
import time


def f(kind):
    if kind == "ok":
        return 1
    if kind == "raise":
        raise ValueError("bad input")
    if kind == "spin":
        while True:
            pass
    if kind == "deaf":  # ignores every timer: only the parent's backstop stops it
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        signal.signal(signal.SIGPROF, signal.SIG_IGN)
        while True:
            pass
    if kind == "exit":
        os._exit(3)
    if kind == "sysexit":
        sys.exit(2)
    if kind == "thread":
        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        return "left a thread"
    if kind == "forge":
        for fd in range(3, 20):
            try:
                os.write(fd, b'{"n": "x", "results": []}\n')
            except OSError:
                pass
        return 2
    if kind == "print":
        print("hello from", kind)
        return 3
    return None
