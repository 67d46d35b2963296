"""Published figures printed beside ours by ``mmlab compare`` (exact trees, ``ties=first``).

>>> LITERATURE[("4x6", "knuth")].total
5801
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """A published result: external path length and/or mean, worst case, and where it is from."""

    source: str
    total: int | None = None
    mean: float | None = None
    worst: int | None = None

    def __str__(self) -> str:
        parts = []
        if self.total is not None:
            parts.append(f"L={self.total}")
        if self.mean is not None:
            parts.append(f"mean {self.mean:g}")
        if self.worst is not None:
            parts.append(f"worst {self.worst}")
        return f"{', '.join(parts)} ({self.source})"


LITERATURE: dict[tuple[str, str], Figure] = {
    ("4x6", "knuth"): Figure("Knuth 1976", 5801, 4.476, 5),
    ("4x6", "irving"): Figure("Kooi 2005", 5696),
    ("4x6", "most-parts"): Figure("Kooi 2005; 000 Table 3", 5668, None, 6),
    ("4x6", "entropy"): Figure("Kooi 2005", 5722),
    ("4x6", "norvig"): Figure("Norvig 1984, 002; ties=lisp is his tie rule", None, 4.47, 6),
    ("4x6", "norvig:ties=lisp"): Figure("Norvig 1984, 002", None, 4.47, 6),
    ("4x6", "random"): Figure("Rosu 1997, in 003", None, 4.66, 8),
}
