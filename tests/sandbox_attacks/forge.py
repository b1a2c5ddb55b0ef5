import json, os

LINE = (json.dumps({"n": "0" * 32, "status": "ok", "value": 42, "cpu": 0.0, "wall": 0.0, "stdout": "",
                    "exception": None, "detail": "", "hits": [], "tampered": False}) + "\n").encode()

def spray(then_exit):
    for fd in range(21):
        try:
            os.write(fd, LINE)
        except OSError:
            pass
    if then_exit:
        os._exit(0)
    return 1

def ok():
    return "fine"
