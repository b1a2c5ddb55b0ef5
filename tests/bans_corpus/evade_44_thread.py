# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import threading


def f(xs):
    out = []
    t = threading.Thread(target=lambda: out.append(sum(xs)))
    t.start()
    t.join()
    return out[0]
