# layer: tripwire (a profile hook cannot see a call made from C)
# expect: builtins.sum static banned-reference
# expect: builtins.sum runtime
# call: f([[1, 2], [3]])
def f(rows):
    return sorted(rows, key=sum)[0]
