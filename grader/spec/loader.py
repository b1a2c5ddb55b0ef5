"""Load a spec: YAML -> schema check -> semantic checks -> typed :class:`Spec`.

Every problem is collected and reported as ``path:line:col: message`` before anything
is graded; a broken spec never reaches the runner.
"""
from __future__ import annotations

import copy
import difflib
import hashlib
import importlib.util
import json
import os
import random
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Mapping, cast

if TYPE_CHECKING:
    import jsonschema

import yaml

from .. import usercache
from .model import (MISSING, BanPolicy, Case, Compare, FunctionSpec, LeaderboardColumn, RuntimeMonitor, Spec, TimeLimit,
                    SimilaritySpec, TournamentSpec, Visibility)
from .program import ProgramSpec, program_spec
from .problems import PositionMap, Problem, SpecError, yaml_problem


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    text = resources.files("grader.spec").joinpath("schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _validator() -> "jsonschema.protocols.Validator":
    import jsonschema   # ~0.1 s to import: only when a spec is not known to be valid already

    return jsonschema.Draft202012Validator(schema())


def load_trusted_module(path: Path, purpose: str) -> ModuleType:
    """Import a reference or generator module by path (trusted code, parent process only)."""
    name = f"_grader_{purpose}_{hashlib.sha1(str(path).encode()).hexdigest()[:10]}"
    if name in sys.modules:
        return sys.modules[name]
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _json_path(parts: Any) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _schema_problems(path: str, data: Any, positions: PositionMap) -> list[Problem]:
    from .sentences import sentence

    problems = []
    for error in sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        where = list(error.absolute_path)
        message = sentence(error)
        if error.validator == "additionalProperties" and isinstance(error.schema, Mapping):
            known = sorted(error.schema.get("properties", {}))
            extra = sorted(set(cast(Mapping[str, Any], error.instance)) - set(known))
            # Point at the offending key itself, not at the mapping that holds it.
            for key in extra:
                line, col = positions.locate([*where, key], key=True)
                close = difflib.get_close_matches(str(key), known, n=1)
                advice = f"did you mean '{close[0]}'?" if close else f"allowed: {', '.join(known)}"
                problems.append(Problem(path, line, col, f"{_json_path([*where, key])}: unknown key '{key}' ({advice})"))
            continue
        line, col = positions.locate(where)
        problems.append(Problem(path, line, col, f"{_json_path(where)}: {message}"))
    return sorted(problems, key=lambda p: (p.line, p.col))


def _compare(value: Any, default: Compare) -> Compare:
    if value is None:
        return default
    if isinstance(value, str):
        return Compare(mode=value)
    options = {k: v for k, v in value.items() if k != "mode"}
    return Compare(mode=value["mode"], options=options)


def _time_limit(value: Mapping[str, Any] | None, default: TimeLimit) -> TimeLimit:
    if not value:
        return default
    return TimeLimit(
        seconds=value.get("seconds", None),
        factor=value.get("factor", None),
        floor=value.get("floor", default.floor),
    )


def _column(value: str | Mapping[str, Any]) -> LeaderboardColumn:
    if isinstance(value, str):
        return LeaderboardColumn(name=value, key=value)
    return LeaderboardColumn(name=value["name"], key=value.get("key", value["name"]), order=value.get("order"))


def _runtime(value: Any) -> RuntimeMonitor:
    """``true``/``false`` are accepted as ``always``/``off``."""
    if value is True:
        return "always"
    if value is False:
        return "off"
    return cast(RuntimeMonitor, value)


def _bans(value: Mapping[str, Any] | None, base: BanPolicy | None = None) -> BanPolicy:
    base = base or BanPolicy()
    if not value:
        return base
    names = tuple(dict.fromkeys((*base.names, *value.get("names", ()))))
    return BanPolicy(
        names=names,
        penalty=value.get("penalty", base.penalty),
        deduct=float(value.get("deduct", base.deduct)),
        scope=value.get("scope", base.scope),
        dynamic_code=value.get("dynamic_code", base.dynamic_code),
        runtime=_runtime(value.get("runtime", base.runtime)),
    )


class _Builder:
    """Turns schema-valid data into a Spec, collecting semantic problems on the way."""

    def __init__(self, path: Path, data: dict[str, Any], positions: PositionMap):
        self.path = path
        self.data = data
        self.positions = positions
        self.problems: list[Problem] = []
        self.reference: ModuleType | None = None
        self.generators: ModuleType | None = None
        self.validators: set[str] = set()

    def problem(self, where: list[Any], message: str) -> None:
        line, col = self.positions.locate(where)
        self.problems.append(Problem(str(self.path), line, col, message))

    def resolve(self, key: str) -> Path | None:
        if key not in self.data:
            return None
        target: Path = (self.path.parent / self.data[key]).resolve()
        if not target.is_file():
            self.problem([key], f"{key}: file not found: {self.data[key]} (looked in {target})")
            return None
        return target

    def resolve_in(self, where: list[str], *, report: bool = True) -> Path | None:
        """A path named inside a part of the spec (``tournament.game``), relative to the spec file."""
        value: Any = self.data
        for key in where:
            if not isinstance(value, Mapping) or key not in value:
                return None
            value = value[key]
        target: Path = (self.path.parent / value).resolve()
        if not target.is_file():
            if report:
                self.problem(where, f"{_json_path(where)}: file not found: {value} (looked in {target})")
            return None
        return target

    def plugin_problems(self, where: list[Any], instance: Any, schema: Mapping[str, Any]) -> None:
        """Check a part of the spec against the JSON Schema a plug-in declares, at its own lines."""
        import jsonschema

        try:
            validator = jsonschema.Draft202012Validator(dict(schema))
            errors = list(validator.iter_errors(instance))
        except jsonschema.exceptions.SchemaError as exc:
            self.problem(where, f"{_json_path(where)}: the plug-in's schema is invalid: {exc.message}")
            return
        for error in errors:
            place = [*where, *error.absolute_path]
            if error.validator == "additionalProperties" and isinstance(error.schema, Mapping):
                known = sorted(error.schema.get("properties", {}))
                for key in sorted(set(cast(Mapping[str, Any], error.instance)) - set(known)):
                    close = difflib.get_close_matches(str(key), known, n=1)
                    advice = f"did you mean '{close[0]}'?" if close else f"allowed: {', '.join(known)}"
                    line, col = self.positions.locate([*place, key], key=True)
                    self.problems.append(Problem(str(self.path), line, col, f"{_json_path([*place, key])}: unknown key '{key}' ({advice})"))
                continue
            self.problem(place, f"{_json_path(place)}: {error.message}")

    def tournament(self, block: Mapping[str, Any], game_path: Path | None) -> TournamentSpec:
        """The typed tournament part; the game plug-in's options and bot names are checked against it."""
        game = self.import_module_at(["tournament", "game"], game_path, "game")
        if game is not None and not isinstance(getattr(game, "GAME", None), type):
            self.problem(["tournament", "game"], f"tournament.game: the game plug-in {game_path.name if game_path else ''} defines no GAME (its Game class)")
        elif game is not None:
            self.plugin_problems(["tournament", "options"], block.get("options", {}), getattr(game, "OPTIONS_SCHEMA", {"type": "object"}))
            bots = getattr(game, "BOTS", {})
            for i, name in enumerate(block.get("bots", ())):
                if name not in bots:
                    self.problem(["tournament", "bots", i], f"tournament.bots[{i}]: the game has no bot {name!r} (known: {', '.join(sorted(bots)) or 'none'})")
        rating = block.get("rating", {})
        base = TournamentSpec()
        return TournamentSpec(
            game=game_path,
            games=block.get("games", base.games),
            max_games=int(block.get("max_games", base.max_games)),
            seed=int(block.get("seed", base.seed)),
            move_time_limit=float(block.get("move_time_limit", base.move_time_limit)),
            game_time_limit=float(block.get("game_time_limit", base.game_time_limit)),
            bots=tuple(block["bots"]) if "bots" in block else None,
            rating_model=rating.get("model", base.rating_model),
            rating_interval=float(rating.get("interval", base.rating_interval)),
            options=dict(block.get("options", {})),
        )

    def similarity(self, block: Mapping[str, Any]) -> SimilaritySpec:
        """The typed similarity part; every starter file must exist."""
        starter = []
        for i, name in enumerate(block.get("starter", ())):
            path = (self.path.parent / name).resolve()
            if not path.is_file():
                self.problem(["similarity", "starter", i], f"similarity.starter[{i}]: no such file: {name} (looked in {path})")
            starter.append(path)
        base = SimilaritySpec()
        return SimilaritySpec(starter=tuple(starter),
                              exclude_reference=bool(block.get("exclude_reference", base.exclude_reference)),
                              common_fraction=float(block.get("common_fraction", base.common_fraction)),
                              threshold=float(block.get("threshold", base.threshold)))

    def import_module_at(self, where: list[Any], target: Path | None, purpose: str) -> ModuleType | None:
        if target is None:
            return None
        try:
            return load_trusted_module(target, purpose)
        except BaseException as exc:  # a broken plug-in must be reported, not crash the CLI
            self.problem(where, f"{_json_path(where)}: cannot import {target.name}: {type(exc).__name__}: {exc}")
            return None

    def import_module(self, key: str, target: Path | None) -> ModuleType | None:
        if target is None:
            return None
        try:
            return load_trusted_module(target, key)
        except BaseException as exc:  # a broken reference must be reported, not crash the CLI
            self.problem([key], f"{key}: cannot import {self.data[key]}: {type(exc).__name__}: {exc}")
            return None

    def build(self) -> Spec:
        data = self.data
        reference_path = self.resolve("reference")
        generators_path = self.resolve("generators")
        validators_path = self.resolve("validators")
        self.reference = self.import_module("reference", reference_path)
        self.generators = self.import_module("generators", generators_path)
        self.validators = self.validator_names(validators_path)
        self.generated = GeneratedCache(self.digest(reference_path, generators_path, validators_path)) \
            if self.generators is not None else None
        defaults = data.get("defaults", {})
        default_compare = _compare(defaults.get("compare"), Compare())
        default_limit = _time_limit(defaults.get("time_limit"), TimeLimit(seconds=2.0))
        default_visibility = defaults.get("visibility", "hidden")
        assignment_bans = _bans(data.get("bans"))
        functions = []
        seen: set[str] = set()
        for index, raw in enumerate(data.get("functions", [])):
            where = ["functions", index]
            for name in (raw["name"], *raw.get("aliases", [])):
                if name in seen:
                    self.problem([*where, "name"], f"function name '{name}' is used twice")
                seen.add(name)
            functions.append(self.function(raw, where, default_compare, default_limit, default_visibility, assignment_bans))
        languages = self.languages(data["language"], data["kind"])
        program = self.program() if data["kind"] == "program" else None
        game_path = self.resolve_in(["tournament", "game"])
        # Every trusted file the spec names is part of its identity: a changed one regrades.
        plugin_path = self.resolve_in(["program", "plugin"], report=False)
        digest = self.digest(reference_path, generators_path, validators_path, game_path, plugin_path)
        if self.generated is not None:
            self.generated.save()
        return Spec(
            path=self.path,
            assignment=data["assignment"],
            title=data["title"],
            kind=data["kind"],
            languages=languages,
            submission_files=tuple(data.get("submission", {}).get("files", ())),
            reference=reference_path,
            functions=tuple(functions),
            bans=assignment_bans,
            handout=data.get("handout", ""),
            notes=data.get("notes", ""),
            digest=digest,
            calibration_s=data.get("calibration", {}).get("seconds"),
            frozen=bool(data.get("frozen", False)),
            generators=generators_path,
            validators=validators_path,
            leaderboard=tuple(_column(c) for c in data.get("leaderboard", ())),
            tournament=self.tournament(data["tournament"], game_path) if "tournament" in data else None,
            similarity=self.similarity(data.get("similarity", {})),
            program=program,
            _document=data,
        )

    def languages(self, value: str | list[str], kind: str) -> tuple[str, ...]:
        """The spec's languages, each one the registry knows (and able to serve calls for functions)."""
        from grader.languages import UnknownLanguage, get_language

        names = (value,) if isinstance(value, str) else tuple(value)
        for i, name in enumerate(names):
            where = ["language"] if isinstance(value, str) else ["language", i]
            try:
                language = get_language(name)
            except UnknownLanguage as exc:
                self.problem(where, f"language: {exc}")
                continue
            if kind == "functions" and not language.serves_functions:
                self.problem(where, f"language: {language.title} submissions cannot be graded function by function (use kind: program)")
        return names

    def function(self, raw: Mapping[str, Any], where: list[Any], default_compare: Compare, default_limit: TimeLimit,
                 default_visibility: Visibility, assignment_bans: BanPolicy) -> FunctionSpec:
        name = raw["name"]
        if self.reference is not None and not callable(getattr(self.reference, name, None)):
            self.problem([*where, "name"], f"function '{name}' is not defined in the reference {self.data['reference']}")
        compare = _compare(raw.get("compare"), default_compare)
        if compare.mode == "validator":
            self.check_validator(compare, [*where, "compare"])
        cases = self.listed_cases(raw, where, default_visibility) + self.generated_cases(raw, where)
        if self.data.get("frozen"):
            for i, case in enumerate(cases):
                if case.expected is MISSING:
                    self.problem([*where, "cases", i], f"function '{name}': case '{case.name}' needs a pinned `expected:` in a frozen spec (there is no reference)")
        names = [c.name for c in cases]
        for dup in sorted({n for n in names if names.count(n) > 1}):
            self.problem([*where, "cases"], f"function '{name}': case name '{dup}' is used twice")
        if not cases:
            self.problem(where, f"function '{name}' has no cases (add `cases:` or `generate:`)")
        return FunctionSpec(
            name=name,
            params=tuple(raw.get("params", ())),
            points=float(raw["points"]),
            compare=compare,
            time_limit=_time_limit(raw.get("time_limit"), default_limit),
            bans=_bans(raw.get("bans"), assignment_bans),
            cases=tuple(cases),
            aliases=tuple(raw.get("aliases", ())),
            extra_credit=bool(raw.get("extra_credit", False)),
            description=raw.get("description", ""),
            stop_after_timeouts=int(raw.get("stop_after_timeouts", self.data.get("defaults", {}).get("stop_after_timeouts", 2))),
            state=raw.get("state", "shared"),
        )

    def validator_names(self, target: Path | None) -> set[str]:
        """The names the spec's validators module declares (it is imported here, like the reference)."""
        from grader.judge.validators import ValidatorError, validators_of

        module = self.import_module("validators", target)
        if module is None:
            return set()
        try:
            return set(validators_of(module))
        except ValidatorError as exc:
            self.problem(["validators"], f"validators: {self.data['validators']}: {exc}")
            return set()

    def check_validator(self, compare: Compare, where: list[Any]) -> None:
        name = compare.options.get("name")
        if "validators" not in self.data:
            self.problem(where, f"compare: unknown validator {name!r}: the spec names no `validators:` module (a file beside the spec)")
        elif self.validators and name not in self.validators:
            known = ", ".join(sorted(self.validators))
            self.problem(where, f"compare: unknown validator {name!r} (known: {known})")

    def listed_cases(self, raw: Mapping[str, Any], where: list[Any], default_visibility: Visibility) -> list[Case]:
        cases = []
        params = raw.get("params")
        for i, case in enumerate(raw.get("cases", [])):
            if params is not None and len(case["args"]) != len(params):
                self.problem([*where, "cases", i, "args"], f"function '{raw['name']}' takes {len(params)} argument(s) ({', '.join(params)}), this case gives {len(case['args'])}")
            cases.append(
                Case(
                    name=case.get("name", f"case{i + 1}"),
                    function=raw["name"],
                    args=tuple(case["args"]),
                    visibility=case.get("visibility", default_visibility),
                    weight=float(case.get("weight", 1.0)),
                    expected=case["expected"] if "expected" in case else MISSING,
                    time_limit=_time_limit(case["time_limit"], TimeLimit()) if case.get("time_limit") else None,
                )
            )
        return cases

    def generated_cases(self, raw: Mapping[str, Any], where: list[Any]) -> list[Case]:
        cases: list[Case] = []
        for i, block in enumerate(raw.get("generate", [])):
            generator_name = block["generator"]
            here = [*where, "generate", i, "generator"]
            if self.generators is None:
                if "generators" not in self.data:
                    self.problem(here, "generate: the spec names no `generators:` module")
                continue
            generator = getattr(self.generators, generator_name, None)
            if not callable(generator):
                known = ", ".join(sorted(n for n in dir(self.generators) if not n.startswith("_") and callable(getattr(self.generators, n))))
                self.problem(here, f"unknown generator '{generator_name}' in {self.data['generators']} (known: {known})")
                continue
            rng = random.Random(block["seed"])
            remembered = self.generated.get(generator_name, block["seed"], block["count"]) if self.generated else None
            made: list[Any] = []
            for n in range(block["count"]):
                try:
                    args = remembered[n] if remembered is not None else generator(rng)
                    made.append(args)
                except Exception as exc:
                    self.problem(here, f"generator '{generator_name}' failed on case {n}: {type(exc).__name__}: {exc}")
                    break
                if not isinstance(args, (list, tuple)):
                    self.problem(here, f"generator '{generator_name}' must return the list of {raw['name']}()'s arguments, "
                                       f"not {type(args).__name__} {args!r:.80}")
                    break
                cases.append(
                    Case(
                        name=f"{generator_name}[{n}]",
                        function=raw["name"],
                        args=tuple(args),
                        visibility=block.get("visibility", "hidden"),
                        weight=float(block.get("weight", 1.0)),
                        origin=f"generator:{generator_name}#{block['seed']}",
                    )
                )
            if remembered is None and self.generated is not None and len(made) == block["count"]:
                self.generated.put(generator_name, block["seed"], block["count"], made)
        return cases

    def program(self) -> ProgramSpec:
        """The typed program part (already schema-valid); its plug-in checks the cases and options."""
        self.check_program_plugin()
        from grader.languages import language_names

        for name in self.data["program"]["languages"]:
            if name not in language_names():
                line, col = self.positions.locate(["program", "languages", name], key=True)
                self.problems.append(Problem(str(self.path), line, col,
                                             f"program.languages: unknown language {name!r} (known: {', '.join(language_names())})"))
        return program_spec(self.data["program"], self.path.parent)

    def check_program_plugin(self) -> None:
        """The program plug-in named by the spec loads, and the cases and options fit its schemas."""
        from grader.programs.plugin import load_plugin

        path = (self.path.parent / self.data["program"]["plugin"]).resolve()
        try:
            plugin = load_plugin(path)
        except FileNotFoundError:
            self.problem(["program", "plugin"], f"program.plugin: no such file {self.data['program']['plugin']}")
            return
        except BaseException as exc:  # a broken plug-in must be reported, not crash the CLI
            self.problem(["program", "plugin"], f"program.plugin: cannot load it: {type(exc).__name__}: {exc}")
            return
        for where, message in plugin.problems(self.data["program"]):
            self.problem(["program", *where], f"{_json_path(['program', *where])}: {message}")

    def digest(self, *paths: Path | None) -> str:
        h = hashlib.sha256(self.path.read_bytes())
        for p in paths:
            if p is not None:
                h.update(p.read_bytes())
        return h.hexdigest()[:16]


class GeneratedCache:
    """Generated cases' arguments, kept between runs in the user's cache folder, keyed by the
    spec, its trusted files and the Python version: generators are deterministic from their
    seed, and re-running them is most of a large spec's loading time (``grader check``).

    Arguments are stored in the sandbox protocol's exact-type encoding (tuples stay tuples),
    so reading the file back runs no code; a file not owned by this user, writable by
    others, or unreadable is ignored (the generators run, as without a cache)."""

    def __init__(self, digest: str) -> None:
        folder = usercache.folder("cases")
        self.path = folder / f"{digest}-py{sys.version_info[0]}{sys.version_info[1]}.json"
        self.entries: dict[str, Any] = self._read()
        self.dirty = False

    def _read(self) -> dict[str, Any]:
        try:
            st = self.path.stat()
            if not usercache.trusted(st):
                return {}
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return data if type(data) is dict else {}
        except (OSError, ValueError):
            return {}

    @staticmethod
    def _key(generator: str, seed: Any, count: int) -> str:
        return json.dumps([generator, seed, count])

    def get(self, generator: str, seed: Any, count: int) -> list[Any] | None:
        from grader.run.child import codec

        raw = self.entries.get(self._key(generator, seed, count))
        try:
            found = codec.decode(raw) if raw is not None else None
        except (codec.CodecError, RecursionError):
            return None
        return found if type(found) is list and len(found) == count else None

    def put(self, generator: str, seed: Any, count: int, made: list[Any]) -> None:
        from grader.run.child import codec

        try:
            self.entries[self._key(generator, seed, count)] = codec.encode(list(made))
            self.dirty = True
        except (codec.CodecError, RecursionError):
            pass                            # not plain values: generated afresh each time

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            temp = self.path.with_suffix(f".{os.getpid()}.tmp")
            temp.write_text(json.dumps(self.entries), encoding="utf-8")
            os.chmod(temp, 0o600)
            os.replace(temp, self.path)
        except OSError:
            pass                            # a read-only home: no cache, nothing else changes


def document(spec: Spec) -> dict[str, Any]:
    """The spec as validated data (a copy), for the writers that emit a new spec file from it
    (the student bundle, the Gradescope zip). Everything else reads the typed model."""
    return copy.deepcopy(dict(spec._document))


def parse_yaml(text: str) -> tuple[yaml.Node | None, Any]:
    """The YAML's node tree (for positions) and its data, from one parse by libyaml when
    PyYAML has it (the pure-Python parser takes a large spec's whole second to read)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    finally:
        loader.dispose()
    return root, data


def load_spec(path: str | Path) -> Spec:
    """Load and validate a spec, raising :class:`SpecError` with every problem found."""
    path = Path(path)
    shown = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError([Problem(shown, 1, 1, "spec file not found")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError([Problem(shown, 1, 1, f"cannot read spec: {exc}")]) from None
    try:
        root, data = parse_yaml(text)
    except yaml.YAMLError:
        try:    # the pure-Python parser's wording and position of the error, as before
            yaml.compose(text, Loader=yaml.SafeLoader)
        except yaml.YAMLError as exc:
            raise SpecError([yaml_problem(shown, exc)]) from None
        raise
    positions = PositionMap(root)
    if not isinstance(data, dict):
        raise SpecError([Problem(shown, 1, 1, "a spec must be a YAML mapping (key: value lines)")])
    valid = usercache.Marker("valid", text + "\0" + json.dumps(schema(), sort_keys=True))
    problems = [] if valid.known else _schema_problems(shown, data, positions)
    if problems:
        raise SpecError(problems)
    builder = _Builder(path, data, positions)
    spec = builder.build()
    if builder.problems:
        raise SpecError(sorted(builder.problems, key=lambda p: (p.line, p.col)))
    valid.remember()
    return spec
