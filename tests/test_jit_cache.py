"""numba's on-disk cache shared by every copy of the sources, the notice before a
compile, and the commands' small jobs that never load numba."""

from __future__ import annotations

import ast
import importlib
import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from parallel_backtrack import _jit_cache, _jit_paths, _jit_use
from parallel_backtrack.sudoku.kernel import search
from parallel_backtrack.sudoku.space import is_valid_solution

ROOT = Path(__file__).resolve().parents[1]
KERNEL_DIR = ROOT / "parallel_backtrack" / "sudoku" / "kernel"
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_a_copy_of_the_sources_has_the_same_stamp_and_an_edit_a_new_one(tmp_path: Path) -> None:
    copy = tmp_path / "kernel"
    shutil.copytree(KERNEL_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert _jit_cache.directory_stamp(copy) == _jit_cache.directory_stamp(KERNEL_DIR)
    (copy / "bits.py").write_text((copy / "bits.py").read_text() + "\n# edited\n")
    _jit_cache.directory_stamp.cache_clear()
    assert _jit_cache.directory_stamp(copy) != _jit_cache.directory_stamp(KERNEL_DIR)


def test_the_cache_lives_in_one_place_named_by_directory_and_stamp() -> None:
    place = _jit_cache.cache_dir(KERNEL_DIR)
    assert place.parent == _jit_cache.cache_root()
    assert place.name == "sudoku.kernel-" + _jit_cache.directory_stamp(KERNEL_DIR)[:16]
    assert not place.is_relative_to(ROOT)  # not next to the sources of this copy


def test_kernel_functions_use_the_shared_locator() -> None:
    locator = search.explore_roots._cache._impl.locator
    assert isinstance(locator, _jit_cache.SharedCacheLocator | _jit_cache.PackageInTreeLocator)
    assert locator.get_source_stamp() == _jit_cache.directory_stamp(KERNEL_DIR)


def _fake(index_path: Path, signatures: tuple[str, ...] = ()) -> SimpleNamespace:
    files = SimpleNamespace(_index_path=str(index_path))
    return SimpleNamespace(signatures=signatures, _cache=SimpleNamespace(
        _cache_file=files, _cache_path=str(index_path.parent)))


def test_a_compile_is_announced_once_and_a_cached_kernel_not_at_all(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cached = tmp_path / "cached.nbi"
    cached.write_bytes(b"")
    with _jit_cache.compile_notice("test kernel A", [_fake(cached)], "1 s"):
        pass
    with _jit_cache.compile_notice("test kernel B", [_fake(tmp_path / "missing.nbi")], "9 s"):
        pass
    with _jit_cache.compile_notice("test kernel B", [_fake(tmp_path / "missing.nbi")], "9 s"):
        pass
    err = capsys.readouterr().err
    assert "test kernel A" not in err
    assert err.count("compiling test kernel B (once; about 9 s)") == 1
    assert _jit_cache.is_cached(_fake(tmp_path / "missing.nbi", ("int64",)))



@pytest.mark.timeout(300)
def test_a_sliding_run_announces_only_the_kernel_it_runs(tmp_path: Path) -> None:
    """Manhattan runs the per-tile kernel alone: in a cache of its own, the first run
    announces that compile and the second says nothing of the pattern-database kernel
    it never calls (it said "compiling" on every run of such a machine)."""
    def run() -> str:
        done = subprocess.run([sys.executable, "-m", "parallel_backtrack.sliding", "-",
                               "--heuristic", "manhattan"], input="1 2 3 4 5 6 0 7 8\n",
                              capture_output=True, text=True, cwd=ROOT, timeout=250,
                              env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
        assert done.returncode == 0 and "2 moves" in done.stdout, done.stderr[-300:]
        return done.stderr

    assert "compiling the sliding-puzzle IDA* kernel" in run()
    assert "compiling" not in run()

# Run in a fresh cache: a command line in-process, each compiled function's number of
# signatures when its compile notice's block ends and when the command is done.
_COMPILES_AFTER_THE_NOTICE = """
import contextlib, json, sys
import numba.core.registry
from parallel_backtrack import _jit_cache

def signatures():
    return {f"{name}.{attr}": len(value.signatures) for name, module in list(sys.modules.items())
            if name.startswith("parallel_backtrack.") and ".kernel" in name
            for attr, value in vars(module).items()
            if isinstance(value, numba.core.registry.CPUDispatcher)}

blocks, notice = [], _jit_cache.compile_notice

@contextlib.contextmanager
def watched(*args):
    with notice(*args):
        yield
    blocks.append(signatures())

_jit_cache.compile_notice = watched
module, argv = sys.argv[1], sys.argv[2:]
main = __import__(module, fromlist=["main"]).main
assert main(argv) == 0
print(json.dumps({"blocks": blocks, "end": signatures()}))
"""


@pytest.mark.timeout(600)
@pytest.mark.parametrize("argv", [
    ["parallel_backtrack.games.__main__", "connect4", "4453222"],
    ["parallel_backtrack.nqueens.__main__", "--n", "11", "--unique", "--workers", "1"],
])
def test_a_first_run_compiles_every_kernel_it_calls_under_its_one_notice(
        tmp_path: Path, argv: list[str]) -> None:
    """The notice's time covers the whole compile: nothing compiles after its block
    (N-Queens compiled its canonical counter and Connect-Four its probes silently)."""
    done = subprocess.run([sys.executable, "-c", _COMPILES_AFTER_THE_NOTICE, *argv],
                          capture_output=True, text=True, cwd=ROOT, timeout=550,
                          env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr.count("parallel_backtrack: compiling") == 1, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert len(found["blocks"]) == 1
    compiled = {name for name, count in found["blocks"][0].items() if count}
    assert len(compiled) >= 3, compiled
    later = {name: count for name, count in found["end"].items()
             if count != found["blocks"][0].get(name, 0)}
    assert later == {}, later


@pytest.mark.timeout(120)
@pytest.mark.parametrize("argv", [
    ["parallel_backtrack.nqueens", "--help"],
    ["parallel_backtrack.nqueens", "--n", "8", "--json"],
    ["parallel_backtrack.sudoku", "--help"],
    ["parallel_backtrack.sudoku", "-"],
])
def test_help_and_small_jobs_never_import_numba_or_numpy(argv: list[str]) -> None:
    code = ("import runpy, sys\n"
            f"sys.argv = {['x', *argv[1:]]!r}\n"
            "status = 0\n"
            "try:\n"
            f"    runpy.run_module({argv[0] + '.__main__'!r}, run_name='__main__')\n"
            "except SystemExit as stop:\n"
            "    status = stop.code or 0\n"
            "loaded = sorted(m for m in ('numba', 'numpy') if m in sys.modules)\n"
            "sys.__stderr__.write(repr((status, loaded)))\n")
    done = subprocess.run([sys.executable, "-c", code], input=EASY + "\n", capture_output=True,
                          text=True, cwd=ROOT, timeout=100)
    # exit 0 (a usage error would exit 2 before loading anything, and must not pass)
    assert done.stderr.endswith("(0, [])"), done.stderr[-300:]
    if "--help" in argv:
        assert "usage:" in done.stdout
    if "--json" in argv:
        assert json.loads(done.stdout)["count"] == 92
    if argv[-1] == "-":
        assert "solved 1" in done.stdout


@pytest.mark.timeout(300)
def test_one_puzzle_continues_in_the_kernel_with_the_same_answer_and_nodes() -> None:
    # an empty grid: its count up to 3,000 needs more nodes than the Python head takes
    from parallel_backtrack.sudoku.runner import PYTHON_SLICE

    def run(kernel: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-m", "parallel_backtrack.sudoku", "-", "--count", "--limit",
             "3000", "--json", "--kernel", kernel], input="." * 81 + "\n",
            capture_output=True, text=True, cwd=ROOT, timeout=250)
        return json.loads(done.stdout)  # type: ignore[no-any-return]

    fast, reference = run("fast"), run("reference")
    assert fast["nodes"] == reference["nodes"] > PYTHON_SLICE
    assert fast["count"] == reference["count"] == 3000
    assert fast["solution"] == reference["solution"]
    assert is_valid_solution("." * 81, str(fast["solution"]))


def _version(root: Path, name: str, stamp: int, age: float = 0.0) -> Path:
    """A cache directory ``<name>-<16 hex>`` under ``root``, last used ``age`` s ago."""
    path = root / f"{name}-{stamp:016x}"
    path.mkdir(parents=True)
    when = time.time() - age
    os.utime(path, (when, when))
    return path


def test_the_locator_holds_its_cache_and_prunes_when_it_creates_one_only(
        tmp_path: Path) -> None:
    root = tmp_path / "parallel_backtrack"
    month = 31 * 86400.0
    stale, newest = _version(root, "sudoku.kernel", 1, month), _version(root, "sudoku.kernel", 2)
    locator = object.__new__(_jit_cache.SharedCacheLocator)
    locator._cache_path = str(root / f"sudoku.kernel-{3:016x}")
    try:
        locator.ensure_cache_path()  # a new stamp: created, held, stale sibling removed
        assert Path(locator._cache_path).is_dir() and newest.exists() and not stale.exists()
        with _jit_use.claimed(Path(locator._cache_path)) as free:
            assert not free
        again = _version(root, "sudoku.kernel", 4, month)
        locator.ensure_cache_path()  # found: nothing else happens
        assert again.exists() and newest.exists()
    finally:
        _jit_use.release_all()


def test_kernel_directories_are_derived_from_njit_in_any_spelling(tmp_path: Path) -> None:
    spellings = {"a": "from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x\n",
                 "b": "import numba\n\nf = numba.njit(lambda x: x)\n",
                 "c": "from numba import njit as jit\n",
                 "d": '"""Not a kernel: it only says njit and @njit(cache=True)."""\n# njit\n',
                 "e": "import numba\n"}
    for name, text in spellings.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "m.py").write_text(text)
    assert _jit_paths.kernel_directories(tmp_path) == tuple(tmp_path / n for n in "abc")
    found = {str(d.relative_to(_jit_paths.PACKAGE)) for d in _jit_paths.kernel_directories()}
    assert {"nqueens/kernel", "nqueens/local/kernel", "sudoku/kernel",
            "sudoku/cdcl/kernel"} <= found


def _problem_packages() -> list[str]:
    package = ROOT / "parallel_backtrack"
    return sorted(p.name for p in package.iterdir() if (p / "__init__.py").exists()
                  and p.name not in ("engine", "viz"))


def _until_moved(problem: str) -> Any:
    """sliding/ and games/ get their kernel folders on their own branches (sliding/kernel/,
    games/connect4/kernel/): until those exist, their kernels sit beside a command line."""
    moved = {"sliding": "sliding/kernel", "games": "games/connect4/kernel"}.get(problem)
    pending = moved is not None and not (ROOT / "parallel_backtrack" / moved).is_dir()
    return pytest.param(problem, marks=pytest.mark.xfail(
        pending, reason=f"{moved}/ is not there yet", strict=True))


@pytest.mark.parametrize("problem", [_until_moved(p) for p in _problem_packages()])
def test_kernel_directories_hold_no_command_line(problem: str) -> None:
    """An edit of a command line or lab API file must not recompile a kernel: no kernel
    directory of any problem package holds a ``__main__``, a ``cli`` or argparse."""
    package = ROOT / "parallel_backtrack" / problem
    kernels = [d for d in _jit_paths.kernel_directories() if d.is_relative_to(package)]
    assert kernels and package not in kernels
    for directory in kernels:
        assert not (directory / "__main__.py").exists(), directory
        for path in directory.glob("*.py"):
            assert not path.stem.startswith("cli"), path
            assert "argparse" not in path.read_text(), path


def _dotted(directory: Path) -> str:
    return ".".join(directory.relative_to(_jit_paths.PACKAGE.parent).parts)


def _compiled_stems(directory: Path) -> set[str]:
    """The modules of ``directory`` (by stem) whose functions numba compiles: those a
    dispatcher (``njit`` in any spelling, ``hot_njit``) or an ``@intrinsic`` of any
    module there wraps, wherever it was applied (``search`` compiles ``scores``')."""
    package = _dotted(directory)
    stems = set()
    for path in directory.glob("*.py"):
        name = package if path.stem == "__init__" else f"{package}.{path.stem}"
        for value in vars(importlib.import_module(name)).values():
            function = getattr(value, "py_func", None) or getattr(value, "_defn", None)
            defined_in = getattr(function, "__module__", None) or ""
            if defined_in.startswith(package + "."):
                stems.add(defined_in.rsplit(".", 1)[1])
    return stems


def _sibling_imports(path: Path) -> set[str]:
    """The stems of the modules of its own directory that ``path`` imports, anywhere
    in it (function-local imports too), relatively or by the full dotted name."""
    package = _dotted(path.parent)
    stems = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                stems.add(node.module.split(".")[0])
            else:
                stems.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == package:
                stems.update(alias.name for alias in node.names)
            elif node.module.startswith(package + "."):
                stems.add(node.module[len(package) + 1:].split(".")[0])
        elif isinstance(node, ast.Import):
            stems.update(alias.name[len(package) + 1:].split(".")[0] for alias in node.names
                         if alias.name.startswith(package + "."))
    return stems


@pytest.mark.parametrize("directory", [
    pytest.param(d, id=str(d.relative_to(_jit_paths.PACKAGE)))
    for d in _jit_paths.kernel_directories()])
def test_kernel_directories_hold_only_compiled_code_and_what_it_reads(directory: Path) -> None:
    """Every ``.py`` file of a kernel directory is in its cache stamp, so an edit of any
    of them recompiles every kernel there: each module there has functions numba
    compiles, or is imported by one that has (tables, helpers), and the package file
    imports nothing.  Plain Python that only drives the kernels (a solver's driver, a
    batch runner, name-to-code look-ups) lives outside, in the problem's package."""
    compiled = _compiled_stems(directory)
    assert compiled, directory
    modules = {path.stem: path for path in directory.glob("*.py") if path.stem != "__init__"}
    kept, grown = set(compiled), True
    while grown:  # what the compiled modules import, and what that imports, in turn
        reached = set().union(*(_sibling_imports(modules[stem])
                                for stem in kept if stem in modules))
        grown = not reached <= kept
        kept |= reached
    wrong = [f"{stem}.py: plain Python no kernel uses" for stem in sorted(set(modules) - kept)]
    init = directory / "__init__.py"
    if init.exists() and any(isinstance(node, (ast.Import, ast.ImportFrom))
                             for node in ast.walk(ast.parse(init.read_bytes()))):
        wrong.append("__init__.py: imports (a kernel directory's package file imports nothing)")
    assert not wrong, (str(directory), wrong)


def _kernel_modules() -> list[str]:
    """Every module that compiles a kernel, as a dotted name."""
    names = []
    for directory in _jit_paths.kernel_directories():
        for path in sorted(directory.glob("*.py")):
            if _jit_paths.uses_njit(path.read_bytes()):
                parts = path.relative_to(ROOT).with_suffix("").parts
                names.append(".".join(parts))
    return names


FIRST_IMPORT = """
import importlib, sys
from pathlib import Path
assert "parallel_backtrack._jit_cache" not in sys.modules
module = importlib.import_module(sys.argv[1])
from parallel_backtrack import _jit_paths
directory = Path(module.__file__).resolve().parent
want = str(_jit_paths.cache_dir(directory))
paths = {name: getattr(getattr(value, "_cache", None), "_cache_path", None)
         for name, value in vars(module).items()
         if getattr(getattr(value, "py_func", None), "__module__", "") == module.__name__}
cached = {name: path for name, path in paths.items() if path is not None}
print(len(cached), sorted(name for name, path in cached.items() if path != want))
"""


@pytest.mark.timeout(600)
def test_each_kernel_imported_first_caches_in_the_shared_user_cache(tmp_path: Path) -> None:
    """Each kernel module, imported first in a fresh process, registers the shared cache
    locators itself: its ``cache=True`` kernels cache in ``$NUMBA_CACHE_DIR/
    parallel_backtrack/<dir>-<stamp>``, not beside the sources.  One of them is compiled
    and its files checked there."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    modules = _kernel_modules()
    assert len(modules) >= 6
    for module in modules:
        done = subprocess.run([sys.executable, "-c", FIRST_IMPORT, module], env=env,
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, (module, done.stderr[-500:])
        count, strays = done.stdout.split(" ", 1)
        assert int(count) >= 1 and strays.strip() == "[]", (module, done.stdout)
    compile_one = ("from parallel_backtrack.nqueens.local.kernel.min_conflicts import "
                   "make_rng, random_below\nprint(random_below(make_rng(7), 10) < 10)\n")
    done = subprocess.run([sys.executable, "-c", compile_one], env=env, capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert done.stdout.strip() == "True", done.stderr[-500:]
    place = _jit_paths.cache_dir(ROOT / "parallel_backtrack" / "nqueens" / "local" / "kernel",
                                 str(tmp_path))
    assert place.parent == tmp_path / "parallel_backtrack"
    assert any(place.glob("min_conflicts.random_below-*.nbi")), sorted(tmp_path.rglob("*"))


def test_the_temporary_folder_is_used_only_while_it_is_the_users_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "pb"
    assert _jit_paths.private_folder(folder) == folder
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert _jit_paths.private_folder(folder) == folder  # found again, still ours
    folder.chmod(0o755)  # others may enter: they could have put code there
    with pytest.raises(OSError):
        _jit_paths.private_folder(folder)
    folder.chmod(0o700)
    link = tmp_path / "link"
    link.symlink_to(folder)
    with pytest.raises(OSError):
        _jit_paths.private_folder(link)
    owner = folder.stat().st_uid
    monkeypatch.setattr(os, "getuid", lambda: owner + 1)
    with pytest.raises(OSError):
        _jit_paths.private_folder(folder)


@pytest.mark.timeout(300)
def test_with_no_writable_cache_the_kernels_go_to_a_private_temporary_folder(
        tmp_path: Path) -> None:
    """A read-only install and home (here: NUMBA_CACHE_DIR and the kernel folder's
    ``__pycache__`` are files): a command compiles into the user's private temporary
    folder and the next run loads from it; a temporary folder others may enter is never
    used, and the command says in one line what to set (it said "internal error ... a
    bug" for every kernel)."""
    source = tmp_path / "src"
    shutil.copytree(ROOT / "parallel_backtrack", source / "parallel_backtrack",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (source / "parallel_backtrack" / "nqueens" / "kernel" / "__pycache__").write_text("")
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(blocked), "XDG_CACHE_HOME": str(blocked),
           "TMPDIR": str(temp), "PYTHONPATH": str(source)}  # (XDG: numba's own fallback)

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "parallel_backtrack.nqueens", "--n", "12",
                               "--workers", "1", "--json", "--no-progress"], cwd=source,
                              capture_output=True, text=True, timeout=250, env=env)

    first, second = run(), run()
    private = temp / f"parallel_backtrack-{os.getuid()}"
    assert first.returncode == second.returncode == 0, first.stderr[-500:]
    assert json.loads(first.stdout)["count"] == json.loads(second.stdout)["count"] == 14200
    assert f"later runs load it from {private / 'numba'}" in first.stderr, first.stderr
    assert "compiling" not in second.stderr, second.stderr
    assert stat.S_IMODE(private.stat().st_mode) == 0o700
    assert list((private / "numba").glob("nqueens.kernel-*/*.nbi"))

    shutil.rmtree(private)
    private.mkdir(mode=0o777)
    private.chmod(0o777)  # another's folder, or one anyone may write to
    refused = run()
    assert refused.returncode == 4 and refused.stdout == "", refused.stderr
    assert refused.stderr.count("\n") == 1 and "set NUMBA_CACHE_DIR" in refused.stderr
    assert "a bug" not in refused.stderr and not any(private.iterdir())
