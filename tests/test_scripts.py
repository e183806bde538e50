"""The scripts' command lines: what the docs quote parses, and usage errors are one line.

Every ``python scripts/X.py ...`` command of README.md and docs/*.md (``docs_blocks.
script_commands``) is read by that script's own parser without running it: the test
imports the script (its ``main`` runs only under ``__main__``), replaces
``ArgumentParser.parse_args`` by one that parses and then stops, and calls ``main``;
abbreviations are off (the docs spell options out).  So a renamed or removed option,
or a value its ``type=`` refuses (a section name, a comma list), fails here; input
files are not checked (a command may name an optional data set or a placeholder such
as ``PATH/run_benchmark``).

Glossary: *runnable script* a ``scripts/*.py`` with a ``main``; the other modules
(``_data.py``, ``_scaling.py`` ...) are the scripts' helpers.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from docs_blocks import ROOT, script_commands

SCRIPTS = ROOT / "scripts"
COMMANDS = script_commands()
RUNNABLE = sorted(p.name for p in SCRIPTS.glob("*.py") if "\ndef main(" in p.read_text())


class Parsed(Exception):
    """What the stand-in ``parse_args`` raises: the command line parsed."""


def _load(name: str) -> ModuleType:
    """scripts/``name`` imported as a module; a script's setting of ``os.environ`` (some
    set PARALLEL_BACKTRACK_LEAN) or ``sys.path`` on import is undone."""
    key = "script_" + name.removesuffix(".py")
    if key in sys.modules:
        return sys.modules[key]
    environ, path = dict(os.environ), list(sys.path)
    sys.path[:0] = [str(SCRIPTS), str(ROOT)]
    try:
        spec = importlib.util.spec_from_file_location(key, SCRIPTS / name)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
    finally:
        os.environ.clear()
        os.environ.update(environ)
        sys.path[:] = path
    return module


def _main(module: ModuleType, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``module.main`` on ``argv``, whether it takes them or reads ``sys.argv``."""
    if inspect.signature(module.main).parameters:
        module.main(argv)
    else:
        monkeypatch.setattr(sys, "argv", [module.__file__, *argv])
        module.main()


def _parsed(module: ModuleType, argv: list[str],
            monkeypatch: pytest.MonkeyPatch) -> argparse.Namespace:
    real, init = argparse.ArgumentParser.parse_args, argparse.ArgumentParser.__init__

    def parse_then_stop(self, args=None, namespace=None):  # noqa: ANN001, ANN202
        raise Parsed(real(self, args, namespace))

    def whole_names(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        init(self, *args, **{**kwargs, "allow_abbrev": False})

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    # The docs spell options out: a renamed --x-y must not pass as an abbreviation.
    monkeypatch.setattr(argparse.ArgumentParser, "__init__", whole_names)
    if hasattr(module, "input_file"):
        monkeypatch.setattr(module, "input_file", Path)
    with pytest.raises(Parsed) as stopped:
        _main(module, argv, monkeypatch)
    return stopped.value.args[0]


def test_the_docs_quote_script_commands():
    assert len(COMMANDS) >= 50
    assert {c.script for c in COMMANDS} >= {"scripts/bench_sliding.py",
                                            "scripts/_virtual_run.py", "scripts/scaling.py"}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: f"{c.label()} {c.script}")
def test_documented_script_command_parses(command, monkeypatch, capsys):
    script = ROOT / command.script
    assert script.is_file(), f"{command.label()}: no {command.script}"
    try:
        _parsed(_load(script.name), command.argv, monkeypatch)
    except SystemExit as stop:
        pytest.fail(f"{command.label()}: {command.script} {' '.join(command.argv)}: exit "
                    f"{stop.code}: {capsys.readouterr().err.strip()}")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", RUNNABLE)
def test_script_help_and_usage_error(name, monkeypatch, capsys):
    module = _load(name)
    with pytest.raises(SystemExit) as stop:
        _main(module, ["--help"], monkeypatch)
    out = capsys.readouterr().out
    assert stop.value.code == 0 and out.startswith("usage:"), out[:200]
    assert len(out.split("\n\n")) >= 3, f"{name}: --help has no description"
    with pytest.raises(SystemExit) as stop:
        _main(module, ["--no-such-option"], monkeypatch)
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert len(err.strip().splitlines()) == 1 and "error:" in err, err


@pytest.mark.parametrize("argv", [
    ["scaling.py", "sudoku", "no/such/file.txt"],
    ["_sudoku_run.py", "no/such/file.txt"],
    ["_virtual_run.py", "sudoku", "no/such/file.txt"],
    ["bench_observer.py", "no/such/file.txt", "--before", "no/such/before.py"],
    ["bench_sliding.py", "--only", "korf,bogus"],
    ["bench_games.py", "--simulate-c4", "4443"],
    ["local_search_table.py", "--methods", "annealing:sideways=2"],
    ["ab_trees.py", "q17", "--repeats", "0", "."],
    ["ab_trees.py", "q17", ".", "./"],  # one tree twice
    ["ab_trees.py", "q17", "no/such/tree"],
    ["ab_trees.py", "s16", "tests"],  # not a checkout
])
def test_bad_input_is_one_line(argv, monkeypatch, capsys):
    with pytest.raises(SystemExit) as stop:
        _main(_load(argv[0]), argv[1:], monkeypatch)
    err = capsys.readouterr().err
    assert stop.value.code == 2, err
    assert len(err.strip().splitlines()) == 1 and "error:" in err, err


def test_bench_sudoku_sets_are_plain_names_given_with_or_without_spaces(monkeypatch):
    module = _load("bench_sudoku.py")
    assert all(label.replace("-", "").isalnum() for label in module.SETS), list(module.SETS)
    parsed = _parsed(module, ["--sets", "top95, tdoku-test"], monkeypatch)
    assert parsed.sets == ["top95", "tdoku-test"]
    assert _parsed(module, [], monkeypatch).sets == list(module.SETS)  # the default: all
    row = module.Row("tdoku-test", "count", 43, 1, "threads", 100.0, 5.0, 1.0)
    assert "| tdoku-test (count all) | 43 | 1 |" in module.markdown([row])
