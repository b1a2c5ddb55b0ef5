# expect: compile static dynamic-code
# expect: eval static dynamic-code
# expect: numpy.mean static banned-call
# expect: numpy.mean runtime
# call: f([1, 2, 3])
import numpy as np

CODE = compile("np.mean(values)", "<calc>", "eval")


def f(xs):
    return float(eval(CODE, {"np": np, "values": xs}))
