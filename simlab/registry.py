"""A generic name -> factory registry with did-you-mean suggestions."""

from __future__ import annotations

import difflib
from typing import Callable, Generic, Iterator, TypeVar

from simlab.errors import UnknownNameError

T = TypeVar("T")


def did_you_mean(name: str, candidates: list[str] | tuple[str, ...]) -> str:
    """Return ' Did you mean 'x'?' for the closest candidate, or ''."""
    close = difflib.get_close_matches(str(name), list(candidates), n=1, cutoff=0.6)
    return f" Did you mean '{close[0]}'?" if close else ""


class Registry(Generic[T]):
    """Maps a snake_case name to the class that implements it.

    Args:
        kind: what the entries are ("game", "policy"), used in messages.
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        """Class decorator: ``@GAMES.register("beleaguered_castle")``."""

        def decorate(entry: T) -> T:
            if name in self._entries and self._entries[name] is not entry:
                raise ValueError(f"{self.kind} '{name}' is registered twice")
            self._entries[name] = entry
            return entry

        return decorate

    def get(self, name: str) -> T:
        """The entry called ``name``; an unknown name is a clear error."""
        try:
            return self._entries[name]
        except (KeyError, TypeError):
            known = ", ".join(sorted(self._entries))
            kinds = self.kind[:-1] + "ies" if self.kind.endswith("y") else self.kind + "s"
            raise UnknownNameError(
                f"Unknown {self.kind} '{name}'.{did_you_mean(name, self.names())}"
                f" Known {kinds}: {known}."
            ) from None

    def names(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())
