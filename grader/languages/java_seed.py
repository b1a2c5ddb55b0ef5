"""Seed a Java program's randomness: its compiled classes are rewritten to use ``graderseed.SeededRandom``.

A self-shuffling program deals from ``new Random()``, ``Math.random()``, ``Collections.shuffle(list)``,
``ThreadLocalRandom`` or ``SecureRandom``, all seeded by the clock or the system, so its deals (and what
it prints) differ between two gradings. The JVM offers no switch to seed them: patching
``java.util.Random`` in ``java.base`` turns class-data sharing off (twice the start-up time) and an agent
costs more. The grader compiles the program itself, so it rewrites the class files javac produced, in
the parent, before they reach the sandbox:

- ``new java/util/Random`` and its ``<init>()V`` / ``<init>(J)V`` become ``graderseed/SeededRandom``'s,
  ``new java/security/SecureRandom`` and ``<init>()V`` / ``<init>([B)V`` ``graderseed/SeededSecureRandom``'s
  (subclasses: every later use, field and frame type still fits), and so do ``Random::new`` references;
- the static methods ``Math.random()``, ``StrictMath.random()``, ``Collections.shuffle(list[, rnd])`` and
  ``SecureRandom.getInstance*`` point at the same-named, same-typed static methods of those classes;
- ``invokevirtual ThreadLocalRandom.m(args)`` becomes ``invokestatic SeededRandom.m(tlr, args)`` (one
  opcode byte and its operand: the same length and the same stack effect, the receiver being the first
  argument), for every method in ``THREAD_LOCAL``, and so do ``tlr::nextInt`` references.

Only constant-pool entries are appended and same-length instructions replaced, so no offset, stack map
frame or jump moves. A class that subclasses Random or SecureRandom, or that the walk cannot read, is left
as it is (the plug-in's replay still judges it). SeededRandom seeds every generator from one sequence that
starts at the case's ``GRADER_SEED``, like Python's launcher; an explicit seed stays the program's own
unless it is a reading of the clock (``new Random(System.nanoTime())``). Beyond reach: a program that reads
``/dev/urandom``, the clock's digits or an object's identity hash as its randomness.
"""
from __future__ import annotations

import struct
from pathlib import Path, PurePosixPath

SEEDED = "graderseed/SeededRandom"
SEEDED_SECURE = "graderseed/SeededSecureRandom"
#: The seeding classes' sources, compiled with the program (they read ``GRADER_SEED``): path in the build -> file.
SOURCES = {f"{name}.java": Path(__file__).parent / "java_lib" / f"{PurePosixPath(name).name}.java"
           for name in (SEEDED, SEEDED_SECURE)}

_RANDOM = "java/util/Random"
_SECURE = "java/security/SecureRandom"
_THREAD_LOCAL = "java/util/concurrent/ThreadLocalRandom"
#: Classes whose construction is sent to a seeded subclass, with the constructors that are.
_REPLACED = {_RANDOM: (SEEDED, {"()V", "(J)V"}), _SECURE: (SEEDED_SECURE, {"()V", "([B)V"})}
#: Static methods sent to the same-named, same-typed static method of a seeding class.
_STATIC_REDIRECTS = {
    ("java/lang/Math", "random", "()D"): SEEDED,
    ("java/lang/StrictMath", "random", "()D"): SEEDED,
    ("java/util/Collections", "shuffle", "(Ljava/util/List;)V"): SEEDED,
    ("java/util/Collections", "shuffle", "(Ljava/util/List;Ljava/util/Random;)V"): SEEDED,
    (_SECURE, "getInstance", "(Ljava/lang/String;)Ljava/security/SecureRandom;"): SEEDED_SECURE,
    (_SECURE, "getInstance", "(Ljava/lang/String;Ljava/lang/String;)Ljava/security/SecureRandom;"): SEEDED_SECURE,
    (_SECURE, "getInstance", "(Ljava/lang/String;Ljava/security/Provider;)Ljava/security/SecureRandom;"): SEEDED_SECURE,
    (_SECURE, "getInstanceStrong", "()Ljava/security/SecureRandom;"): SEEDED_SECURE,
}
#: ThreadLocalRandom's methods that SeededRandom stands in for, as static methods taking the receiver first.
THREAD_LOCAL = frozenset({
    ("nextInt", "()I"), ("nextInt", "(I)I"), ("nextInt", "(II)I"), ("nextLong", "()J"), ("nextLong", "(J)J"),
    ("nextLong", "(JJ)J"), ("nextDouble", "()D"), ("nextDouble", "(D)D"), ("nextDouble", "(DD)D"),
    ("nextBoolean", "()Z"), ("nextFloat", "()F"), ("nextGaussian", "()D"), ("nextBytes", "([B)V"),
    ("ints", "()Ljava/util/stream/IntStream;"), ("ints", "(J)Ljava/util/stream/IntStream;"),
    ("ints", "(II)Ljava/util/stream/IntStream;"), ("ints", "(JII)Ljava/util/stream/IntStream;"),
    ("longs", "()Ljava/util/stream/LongStream;"), ("longs", "(J)Ljava/util/stream/LongStream;"),
    ("longs", "(JJ)Ljava/util/stream/LongStream;"), ("longs", "(JJJ)Ljava/util/stream/LongStream;"),
    ("doubles", "()Ljava/util/stream/DoubleStream;"), ("doubles", "(J)Ljava/util/stream/DoubleStream;"),
    ("doubles", "(DD)Ljava/util/stream/DoubleStream;"), ("doubles", "(JDD)Ljava/util/stream/DoubleStream;"),
})
_INVOKEVIRTUAL, _INVOKESPECIAL, _INVOKESTATIC, _NEW = 0xB6, 0xB7, 0xB8, 0xBB
_REF_INVOKEVIRTUAL, _REF_INVOKESTATIC, _REF_NEWINVOKESPECIAL = 5, 6, 8

# Fixed instruction lengths by opcode (0 for the variable ones: tableswitch, lookupswitch, wide).
_LENGTHS = bytearray([1] * 256)
for _ops, _n in (((0x10, 0x12, 0x15, 0x16, 0x17, 0x18, 0x19, 0x36, 0x37, 0x38, 0x39, 0x3A, 0xA9, 0xBC), 2),
                 ((0x11, 0x13, 0x14, 0x84, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xBB, 0xBD, 0xC0, 0xC1,
                   0xC6, 0xC7, *range(0x99, 0xA9)), 3),
                 ((0xC5,), 4), ((0xB9, 0xBA, 0xC8, 0xC9), 5), ((0xAA, 0xAB, 0xC4), 0)):
    for _op in _ops:
        _LENGTHS[_op] = _n


class _Unreadable(ValueError):
    """Not a class file this rewriter understands: it is left unchanged."""


class _ClassFile:
    """A class file's constant pool (parsed) and the bytes after it (kept)."""

    def __init__(self, data: bytes):
        if data[:4] != b"\xca\xfe\xba\xbe":
            raise _Unreadable("no class file magic")
        self.head = data[:8]
        count = struct.unpack_from(">H", data, 8)[0]
        self.pool: list[tuple[int, bytes] | None] = [None]
        pos = 10
        while len(self.pool) < count:
            tag = data[pos]
            if tag == 1:
                size = 3 + struct.unpack_from(">H", data, pos + 1)[0]
            elif tag in (3, 4, 9, 10, 11, 12, 17, 18):
                size = 5
            elif tag in (5, 6):
                size = 9
            elif tag in (7, 8, 16, 19, 20):
                size = 3
            elif tag == 15:
                size = 4
            else:
                raise _Unreadable(f"constant tag {tag}")
            self.pool.append((tag, data[pos + 1:pos + size]))
            if tag in (5, 6):
                self.pool.append(None)   # a long or double takes two slots
            pos += size
        self.rest = bytearray(data[pos:])

    def utf8(self, index: int) -> str:
        entry = self.pool[index]
        if entry is None or entry[0] != 1:
            raise _Unreadable("not a Utf8 constant")
        return entry[1][2:].decode("utf-8", "replace")

    def _ref(self, index: int) -> tuple[int, int]:
        entry = self.pool[index]
        if entry is None:
            raise _Unreadable("empty constant")
        return struct.unpack(">HH", entry[1][:4])

    def class_name(self, index: int) -> str:
        entry = self.pool[index]
        if entry is None or entry[0] != 7:
            return ""
        return self.utf8(struct.unpack(">H", entry[1])[0])

    def member(self, index: int) -> tuple[str, str, str]:
        """(class, name, descriptor) of a Methodref/Fieldref constant."""
        owner, name_and_type = self._ref(index)
        name, descriptor = self._ref(name_and_type)
        return self.class_name(owner), self.utf8(name), self.utf8(descriptor)

    def add(self, tag: int, payload: bytes) -> int:
        self.pool.append((tag, payload))
        return len(self.pool) - 1

    def add_utf8(self, text: str) -> int:
        raw = text.encode("utf-8")
        return self.add(1, struct.pack(">H", len(raw)) + raw)

    def to_bytes(self) -> bytes:
        out = bytearray(self.head) + struct.pack(">H", len(self.pool))
        for entry in self.pool[1:]:
            if entry is not None:
                out += bytes([entry[0]]) + entry[1]
        return bytes(out + self.rest)


def _code_ranges(cls: _ClassFile) -> list[tuple[int, int]]:
    """(start, length) in ``cls.rest`` of every method's bytecode."""
    data = cls.rest
    pos = 6                                                   # access, this, super
    interfaces = struct.unpack_from(">H", data, pos)[0]
    pos += 2 + 2 * interfaces
    ranges: list[tuple[int, int]] = []
    for is_method in (False, True):                          # fields, then methods
        count = struct.unpack_from(">H", data, pos)[0]
        pos += 2
        for _ in range(count):
            attributes = struct.unpack_from(">H", data, pos + 6)[0]
            pos += 8
            for _ in range(attributes):
                name, length = struct.unpack_from(">HI", data, pos)
                if is_method and cls.utf8(name) == "Code":
                    ranges.append((pos + 14, struct.unpack_from(">I", data, pos + 10)[0]))
                pos += 6 + length
    return ranges


def _instructions(code: bytes | bytearray, start: int, length: int):
    """(offset in the code, opcode) of every instruction."""
    pc = 0
    while pc < length:
        op = code[start + pc]
        size = _LENGTHS[op]
        if op == 0xC4:                                        # wide: iinc takes 6 bytes, the others 4
            size = 6 if code[start + pc + 1] == 0x84 else 4
        elif op in (0xAA, 0xAB):
            table = pc + 1 + (3 - pc % 4)
            if op == 0xAA:
                low, high = struct.unpack_from(">ii", code, start + table + 4)
                size = table - pc + 12 + 4 * (high - low + 1)
            else:
                pairs = struct.unpack_from(">i", code, start + table + 4)[0]
                size = table - pc + 8 + 8 * pairs
        if size <= 0:
            raise _Unreadable(f"opcode {op:#x}")
        yield pc, op
        pc += size
    if pc != length:
        raise _Unreadable("code does not end on an instruction")


def seed_class(data: bytes) -> bytes:
    """The class with its unseeded randomness sent to SeededRandom; unchanged when it has none or cannot be read."""
    try:
        return _rewrite(data)
    except (_Unreadable, struct.error, IndexError, UnicodeDecodeError):
        return data


def _rewrite(data: bytes) -> bytes:
    cls = _ClassFile(data)
    this, super_ = struct.unpack_from(">HH", cls.rest, 2)
    if cls.class_name(this).startswith("graderseed/") or cls.class_name(super_) in _REPLACED:
        return data     # the seeding classes; a subclass calls its generator's own constructors as its super
    pool = cls.pool
    methods = {i: cls.member(i) for i, e in enumerate(pool) if e is not None and e[0] == 10}
    news = {i: _REPLACED[name][0] for i, e in enumerate(pool)
            if e is not None and e[0] == 7 and (name := cls.class_name(i)) in _REPLACED}
    redirects = {i: _STATIC_REDIRECTS[m] for i, m in methods.items() if m in _STATIC_REDIRECTS}
    constructors = {i: m for i, m in methods.items()
                    if m[0] in _REPLACED and m[1] == "<init>" and m[2] in _REPLACED[m[0]][1]}
    local = {i: m for i, m in methods.items() if m[0] == _THREAD_LOCAL and (m[1], m[2]) in THREAD_LOCAL}
    if not redirects and not local and not (news and constructors):
        return data
    classes: dict[str, int] = {}

    def class_ref(name: str) -> int:
        if name not in classes:
            classes[name] = cls.add(7, struct.pack(">H", cls.add_utf8(name)))
        return classes[name]

    def method_ref(owner: str, name: str, descriptor: str) -> int:
        name_and_type = cls.add(12, struct.pack(">HH", cls.add_utf8(name), cls.add_utf8(descriptor)))
        return cls.add(10, struct.pack(">HH", class_ref(owner), name_and_type))

    for index, target in redirects.items():                  # same name and type, the seeding class's
        tag, payload = pool[index]  # type: ignore[misc]
        pool[index] = (tag, struct.pack(">H", class_ref(target)) + payload[2:])
    new_class = {index: class_ref(target) for index, target in news.items()}
    new_init = {index: method_ref(_REPLACED[owner][0], "<init>", descriptor)
                for index, (owner, _, descriptor) in constructors.items()}
    static_local = {index: method_ref(SEEDED, name, f"(L{_THREAD_LOCAL};{descriptor[1:]}")
                    for index, (_, name, descriptor) in local.items()}
    for index, entry in enumerate(pool):                     # method references: Random::new, tlr::nextInt
        if entry is not None and entry[0] == 15:
            kind, target = struct.unpack(">BH", entry[1])
            if kind == _REF_NEWINVOKESPECIAL and target in new_init:
                pool[index] = (15, struct.pack(">BH", kind, new_init[target]))
            elif kind == _REF_INVOKEVIRTUAL and target in static_local:
                pool[index] = (15, struct.pack(">BH", _REF_INVOKESTATIC, static_local[target]))
    code = cls.rest
    for start, length in _code_ranges(cls):
        for pc, op in list(_instructions(code, start, length)):
            if op not in (_NEW, _INVOKESPECIAL, _INVOKEVIRTUAL):
                continue
            at = start + pc + 1
            operand = struct.unpack_from(">H", code, at)[0]
            if op == _NEW and operand in new_class:           # new java/util/Random -> new graderseed/SeededRandom
                struct.pack_into(">H", code, at, new_class[operand])
            elif op == _INVOKESPECIAL and operand in new_init:   # its constructor
                struct.pack_into(">H", code, at, new_init[operand])
            elif op == _INVOKEVIRTUAL and operand in static_local:   # same stack effect: the receiver is argument 0
                code[at - 1] = _INVOKESTATIC
                struct.pack_into(">H", code, at, static_local[operand])
    return cls.to_bytes()
