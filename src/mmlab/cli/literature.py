"""Published figures printed beside ours by ``mmlab compare`` (exact trees, ``ties=first``; and
Singley's appendix, 003, at its nine sizes).

>>> LITERATURE[("4x6", "knuth")].total
5801
>>> print(LITERATURE[("4x6", "greedy2")])
mean 10.8002, worst 17 (Singley 2005 (003), counted until the code was known (its deduced last guess not played))
"""

from __future__ import annotations

from dataclasses import dataclass

from mmlab.experiments.singley_tables import THESIS


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

#: Singley's appendix (003) for the methods at its nine sizes, and how it differs from what ``compare``
#: plays (docs/reproductions.md, "Singley's 1-D methods").
_SINGLEY = {
    "greedy1": "Singley 2005 (003)",
    "greedy2": "Singley 2005 (003), counted until the code was known (its deduced last guess not played)",
    "greedy3": "Singley 2005 (003); we do not reproduce its means exactly",
    "local-search": "Singley 2005 (003); we do not reproduce its means exactly",
    "tabu": "Singley 2005 (003), 5 runs over every secret",
}
LITERATURE.update({(size, method): Figure(_SINGLEY[method], None, figure.mean, figure.max)
                   for method, columns in THESIS.items() for size, figure in columns.items()})
