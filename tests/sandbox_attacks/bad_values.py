class AlwaysEqual:
    def __eq__(self, other):
        return True
    __hash__ = object.__hash__

class Sneaky(str):
    pass

def always_equal():
    return AlwaysEqual()

def str_subclass():
    return Sneaky("42")

def nan():
    return float("nan")

def huge():
    return 10 ** 5000

def deep():
    x = []
    for _ in range(500):
        x = [x]
    return x

def selfref():
    x = []
    x.append(x)
    return x

def nested_foreign():
    return {"ok": [1, 2, (3, AlwaysEqual())]}
