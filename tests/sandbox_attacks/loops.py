import time

def spin():
    while True:
        pass

def nap():
    time.sleep(1000)

def swallow():
    while True:           # swallows the timeout exception (bare except)
        try:
            while True:
                pass
        except:  # noqa: E722
            pass

def ignore_alarm():
    import signal
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.signal(signal.SIGPROF, signal.SIG_IGN)
    while True:
        pass

def block_alarm():
    import signal
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGPROF})
    while True:
        pass

def ok(x):
    return x * 2


def ignore_alarm_only():
    import signal
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass
