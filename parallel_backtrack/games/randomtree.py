"""A seeded uniform random game tree, reproducible subtree by subtree in any process.

Glossary
--------
state
    ``(ply, path)``: the depth reached and the path number, ``path = parent *
    branching + action`` (the root is ``(0, 0)``).
leaf value
    At ``ply == depth``: a hash (splitmix64) of the seed, the depth and the path,
    mapped to ``-VALUE_RANGE..VALUE_RANGE``, scored for MAX.  No state needs its
    ancestors: a worker given ``(ply, path)`` builds the same subtree.
players
    MAX at even plies, MIN at odd ones.

Example: ``RandomTree(4, 6, seed=1)`` has 4^6 = 4,096 leaves.
"""

from __future__ import annotations

from ..engine.checks import check_int
from .game import BaseGame

MAX, MIN = "MAX", "MIN"
VALUE_RANGE = 1000
_MASK = (1 << 64) - 1
RandomState = tuple[int, int]


def splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class RandomTree(BaseGame):
    """``branching`` children per node, leaves at ``depth``, values seeded by ``seed``."""

    def __init__(self, branching: int, depth: int, seed: int = 0) -> None:
        for name, value, low in (("branching", branching, 1), ("depth", depth, 0),
                                 ("seed", seed, 0)):
            check_int(name, value, low=low)
        self.branching, self.depth, self.seed = branching, depth, seed
        self.initial: RandomState = (0, 0)
        self._moves = list(range(branching))

    def __repr__(self) -> str:
        return f"RandomTree(branching={self.branching}, depth={self.depth}, seed={self.seed})"

    def to_move(self, state: RandomState) -> str:
        return MAX if state[0] % 2 == 0 else MIN

    def actions(self, state: RandomState) -> list[int]:
        return self._moves

    def result(self, state: RandomState, action: int) -> RandomState:
        return (state[0] + 1, state[1] * self.branching + action)

    def is_terminal(self, state: RandomState) -> bool:
        return state[0] >= self.depth

    def utility(self, state: RandomState, player: str) -> int:
        mixed = splitmix64(splitmix64(self.seed) ^ (state[1] * 64 + state[0]))
        value = mixed % (2 * VALUE_RANGE + 1) - VALUE_RANGE
        return value if player == MAX else -value
