"""Where a command line's tasks run: the checks behind ``--backend``,
``--scheduler-address`` and ``--scheduler-file`` (``_cli.add_engine_options``), made
while the arguments are parsed, so a bad value is a usage error (exit 2, one line)
before any search.

Glossary
--------
extra
    The optional dependencies a backend needs: ``dask`` needs ``distributed``
    (``pip install "parallel_backtrack[dask]"``).
address
    ``tcp://HOST:PORT`` (or ``tls://``) of a running ``dask scheduler``; the port
    defaults to 8786.  The command checks, within ``CONNECT_SECONDS``, that a Dask
    scheduler answers there: it greets every new connection at once with its
    handshake, so a port that accepts and stays silent is not one, and an
    unreachable host fails fast instead of hanging.
scheduler file
    The JSON file ``dask scheduler --scheduler-file PATH`` writes (and ``dask worker
    --scheduler-file PATH`` reads): the scheduler's ``"address"`` among other fields,
    the usual way on shared file systems (HPC batch jobs) to find a scheduler whose
    host is known only once it runs.

Example: ``scheduler_address("127.0.0.1:8786")`` returns ``"tcp://127.0.0.1:8786"``
when a scheduler runs there, else raises ``ArgumentTypeError("no Dask scheduler
answers at tcp://127.0.0.1:8786 (Connection refused); ...")``.
"""

from __future__ import annotations

import argparse
import re

from .engine import BACKENDS
from .engine.backends import missing_extra
from .engine.checks import did_you_mean

# A Dask scheduler address: tcp:// or tls://, a host, a port (8786 when left out).
ADDRESS = re.compile(r"(?:(tcp|tls)://)?(\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+)(?::([0-9]{1,5}))?")
DASK_PORT = 8786
# Seconds a command waits to reach a scheduler before it says it cannot (a usage error).
CONNECT_SECONDS = 3.0
# Seconds a tls:// address is listened to for a plain tcp:// scheduler's greeting.
TLS_SILENCE_SECONDS = 0.5


def _choice(text: str) -> str:
    if text not in BACKENDS:
        raise argparse.ArgumentTypeError(did_you_mean("backend", text, BACKENDS))
    return text


def backend_type(text: str) -> str:
    """An argparse type for ``--backend``: a known name whose extra is installed."""
    name = _choice(text)
    problem = missing_extra(name)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return name


def scheduler_address(text: str) -> str:
    """An argparse type for ``--scheduler-address``: ``tcp://HOST:PORT`` of a Dask
    scheduler this machine reaches now (checked within ``CONNECT_SECONDS``), with the
    dask extra installed."""
    found = ADDRESS.fullmatch(text.strip())
    port = int(found.group(3) or DASK_PORT) if found else 0
    if not found or not 0 < port < 65536:
        raise argparse.ArgumentTypeError(
            f"expected tcp://HOST:PORT (a Dask scheduler), got {text[:80]!r}")
    problem = missing_extra("dask")
    if problem:
        raise argparse.ArgumentTypeError(problem)
    address = f"{found.group(1) or 'tcp'}://{found.group(2)}:{port}"
    problem = _tls_problem() if found.group(1) == "tls" else None
    if problem:
        raise argparse.ArgumentTypeError(f"{address}: {problem}")
    reason = _no_scheduler(found.group(2).strip("[]"), port, found.group(1) == "tls")
    if reason:
        raise argparse.ArgumentTypeError(
            f"no Dask scheduler answers at {address} ({reason}); start one with "
            "'dask scheduler', or check the address")
    return address


def scheduler_file(text: str) -> str:
    """An argparse type for ``--scheduler-file``: the address in the JSON file that
    ``dask scheduler --scheduler-file PATH`` writes (its ``"address"``), checked as
    ``scheduler_address`` checks one.  A leading ``~`` is the user's home, also where
    the shell leaves it (``--scheduler-file=~/scheduler.json``)."""
    import json
    import os

    try:
        with open(os.path.expanduser(text), encoding="utf-8") as stream:
            written = json.loads(stream.read(1 << 20))
    except OSError as error:
        raise argparse.ArgumentTypeError(
            f"cannot read {text!r}: {error.strerror or error}") from None
    except (UnicodeDecodeError, ValueError) as error:
        reason = " ".join(str(error).split())[:120]
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a Dask scheduler file (JSON): {reason}") from None
    address = written.get("address") if isinstance(written, dict) else None
    if not isinstance(address, str):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a Dask scheduler file: no \"address\" in it (dask "
            "scheduler --scheduler-file writes one)")
    return scheduler_address(address)


def _tls_problem() -> str | None:
    """Why this process cannot open a ``tls://`` connection, or None: Dask takes the
    client's certificate from its configuration (``distributed.comm.tls.*``), and
    without one it would fail deep inside the first connection."""
    from distributed.security import Security

    try:
        context = Security().get_connection_args("client").get("ssl_context")
    except (OSError, ValueError) as error:  # ssl.SSLError is an OSError
        return f"Dask's TLS settings do not load ({' '.join(str(error).split())[:160]})"
    if context is None:
        return ("a tls:// scheduler needs Dask's TLS settings for the client: set "
                "DASK_DISTRIBUTED__COMM__TLS__CA_FILE and "
                "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT (and __CLIENT__KEY, unless the "
                "certificate file holds the key), or distributed.comm.tls in Dask's "
                "configuration")
    return None


def _no_scheduler(host: str, port: int, tls: bool) -> str | None:
    """Why no Dask scheduler answers at ``host:port`` within ``CONNECT_SECONDS``, or
    None.  A scheduler greets a new connection at once (its handshake names the
    ``pickle-protocol``), so a port that accepts and says nothing else is not one."""
    import socket

    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS) as sock:
            # A tls:// scheduler waits for the client's hello: only a tcp:// one speaks.
            sock.settimeout(TLS_SILENCE_SECONDS if tls else CONNECT_SECONDS)
            try:
                greeting = sock.recv(4096)
            except TimeoutError:
                greeting = b""
    except OSError as error:
        return getattr(error, "strerror", None) or str(error) or type(error).__name__
    if tls:
        return (f"a tcp:// scheduler answers there: use tcp://{host}:{port}"
                if b"pickle-protocol" in greeting else None)
    return None if b"pickle-protocol" in greeting else "the port answers, but not as Dask"
