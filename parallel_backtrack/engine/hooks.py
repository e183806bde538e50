"""The one place the engine reaches a space's optional fast hooks.

``FastSpace`` (in ``space.py``) declares the hooks, each with a default that means
"not offered".  ``of(space)`` gives any space that face: the space itself when it
subclasses ``FastSpace``, otherwise a thin view whose hooks are the space's own
methods where it defines them and the declared defaults elsewhere.  Engine code
writes ``hooks.of(space).count_below(state, budget)``; it never looks a hook up by
name, and a hook a space leaves out behaves exactly like one that declines.

Adding a hook
-------------
Declare it on ``FastSpace`` (a method or a property whose default means "not
offered", typed) and add it to the glossary in ``space.py``; then call it as
``hooks.of(space).the_hook(...)`` where the engine needs it.  Nothing here
changes: the view is built from the declarations (``HOOKS``).

Glossary
--------
hook
    A public method or property declared on ``FastSpace``: ``count_roots``,
    ``count_below``, ``first_below``, ``count_many``, ``branch_all``,
    ``size_hints``, ``node_budget``.
view
    What ``of`` returns for a space that does not subclass ``FastSpace``: it
    holds the space (``view.space``) and forwards the hooks the space defines.

Example: ``hooks.of(NoAdjacentOnes(5)).count_below(state, 100)`` is None (no
kernel: the generic search runs); on an N-Queens space with the fast kernel it is
the kernel's ``Explored``.
"""

from __future__ import annotations

from typing import Any

from .space import FastSpace

HOOKS: tuple[str, ...] = tuple(name for name in vars(FastSpace) if not name.startswith("_"))


def of(space: Any) -> FastSpace[Any]:
    """``space`` as a ``FastSpace``: itself, or a view that forwards its own hooks."""
    return space if isinstance(space, FastSpace) else _View(space)


def offers(space: Any, name: str) -> bool:
    """Whether ``space`` defines the hook ``name`` itself (a call may still decline)."""
    if isinstance(space, FastSpace):
        return getattr(type(space), name) is not getattr(FastSpace, name)
    return callable(getattr(space, name, None))


class _View(FastSpace[Any]):
    """A space that does not subclass ``FastSpace``, seen as one."""

    def __init__(self, space: Any) -> None:
        self.space = space
        for name in _METHODS:
            own = getattr(space, name, None)
            if callable(own):
                self.__dict__[name] = own  # shadows the declared default


def _forward(name: str, declared: property) -> property:
    """A property hook of the view: the space's own value, else the declared default."""

    def get(view: _View) -> Any:
        if hasattr(view.space, name):
            return getattr(view.space, name)
        return None if declared.fget is None else declared.fget(view)

    return property(get, doc=declared.__doc__)


_METHODS = tuple(name for name in HOOKS if not isinstance(vars(FastSpace)[name], property))
for _name in HOOKS:
    if isinstance(vars(FastSpace)[_name], property):
        setattr(_View, _name, _forward(_name, vars(FastSpace)[_name]))
