import os, time

def attack():
    r, w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(w, str(os.getpid()).encode())
            os.close(w)
            os.closerange(0, 1000)
            while True:
                time.sleep(1000)
        os._exit(0)
    os.close(w)
    pid = int(os.read(r, 32))
    os.wait()
    return pid

def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False
