"""The engine's and viz's import graphs: no problem package, no circle in the engine
(function-local imports count)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "parallel_backtrack"
ENGINE = PACKAGE / "engine"
VIZ = PACKAGE / "viz"
# Every package of the problems: each directory of the package but engine and viz.
PROBLEMS = tuple(sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()
                        and p.name not in ("engine", "viz")))


def _package_of(path: Path) -> list[str]:
    """``["parallel_backtrack", "viz"]`` for ``viz/page.py`` and ``viz/__init__.py``:
    the package a relative import starts from."""
    return list(path.parent.relative_to(PACKAGE.parent).parts)


def imported(path: Path) -> set[str]:
    """Every ``parallel_backtrack`` module ``path`` imports, anywhere in the file
    (inside functions too)."""
    names: set[str] = set()
    package = _package_of(path)
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                parts = package[: len(package) + 1 - node.level]
                base = ".".join(parts + ([node.module] if node.module else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in names if name.startswith("parallel_backtrack")}


def problem_imports(directory: Path) -> list[tuple[str, str]]:
    """(file, module) for every problem module a file under ``directory`` imports."""
    found = []
    for path in sorted(directory.rglob("*.py")):
        for name in sorted(imported(path)):
            parts = name.split(".")
            if len(parts) >= 2 and parts[1] in PROBLEMS:
                found.append((str(path.relative_to(PACKAGE)), name))
    return found


def engine_graph() -> dict[str, set[str]]:
    modules = {f"parallel_backtrack.engine.{p.stem}": p for p in ENGINE.glob("*.py")
               if p.stem != "__init__"}
    return {name: {other for other in imported(path) if other in modules and other != name}
            for name, path in modules.items()}


def fresh_python(code: str) -> str:
    """What ``code`` prints in a new interpreter (it must exit 0)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    return done.stdout.strip()


def test_the_problem_packages_are_found():
    assert {"games", "nqueens", "sliding", "sudoku"} <= set(PROBLEMS)


def test_relative_imports_resolve_from_their_package():
    assert "parallel_backtrack.engine.SearchReport" in imported(VIZ / "timeline.py")
    assert "parallel_backtrack.engine.split" in imported(ENGINE / "scheduler.py")
    assert "parallel_backtrack.viz.page" in imported(VIZ / "options.py")
    assert "parallel_backtrack.viz.page.check_target" in imported(VIZ / "options.py")
    nqueens = imported(PACKAGE / "nqueens" / "page.py")
    assert {"parallel_backtrack.viz.page", "parallel_backtrack.nqueens.trace"} <= nqueens


def test_the_engine_names_no_problem_package():
    assert problem_imports(ENGINE) == []
    assert "parallel_backtrack.engine" not in PROBLEMS and "viz" not in PROBLEMS


def test_viz_imports_no_problem_package():
    """viz draws plain data: a problem calls viz, never the reverse (also inside
    functions, and the engine only for its reports)."""
    assert problem_imports(VIZ) == []
    assert "parallel_backtrack.nqueens.trace" in imported(PACKAGE / "nqueens" / "page.py")


def test_importing_viz_loads_no_problem_package():
    code = ("import sys, importlib, pkgutil\n"
            "import parallel_backtrack.viz as viz\n"
            "for module in pkgutil.iter_modules(viz.__path__):\n"
            "    importlib.import_module(f'parallel_backtrack.viz.{module.name}')\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[1:2] and "
            f"m.split('.')[0] == 'parallel_backtrack' and m.split('.')[1] in {PROBLEMS!r}))\n")
    assert fresh_python(code) == "[]"


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


def test_a_local_pool_loads_no_other_backend():
    """Checking a backend's name loads only that backend: a run on threads, fork, loky
    or one process imports neither Dask's module nor asyncio (some 30 ms)."""
    code = ("import sys\n"
            "from parallel_backtrack.engine import count, make_executor\n"
            "from parallel_backtrack.engine.examples import NoAdjacentOnes\n"
            "for backend in ('serial', 'threads', 'fork', 'loky'):\n"
            "    make_executor(2, backend).close()\n"
            "assert count(NoAdjacentOnes(10), workers=2, backend='threads').count == 144\n"
            "print(sorted(m for m in ('asyncio', 'parallel_backtrack.engine.dask_executor',"
            " 'parallel_backtrack.engine.dask_bounds') if m in sys.modules))\n")
    assert fresh_python(code) == "[]"


def test_the_engine_exports_what_problem_packages_use():
    """``from parallel_backtrack.engine import threshold_search`` (docs/sliding.md) works,
    and each exported name is the object of its home module, loaded on first use."""
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
    assert fresh_python(code) == "ok"
