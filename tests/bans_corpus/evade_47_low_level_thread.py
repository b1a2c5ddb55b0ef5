# _thread threads never get threading's profile hook.
# expect: builtins.sum static banned-call
# expect: tampered runtime
# call: f([1, 2, 3])
import _thread
import time


def f(xs):
    out = []
    _thread.start_new_thread(lambda: out.append(sum(xs)), ())
    while not out:
        time.sleep(0.001)
    return out[0]
