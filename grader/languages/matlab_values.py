"""Values between Python and MATLAB, exactly as MATLAB sees them.

Out (the grader's own arguments, trusted): a Python value becomes a MATLAB literal that
the Octave server evaluates, so every class and size is the one written here.
Back (the student's answer, untrusted): the server sends class, size and column-major
data; :func:`parse_reply` checks every field and :func:`to_python` reads the matrix in
the shape the reference's answer has, since a 1x2 double is ``[a, b]`` to one reference
and ``[[a, b]]`` to another. The table in the README ("MATLAB values") is this module.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Sequence

NUMERIC = ("double", "single", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
INTEGER = NUMERIC[2:]
MAX_REPLY_BYTES = 4_000_000
_PRINTABLE = frozenset(range(32, 127))


class BadValue(ValueError):
    """A value that cannot cross: said in the user's terms."""


@dataclass(frozen=True)
class MArray:
    """A numeric, logical or char matrix: class, size and its elements column-major."""

    cls: str
    shape: tuple[int, ...]
    data: tuple[Any, ...]

    def rows(self) -> list[list[Any]]:
        r, c = self.shape
        return [[self.data[j * r + i] for j in range(c)] for i in range(r)]


@dataclass(frozen=True)
class MCell:
    shape: tuple[int, ...]
    items: tuple[Any, ...]


@dataclass(frozen=True)
class MStruct:
    shape: tuple[int, ...]
    fields: tuple[str, ...]
    items: tuple[Any, ...]  # element by element, field by field


@dataclass(frozen=True)
class MUnsupported:
    kind: str


MValue = MArray | MCell | MStruct | MUnsupported


# ------------------------------------------------------------------ Python -> MATLAB
def literal(value: Any, cls: str | None = None) -> str:
    """The MATLAB expression that builds ``value`` (``cls`` forces an integer or single class)."""
    text = _literal(value)
    if cls:
        if cls not in NUMERIC + ("logical", "char"):
            raise BadValue(f"unknown MATLAB class {cls!r}")
        return f"{cls}({text})"
    return text


def args_literal(args: Sequence[Any], classes: Sequence[str | None] = ()) -> str:
    """The cell array ``{a1, a2, ...}`` of a call's arguments."""
    kinds = list(classes) + [None] * (len(args) - len(classes))
    return "{" + ", ".join(literal(a, k) for a, k in zip(args, kinds)) + "}"


def _number(x: int | float) -> str:
    if isinstance(x, int) and abs(x) > 2**53:
        raise BadValue(f"{x} is too large to be a MATLAB double exactly")
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("Inf" if x > 0 else "-Inf")
    return repr(x) if isinstance(x, float) else str(x)


def _char(s: str) -> str:
    data = s.encode("utf-8")
    if not data:
        return "''"
    if all(b in _PRINTABLE for b in data):
        return "'" + s.replace("'", "''") + "'"
    # Octave's chars are bytes: non-ASCII text crosses as its UTF-8 bytes.
    return "char([" + " ".join(str(b) for b in data) + "])"


def _is_num(x: Any) -> bool:
    return type(x) in (int, float)


def _literal(v: Any) -> str:
    if type(v) is bool:
        return "true" if v else "false"
    if _is_num(v):
        return _number(v)
    if type(v) is str:
        return _char(v)
    if v is None:
        return "[]"
    if type(v) is dict:
        if not all(type(k) is str and k.isidentifier() for k in v):
            raise BadValue("a dict crosses as a struct: its keys must be valid MATLAB names")
        return "struct(" + ", ".join(f"'{k}', {{{_literal(x)}}}" for k, x in v.items()) + ")"
    if type(v) in (list, tuple):
        return _sequence(list(v))
    raise BadValue(f"a {type(v).__name__} has no MATLAB form")


def _sequence(items: list[Any]) -> str:
    if not items:
        return "[]"
    if all(type(x) is bool for x in items):
        return "[" + " ".join(_literal(x) for x in items) + "]"
    if all(_is_num(x) for x in items):
        return "[" + " ".join(_number(x) for x in items) + "]"
    if all(type(x) is str for x in items) and len({len(x.encode()) for x in items}) == 1 and items[0]:
        return "[" + "; ".join(_char(x) for x in items) + "]"
    rows = [r for r in items if type(r) in (list, tuple)]
    if len(rows) == len(items) and all(r and all(_is_num(x) for x in r) for r in rows) and len({len(r) for r in rows}) == 1:
        return "[" + "; ".join(" ".join(_number(x) for x in r) for r in rows) + "]"
    return "{" + ", ".join(_literal(x) for x in items) + "}"


# ------------------------------------------------------------------ MATLAB -> parsed reply
def parse_reply(line: bytes) -> dict[str, Any]:
    """The JSON of one reply frame, with every value turned into an MValue (raises BadValue)."""
    if len(line) > MAX_REPLY_BYTES:
        raise BadValue(f"returned more than {MAX_REPLY_BYTES} bytes")
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise BadValue(f"an unreadable reply ({exc})") from None
    if type(message) is not dict:
        raise BadValue("an unreadable reply")
    if "v" in message:
        if type(message["v"]) is not list:
            raise BadValue("an unreadable reply")
        message["v"] = [_value(x) for x in message["v"]]
    return message


def text(hexed: Any) -> str:
    """A hex-encoded text field of the reply, as str (bytes are UTF-8 as Octave holds them)."""
    if type(hexed) is not str:
        return ""
    try:
        return bytes.fromhex(hexed).decode("utf-8", "replace")
    except ValueError:
        return ""


def _shape(z: Any) -> tuple[int, ...]:
    if type(z) is not list or len(z) < 2 or any(type(n) is not int or n < 0 for n in z):
        raise BadValue("a value of unreadable size")
    return tuple(z)


def _count(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def _value(x: Any, depth: int = 0) -> MValue:
    if depth > 50 or type(x) is not dict or type(x.get("c")) is not str:
        raise BadValue("a value nested too deep or unreadable")
    cls = x["c"]
    if cls == "unsupported":
        return MUnsupported(text(x.get("k")) or "value")
    shape = _shape(x.get("z"))
    n = _count(shape)
    if cls in ("cell", "struct"):
        raw = x.get("d")
        if type(raw) is not list:
            raise BadValue(f"an unreadable {cls}")
        items = tuple(_value(i, depth + 1) for i in raw)
        if cls == "cell":
            if len(items) != n:
                raise BadValue("a cell array of the wrong size")
            return MCell(shape, items)
        names = x.get("f")
        if type(names) is not list:
            raise BadValue("an unreadable struct")
        fields = tuple(text(f) for f in names)
        if len(items) != n * len(fields):
            raise BadValue("a struct of the wrong size")
        return MStruct(shape, fields, items)
    data = x.get("d")
    if type(data) is not str:
        raise BadValue(f"an unreadable {cls}")
    if cls == "char":
        try:
            raw_bytes = bytes.fromhex(data)
        except ValueError:
            raise BadValue("an unreadable char array") from None
        if len(raw_bytes) != n:
            raise BadValue("a char array of the wrong size")
        return MArray("char", shape, tuple(raw_bytes))
    if cls == "logical":
        if len(data) != n or set(data) - {"0", "1"}:
            raise BadValue("a logical array of the wrong size")
        return MArray("logical", shape, tuple(c == "1" for c in data))
    if cls in NUMERIC:
        parts = data.split(",") if data else []
        if len(parts) != n:
            raise BadValue(f"a {cls} array of the wrong size")
        try:
            numbers = tuple(int(p) if cls in INTEGER else float(p) for p in parts)
        except ValueError:
            raise BadValue(f"an unreadable {cls} array") from None
        return MArray(cls, shape, numbers)
    raise BadValue(f"a value of unknown class {cls!r}")


# ------------------------------------------------------------------ parsed reply -> Python
class Unsupported(Exception):
    """The student returned something with no Python form (a function handle, a complex number...)."""


def outputs(values: Sequence[MValue], expected: Any) -> Any:
    """The call's answer: one output as itself, several as a tuple (like the reference)."""
    if type(expected) is tuple:
        return tuple(to_python(v, e) for v, e in zip(values, expected))
    return to_python(values[0], expected) if values else None


def nargout(expected: Any) -> int:
    """How many outputs to ask for: a reference returning a tuple of k means k outputs."""
    return len(expected) if type(expected) is tuple and expected else 1


def _number_out(cls: str, x: Any) -> Any:
    if cls == "logical":
        return bool(x)
    if cls in INTEGER:
        return int(x)
    if math.isfinite(x) and x == int(x) and abs(x) <= 2**53:
        return int(x)          # an integer-valued double equals the reference's int
    return float(x)


def _wants_rows(like: Any) -> bool:
    """Is the reference's answer a matrix (a list of rows), so that one row still is a row?"""
    return type(like) in (list, tuple) and bool(like) and type(like[0]) in (list, tuple)


def to_python(v: MValue, like: Any = None) -> Any:
    """``v`` as plain Python data, shaped like the reference's answer ``like`` where MATLAB is ambiguous."""
    if isinstance(v, MUnsupported):
        raise Unsupported(f"returned a MATLAB {v.kind}, which cannot be compared with the expected answer")
    if isinstance(v, MCell):
        items = [to_python(x, _item(like, i)) for i, x in enumerate(_row_major(v.shape, v.items))]
        return _grid(v.shape, items, rows=False)
    if isinstance(v, MStruct):
        records = [{f: to_python(v.items[k * len(v.fields) + j]) for j, f in enumerate(v.fields)}
                   for k in range(_count(v.shape))]
        return records[0] if len(records) == 1 and type(like) is not list else records
    if len(v.shape) > 2:
        raise Unsupported(f"returned a {'x'.join(map(str, v.shape))} array; only 2-D values can be compared")
    r, c = v.shape
    if v.cls == "char":
        lines = [bytes(row).decode("utf-8", "replace") for row in v.rows()]
        if r * c == 0:
            return [] if type(like) is list else ""
        return lines if (r > 1 or type(like) is list) else lines[0]
    if r * c == 0:
        return []
    values = [_number_out(v.cls, x) for x in _row_major(v.shape, v.data)]
    if r == 1 and c == 1 and type(like) not in (list, tuple):
        return values[0]
    return _grid(v.shape, values, rows=_wants_rows(like))


def _row_major(shape: tuple[int, ...], items: Sequence[Any]) -> list[Any]:
    r, c = shape[0], shape[1]
    return [items[j * r + i] for i in range(r) for j in range(c)]


def _grid(shape: tuple[int, ...], flat: list[Any], *, rows: bool) -> Any:
    """A 1xN value as a flat list (unless the reference holds rows), else a list of rows."""
    r, c = shape[0], shape[1]
    if r * c == 0:
        return []
    if r == 1 and not rows:
        return flat
    return [flat[i * c:(i + 1) * c] for i in range(r)]


def _item(like: Any, i: int) -> Any:
    if type(like) in (list, tuple) and i < len(like):
        return like[i]
    return None
