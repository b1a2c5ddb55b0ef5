"""Finds the harness's socket and the request's nonce by walking the stack, then writes
a reply line of the right nonce whose fields have the wrong shapes."""
import json
import os
import sys


def _harness():
    frame = sys._getframe(1)
    while frame is not None:
        me = frame.f_locals.get("self")
        req = frame.f_locals.get("req")
        if me is not None and hasattr(me, "sock") and isinstance(req, dict) and "n" in req:
            return me.sock, req
        frame = frame.f_back
    raise RuntimeError("no harness frame")


def poison(kind):
    sock, req = _harness()
    line = {"n": req["n"], "status": "ok", "value": 1, "cpu": 0.0, "wall": 0.0, "stdout": "", "exception": None,
            "detail": "", "hits": [], "tampered": False, "restart": False}
    if kind == "hit_types":
        line["hits"] = [{"banned": ["builtins.sum"], "line": "five", "filename": 3, "count": -1}]
    elif kind == "unknown_ban":
        line["hits"] = [{"banned": "os.system", "line": 1, "filename": "x.py", "count": 1}]
    elif kind == "extra_field":
        line["score"] = 100
    elif kind == "cpu_string":
        line["cpu"] = "0"
    elif kind == "status":
        line["status"] = "passed"
    if "i" in req or "c" in req:
        line.update(i=0, last=True)
    sock.sendall((json.dumps(line) + "\n").encode())
    os._exit(0)


def twice(honest):
    """Two well-formed replies of the right nonce in one write, the harness's own after them."""
    if honest:
        return "honest"
    sock, req = _harness()
    line = json.dumps({"n": req["n"], "status": "ok", "value": 42, "cpu": 0.0, "wall": 0.0}) + "\n"
    sock.sendall((line + line).encode())
    return 1
