"""Burns CPU while hiding it from any clock the harness keeps in this process."""
import os
import signal
import sys
import threading
import time


def _burn(seconds):
    end = time.thread_time() + seconds if False else None
    t0 = os.times()
    while (os.times().user + os.times().system) - (t0.user + t0.system) < seconds:
        pass


def _spin_cpu(seconds):
    start = time.process_time()
    while time.process_time() - start < seconds:
        pass


def fake_process_time(seconds):
    _spin_cpu(seconds)
    time.process_time = lambda: 0.0
    return 42


def cancel_cpu_timer(seconds):
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.signal(signal.SIGPROF, signal.SIG_IGN)
    _spin_cpu(seconds)
    return 42


def work_in_a_fork(seconds):
    pid = os.fork()
    if pid == 0:
        _spin_cpu(seconds)
        os._exit(0)
    os.waitpid(pid, 0)
    return 42


def work_in_a_fork_from_a_thread(seconds):
    # /proc lists a process's children per thread: this one is not the main thread's child.
    def fork_and_wait():
        pid = os.fork()
        if pid == 0:
            _spin_cpu(seconds)
            os._exit(0)
        os.waitpid(pid, 0)

    worker = threading.Thread(target=fork_and_wait)
    worker.start()
    worker.join()
    return 42


def work_in_a_thread_started_at_import(seconds):
    # A thread started outside the measured call keeps burning during it.
    done = threading.Event()

    def spin():
        _spin_cpu(seconds)
        done.set()
    threading.Thread(target=spin, daemon=True).start()
    done.wait()
    return 42


def forge_a_fast_reply(seconds):
    _spin_cpu(seconds)
    frame = sys._getframe(1)
    while frame is not None:
        me, req = frame.f_locals.get("self"), frame.f_locals.get("req")
        if me is not None and hasattr(me, "sock") and isinstance(req, dict) and "n" in req:
            import json
            line = {"n": req["n"], "status": "ok", "value": 42, "cpu": 0.001, "wall": 0.001, "stdout": "",
                    "exception": None, "detail": "", "hits": [], "tampered": False, "restart": False}
            me.sock.sendall((json.dumps(line) + "\n").encode())
            os._exit(0)
        frame = frame.f_back
    return 42


def honest(seconds):
    _spin_cpu(seconds)
    return 42
