"""Run-time confirmation of banned calls, inside the sandbox child.

STANDALONE: standard library only, no ``grader`` imports; this file is bound alone into
the sandbox.  The static analysis (grader.static) imports the name tables below so that
both layers agree on what a policy name covers.

Two layers, both comparing *objects*, never names:

* ``Tripwires``: before student code loads, every banned module-level callable
  (``builtins.sum``, ``statistics.mean``, ``numpy.sum``) is replaced, in every module that
  exposes it, by a stand-in that records the call and does what the original does.  It
  sees calls from C (``map(sum, rows)``, ``sorted(key=sum)``, ``functools.reduce``) and
  costs nothing until a banned callable is called, so it is on for every case.
* ``CallWatcher``: a profile hook for what cannot be replaced, methods of C types
  (``arr.sum()``, ``np.add.reduce``): started only once numpy is loaded.  It compares
  every callee with the banned objects:
  C functions by ``arg is obj``; bound C methods by ``arg.__name__`` and ``arg.__self__``;
  Python functions by ``frame.f_code`` identity.

A call counts when the nearest Python frame is the student's (library code that calls
``sum`` for itself is not the student's use).  Blind spots: banned calls made by library
code on the student's behalf (``np.apply_along_axis(sum, ...)``), and a submission that
digs the original out of the interpreter through a closure (``cell_contents``,
``__closure__``), which the static layer reports as introspection; ``gc``'s walks of the
object graph show each original as its stand-in (``Tripwires._hide_originals``).  Pair names such as ``functools.reduce(operator.add)`` are
static-only.
"""
from __future__ import annotations

import marshal
import os
import socket
import sys
import threading

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the sandboxed child does not import typing
if TYPE_CHECKING:
    from types import FrameType
    from typing import Any, Callable, Iterable, Literal, Mapping

__all__ = ["CallWatcher", "Tripwires", "implied_names", "expand_names", "canonical_name", "NDARRAY_METHODS",
           "INTERPRETER_INTERNALS"]

# Captured at import, before any student code runs: the student can rebind sys.setprofile
# (or builtins.compile, os.open) but not these references.
_setprofile = sys.setprofile
_compile = compile
_os_open, _os_read, _os_close, _O_RDONLY, _SEP = os.open, os.read, os.close, os.O_RDONLY, os.sep
try:
    import _imp

    _get_frozen: Callable[[str], Any] | None = _imp.get_frozen_object
except (ImportError, AttributeError):  # pragma: no cover - CPython has it
    _get_frozen = None
_getprofile = sys.getprofile
_thread_setprofile = threading.setprofile
_thread_getprofile = getattr(threading, "getprofile", None)
_THIS_FILE = os.path.normcase(os.path.abspath(__file__))
_HARNESS_DIR = os.path.join(os.path.dirname(_THIS_FILE), "")   # the child harness is never the student

_getpid = os.getpid


class ForkedCalls:
    """Banned calls made in a process the student's code forked during a call.

    A forked process holds a copy of the session's memory, so what a stand-in or the profile
    hook records there is gone when it ends: a red team called ``sum`` in ``os.fork()``
    children and sent the result back over a pipe, and no call was ever seen.  Such a process
    sends each site it hits once, as a datagram, to a socket only the session's own process
    reads: right after a fork the child closes its copy of that end (``os.register_at_fork``),
    so it cannot take back what it sent, and a socket, unlike a pipe or shared memory, cannot
    be reopened through ``/proc/<pid>/fd`` nor written through ``/proc/self/mem`` (a red team
    wiped a shared mapping that way).  Made in the session's process, never the zygote's, which
    every session inherits."""

    def __init__(self) -> None:
        self.owner = _getpid()
        self._inbox, self._outbox = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        self._inbox.setblocking(False)
        self._outbox.setblocking(False)
        self._sent: set[tuple[str, str, int]] = set()    # the sites this process has sent
        os.register_at_fork(after_in_child=self._forked)

    def _forked(self) -> None:
        self._inbox.close()
        self._sent = set()

    def elsewhere(self) -> bool:
        """This is a process forked from the session's, not the session's own."""
        return _getpid() != self.owner

    def add(self, key: tuple[str, str, int]) -> None:
        if key in self._sent:
            return
        self._sent.add(key)
        try:
            self._outbox.send(marshal.dumps(key))
        except OSError:        # its buffer is full: the sites already in it are enough
            pass

    def take(self) -> dict[tuple[str, str, int], int]:
        """The sites hit in forked processes since the last take: how many processes hit each."""
        hits: dict[tuple[str, str, int], int] = {}
        while True:
            try:
                data = self._inbox.recv(65536)
            except OSError:          # nothing more (or this is not the session's process)
                return hits
            try:
                banned, filename, line = marshal.loads(data)
            except (ValueError, TypeError, EOFError):
                continue
            if type(banned) is str and type(filename) is str and type(line) is int:
                hits[(banned, filename, line)] = hits.get((banned, filename, line), 0) + 1


_forked: ForkedCalls | None = None


def forked_calls() -> ForkedCalls:
    """The session's record of calls made in its forked processes, made in this process."""
    global _forked
    if _forked is None or _forked.owner != _getpid():
        _forked = ForkedCalls()
    return _forked


def _in_fork(key: tuple[str, str, int]) -> bool:
    """Record ``key`` for the session when this is a forked process (True), else nothing."""
    forked = _forked
    if forked is None or not forked.elsewhere():
        return False
    forked.add(key)
    return True


# --------------------------------------------------------------------------------------
# Name tables shared with the static analysis
# --------------------------------------------------------------------------------------
#: Modules that reach under the interpreter, or into this child harness: ctypes made a new
#: ``sum`` from builtins' method table (``PyCFunction_NewEx``), a subinterpreter has builtins of
#: its own with no tripwire, and the harness holds the tripwire's records.  The run-time layer
#: cannot see through them; the static layer reports them (grader.static.exprs).
INTERPRETER_INTERNALS = frozenset({"ctypes", "_ctypes", "cffi", "_xxsubinterpreters", "_xxinterpchannels",
                                   "_testcapi", "_testinternalcapi", "_gradechild"})

# numpy functions that are also ndarray (and numpy scalar) methods: banning numpy.X bans
# arr.X() too.
NDARRAY_METHODS = frozenset(
    "all any argmax argmin argpartition argsort choose clip compress conj conjugate cumprod "
    "cumsum diagonal dot max mean min nonzero prod ptp put ravel repeat reshape round "
    "searchsorted sort squeeze std sum swapaxes take trace transpose var".split()
)
# numpy functions that are a ufunc method in disguise.
_UFUNC_FORMS = {
    "sum": ("add.reduce", "add.reduceat"),
    "cumsum": ("add.accumulate",),
    "prod": ("multiply.reduce", "multiply.reduceat"),
    "cumprod": ("multiply.accumulate",),
    "max": ("maximum.reduce",),
    "min": ("minimum.reduce",),
}
# The same computation under another public or private name: numpy 2's cumulative_sum is cumsum
# (with include_initial), _methods._sum is numpy.sum's own body, numpy.ma's are the masked forms.
_NUMPY_RELATIVES = {
    "sum": ("ma.sum", "_core._methods._sum"),
    "cumsum": ("cumulative_sum", "ma.cumsum"),
    "mean": ("ma.mean", "_core._methods._mean"),
    "prod": ("ma.prod", "_core._methods._prod"),
    "cumprod": ("cumulative_prod", "ma.cumprod"),
}
# statistics' private exact sum is mean's own body.
_STDLIB_RELATIVES = {"statistics.mean": ("statistics._sum",), "statistics.fmean": ("statistics._sum",)}
_NUMPY_ALIASES = {"amax": "max", "amin": "min", "product": "prod", "cumproduct": "cumprod",
                  "round_": "round", "around": "round"}
# Module paths under which numpy defines its public functions.
_NUMPY_PRIVATE_PREFIXES = (
    "numpy._core.fromnumeric.", "numpy.core.fromnumeric.", "numpy._core.numeric.",
    "numpy.core.numeric.", "numpy._core.", "numpy.core.", "numpy.lib.function_base.",
    "numpy.lib._function_base_impl.",
)


def canonical_name(qualname: str) -> str:
    """Spell a qualified name the way a policy does (``numpy.core.fromnumeric.sum`` -> ``numpy.sum``)."""
    if qualname.startswith("__builtin__."):
        qualname = "builtins." + qualname[len("__builtin__."):]
    for prefix in _NUMPY_PRIVATE_PREFIXES:
        if qualname.startswith(prefix):
            rest = qualname[len(prefix):]
            if rest and "." not in rest:
                qualname = "numpy." + rest
            break
    if qualname.startswith("numpy."):
        rest = qualname[len("numpy."):]
        if rest in _NUMPY_ALIASES:
            qualname = "numpy." + _NUMPY_ALIASES[rest]
    return qualname


def implied_names(name: str) -> tuple[str, ...]:
    """Every qualified name a policy name covers, itself first.

    ``numpy.X`` covers ``numpy.ndarray.X`` and ``numpy.generic.X`` when X is an array method,
    the ufunc form (``numpy.sum`` -> ``numpy.add.reduce`` and ``reduceat``, ``numpy.cumsum`` ->
    ``numpy.add.accumulate``) and the same computation under other names (``numpy.cumsum`` ->
    ``numpy.cumulative_sum``, ``numpy.ma.cumsum``; ``numpy.sum`` -> ``numpy._core._methods._sum``);
    ``numpy.ndarray.X`` covers ``numpy.generic.X``; ``statistics.mean`` covers its private
    ``statistics._sum``.  Nothing else is implied: ``builtins.sum`` does not ban ``math.fsum``;
    list both to ban both.
    A pair name ``outer(inner)`` covers only itself (static analysis only).
    """
    if "(" in name:
        return (name,)
    name = canonical_name(name)
    out = [name]
    if name.startswith("numpy.") and name.count(".") == 1:
        short = name.split(".", 1)[1]
        if short in NDARRAY_METHODS:
            out += [f"numpy.ndarray.{short}", f"numpy.generic.{short}"]
        for form in _UFUNC_FORMS.get(short, ()) + _NUMPY_RELATIVES.get(short, ()):
            out.append(f"numpy.{form}")
    elif name.startswith("numpy.ndarray.") and name.count(".") == 2:
        out.append("numpy.generic." + name.rsplit(".", 1)[1])
    elif name.startswith("numpy.") and name.endswith(".reduce") and name.count(".") == 2:
        out.append(name + "at")                     # numpy.add.reduce -> numpy.add.reduceat
    out += _STDLIB_RELATIVES.get(name, ())
    return tuple(dict.fromkeys(out))


def expand_names(names: Iterable[str]) -> dict[str, str]:
    """Covered qualified name -> the policy name that bans it (the first one wins)."""
    names = list(names)
    out: dict[str, str] = {}
    for policy_name in names:  # a name listed exactly wins over one that merely implies it
        out.setdefault(implied_names(policy_name)[0], policy_name)
    for policy_name in names:
        for covered in implied_names(policy_name):
            out.setdefault(covered, policy_name)
    return out


# --------------------------------------------------------------------------------------
# The watcher
# --------------------------------------------------------------------------------------

def _library_dirs() -> tuple[str, ...]:
    dirs = set()
    try:
        import sysconfig

        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            path = sysconfig.get_paths().get(key)
            if path:
                dirs.add(os.path.normcase(os.path.abspath(path)))
    except Exception:  # pragma: no cover - sysconfig always works on CPython
        pass
    dirs.add(os.path.normcase(os.path.dirname(os.path.abspath(os.__file__))))
    for path in sys.path:
        if path and ("site-packages" in path or "dist-packages" in path):
            dirs.add(os.path.normcase(os.path.abspath(path)))
    return tuple(sorted(d.rstrip(os.sep) + os.sep for d in dirs))


_LIB_DIRS = _library_dirs()


def refresh_library_dirs() -> None:
    """Re-read the library folders once the zygote's trusted sys.path is complete."""
    global _LIB_DIRS
    _LIB_DIRS = _library_dirs()
_BuiltinMethod = type(len)
_MethodDescriptor = type(str.join)


class CallWatcher:
    """Record calls of banned callables made by student code during a ``with`` block.

    ``names``: qualified policy names.  ``files``: the student's source files; by default any
    code outside the standard library and site-packages counts as student code.  Calls made
    from ``eval``/``exec`` code (``<string>``) are attributed to the student line that ran it.
    """

    def __init__(self, names: Iterable[str], files: Iterable[str] | None = None,
                 covered: dict[str, str] | None = None) -> None:
        self.names = tuple(names)
        self.static_only = tuple(n for n in self.names if "(" in n)
        self._covered = dict(covered) if covered is not None else expand_names(n for n in self.names if "(" not in n)
        self._files = (
            None if files is None
            else frozenset(os.path.normcase(os.path.abspath(f)) for f in files)
        )
        self._counts: dict[tuple[str, str, int], int] = {}
        self.tampered = False
        self.tamper_reasons: list[str] = []
        self.unresolved: set[str] = set(self._covered)
        self.unwatchable: set[str] = set()  # resolved to something a profile hook cannot see (types)
        self._cfuncs: dict[int, str] = {}   # id(C function) -> banned
        self._keep: list[object] = []     # keeps the objects behind those ids alive
        self._codes: dict[object, str] = {}    # code object -> banned
        self._methods: dict[str, list[tuple[str, Any, str]]] = {}  # method name -> [(kind, owner, banned)]
        self._nmods = -1
        self._prev: Any = None
        self._prev_thread = None
        self._hook: Callable[[FrameType, str, Any], None] | None = None
        self._active = False
        self._own_codes = frozenset({CallWatcher.__enter__.__code__, CallWatcher.__exit__.__code__})

    # -- results ---------------------------------------------------------------------
    @property
    def hits(self) -> list[dict[str, object]]:
        return [
            {"banned": banned, "line": line, "filename": filename, "count": count}
            for (banned, filename, line), count in self._counts.items()
        ]

    # -- resolution ------------------------------------------------------------------
    def _resolve(self) -> None:
        modules = sys.modules
        self._nmods = len(modules)
        for qual in list(self.unresolved):
            obj = _lookup(qual, modules)
            if obj is _NOTFOUND:
                continue
            self.unresolved.discard(qual)
            self._register(qual, obj)

    @staticmethod
    def sees(qual: str, obj: object) -> bool:
        """Can a profile hook see calls of ``obj``?  Not when it is a type: a hook installed for
        it alone would only slow every call down.  Asked of a scratch watcher, so the answer
        is ``_register``'s own."""
        scratch = CallWatcher((), covered={qual: qual})
        scratch._register(qual, obj)
        return qual not in scratch.unwatchable

    def _register(self, qual: str, obj: object) -> None:
        banned = self._covered[qual]
        if isinstance(obj, _BuiltinMethod):
            owner = getattr(obj, "__self__", None)
            if owner is None or type(owner).__name__ == "module":
                self._cfuncs[id(obj)] = banned
                self._keep.append(obj)
            else:  # bound to an object, e.g. numpy.add.reduce: a fresh method object per access
                self._methods.setdefault(getattr(obj, "__name__", "?"), []).append(("bound", owner, banned))
            return
        if isinstance(obj, _MethodDescriptor) or type(obj).__name__ in ("method_descriptor", "wrapper_descriptor"):
            owner = getattr(obj, "__objclass__", None)
            if owner is not None:
                self._methods.setdefault(getattr(obj, "__name__", "?"), []).append(("instance", owner, banned))
                return
        codes = []
        for candidate in (obj, getattr(obj, "_implementation", None), getattr(obj, "__wrapped__", None),
                          getattr(obj, "__func__", None)):
            code = getattr(candidate, "__code__", None)
            if code is not None:
                codes.append(code)
        if codes:
            for code in codes:
                self._codes[code] = banned
            return
        self.unwatchable.add(qual)

    # -- attribution -----------------------------------------------------------------
    def _student_site(self, frame: FrameType | None, names: set[str] | None = None) -> tuple[str, int] | None:
        """(filename, line) of the student code behind ``frame``, or None for library code.

        A code object's filename is the student's to choose (``compile(src, "<frozen os>",
        ...)``, ``code.replace(co_filename=...)``), so code that claims a library's file (or
        a frozen module) counts as library code only when it is that file's own code
        (:func:`_genuine`).  Forged code, like ``eval``/``exec`` code, is attributed to the
        student line that ran it, else to itself.  ``names``: the names the banned callable
        goes by; library code that never names it (``functools.singledispatch``'s wrapper)
        only passes on a callable it was given, so the student frame behind it is the caller."""
        files = self._files
        forged: tuple[str, int] | None = None
        while frame is not None:
            code = frame.f_code
            filename = code.co_filename
            if filename.startswith("<") and not filename.startswith("<frozen"):
                frame = frame.f_back  # eval/exec code: attribute to the line that ran it
                continue
            if files is not None and filename in files:
                return (filename, frame.f_lineno)
            claims_library = files is not None or filename.startswith("<frozen") \
                or filename.startswith(_HARNESS_DIR) or filename.startswith(_LIB_DIRS)
            if not claims_library:
                return (filename, frame.f_lineno)
            if _genuine(code):
                if names is None or forged or not names.isdisjoint(code.co_names):
                    return forged           # the library's own use of it
                frame = frame.f_back        # a forwarder of what it was handed
                continue
            forged = forged or (filename, frame.f_lineno)
            frame = frame.f_back
        return forged

    def _record(self, banned: str, frame: FrameType | None) -> None:
        site = self._student_site(frame)
        if site is None:
            return
        key = (banned, site[0], site[1])
        if not _in_fork(key):
            self._counts[key] = self._counts.get(key, 0) + 1

    def _tamper(self, reason: str) -> None:
        self.tampered = True
        if reason not in self.tamper_reasons:
            self.tamper_reasons.append(reason)

    # -- the hook --------------------------------------------------------------------
    def _make_hook(self) -> Callable[[FrameType, str, Any], None]:
        cfuncs = self._cfuncs
        codes = self._codes
        methods = self._methods
        modules = sys.modules
        record = self._record
        resolve = self._resolve
        own = self._own_codes
        watcher = self
        tamper_c = {
            id(_setprofile): "sys.setprofile called",
            id(_getprofile): "sys.getprofile called",
        }
        try:
            import _thread

            tamper_c[id(_thread.start_new_thread)] = "_thread.start_new_thread (an unwatched thread)"
            tamper_keep: tuple[object] = (_thread.start_new_thread,)
        except Exception:  # pragma: no cover
            tamper_keep = (None,)
        student = self._student_site
        tamper_codes = {_thread_setprofile.__code__: "threading.setprofile called"}
        if _thread_getprofile is not None and hasattr(_thread_getprofile, "__code__"):
            tamper_codes[_thread_getprofile.__code__] = "threading.getprofile called"

        # The call instruction of the last C method recorded: the Python body it runs on the
        # student's behalf (ndarray.mean runs numpy._core._methods._mean) is that same call.
        last = [0, -1]

        def hook(frame: FrameType, event: str, arg: Any, _keep: tuple[object] = tamper_keep) -> None:
            if event == "c_call":
                if len(modules) != watcher._nmods:
                    resolve()
                banned = cfuncs.get(id(arg))
                if banned is not None:
                    record(banned, frame)
                    last[0], last[1] = id(frame), frame.f_lasti
                    return
                reason = tamper_c.get(id(arg))
                if reason is not None:
                    # threading.Thread.start itself uses _thread: only the student's own calls count
                    if frame.f_code not in own and (arg is not tamper_keep[0] or student(frame)):
                        watcher._tamper(reason)
                    return
                specs = methods.get(getattr(arg, "__name__", ""))
                if specs is not None:
                    owner = getattr(arg, "__self__", None)
                    for kind, target, banned in specs:
                        if (owner is target) if kind == "bound" else isinstance(owner, target):
                            record(banned, frame)
                            last[0], last[1] = id(frame), frame.f_lasti
                            return
            elif event == "call":
                if len(modules) != watcher._nmods:
                    resolve()
                code = frame.f_code
                banned = codes.get(code)
                if banned is not None:
                    back = frame.f_back
                    if back is None or id(back) != last[0] or back.f_lasti != last[1]:
                        record(banned, back)
                    return
                reason = tamper_codes.get(code)
                if reason is not None and (frame.f_back is None or frame.f_back.f_code not in own):
                    watcher._tamper(reason)

        return hook

    # -- context manager -------------------------------------------------------------
    def __enter__(self) -> CallWatcher:
        self._resolve()
        self._hook = self._make_hook()
        self._prev = _getprofile()
        self._prev_thread = _thread_getprofile() if _thread_getprofile else getattr(threading, "_profile_hook", None)
        self._active = True
        _thread_setprofile(self._hook)
        _setprofile(self._hook)
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        current = _getprofile()
        _setprofile(self._prev)
        if self._active:
            self._active = False
            hook = self._hook
            if current is not hook:
                self._tamper("the profile hook was removed or replaced")
            if sys.setprofile is not _setprofile or sys.getprofile is not _getprofile:
                self._tamper("sys.setprofile/getprofile was replaced")
            if getattr(threading, "_profile_hook", hook) is not hook:
                self._tamper("threading's profile hook was replaced")
            if threading.setprofile is not _thread_setprofile:
                self._tamper("threading.setprofile was replaced")
            _thread_setprofile(self._prev_thread)
        return False


_NOTFOUND = object()
_GENUINE: dict[object, bool] = {}          # code object -> is it its file's own code
_FILE_CODES: dict[str, frozenset[Any]] = {}     # filename -> every code object compiled from it


def _genuine(code: Any) -> bool:
    """Is ``code`` the code of the file (or frozen module) its ``co_filename`` names?  Found
    among the code objects that compiling that file gives (code objects compare by their
    bytecode, constants and names, not their filename): then it does what the library's
    code does, whoever holds it.  Library folders and the harness are read-only in the
    sandbox; a path that is not plain (``..``, ``.``, ``//``) is never a library's."""
    known = _GENUINE.get(code)
    if known is None:
        filename = code.co_filename
        codes = _FILE_CODES.get(filename)
        if codes is None:
            codes = _FILE_CODES[filename] = frozenset(_code_tree(_library_code(filename)))
        known = _GENUINE[code] = code in codes
    return known


def _library_code(filename: str) -> Any:
    """The module code object of a library file or frozen module, or None."""
    if filename.startswith("<frozen ") and filename.endswith(">"):
        name = filename[len("<frozen "):-1]
        name = {"importlib._bootstrap": "_frozen_importlib",
                "importlib._bootstrap_external": "_frozen_importlib_external"}.get(name, name)
        try:
            return _get_frozen(name) if _get_frozen is not None else None
        except Exception:
            return None
    if not filename.startswith(_LIB_DIRS + (_HARNESS_DIR,)) or any(
            part in ("", ".", "..") for part in filename.split(_SEP)[1:]):
        return None
    try:
        fd = _os_open(filename, _O_RDONLY)
        try:
            chunks = []
            while True:
                chunk = _os_read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            _os_close(fd)
        return _compile(b"".join(chunks), filename, "exec", dont_inherit=True)
    except Exception:
        return None


_SOURCES: dict[str, list[str]] = {}


def _library_sources(module: str) -> list[str]:
    """The source files a module's name gives in the library folders (``statistics`` ->
    ``.../python3.11/statistics.py``), found by opening them: no finder, nothing imported."""
    known = _SOURCES.get(module)
    if known is None:
        known = _SOURCES[module] = _find_sources(module)
    return known


def _find_sources(module: str) -> list[str]:
    rel = module.replace(".", _SEP)
    found = []
    for folder in _LIB_DIRS:
        for path in (folder + rel + ".py", folder + rel + _SEP + "__init__.py"):
            try:
                _os_close(_os_open(path, _O_RDONLY))
            except OSError:
                continue
            found.append(path)
    return found


def _code_tree(code: Any) -> list[Any]:
    """``code`` and every code object nested in its constants."""
    out: list[Any] = []
    todo = [code] if code is not None else []
    while todo:
        current = todo.pop()
        out.append(current)
        todo.extend(c for c in current.co_consts if type(c) is type(current))
    return out


# --------------------------------------------------------------------------------------
# The tripwires: banned objects replaced in every module before student code loads
# --------------------------------------------------------------------------------------

_FunctionType = type(lambda: None)
_REPLACEABLE = (_BuiltinMethod, _FunctionType)


def _replaceable(obj: Any) -> bool:
    """A module-level function (C or Python, or numpy's dispatcher): something a module
    attribute holds and a wrapper can stand in for.  Methods of C types cannot be."""
    if isinstance(obj, _BuiltinMethod):
        owner = getattr(obj, "__self__", None)
        return owner is None or type(owner).__name__ == "module"
    return isinstance(obj, _FunctionType) or type(obj).__name__ == "_ArrayFunctionDispatcher"


class Tripwires:
    """Every banned module-level callable replaced, in every loaded module that exposes it,
    by a stand-in that records the call and then does exactly what the original does.

    The identity of the object is the tripwire: however the student reaches it (a name,
    an alias, ``map(sum, rows)``, ``sorted(key=sum)``, ``functools.reduce``, a call from C,
    a container, ``getattr``), the stand-in runs.  Modules imported later are patched as
    their import returns (``__import__`` and ``importlib.import_module`` are wrapped) and
    again before each call.  It costs nothing until a banned callable is called, so it is
    on for every case.  A call is recorded when the nearest Python frame is the student's
    (library code calling ``sum`` for its own purposes is not the student's use).

    Methods of C types (``arr.sum()``, ``np.add.reduce``) cannot be replaced:
    ``unreplaceable`` lists them for the profile hook (``CallWatcher``).
    """

    def __init__(self, names: Iterable[str]) -> None:
        self._covered = expand_names(n for n in names if "(" not in n)
        self._pending = set(self._covered)       # qualified names not resolved yet
        self._stand_in: dict[int, Any] = {}      # id(original) -> stand-in
        self._copies: dict[Any, str] = {}        # code of a banned Python function -> banned
        self._names: dict[int, set[str]] = {}    # id(original) -> the names it goes by
        self._origins: dict[tuple[str, str], str] = {}   # (source file, qualname) of one -> banned
        self._unlocated: set[str] | None = {q for q in self._covered if "." in q}   # None: looked for
        self._originals: list[Any] = []          # keeps the originals alive (ids stay valid)
        self._shown: dict[int, Any] = {}         # id(original or copy) -> the stand-in gc shows for it
        self._placed: list[tuple[dict[str, Any], str, Any]] = []  # (module dict, attribute, stand-in)
        self.unreplaceable: dict[str, str] = {}  # qualified name -> banned, for the profile hook
        self._counts: dict[tuple[str, str, int], int] = {}
        self._nmods = -1
        self._scanned: set[str] = set()                 # names of modules already patched
        self._n_stand_ins = 0
        self.active = False
        self._on_unreplaceable: Callable[[], None] | None = None
        watcher = CallWatcher((), covered={})
        self._site = watcher._student_site

    # -- results ---------------------------------------------------------------------
    def take(self) -> list[dict[str, Any]]:
        """The hits of the call, the session's own and its forked processes' (see ForkedCalls)."""
        for key, count in forked_calls().take().items():
            self._counts[key] = self._counts.get(key, 0) + count
        if not self._counts:         # the usual call: nothing banned was called
            return []
        hits = [{"banned": b, "line": line, "filename": f, "count": c} for (b, f, line), c in self._counts.items()]
        self._counts = {}
        return hits

    # -- installation ----------------------------------------------------------------
    def install(self) -> "Tripwires":
        import builtins
        import importlib

        self.refresh()
        original_import, original_import_module = builtins.__import__, importlib.import_module
        refresh = self.refresh

        def __import__(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
            module = original_import(name, globals, locals, fromlist, level)
            refresh()
            return module

        def import_module(name: str, package: str | None = None) -> Any:
            module = original_import_module(name, package)
            refresh()
            return module

        self._locate()
        original_exec, patch = builtins.exec, self._patch_copies

        def exec(source: Any, globals: Any = None, locals: Any = None, /, *, closure: Any = None) -> None:
            if globals is None:          # as exec itself does: the caller's namespaces
                caller = sys._getframe(1)
                globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
            try:
                original_exec(source, globals, locals, closure=closure)
            finally:
                patch(globals)
                if locals is not None and locals is not globals:
                    patch(locals)

        for stand_in, original in ((__import__, original_import), (import_module, original_import_module),
                                   (exec, original_exec)):
            _dress(stand_in, original)
        builtins.__import__ = __import__
        importlib.import_module = import_module
        builtins.exec = exec
        self._hide_originals()
        return self

    def _hide_originals(self) -> None:
        """``gc`` shows each original as its stand-in: a walk of the object graph
        (``gc.get_objects``, ``get_referents``, ``get_referrers``) found the interpreter's own
        ``sum`` past every name that holds the stand-in, and its calls went unseen."""
        import gc

        shown = self._shown

        def swap(found: list[Any]) -> list[Any]:
            return [shown.get(id(o), o) for o in found] if shown else found

        objects, referents, referrers = gc.get_objects, gc.get_referents, gc.get_referrers

        def get_objects(generation: int | None = None) -> list[Any]:
            return swap(objects() if generation is None else objects(generation))

        def get_referents(*objs: Any) -> list[Any]:
            return swap(referents(*objs))

        def get_referrers(*objs: Any) -> list[Any]:
            return swap(referrers(*objs))

        for stand_in, original in ((get_objects, objects), (get_referents, referents), (get_referrers, referrers)):
            setattr(gc, original.__name__, _dress(stand_in, original))

    def _patch_copies(self, namespace: Any) -> None:
        """A fresh copy of a library module (``runpy.run_module``, ``spec_from_file_location`` and
        ``exec_module``, ``exec`` of its file, ``importlib.reload``) holds new function objects,
        which no stand-in replaced; all of these run its code through ``exec``, after which its
        banned functions, known by their code (code objects compare by value), get stand-ins."""
        if type(namespace) is not dict:
            return
        copies, origins = self._copies, self._locate()
        if not copies and not origins or self._is_canonical(namespace):
            return
        for attr, value in list(namespace.items()):
            if type(value) is _FunctionType:
                code = value.__code__
                banned = copies.get(code) or origins.get((code.co_filename, code.co_qualname))
                if banned is not None:
                    namespace[attr] = self._shown[id(value)] = self._make(value, banned)
                    self._originals.append(value)

    @staticmethod
    def _is_canonical(namespace: dict[str, Any]) -> bool:
        """Is this the one copy the import system loads, the module of its name from that name's
        own file in a library folder?  Its originals get stand-ins by identity (``refresh``)."""
        name, file = namespace.get("__name__"), namespace.get("__file__")
        if type(name) is not str or type(file) is not str:
            return False
        module = sys.modules.get(name)
        return getattr(module, "__dict__", None) is namespace and file in _library_sources(name)

    def _locate(self) -> dict[tuple[str, str], str]:
        """Where each banned Python function is defined, found once, before student code runs
        and without importing anything (its copy may be made before its module ever is):
        ``(file, qualname)``, the file the module's name gives in a library folder."""
        if self._unlocated is not None:
            for qual in self._unlocated:
                module, _, attr = qual.rpartition(".")
                for path in _library_sources(module):
                    self._origins[(path, attr)] = self._covered[qual]
            self._unlocated = None
        return self._origins

    def refresh(self) -> None:
        """Resolve what is newly importable and patch modules loaded since the last look."""
        modules = sys.modules
        if len(modules) == self._nmods:
            return
        self._nmods = len(modules)
        for qual in list(self._pending):
            obj = _lookup(qual, modules)
            if obj is _NOTFOUND:
                continue
            self._pending.discard(qual)
            if _replaceable(obj):
                if id(obj) not in self._stand_in:
                    stand_in = self._stand_in[id(obj)] = self._shown[id(obj)] = self._make(obj, self._covered[qual])
                    self._originals.append(obj)
                    _place_on_class(qual, obj, stand_in)
                if type(obj) is _FunctionType:
                    self._copies[obj.__code__] = self._covered[qual]
            elif CallWatcher.sees(qual, obj):   # a type (itertools.accumulate) is static-only
                self.unreplaceable[qual] = self._covered[qual]
        if self.active and self.unreplaceable and self._on_unreplaceable is not None:
            self._on_unreplaceable()
        if not self._stand_in:
            return
        stand_in = self._stand_in
        fresh = [m for name, m in list(modules.items()) if name not in self._scanned]
        self._scanned.update(modules)
        if len(stand_in) != self._n_stand_ins:   # a new original may sit in any module: look at all
            self._n_stand_ins = len(stand_in)
            fresh = list(modules.values())
        for module in fresh:
            namespace = getattr(module, "__dict__", None)
            if type(namespace) is not dict:
                continue
            for attr, value in list(namespace.items()):
                replacement = stand_in.get(id(value))
                if replacement is not None and value is not replacement:
                    namespace[attr] = replacement
                    self._names[id(value)].add(attr)
                    if _is_library(module):
                        self._placed.append((namespace, attr, replacement))

    def _make(self, original: Any, banned: str) -> Any:
        record = self._record
        call = original
        # Every name it goes by: its own, and each module attribute that holds it (numpy's
        # ``_sum_ = sum``), added as refresh finds them.
        names = self._names.setdefault(id(original), {getattr(original, "__name__", ""), banned.rpartition(".")[2]})

        def stand_in(*args: Any, **kwargs: Any) -> Any:
            record(banned, names)
            return call(*args, **kwargs)

        return _dress(stand_in, original, "__text_signature__")

    def _record(self, banned: str, names: set[str]) -> None:
        if not self.active:
            return
        site = self._site(sys._getframe(2), names)
        if site is not None:
            key = (banned, site[0], site[1])
            if not _in_fork(key):
                self._counts[key] = self._counts.get(key, 0) + 1

    # -- per call --------------------------------------------------------------------
    def start(self, on_unreplaceable: Callable[[], None] | None = None) -> None:
        """Begin a call; ``on_unreplaceable()`` runs whenever banned methods that need the
        profile hook are known (now, or when an import during the call brings them)."""
        self._on_unreplaceable = on_unreplaceable
        if self._counts:
            self._counts = {}
        forked_calls().take()        # made here, in the session's process, before its first call
        self.active = True
        self.refresh()
        if self.unreplaceable and on_unreplaceable is not None:
            on_unreplaceable()

    def stop(self) -> bool:
        """End a call; True when a stand-in was removed from a library module (tampering)."""
        self.active = False
        self._on_unreplaceable = None
        for namespace, attr, stand_in in self._placed:
            if namespace.get(attr) is not stand_in:
                return True
        return False


def _dress(stand_in: Any, original: Any, *more: str) -> Any:
    """``stand_in`` with the original's name, qualified name, doc and module (and ``more``)."""
    for attr in ("__name__", "__qualname__", "__doc__", "__module__", *more):
        try:
            setattr(stand_in, attr, getattr(original, attr))
        except (AttributeError, TypeError):
            pass
    return stand_in


def _place_on_class(qual: str, obj: Any, stand_in: Any) -> None:
    """A banned method of a library class written in Python (``collections.Counter.total``):
    the stand-in takes its place in the class, so every instance's call runs it."""
    owner_name, _, attr = qual.rpartition(".")
    owner = _lookup(owner_name, sys.modules)
    if isinstance(owner, type) and owner.__dict__.get(attr) is obj:
        try:
            setattr(owner, attr, stand_in)
        except (TypeError, AttributeError):   # a type written in C takes no new attributes
            pass


def _lookup(qual: str, modules: Mapping[str, Any]) -> object:
    """The object a qualified name denotes, using only modules already imported."""
    parts = qual.split(".")
    for cut in range(len(parts), 0, -1):
        module = modules.get(".".join(parts[:cut]))
        if module is None:
            continue
        obj = module
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except Exception:
            return _NOTFOUND
        return obj
    return _NOTFOUND


def _is_library(module: Any) -> bool:
    """builtins, the standard library, site-packages: not the student's own modules."""
    path = getattr(module, "__file__", None)
    if type(path) is not str:
        return True
    return bool(os.path.normcase(os.path.abspath(path)).startswith(_LIB_DIRS))
