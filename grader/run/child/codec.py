"""Plain-value codec shared by the parent and the sandboxed child.

Standalone on purpose (no ``grader`` imports): it is bound read-only into the
sandbox and imported there by the child harness.

Only *plain* values cross the boundary, checked with exact type tests so that
student-made subclasses (a ``str`` subclass, a class whose ``__eq__`` is always
True, ...) are refused with a message naming the type:

    None, bool, int, float, str, bytes, list, tuple, dict, set, frozenset

JSON carries lists, strings, numbers, booleans and null natively.  Every JSON
*object* is a tag with exactly one key:

    {"t": [...]}            tuple
    {"s": [...]}            set
    {"f": [...]}            frozenset
    {"d": {"k": v, ...}}    dict with only str keys
    {"D": [[k, v], ...]}    dict with any other keys
    {"b": "base64"}         bytes

so the parent gets back exactly the Python types the child had.  A numpy scalar or
array (numpy.float64 from ``np.std``, an ``ndarray``) is an answer like any other: it
crosses as the plain value it holds (``tolist()``: a float, an int, nested lists),
checked like any other value.  NaN and
infinities, ints with more than ``MAX_INT_DIGITS`` digits and nesting deeper
than ``MAX_DEPTH`` are refused.  Decoding never builds anything but these
types and never calls ``==`` or ``__hash__`` on foreign objects.
"""
from __future__ import annotations

import base64
import json
import math
import sys

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the sandboxed child does not import typing
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 100
MAX_INT_DIGITS = 4300
MAX_LINE_BYTES = 4 * 1024 * 1024
_STR = {str}
_SCALARS = {str, int, float, bool, type(None)}
# |n| < 10**4300 is checked cheaply through the bit length first.
_MAX_INT_BITS = int(MAX_INT_DIGITS * 3.3219280948873626) + 1


class CodecError(ValueError):
    """A value (or a line) that is not a plain value; the message is for people."""


def _type_name(x: object) -> str:
    t = type(x)
    mod = getattr(t, "__module__", None)
    try:
        name = t.__qualname__
        if type(name) is not str:
            name = "?"
    except Exception:  # pragma: no cover - hostile metaclass
        name = "?"
    if type(mod) is str and mod not in ("builtins", "__main__"):
        return f"{mod}.{name}"
    return name


def _check_int(x: int) -> None:
    bits = x.bit_length()
    too_big = bits > _MAX_INT_BITS
    if not too_big and bits > _MAX_INT_BITS - 8:
        try:
            too_big = len(str(abs(x))) > MAX_INT_DIGITS
        except ValueError:      # the interpreter's own int/str limit
            too_big = True
    if too_big:
        raise CodecError(f"an int with more than {MAX_INT_DIGITS} digits, which is too large to pass back")


def _check_float(x: float) -> None:
    if math.isnan(x):
        raise CodecError("NaN, which is not a plain value")
    if math.isinf(x):
        raise CodecError(f"{'-' if x < 0 else ''}infinity, which is not a plain value")


def encode(value: Any, _depth: int = 0) -> Any:
    """Python plain value -> JSON-ready structure.  Raises CodecError."""
    if _depth > MAX_DEPTH:
        raise CodecError(f"a value nested deeper than {MAX_DEPTH} levels (or a value that contains itself)")
    t = type(value)
    if value is None or t is bool or t is str:
        return value
    if t is int:
        _check_int(value)
        return value
    if t is float:
        _check_float(value)
        return value
    d = _depth + 1
    if t is list:
        if {*map(type, value)} <= _STR:  # the common list of strings (a hand): no call per item
            return list(value)
        return [encode(v, d) for v in value]
    if t is tuple:
        return {"t": [encode(v, d) for v in value]}
    if t is set:
        return {"s": [encode(v, d) for v in value]}
    if t is frozenset:
        return {"f": [encode(v, d) for v in value]}
    if t is dict:
        items = list(value.items())
        if all(type(k) is str for k, _ in items):
            return {"d": {k: encode(v, d) for k, v in items}}
        return {"D": [[encode(k, d), encode(v, d)] for k, v in items]}
    if t is bytes:
        return {"b": base64.b64encode(value).decode("ascii")}
    if _is_numpy(value):
        try:
            plain = value.tolist()
        except Exception:
            raise CodecError(f"an object of type {_type_name(value)} that could not be converted to a plain value") from None
        if type(plain) is not t:
            return encode(plain, d)
    raise CodecError(f"an object of type {_type_name(value)}, which is not a plain value")


def decode_request(obj: Any) -> Any:
    """The arguments of a request, which the grader itself encoded (``Encoded``, after every
    check of ``encode``) -> Python values: only the tags are undone, and a list of plain
    scalars (the usual case) is used as the parser made it.  Lines from student code are
    read with ``decode``."""
    t = type(obj)
    if t is list:
        if {*map(type, obj)} <= _SCALARS:
            return obj
        return [decode_request(v) for v in obj]
    if t is not dict:
        return obj
    if len(obj) != 1:
        raise CodecError("a malformed value (an untagged JSON object)")
    (tag, body), = obj.items()
    if tag == "t" and type(body) is list:
        return tuple(decode_request(body))
    if tag == "d" and type(body) is dict:
        return {k: decode_request(v) for k, v in body.items()}
    return decode(obj)          # sets, bytes, other keys: rare, the strict reader (and its messages)


def _is_numpy(value: Any) -> bool:
    """A numpy scalar or array.  numpy is never imported here: only code that already
    imported it can have made one."""
    np = sys.modules.get("numpy")
    try:
        return np is not None and isinstance(value, (np.generic, np.ndarray))
    except Exception:
        return False


def _hashable(x: Any, what: str) -> Any:
    try:
        hash(x)
    except TypeError:
        raise CodecError(f"an unhashable {type(x).__name__} used as a {what}") from None
    return x


def decode(obj: Any, _depth: int = 0) -> Any:
    """JSON structure (as produced by ``json.loads``) -> Python plain value."""
    if _depth > MAX_DEPTH:
        raise CodecError(f"a value nested deeper than {MAX_DEPTH} levels")
    t = type(obj)
    if obj is None or t is bool or t is str:
        return obj
    if t is int:
        _check_int(obj)
        return obj
    if t is float:
        _check_float(obj)
        return obj
    d = _depth + 1
    if t is list:
        if {*map(type, obj)} <= _STR:
            return list(obj)
        return [decode(v, d) for v in obj]
    if t is dict:
        if len(obj) != 1:
            raise CodecError("a malformed value (an untagged JSON object)")
        (tag, body), = obj.items()
        if tag == "d" and type(body) is dict:
            return {k: decode(v, d) for k, v in body.items()}
        if tag == "b" and type(body) is str:
            try:
                return base64.b64decode(body.encode("ascii"), validate=True)
            except Exception:
                raise CodecError("malformed bytes") from None
        if type(body) is not list:
            raise CodecError(f"a malformed value (tag {tag!r})")
        if tag == "t":
            return tuple(decode(v, d) for v in body)
        if tag == "s":
            return {_hashable(decode(v, d), "set element") for v in body}
        if tag == "f":
            return frozenset(_hashable(decode(v, d), "set element") for v in body)
        if tag == "D":
            out = {}
            for pair in body:
                if type(pair) is not list or len(pair) != 2:
                    raise CodecError("a malformed dict item")
                out[_hashable(decode(pair[0], d), "dict key")] = decode(pair[1], d)
            return out
        raise CodecError(f"a malformed value (unknown tag {tag!r})")
    raise CodecError(f"a malformed value of JSON type {t.__name__}")  # pragma: no cover


def _reject_constant(name: str) -> None:
    raise CodecError(f"{name}, which is not a plain value")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise CodecError(f"a JSON object with the key {k!r} twice")
        out[k] = v
    return out


# Built once: json.dumps/loads with options build a new encoder/decoder on every call.
_ENCODER = json.JSONEncoder(ensure_ascii=True, allow_nan=False, separators=(",", ":"))
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, object_pairs_hook=_no_duplicate_keys)
_fast: Any = None   # orjson, when this interpreter has it (see use_orjson)


def use_orjson() -> bool:
    """Encode and decode lines with orjson when it is importable (the sandboxed child calls
    this once its library folders are on sys.path).  A line orjson wrote is read by orjson
    and accepted only when orjson writes it back byte for byte (so it had no duplicate key,
    no NaN, nothing the strict reader would refuse); anything else takes the strict reader,
    so what is accepted, and every message about what is not, stays the same."""
    global _fast
    try:
        import orjson
    except ImportError:
        return False
    _fast = orjson
    return True


def _dump(message: Any) -> bytes:
    if _fast is not None:
        try:
            data: bytes = _fast.dumps(message)
            return data
        except TypeError:       # an int beyond 64 bits, a key that is not a str: the exact writer
            pass
    return _ENCODER.encode(message).encode("ascii")


class Encoded(list):  # type: ignore[type-arg]
    """Arguments encoded once (a plan's case is sent to every submission's child): the
    argument list itself, for a session that encodes its own way, and ``json``, the
    bytes this protocol sends."""

    __slots__ = ("json",)

    def __init__(self, args: Any) -> None:
        super().__init__(args)
        self.json = _dump(encode(list(args)))


def dumps_line(message: dict[str, Any]) -> bytes:
    """A protocol message (a dict of JSON-ready parts) -> one line of bytes."""
    data = _dump(message) + b"\n"
    if len(data) > MAX_LINE_BYTES:
        raise CodecError(f"a message of {len(data)} bytes, more than the limit of {MAX_LINE_BYTES}")
    return data


def loads_line(line: bytes) -> dict[str, Any]:
    """One received line -> protocol message.  Strict: one JSON object, no NaN,
    no duplicate keys, size-capped, trailing newline optional."""
    if len(line) > MAX_LINE_BYTES:
        raise CodecError(f"a line of {len(line)} bytes, more than the limit of {MAX_LINE_BYTES}")
    if line.endswith(b"\n"):
        line = line[:-1]
    if b"\n" in line:
        raise CodecError("more than one line")
    if _fast is not None:
        try:
            fast = _fast.loads(line)
            if type(fast) is dict and _fast.dumps(fast) == line:
                return fast
        except (ValueError, TypeError, RecursionError):
            pass                # the strict reader below decides, and says why
    try:
        text = line.decode("utf-8")
        obj = _DECODER.decode(text)
    except CodecError:
        raise
    except RecursionError:
        raise CodecError(f"a value nested deeper than {MAX_DEPTH} levels") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise CodecError(f"a line that is not well-formed JSON ({str(e)[:100]})") from None
    if type(obj) is not dict:
        raise CodecError("a line that is not a JSON object")
    try:    # a lone surrogate ("\\udc80") is a str to Python, but no report can write it as text
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise CodecError("a string that is not valid text (a lone surrogate, e.g. '\\udc80')") from None
    return obj


def loads_request(line: bytes) -> dict[str, Any]:
    """A request line from the grader itself (the child reads what the parent wrote): parsed
    at once, without the strict reader's write-back comparison that lines from student code get."""
    if _fast is not None:
        try:
            fast = _fast.loads(line)
            if type(fast) is dict:
                return fast
        except (ValueError, TypeError, RecursionError):
            pass
    return loads_line(line)


use_orjson()   # the parent has it on sys.path now; the sandboxed child calls it again later
