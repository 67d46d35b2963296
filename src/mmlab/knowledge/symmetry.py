"""Equivalent guesses: one representative per class of guesses that split the candidates alike.

A peg permutation with a colour relabelling that maps every guess played so far onto itself
maps the consistent set onto itself, so a guess and its image give the same partition and are
both consistent or both not. So are two guesses that differ by a swap of colours never played
("free"), or of colours absent from every consistent code. Scoring only the lowest-index member
of each class keeps ``ties=first`` exact: the best guess of lowest index is the smallest of its
class. (Free and absent colours: Ville 2013; the full group: Koyama and Lai 1993.)

>>> from mmlab.game import Game
>>> from mmlab.knowledge import Knowledge
>>> game = Game.parse_size("4x6")
>>> [game.format(i) for i in representatives(Knowledge.initial(game))]
['1111', '1112', '1122', '1123', '1234']
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from mmlab.errors import BadArgument
from mmlab.game import Game
from mmlab.knowledge import kernels
from mmlab.knowledge.knowledge import Knowledge

#: At most this many peg permutations are used; any subset of the symmetries keeps results exact.
MAX_PERMUTATIONS = 5040


def representatives(knowledge: Knowledge) -> np.ndarray:
    """Ascending indices of one lowest-index guess per class of equivalent guesses (of explicit
    knowledge: the classes depend on the colours the consistent codes hold); a new array at each call."""
    game = knowledge.game
    if not knowledge.explicit:
        raise BadArgument("guesses are reduced by symmetry over an explicit consistent set; "
                          "start from Knowledge.initial(game)")
    kept = _history_representatives(game, knowledge.guesses)
    # (a copy: the kept array stays as computed, and the kernels get the writable arrays they are compiled for)
    codes = np.arange(game.n_codes, dtype=np.int64) if kept is None else kept.copy()
    absent = np.flatnonzero(~game.all_counts[knowledge.consistent].any(axis=0))
    if absent.shape[0] > 1:
        keep = kernels.block_canonical(game.all_digits, codes, _rank(game.colours, absent), absent)
        codes = codes[keep]
    return codes


def _rank(colours: int, block: np.ndarray) -> np.ndarray:
    rank = np.full(colours, -1, dtype=np.int64)
    rank[block] = np.arange(block.shape[0])
    return rank


@lru_cache(maxsize=256)
def _history_representatives(game: Game, guesses: tuple[int, ...]) -> np.ndarray | None:
    """Representatives under the symmetries fixing every guess; ``None`` when there are none. The
    array is kept for later calls, so it is read-only: a caller's edit would change their answers."""
    if not guesses:
        return _read_only(_root_representatives(game))
    guess_digits = [game.digits(g) for g in guesses]
    played = sorted({c for d in guess_digits for c in d})
    free = np.array([c for c in range(game.colours) if c not in played], dtype=np.int64)
    perms, cmaps = _stabiliser(game, guess_digits)
    if perms.shape[0] == 1 and free.shape[0] < 2:
        return None
    mask = kernels.canonical_mask(game.all_digits, perms, cmaps, _rank(game.colours, free), free)
    return _read_only(np.flatnonzero(mask).astype(np.int64))


def _read_only(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


def _root_representatives(game: Game) -> np.ndarray:
    """Before any guess every code with the same colour multiplicities is equivalent: one code
    per integer partition of the pegs (``1111, 1112, 1122, 1123, 1234`` for 4x6)."""
    if not game.repeats:
        return np.array([game.index_of(range(game.pegs))], dtype=np.int64)
    reps = []
    for parts in _partitions(game.pegs, game.pegs):
        if len(parts) <= game.colours:
            reps.append(game.index_of([c for c, k in enumerate(parts) for _ in range(k)]))
    return np.array(sorted(reps), dtype=np.int64)


def _partitions(n: int, largest: int):
    if n == 0:
        yield ()
        return
    for k in range(min(n, largest), 0, -1):
        for rest in _partitions(n - k, k):
            yield (k,) + rest


def _stabiliser(game: Game, guess_digits: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """Peg permutations (with their colour maps) that map every guess onto itself.

    ``perm[i]`` is the peg whose colour moves to peg ``i``; ``cmap`` maps played colours (-1 for
    the others). The identity comes first; at most ``MAX_PERMUTATIONS`` are returned.
    """
    pegs = game.pegs
    found_perms: list[list[int]] = []
    found_maps: list[list[int]] = []

    def extend(perm: list[int], used: list[bool], sigma: dict[int, int], inverse: dict[int, int]) -> None:
        if len(found_perms) >= MAX_PERMUTATIONS:
            return
        i = len(perm)
        if i == pegs:
            found_perms.append(list(perm))
            found_maps.append([sigma.get(c, -1) for c in range(game.colours)])
            return
        for j in range(pegs):
            if used[j]:
                continue
            added = []
            ok = True
            for d in guess_digits:
                src, dst = d[j], d[i]
                if src in sigma:
                    if sigma[src] != dst:
                        ok = False
                        break
                elif dst in inverse:
                    ok = False
                    break
                else:
                    sigma[src] = dst
                    inverse[dst] = src
                    added.append(src)
            if ok:
                used[j] = True
                perm.append(j)
                extend(perm, used, sigma, inverse)
                perm.pop()
                used[j] = False
            for src in added:
                del inverse[sigma.pop(src)]

    extend([], [False] * pegs, {}, {})
    return np.array(found_perms, dtype=np.int64), np.array(found_maps, dtype=np.int64)
