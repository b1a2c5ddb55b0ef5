# layer: tripwire (gc shows the stand-in where the original is; a profile hook is not involved)
# expect: gc.get_objects static dynamic-code
# expect: gc.get_referents static dynamic-code
# expect: builtins.sum runtime
# call: f([1, 2, 3])
import gc


def f(xs):
    name = chr(115) + chr(117) + chr(109)
    for holder in gc.get_objects():
        for thing in gc.get_referents(holder):
            if type(thing).__name__ in ("builtin_function_or_method", "function") and thing.__name__ == name:
                return thing(xs)
