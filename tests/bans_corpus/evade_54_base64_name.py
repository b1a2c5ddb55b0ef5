# expect: builtins.sum static banned-call
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import base64
import builtins


def f(xs):
    return getattr(builtins, base64.b64decode(b"c3Vt").decode())(xs)
