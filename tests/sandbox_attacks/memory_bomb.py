def attack():
    hog = []
    while True:
        hog.append(bytearray(10 ** 7))
