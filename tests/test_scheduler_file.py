"""``--scheduler-file``: the address in the file ``dask scheduler --scheduler-file``
writes, read while the arguments are parsed; what is wrong with the file is a usage
error of one line, never a traceback (the address itself is checked as
``--scheduler-address`` checks it: ``tests/test_cluster.py`` runs a command from a real
scheduler's file)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parallel_backtrack import _cli, _cluster

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                    max_leaves=10)


def test_the_address_is_read_and_checked(tmp_path: Path, monkeypatch) -> None:
    checked = []
    monkeypatch.setattr(_cluster, "scheduler_address",
                        lambda text: checked.append(text) or f"checked {text}")
    path = tmp_path / "scheduler.json"
    path.write_text(json.dumps({"type": "Scheduler", "id": "Scheduler-1",
                                "address": "tcp://10.0.0.7:8786", "services": {},
                                "started": 1.0, "workers": {}}))
    assert _cluster.scheduler_file(str(path)) == "checked tcp://10.0.0.7:8786"
    assert checked == ["tcp://10.0.0.7:8786"]


def test_a_tilde_is_the_home_folder(tmp_path: Path, monkeypatch) -> None:
    # --scheduler-file=~/scheduler.json: the shell leaves a "~" after "=" as it is.
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setattr(_cluster, "scheduler_address", lambda text: f"checked {text}")
    (tmp_path / "scheduler.json").write_text(json.dumps({"address": "tcp://10.0.0.7:8786"}))
    assert _cluster.scheduler_file("~/scheduler.json") == "checked tcp://10.0.0.7:8786"


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read '.*': No such file or directory"),
    (b"", r"is not a Dask scheduler file \(JSON\): Expecting value"),
    (b"\xff\xfe", r"is not a Dask scheduler file \(JSON\)"),
    (b"[1, 2]", 'is not a Dask scheduler file: no "address" in it'),
    (b'{"address": 8786}', 'is not a Dask scheduler file: no "address" in it'),
])
def test_what_is_wrong_with_the_file_is_said(tmp_path: Path, content: bytes | None,
                                             message: str) -> None:
    path = tmp_path / "scheduler.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        _cluster.scheduler_file(str(path))
    with pytest.raises(argparse.ArgumentTypeError, match="cannot read .*: Is a directory"):
        _cluster.scheduler_file(str(tmp_path))


def test_it_is_a_usage_error_of_one_line_and_not_with_an_address(tmp_path: Path, capsys,
                                                                 monkeypatch) -> None:
    from parallel_backtrack.nqueens.__main__ import main

    assert main(["--n", "8", "--scheduler-file", str(tmp_path / "none.json")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "argument --scheduler-file: cannot read" in lines[0]
    monkeypatch.setattr(_cli, "scheduler_address", str)  # both read, then refused
    monkeypatch.setattr(_cli, "scheduler_file", str)
    parser = _cli.Parser(prog="x")
    _cli.add_engine_options(parser, 1)
    assert parser.parse_args(["--scheduler-file", "f"]).scheduler_address == "f"
    with pytest.raises(SystemExit):
        parser.parse_args(["--scheduler-file", "a", "--scheduler-address", "b"])
    assert "not allowed with argument" in capsys.readouterr().err


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=200), JSON.map(lambda v: json.dumps(v).encode()),
                 st.dictionaries(st.sampled_from(["address", "type", "id"]), JSON)
                 .map(lambda v: json.dumps(v).encode())))
def test_any_file_gives_an_address_or_a_usage_error(content: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scheduler.json"
        path.write_bytes(content)
        original = _cluster.scheduler_address
        _cluster.scheduler_address = lambda text: text  # no network in a fuzz
        try:
            found = _cluster.scheduler_file(str(path))
        except argparse.ArgumentTypeError as error:
            assert "\n" not in str(error)
        else:
            assert isinstance(found, str)
            assert json.loads(content.decode("utf-8"))["address"] == found
        finally:
            _cluster.scheduler_address = original
