"""Spec problems located by YAML line and column, so an instructor can jump straight to them."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Sequence

if TYPE_CHECKING:
    import yaml


@dataclass(frozen=True)
class Problem:
    path: str
    line: int  # 1-based
    col: int  # 1-based
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.message}"


class SpecError(Exception):
    """A spec that cannot be used; carries every problem found, not just the first."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class PositionMap:
    """Finds the YAML node behind a JSON path such as ``functions/2/cases/0/args``."""

    def __init__(self, root: yaml.Node | None):
        self.root = root

    def locate(self, path: Iterable[Any], *, key: bool = False) -> tuple[int, int]:
        node = self.root
        if node is None:
            return (1, 1)
        key_node = None
        for part in path:
            child, key_node = self._child(node, part)
            if child is None:
                break
            node = child
        target = key_node if key and key_node is not None else node
        mark = target.start_mark
        return (mark.line + 1, mark.column + 1)

    @staticmethod
    def _child(node: yaml.Node, part: Any) -> tuple[yaml.Node | None, yaml.Node | None]:
        import yaml   # only when a problem is placed: `grader --help` never loads it

        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if getattr(key_node, "value", None) == str(part):
                    return value_node, key_node
            return None, None
        if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if 0 <= part < len(node.value):
                return node.value[part], None
        return None, None


def yaml_problem(path: str, exc: yaml.YAMLError) -> Problem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    what = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = f"YAML syntax error: {what}" + (f" ({context})" if context else "")
    return Problem(path, line, col, message)
