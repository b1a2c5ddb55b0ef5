"""The shapes of the child's replies, checked before the parent uses a single field.

Student code runs in the same interpreter as the child harness, so every reply line may
have been written, or rewritten, by the student.  The codec already refuses anything but
plain values; this module refuses plain values of the wrong *shape*: an unknown key, a
status outside the closed set, a monitor finding whose ``banned`` is not a name the parent
asked to watch, a line number that is a string.  A reply that does not fit is a protocol
violation of that case (scored 0 with a clear message), never a verdict carrying foreign
data into the store and the reports.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from .child.codec import CodecError

MAX_HITS = 200            # distinct (banned, file, line) findings kept from one call
MAX_TEXT = 100_000        # characters of any one text field (output is capped further by the child)


def _text(limit: int = MAX_TEXT) -> Callable[[Any], bool]:
    return lambda v: type(v) is str and len(v) <= limit


def _opt_int(v: Any) -> bool:
    return v is None or (type(v) is int and 0 <= v < 10**9)


def _seconds(v: Any) -> bool:
    return type(v) in (int, float) and 0 <= v < 10**7     # NaN fails the comparison, infinity the bound


def _bool(v: Any) -> bool:
    return type(v) is bool


def _any(v: Any) -> bool:
    return True


EXCEPTION = {"type": _text(500), "message": _text(), "lineno": _opt_int,
             "line": lambda v: v is None or (type(v) is str and len(v) <= 10_000), "traceback": _text()}


def _exception(v: Any) -> bool:
    return v is None or (type(v) is dict and _fits(v, EXCEPTION, required=()))


def _names(v: Any) -> bool:
    return type(v) is list and len(v) <= 10_000 and all(type(n) is str and len(n) <= 1000 for n in v)


LOAD_REPLY = {"n": _text(64), "ok": _bool, "kind": _text(40), "message": _text(), "lineno": _opt_int,
              "line": lambda v: v is None or (type(v) is str and len(v) <= 10_000), "names": _names,
              "exception": _exception, "stdout": _text(), "truncated": _bool, "restart": _bool}

CALL_REPLY = {"n": _text(64), "status": lambda v: v in ("ok", "error", "timeout", "crashed", "protocol"),
              "value": _any, "cpu": _seconds, "wall": _seconds, "exception": _exception, "detail": _text(10_000),
              "hits": _any, "tampered": _bool, "restart": _bool, "stdout": _text(), "truncated": _bool}


def _fits(message: Mapping[str, Any], schema: Mapping[str, Callable[[Any], bool]], required: tuple[str, ...]) -> bool:
    return all(k in schema and schema[k](v) for k, v in message.items()) and all(k in message for k in required)


def check(message: Any, schema: Mapping[str, Callable[[Any], bool]], required: tuple[str, ...] = ("n",)) -> dict[str, Any]:
    """``message`` itself when it fits ``schema``; otherwise a CodecError naming the first bad field."""
    if type(message) is not dict:
        raise CodecError("a reply that is not an object")
    for key, value in message.items():
        test = schema.get(key)
        if test is None:
            raise CodecError(f"a reply with an unknown field {str(key)[:40]!r}")
        if test is not _any and not test(value):
            raise CodecError(f"a reply whose field {key!r} has the wrong type or size")
    for key in required:
        if key not in message:
            raise CodecError(f"a reply without the field {key!r}")
    return message


PLAIN_REPLY = frozenset(("n", "status", "cpu", "wall", "value"))   # the usual reply: a value and its times


def check_call_reply(message: Any) -> dict[str, Any]:
    """``check(message, CALL_REPLY)``, with a short path for the usual reply (a value and
    its times, nothing else) that accepts exactly what the full check accepts of it: it
    runs once per case, and the general loop's call per field was a tenth of a case's cost."""
    if type(message) is dict and message.get("status") == "ok" and message.keys() <= PLAIN_REPLY:
        n = message.get("n")
        if type(n) is str and len(n) <= 64 and _seconds(message.get("cpu", 0)) and _seconds(message.get("wall", 0)):
            return message
    return check(message, CALL_REPLY)


def check_hits(hits: Any, watched: tuple[str, ...]) -> tuple[dict[str, Any], ...]:
    """Monitor findings: each exactly ``{banned, line, filename, count}``, naming a watched ban."""
    if type(hits) is not list or len(hits) > MAX_HITS:
        raise CodecError("malformed monitor findings")
    out = []
    for hit in hits:
        if (type(hit) is not dict or set(hit) != {"banned", "line", "filename", "count"}
                or hit["banned"] not in watched or not _opt_int(hit["line"])
                or type(hit["filename"]) is not str or len(hit["filename"]) > 1000
                or type(hit["count"]) is not int or not 0 < hit["count"] < 10**12):
            raise CodecError("malformed monitor findings")
        out.append(dict(hit))
    return tuple(out)
