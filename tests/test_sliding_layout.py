"""The sliding package's shape: kernels apart from the command line, no import circle
(function-local imports count), one heuristic resolver, one IDA* driver."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from parallel_backtrack.sliding.__main__ import main
from parallel_backtrack.sliding.heuristics import resolve

SLIDING = Path(__file__).resolve().parents[1] / "parallel_backtrack" / "sliding"
HARD = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # Korf #1, 57 moves


def module_name(path: Path) -> str:
    parts = path.relative_to(SLIDING.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Every module of ``modules`` that ``path`` imports, at any depth in the file
    (``from package import module`` names the module, not the package)."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                found.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules
                          else module)
    return found & modules


def sliding_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in SLIDING.rglob("*.py")}
    return {name: imports_of(path, set(modules)) - {name}
            for name, path in modules.items()}


def test_the_sliding_modules_import_each_other_without_a_circle() -> None:
    graph = sliding_graph()
    assert "parallel_backtrack.sliding.kernel.search" in graph["parallel_backtrack.sliding.pdb"]
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join(path + (name,))
        if name not in done:
            for other in sorted(graph[name]):
                visit(other, path + (name,))
            done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_ida_does_not_import_astar() -> None:
    graph = sliding_graph()
    assert "parallel_backtrack.sliding.astar" not in graph["parallel_backtrack.sliding.ida"]
    assert "parallel_backtrack.sliding.astar" not in graph["parallel_backtrack.sliding.space"]


def test_every_compiled_function_lives_in_the_kernel_folder() -> None:
    kernel = SLIDING / "kernel"
    for path in SLIDING.rglob("*.py"):
        text = path.read_text()
        compiled = "@njit" in text or "numba.njit" in text
        assert compiled == (path.parent == kernel and path.name != "__init__.py"), path
        if compiled:  # the shared cache's locators are registered before any @njit
            assert text.index("import _jit_cache") < text.index("@njit"), path
    assert not (kernel / "__main__.py").exists() and not (kernel / "cli.py").exists()


def test_the_kernel_caches_in_the_shared_user_cache(tmp_path: Path) -> None:
    """Imported first in a fresh process, the kernel caches under the cache root."""
    code = ("from parallel_backtrack.sliding.kernel import search\n"
            "from parallel_backtrack import _jit_cache\n"
            "print(search.search_tile._cache._cache_path)\n"
            "print(_jit_cache.cache_root())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    place, root = done.stdout.split("\n")[:2]
    assert Path(place).parent == Path(root)
    assert Path(place).name.startswith("sliding.kernel-")


@pytest.mark.parametrize("name, n, algorithm, expected", [
    ("auto", 3, "ida", "pdb-exact"), ("auto", 4, "ida", "pdb-663"), ("auto", 5, "ida", "linear"),
    ("pdb", 3, "astar", "pdb-exact"), ("manhattan", 4, "astar", "manhattan"),
    ("auto", 3, "astar", "linear"), ("auto", 5, "astar", "linear")])
def test_one_resolver(name: str, n: int, algorithm: str, expected: str) -> None:
    assert resolve(name, n, algorithm) == expected


@pytest.mark.parametrize("name, n, algorithm, message", [
    ("pdb", 5, "ida", "no pattern database for 5x5"), ("pdb-663", 3, "ida", "for 4x4 boards"),
    ("pdb-78", 4, "astar", "A\\* does not read pdb-78"), ("lineer", 3, "ida", "unknown")])
def test_the_resolver_refuses(name: str, n: int, algorithm: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        resolve(name, n, algorithm)


def test_astar_on_a_4x4_builds_no_database(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    monkeypatch.setenv("PARALLEL_BACKTRACK_CACHE", str(tmp_path))
    path = tmp_path / "p.txt"
    path.write_text("5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12\n")
    out = io.StringIO()
    assert main([str(path), "--algorithm", "astar", "--json"], out=out) == 0
    outcome = json.loads(out.getvalue())
    assert outcome["heuristic"] == "linear" and outcome["moves"] == 9
    assert not any(tmp_path.rglob("*.npy"))  # nothing built


@pytest.mark.parametrize("workers", ["1", "2"])
def test_max_nodes_and_progress_hold_on_any_workers(
        workers: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "korf1.txt"
    path.write_text(HARD + "\n")
    out = io.StringIO()
    code = main([str(path), "--goal", "blank-first", "--heuristic", "manhattan", "--workers",
                 workers, "--backend", "threads", "--max-nodes", "3000000", "--progress",
                 "--json"], out=out)
    outcome = json.loads(out.getvalue())
    assert code == 3 and outcome["status"] == "max-nodes"
    assert 3_000_000 <= outcome["nodes"] < 3_000_000 + 4 * (1 << 20)
    lines = capsys.readouterr().err.splitlines()
    bounds = [int(line.split("bound ")[1].split(":")[0]) for line in lines if "bound " in line]
    assert bounds and bounds == sorted(bounds) and bounds[0] == 41  # h of Korf #1
