"""What the command line prints for each puzzle: a grid, a line, or a JSON Lines object.

Glossary
--------
line
    One puzzle's answer on one line: the solution (or ``unsolvable: line N``,
    ``invalid: line N: ...``, ``stopped (...): ...``), then tab-separated fields:
    ``count=N`` (``count>=N`` when stopped, ``count>=N (limit reached)`` when the
    count reached ``--limit``) with ``--count``, ``nodes=`` and
    ``seconds=`` with ``--stats``.
grid
    The answer of a file's only puzzle, drawn (``formats.format_grid``), the fields
    below it.
block
    ``results.ResultBlock``: many solved or unsolvable puzzles of a file read in bulk,
    written with one call, each exactly as its own result would be.
"""

from __future__ import annotations

import argparse
import json
import sys

from .._output import write_whole
from .formats import format_grid, parse_one
from .results import (
    FAILED,
    INVALID,
    LIMIT,
    SOLVED,
    STOPPED,
    UNSOLVABLE,
    PuzzleResult,
    ResultBlock,
    reached_limit,
)


def _fields(result: PuzzleResult, args: argparse.Namespace) -> str:
    """The tab-separated fields after the answer: count (``>=`` when partial), stats."""
    text = ""
    if args.count and result.status == SOLVED and reached_limit(result.count, args.limit):
        text += f"\tcount>={result.count} (limit reached)"
    elif args.count and result.count is not None:  # an invalid line was never counted
        text += f"\tcount{'>=' if result.status == STOPPED else '='}{result.count}"
    if args.stats:
        text += f"\tnodes={result.nodes}\tseconds={result.seconds:.4f}"
    return text


def _answer(result: PuzzleResult) -> str:
    if result.status in (INVALID, FAILED):
        return f"{result.status}: {result.error}"
    if result.status == STOPPED:
        return f"stopped ({result.stop_reason}): {result.solution or 'no solution found yet'}"
    if result.status == SOLVED and result.solution:
        return result.solution
    return unsolvable(result.line)


def unsolvable(line: int) -> str:
    """The answer for a puzzle with no solution, naming its line as ``invalid`` does."""
    return f"{UNSOLVABLE}: line {line}"


def text_line(result: PuzzleResult, args: argparse.Namespace) -> str:
    return _answer(result) + _fields(result, args)


def text_grid(result: PuzzleResult, args: argparse.Namespace) -> str:
    if result.status not in (SOLVED, STOPPED) or result.solution is None:
        return text_line(result, args)
    extra = _fields(result, args).lstrip("\t").replace("\t", "  ")
    if result.status == STOPPED:
        extra = f"stopped ({result.stop_reason}), partial" + (f": {extra}" if extra else "")
    cells = result.cells if result.cells is not None else parse_one(result.solution)
    return format_grid(cells) + (f"\n{extra}" if extra else "")


def print_result(result: PuzzleResult, args: argparse.Namespace, alone: bool) -> None:
    """One puzzle's answer, written whole (``_output``: a Ctrl-C waits for it)."""
    if args.json:
        text, flush = json.dumps(result.as_json(args.count, args.limit)), not alone
    else:
        text, flush = text_grid(result, args) if alone else text_line(result, args), False
    write_whole(sys.stdout, text + "\n", flush)


def print_block(block: ResultBlock, args: argparse.Namespace) -> None:
    """Every puzzle of ``block`` as ``print_result`` would print it on its own, in one
    write (flushed with ``--json``, as each object is), written whole."""
    lines = _json_lines(block, args) if args.json else _text_lines(block, args)
    write_whole(sys.stdout, "\n".join(lines) + "\n", args.json)


def _text_lines(block: ResultBlock, args: argparse.Namespace) -> list[str]:
    stats = f"\tseconds={block.seconds:.4f}" if args.stats else ""
    answers = [solution if count else unsolvable(line)
               for solution, count, line in zip(block.solutions, block.counts, block.lines)]
    if args.count:
        counts = [_count_field(count, args.limit) for count in block.counts]
        if args.stats:
            return [f"{answer}\t{count}\tnodes={nodes}{stats}"
                    for answer, count, nodes in zip(answers, counts, block.nodes)]
        return [f"{answer}\t{count}" for answer, count in zip(answers, counts)]
    if args.stats:
        return [f"{answer}\tnodes={nodes}{stats}" for answer, nodes in zip(answers, block.nodes)]
    return answers


def _count_field(count: int, limit: int | None) -> str:
    """A block's count field, as ``_fields`` writes a solved or unsolvable puzzle's."""
    return f"count>={count} (limit reached)" if reached_limit(count, limit) else f"count={count}"


def _json_lines(block: ResultBlock, args: argparse.Namespace) -> list[str]:
    """``json.dumps(result.as_json(args.count))`` of each puzzle, built as text (a
    solution is cell symbols and needs no escaping)."""
    seconds = json.dumps(round(block.seconds, 6))
    out = []
    for index, (line, solution, count, nodes) in enumerate(
            zip(block.lines, block.solutions, block.counts, block.nodes), block.first_index):
        head = f'{{"index": {index}, "line": {line}, "status": '
        answer = f'"{SOLVED}", "solution": "{solution}"' if count else f'"{UNSOLVABLE}", ' \
                 '"solution": null'
        tail = f', "count": {count}' if args.count else ""
        if count and reached_limit(count, args.limit):  # as PuzzleResult.as_json says it
            tail = f', "complete": false{tail}, "stop_reason": "{LIMIT}"'
        else:
            tail = f', "complete": true{tail}'
        out.append(f'{head}{answer}, "nodes": {nodes}, "seconds": {seconds}{tail}}}')
    return out
