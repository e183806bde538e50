"""The engine's import graph: no problem package, no circle (function-local imports count)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "parallel_backtrack" / "engine"
PROBLEMS = ("nqueens", "sudoku", "sliding", "games", "viz")


def imported(path: Path) -> set[str]:
    """Every ``parallel_backtrack`` module ``path`` imports, anywhere in the file."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                parts = ["parallel_backtrack", "engine"][: 3 - node.level]
                base = ".".join(parts + ([node.module] if node.module else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in names if name.startswith("parallel_backtrack")}


def engine_graph() -> dict[str, set[str]]:
    modules = {f"parallel_backtrack.engine.{p.stem}": p for p in ENGINE.glob("*.py")
               if p.stem != "__init__"}
    return {name: {other for other in imported(path) if other in modules and other != name}
            for name, path in modules.items()}


def test_the_engine_names_no_problem_package():
    for path in ENGINE.glob("*.py"):
        for name in imported(path):
            parts = name.split(".")
            assert len(parts) < 2 or parts[1] not in PROBLEMS, (path.name, name)


def test_the_engine_modules_import_each_other_without_a_circle():
    graph = engine_graph()
    assert "parallel_backtrack.engine.split" in graph["parallel_backtrack.engine.scheduler"]
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join(path + (name,))
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, path + (name,))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_the_executors_module_imports_no_other_backend():
    graph = engine_graph()
    assert "parallel_backtrack.engine.dask_executor" not in graph[
        "parallel_backtrack.engine.executors"]
    assert "parallel_backtrack.engine.backends" in graph[
        "parallel_backtrack.engine.dask_executor"]


def test_the_engine_exports_what_problem_packages_use():
    """``from parallel_backtrack.engine import threshold_search`` (docs/sliding.md) works,
    and each exported name is the object of its home module, loaded on first use."""
    import subprocess
    import sys

    code = ("import sys\n"
            "import parallel_backtrack.engine as engine\n"
            "assert 'parallel_backtrack.engine.threshold' not in sys.modules\n"
            "from parallel_backtrack.engine import Bounded, SharedBounds, shared_bounds, "
            "threshold_search\n"
            "from parallel_backtrack.engine import threshold, window\n"
            "assert threshold_search is threshold.threshold_search\n"
            "assert Bounded is threshold.Bounded\n"
            "assert (SharedBounds, shared_bounds) == (window.SharedBounds, window.shared_bounds)\n"
            "assert {'Bounded', 'SharedBounds', 'shared_bounds', 'threshold_search'} <= "
            "set(engine.__all__)\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "ok", done.stderr[-500:]
