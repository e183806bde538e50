"""Checkpoints of a count: what a run has counted and the work it has left, written
now and then, so that a run stopped (a time limit, Ctrl-C, a lost cluster, a killed
machine) goes on from there instead of from the start.

Glossary
--------
state
    ``count`` and ``nodes`` so far, and every piece of work not counted yet: waiting in
    the parent, or in flight (run again on resume: its result had not come back).  It
    is taken between two steps of the scheduler's loop, where the three agree; a run
    that ends early on its time limit writes it as it stops, one stopped otherwise
    (Ctrl-C, an error) leaves its last one.
key
    What the checkpoint is of: the caller's string (a command line's problem and its
    options), else a digest of the pickled space.  A checkpoint of another key is
    refused, never mixed in.
file
    A pickle, written beside the file and renamed over it, so a stop while writing
    leaves the last one whole.  Load only checkpoints you wrote: unpickling runs code.
    A complete run removes its file.
asked stop
    ``ask_stop()`` (the command lines' SIGTERM, a batch scheduler's notice): the
    checkpointed counts running stop at their loop's next step, write their state
    there and end partial, ``stop_reason`` ``"terminated"``, as a time limit ends them.

Example: ``count(space, workers=2, timeout=60, checkpoint="n20.ckpt")`` counts for a
minute and leaves ``n20.ckpt``; the same call again goes on from it, and at the end
``report.count`` is the whole count and the file is gone.
"""

from __future__ import annotations

import contextlib
import hashlib
import numbers
import os
import pickle
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .arguments import short_repr
from .checks import WrongTypeError

FORMAT = "parallel_backtrack count checkpoint"
VERSION = 1
EVERY = 60.0  # seconds between two checkpoints of a run


# Checkpointed counts in their loop now, and whether they were asked to stop.
_RUNNING = [0]
_ASKED = [False]


def ask_stop() -> bool:
    """Ask the checkpointed counts running to stop at their next step (see the
    glossary); False when none runs (the caller stops them some other way)."""
    if _RUNNING[0] <= 0:
        return False
    _ASKED[0] = True
    return True


def stop_asked() -> bool:
    return _ASKED[0]


@contextlib.contextmanager
def running() -> Iterator[None]:
    """A checkpointed count's loop: ``ask_stop`` reaches it while it runs."""
    if _RUNNING[0] == 0:
        _ASKED[0] = False  # an ask between runs is not for this one
    _RUNNING[0] += 1
    try:
        yield
    finally:
        _RUNNING[0] -= 1


class CheckpointError(ValueError):
    """A checkpoint file that cannot be resumed from: unreadable, not a checkpoint, or
    one of another search."""


@dataclass
class Saved:
    """A checkpoint's state (see the glossary): ``works`` as the scheduler's queue holds
    them."""

    count: int
    nodes: int
    works: list[Any]
    seconds: float  # the seconds spent counting before, in all


@dataclass
class Checkpoint:
    """Where a count's state goes (``path``), what it is of (``key``; None: the space's
    digest, filled in by ``bind``) and how often it is written (``every`` seconds)."""

    path: str
    key: str | None = None
    every: float = EVERY
    last: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if not isinstance(self.path, str) or not self.path:
            raise ValueError(f"a checkpoint needs a file path, got {self.path!r}")
        message = f"checkpoint seconds must be a positive number, got {self.every!r}"
        if isinstance(self.every, bool) or not isinstance(self.every, numbers.Real):
            raise WrongTypeError(message)
        if not self.every > 0:
            raise ValueError(message)

    def check_writable(self) -> None:
        """CheckpointError unless the file can be written: its folder exists, is a
        folder and is writable, and the path itself is not a folder (checked before a
        run starts, not at its first write a minute in)."""
        folder = os.path.dirname(os.path.abspath(self.path))
        problem = None
        if os.path.isdir(self.path):
            problem = "it is a folder"
        elif not os.path.exists(folder):
            problem = f"folder {folder!r} does not exist"
        elif not os.path.isdir(folder):
            problem = f"{folder!r} is not a folder"
        elif not os.access(folder, os.W_OK | os.X_OK):
            problem = f"folder {folder!r} is not writable"
        if problem is not None:
            raise CheckpointError(f"cannot write checkpoint {self.path!r}: {problem}")

    def bind(self, space: Any) -> None:
        """The run's space: without a key, its digest is the key."""
        if self.key is None:
            self.key = "space " + hashlib.sha256(pickle.dumps(space, protocol=4)).hexdigest()

    def load(self, key: str | None = None) -> Saved | None:
        """The state saved for ``key`` (None: this checkpoint's); None when there is no
        file."""
        key = self.key if key is None else key
        try:
            with open(self.path, "rb") as stream:
                data = stream.read()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise CheckpointError(f"cannot read checkpoint {self.path!r}: "
                                  f"{error.strerror or error}") from None
        try:
            found = pickle.loads(data)
        except Exception as error:  # noqa: BLE001 - any bytes: say the file is not one
            raise CheckpointError(f"{self.path!r} is not a checkpoint of this package "
                                  f"({type(error).__name__})") from None
        if not (isinstance(found, dict) and found.get("format") == FORMAT):
            raise CheckpointError(f"{self.path!r} is not a checkpoint of this package")
        if found.get("version") != VERSION:
            raise CheckpointError(f"{self.path!r} is a checkpoint of format "
                                  f"{found.get('version')!r}; this version reads {VERSION}")
        if found.get("key") != key:
            raise CheckpointError(f"{self.path!r} is the checkpoint of another search "
                                  f"({found.get('key')!r}, not {key!r}); remove it or "
                                  "name another file")
        return Saved(found["count"], found["nodes"], list(found["works"]),
                     found.get("seconds", 0.0))

    def due(self) -> bool:
        return time.monotonic() - self.last >= self.every

    def save(self, count: int, nodes: int, works: Sequence[Any], seconds: float) -> None:
        """Write the state under this checkpoint's key (see ``file`` in the glossary)."""
        self.last = time.monotonic()
        data = pickle.dumps({"format": FORMAT, "version": VERSION, "key": self.key,
                             "count": count, "nodes": nodes, "works": list(works),
                             "seconds": seconds}, protocol=pickle.HIGHEST_PROTOCOL)
        folder = os.path.dirname(os.path.abspath(self.path))
        temporary = os.path.join(folder, f".{os.path.basename(self.path)}.{os.getpid()}")
        try:
            with open(temporary, "wb") as stream:
                stream.write(data)
            os.replace(temporary, self.path)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.remove(temporary)
            raise CheckpointError(f"cannot write checkpoint {self.path!r}: "
                                  f"{error.strerror or error}") from None

    def remove(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.path)


def checkpoint_for(checkpoint: object) -> Checkpoint | None:
    """The ``Checkpoint`` a count's ``checkpoint=`` stands for (a path, a
    ``Checkpoint`` or None), its file checked writable now (``check_writable``)."""
    if checkpoint is None:
        return None
    if isinstance(checkpoint, (str, os.PathLike)):
        checkpoint = Checkpoint(os.fspath(checkpoint))  # type: ignore[arg-type]
    if not isinstance(checkpoint, Checkpoint):
        raise TypeError(f"checkpoint must be a file path or a Checkpoint, got "
                        f"{short_repr(checkpoint)}")
    checkpoint.check_writable()
    return checkpoint
