# expect: clean
# call: f([1, 2, 3])
def f(xs):
    total = 0
    for x in xs:
        total += x
    return total


if __name__ == "__main__":
    sum = 0
    for value in [1, 2, 3]:
        sum += value
    print(sum, f([1, 2]))
