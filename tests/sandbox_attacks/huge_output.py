def attack(lines):
    for i in range(lines):
        print("x" * 99)
    return "done"
