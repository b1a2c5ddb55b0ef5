import os, signal

def attack(how):
    try:
        if how == "ppid":
            os.kill(os.getppid(), signal.SIGKILL)
        elif how == "init":
            os.kill(1, signal.SIGKILL)
        elif how == "all":
            os.kill(-1, signal.SIGKILL)
    except OSError as e:
        return "error:" + type(e).__name__
    return "survived"

def ok():
    return "fine"
