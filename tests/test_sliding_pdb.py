"""Pattern databases and every heuristic: admissible against exact distances; the cache."""

from __future__ import annotations

import os
import random
import re
import socket
import stat
import tempfile
from pathlib import Path

import numpy as np
import pytest
from sliding_check import CACHE, exact_distances, replay

from parallel_backtrack.sliding import Board, pdbfiles
from parallel_backtrack.sliding import pdb as pdb_module
from parallel_backtrack.sliding.heuristics import tables_for
from parallel_backtrack.sliding.ida import Pass, solve
from parallel_backtrack.sliding.tables import neighbors_table

assert CACHE


@pytest.fixture(scope="module")
def blank_first_distances() -> dict[tuple[int, ...], int]:
    return exact_distances("blank-first")


def heuristic_values(name: str, states: list[tuple[int, ...]]) -> np.ndarray:
    tables = tables_for(round(len(states[0]) ** 0.5), name)
    return np.array([Pass(tables, s).h0 for s in states])


@pytest.mark.parametrize("name", ["hamming", "manhattan", "linear", "pdb-exact"])
def test_admissible_on_the_whole_8puzzle(blank_first_distances: dict, name: str) -> None:
    states = list(blank_first_distances)
    assert len(states) == 181440
    truth = np.array([blank_first_distances[s] for s in states])
    values = heuristic_values(name, states)
    assert (values <= truth).all()
    if name == "pdb-exact":
        assert (values == truth).all()


def random_walk(n: int, steps: int, rng: random.Random) -> tuple[int, ...]:
    tiles = list(range(n * n))
    for _ in range(steps):
        try:
            tiles = replay(tiles, rng.choice("UDLR"))
        except ValueError:
            pass
    return tuple(tiles)


@pytest.mark.parametrize("name", ["pdb-555", "linear"])
def test_admissible_on_15puzzle_samples(name: str) -> None:
    rng = random.Random(15)
    tables = tables_for(4, name)
    for _ in range(40):
        tiles = random_walk(4, rng.randrange(10, 60), rng)
        exact = solve(Board(tiles, "blank-first"), "manhattan")  # independent of any PDB
        assert exact.moves is not None
        assert Pass(tables, tiles).h0 <= len(exact.moves)


def test_pattern_entries_dominate_manhattan() -> None:
    tables = tables_for(4, "pdb-555")
    rng = random.Random(3)
    for _ in range(500):
        tiles = rng.sample(range(16), 16)
        cell = {t: c for c, t in enumerate(tiles)}
        for g, pattern in enumerate(pdb_module.PARTITIONS["pdb-555"]):
            index = sum(cell[t] * 16**i for i, t in enumerate(pattern))
            md = sum(abs(cell[t] // 4 - t // 4) + abs(cell[t] % 4 - t % 4) for t in pattern)
            assert tables.tables[tables.offsets[g] + index] >= md


def test_cache_detects_damage_and_rebuilds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PARALLEL_BACKTRACK_CACHE", str(tmp_path))
    neighbors = neighbors_table(2)
    first = np.array(pdb_module.database(2, "pdb-exact", neighbors))
    data, meta = pdb_module._paths(2, "pdb-exact")
    said = capsys.readouterr().err.splitlines()  # a first build says so, in one line
    assert len(said) == 1 and "building the pdb-exact" in said[0] and str(data) in said[0]
    pdb_module.database(2, "pdb-exact", neighbors)
    assert capsys.readouterr().err == ""  # from the cache: nothing said
    assert data.parent == tmp_path / "pdb" and meta.exists()
    assert isinstance(pdb_module.load_cached(2, "pdb-exact"), np.memmap)
    raw = bytearray(data.read_bytes())
    raw[-1] ^= 0xFF  # one flipped byte
    data.write_bytes(bytes(raw))
    assert pdb_module.load_cached(2, "pdb-exact") is None
    data.write_bytes(bytes(raw[: len(raw) // 2]))  # a partial file
    assert pdb_module.load_cached(2, "pdb-exact") is None
    rebuilt = pdb_module.database(2, "pdb-exact", neighbors)
    assert (np.array(rebuilt) == first).all()
    meta.write_text("not json")
    assert pdb_module.load_cached(2, "pdb-exact") is None


WAIT_AND_MAP = """
from parallel_backtrack.sliding import pdb
from parallel_backtrack.sliding.tables import neighbors_table
table = pdb.database(2, "pdb-exact", neighbors_table(2))
print(int(table.sum()), type(table).__name__)
"""


@pytest.mark.timeout(120)
def test_one_process_of_a_machine_builds_and_the_others_map_its_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process that needs a database another process of the machine is building (a
    cluster's workers, each finding it missing) waits for that build, says so in one
    line, and maps the file instead of building a copy of its own at the same time."""
    import fcntl
    import subprocess
    import sys

    monkeypatch.setenv("PARALLEL_BACKTRACK_CACHE", str(tmp_path))
    folder = tmp_path / "pdb"
    folder.mkdir()
    fd = os.open(folder, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # as a build in another process holds it
    try:
        waiter = subprocess.Popen([sys.executable, "-c", WAIT_AND_MAP], text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert waiter.stderr is not None
        said = waiter.stderr.readline()  # without the wait: the notice of its own build
        assert "waiting for another process of this machine" in said, said
        assert waiter.poll() is None and not list(folder.iterdir())
        built = np.array(pdb_module._build_and_store(2, "pdb-exact", neighbors_table(2),
                                                     False))
    finally:
        os.close(fd)
    out, err = waiter.communicate(timeout=60)
    assert waiter.returncode == 0 and err == "", err[-500:]  # mapped, not built again
    assert out.split() == [str(int(built.sum())), "memmap"]


def test_databases_refuse_other_sizes() -> None:
    with pytest.raises(ValueError, match="no pattern database for 5x5"):
        tables_for(5, "pdb")
    with pytest.raises(ValueError, match="pdb-663 is for 4x4"):
        pdb_module.database(3, "pdb-663", neighbors_table(3))


@pytest.mark.slow
@pytest.mark.ci
def test_663_admissible_on_samples() -> None:
    rng = random.Random(663)
    tables = tables_for(4, "pdb-663")
    for _ in range(40):
        tiles = random_walk(4, rng.randrange(10, 60), rng)
        exact = solve(Board(tiles, "blank-first"), "pdb-555")
        assert Pass(tables, tiles).h0 <= len(exact.moves or "")


def test_a_home_that_cannot_be_written_keeps_the_databases_in_a_private_temp_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No PARALLEL_BACKTRACK_CACHE: the user cache, else (it cannot be made: a read-only
    home, here a file where its folder would be) the user's private folder of the
    temporary directory, where a database is built and read back."""
    monkeypatch.delenv("PARALLEL_BACKTRACK_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # not there yet: made
    assert pdbfiles.cache_dir() == tmp_path / "cache" / "parallel_backtrack" / "pdb"
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    private = tmp_path / "tmp" / f"parallel_backtrack-{os.getuid()}"
    assert pdbfiles.cache_dir() == private / "pdb"
    assert stat.S_IMODE(private.stat().st_mode) == 0o700
    first = np.array(pdb_module.database(2, "pdb-exact", neighbors_table(2)))
    assert (private / "pdb").is_dir() and (first == pdb_module.load_cached(2, "pdb-exact")).all()


def test_a_database_that_cannot_be_kept_names_the_folder_and_the_setting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    monkeypatch.setenv("PARALLEL_BACKTRACK_CACHE", str(blocked))
    host = re.escape(socket.gethostname())
    with pytest.raises(OSError, match=rf"cannot keep the pdb-exact database in .*blocked/pdb "
                                      rf"on {host}: .*; set PARALLEL_BACKTRACK_CACHE to a "
                                      r"writable folder"):
        pdb_module.database(2, "pdb-exact", neighbors_table(2))


def test_a_folder_that_cannot_be_written_is_named_before_the_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache folder that exists but cannot be written (a read-only share on a worker
    machine): refused before building, not after a build of minutes."""
    if os.geteuid() == 0:
        monkeypatch.setattr(os, "access", lambda path, mode: mode != os.W_OK)
    read_only = tmp_path / "read-only"
    (read_only / "pdb").mkdir(parents=True)
    (read_only / "pdb").chmod(0o555)
    monkeypatch.setenv("PARALLEL_BACKTRACK_CACHE", str(read_only))
    built = []
    monkeypatch.setattr(pdb_module, "_build", lambda *args: built.append(args))
    try:
        with pytest.raises(OSError, match=r"cannot keep the pdb-exact database in "
                           r".*read-only/pdb on .*: Permission denied; set "
                           r"PARALLEL_BACKTRACK_CACHE"):
            pdb_module.database(2, "pdb-exact", neighbors_table(2))
    finally:
        (read_only / "pdb").chmod(0o755)
    assert built == []
