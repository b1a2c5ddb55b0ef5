import os

def attack(paths):
    wrote = []
    for p in paths:
        try:
            with open(p, "w") as f:
                f.write("pwned")
            wrote.append(p)
        except Exception:
            pass
    with open("inside.txt", "w") as f:   # the scratch folder itself is writable
        f.write("ok")
    return wrote

def fill_scratch():
    """Try to write 200 MB into the scratch tmpfs."""
    n = 0
    try:
        with open("big.bin", "wb") as f:
            for _ in range(200):
                f.write(b"x" * (1 << 20))
                n += 1
    except OSError as e:
        return [n, type(e).__name__]
    return [n, "no error"]
