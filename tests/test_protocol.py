"""The plain-value codec and the line protocol (grader/run/child/codec.py)."""
import json

import pytest

from grader.run.child import codec


def roundtrip(v):
    line = codec.dumps_line({"value": codec.encode(v)})
    return codec.decode(codec.loads_line(line)["value"])


@pytest.mark.parametrize("value", [
    None, True, False, 0, -7, 2 ** 70, -(10 ** 4299), 1.5, -0.0, 1e308, "", "héllo\n\"quote\"", "\u0000\udcff"[:1],
    [], [1, [2, [3]]], (), (1,), (1, (2, 3), [4]), set(), {1, 2, "a"}, frozenset({(1, 2), "x"}),
    {}, {"a": 1, "b": [1, 2]}, {1: "one", (2, 3): {4}}, {frozenset({1}): None, None: 0, True: 1.25},
    {"d": 1}, {"t": [1]}, [{"s": []}], b"\x00\xffbytes", {"nested": {"deeper": ({"x": {1, 2}},)}},
], ids=lambda v: type(v).__name__)
def test_roundtrip_keeps_value_and_exact_types(value):
    back = roundtrip(value)
    assert back == value
    assert _types(back) == _types(value)


@pytest.mark.parametrize("value", [
    [], [1, "a", None, True, 2.5], [1, [2, [3]]], (1, (2, 3), [4]), {"a": (1, [2])}, {1: "one", (2, 3): {4}},
    {frozenset({1}): None}, b"\x00\xff", [{"t": [1]}, ("x", {"s": []})], ["a", ("b", ["c"])],
], ids=repr)
def test_a_request_s_arguments_decode_to_what_the_parent_encoded(value):
    """The child undoes only the tags of what the grader encoded (``decode_request``): the
    same values and exact types as the strict reader gives."""
    args = codec.loads_request(b'{"a":' + codec.Encoded([value]).json + b"}")["a"]
    back = codec.decode_request(args)[0]
    assert back == value and _types(back) == _types(value)


def _types(v):
    if isinstance(v, (list, tuple, set, frozenset)):
        return (type(v), sorted((repr(_types(x)) for x in v)))
    if isinstance(v, dict):
        return (dict, sorted(repr((_types(k), _types(x))) for k, x in v.items()))
    return type(v)


def test_tuple_is_not_list_and_bool_is_not_int():
    assert type(roundtrip((1, 2))) is tuple
    assert type(roundtrip([1, 2])) is list
    assert roundtrip(True) is True
    assert type(roundtrip(1)) is int
    assert type(roundtrip(1.0)) is float


@pytest.mark.parametrize("value,words", [
    (float("nan"), "NaN"), (float("inf"), "infinity"), (-float("inf"), "-infinity"),
    ([1, (2, float("nan"))], "NaN"),
    (10 ** 4300, "4300 digits"), (-(10 ** 5000), "4300 digits"),
], ids=lambda v: type(v).__name__)
def test_rejects_non_plain_numbers(value, words):
    with pytest.raises(codec.CodecError) as e:
        codec.encode(value)
    assert words in str(e.value)


def test_rejects_deep_nesting_and_self_reference():
    x = []
    for _ in range(codec.MAX_DEPTH + 5):
        x = [x]
    with pytest.raises(codec.CodecError, match="nested deeper"):
        codec.encode(x)
    y = []
    y.append(y)
    with pytest.raises(codec.CodecError, match="nested deeper"):
        codec.encode(y)
    ok = []
    for _ in range(codec.MAX_DEPTH - 1):
        ok = [ok]
    assert roundtrip(ok) == ok


class AlwaysEqual:
    def __eq__(self, other):
        return True


class MyStr(str):
    pass


class MyInt(int):
    pass


class MyDict(dict):
    pass


@pytest.mark.parametrize("value,name", [
    (AlwaysEqual(), "AlwaysEqual"), (MyStr("x"), "MyStr"), (MyInt(3), "MyInt"), (MyDict(), "MyDict"),
    ([1, {"k": AlwaysEqual()}], "AlwaysEqual"), ({MyStr("k"): 1}, "MyStr"), (object(), "object"),
    (range(3), "range"), (complex(1, 2), "complex"), (bytearray(b"x"), "bytearray"),
])
def test_rejects_foreign_types_naming_them(value, name):
    with pytest.raises(codec.CodecError) as e:
        codec.encode(value)
    assert name in str(e.value)
    assert "not a plain value" in str(e.value)


@pytest.mark.parametrize("line,words", [
    (b"garbage\n", "not well-formed"),
    (b"\xff\xfe\n", "not well-formed"),
    (b'{"a": NaN}\n', "NaN"),
    (b'{"a": Infinity}\n', "Infinity"),
    (b'{"a": 1, "a": 2}\n', "twice"),
    (b'[1, 2]\n', "not a JSON object"),
    (b'{"a": 1}\n{"a": 2}\n', "more than one line"),
    (b'{"a": ' + b"9" * 5000 + b"}\n", "not well-formed"),
    (b'{"a": ' + b"[" * 100000 + b"]" * 100000 + b"}\n", "nested"),
])
def test_loads_line_rejects_bad_lines(line, words):
    with pytest.raises(codec.CodecError) as e:
        codec.loads_line(line)
    assert words in str(e.value)


def test_oversized_lines_are_rejected_both_ways():
    big = b'{"a": "' + b"x" * codec.MAX_LINE_BYTES + b'"}\n'
    with pytest.raises(codec.CodecError, match="limit"):
        codec.loads_line(big)
    with pytest.raises(codec.CodecError, match="limit"):
        codec.dumps_line({"a": "x" * codec.MAX_LINE_BYTES})


@pytest.mark.parametrize("obj", [
    {"x": 1, "y": 2}, {"q": [1]}, {"t": 5}, {"s": [[1]]}, {"D": [[[1], 2]]}, {"D": [[1]]}, {"b": "!!"},
    {"d": [1]}, [{"t": [{"zz": 1}]}],
])
def test_decode_rejects_malformed_structures(obj):
    with pytest.raises(codec.CodecError):
        codec.decode(json.loads(json.dumps(obj)))


def test_decode_rejects_deep_and_huge_values():
    x = 1
    for _ in range(codec.MAX_DEPTH + 5):
        x = [x]
    with pytest.raises(codec.CodecError):
        codec.decode(x)
    with pytest.raises(codec.CodecError):
        codec.decode(10 ** 4400)
    with pytest.raises(codec.CodecError):
        codec.decode(float("nan"))


# ------------------------------------------------------------------ reply shapes (grader/run/messages.py)
_PLAIN = {"n": "ab12", "status": "ok", "cpu": 0.001, "wall": 0.002, "value": [1, {"t": [2]}]}


@pytest.mark.parametrize("change", [
    {}, {"cpu": 0}, {"wall": 9_999_999.0}, {"value": None}, {"n": "x" * 64},
    {"n": "x" * 65}, {"n": 7}, {"n": None}, {"status": "okay"}, {"status": ["ok"]}, {"status": "error"},
    {"cpu": -0.1}, {"cpu": float("nan")}, {"cpu": float("inf")}, {"cpu": True}, {"cpu": "0.1"},
    {"wall": 10**7}, {"wall": None}, {"stdout": "printed"}, {"restart": True}, {"restart": "yes"},
    {"extra": 1}, {"detail": 5},
], ids=repr)
def test_the_short_path_for_usual_replies_accepts_exactly_what_the_full_check_does(change):
    from grader.run import messages

    reply = {**_PLAIN, **change}
    try:
        messages.check(dict(reply), messages.CALL_REPLY)
        full = None
    except codec.CodecError as e:
        full = str(e)
    try:
        assert messages.check_call_reply(dict(reply)) == reply
        short = None
    except codec.CodecError as e:
        short = str(e)
    assert short == full


@pytest.mark.parametrize("reply", [{"status": "ok", "cpu": 0.1}, {}, [], "ok", None], ids=repr)
def test_a_reply_without_its_tag_or_not_an_object_is_refused(reply):
    from grader.run import messages

    with pytest.raises(codec.CodecError):
        messages.check_call_reply(reply)
