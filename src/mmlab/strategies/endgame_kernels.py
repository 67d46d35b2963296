"""Numba kernel of the exact endgame (``mmlab.strategies.endgame.solve_endgame``): a depth-first
branch and bound over the rows of a feedback table, memoised on the set of codes left.

A set of codes is a sorted ``int64`` array of column indices; its memo key is its bitmask in four
64-bit words, so a table has at most ``MAX_CODES`` columns. A part of ``m`` codes needs at least
``2m - 1`` guesses in total, which orders the guesses; they are pruned by a bound at least as high
(``_least_totals``: where answers are few a guess tells few codes apart, as with one peg, where
the codes are guessed in turn), so the tree found (of those with the fewest guesses, the first in
that order) is the one the ``2m - 1`` bound alone finds, from fewer sets. The result is the fewest
guesses in total and the row to guess first, or ``(-1, -1)`` when the node budget runs out;
``best_tree_guesses`` also walks the tree found and gives each code its guesses and the guesses
that find it (MathMind's exact optimum). The plain recursion it is checked against is ``plain_optimum`` in
``tests/strategies/test_endgame.py``.

>>> import numpy as np
>>> table = np.array([[4, 2, 2], [2, 4, 1], [2, 1, 4]], dtype=np.uint8)  # 3 codes; win is 4
>>> best_tree(table, 4, 100)  # code 1 tells the other two apart: 3 + 1 + 1 guesses
(5, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numba
import numpy as np
from numba import types
from numba.typed import Dict

#: Columns a table may have: the memo key is a bitmask of four 64-bit words.
MAX_CODES = 256
_KEY = types.UniTuple(types.uint64, 4)
_VALUE = types.UniTuple(types.int64, 2)
_NO_GUESS = np.iinfo(np.int64).max
#: Sets ``best_tree_guesses`` lets one call of the kernel add before it returns to Python, where a
#: Ctrl-C is taken (a kernel cannot take one); the next call goes on from the sets solved, so the
#: tree found is the same whatever the step.
STEP_NODES = 20_000


def best_tree(table: np.ndarray, win: int, max_nodes: int) -> tuple[int, int]:
    """(fewest guesses in total, first guess row) over all of ``table``'s columns, or ``(-1, -1)``
    when more than ``max_nodes`` sets would be searched."""
    if table.shape[1] > MAX_CODES:
        raise ValueError(f"the exact endgame handles at most {MAX_CODES} codes, not {table.shape[1]}")
    memo = Dict.empty(key_type=_KEY, value_type=_VALUE)
    total, guess = _best(np.ascontiguousarray(table), np.arange(table.shape[1], dtype=np.int64), win, memo, max_nodes)
    return int(total), int(guess)


class WholeTree(NamedTuple):
    """``best_tree``'s tree in full: ``paths[c]`` are the rows guessed, in order, until column ``c``'s
    code is found (then ``-1``), and ``guesses[c]`` how many they are."""

    total: int
    first: int
    guesses: np.ndarray
    paths: np.ndarray
    nodes: int  # the tree's nodes with two codes or more


def best_tree_guesses(table: np.ndarray, win: int, max_nodes: int,
                      progress: Callable[[int], None] | None = None) -> WholeTree | None:
    """``best_tree``'s tree in full (a ``WholeTree``), or ``None`` when more than ``max_nodes`` sets
    would be searched. ``progress(k)`` is told the sets searched so far every ``STEP_NODES`` of them.

    >>> table = np.array([[4, 2, 2], [2, 4, 1], [2, 1, 4]], dtype=np.uint8)
    >>> tree = best_tree_guesses(table, 4, 100)
    >>> tree.total, tree.first, tree.guesses.tolist(), tree.paths.tolist(), tree.nodes
    (5, 1, [2, 1, 2], [[1, 0], [1, -1], [1, 2]], 1)
    """
    if table.shape[1] > MAX_CODES:
        raise ValueError(f"the exact endgame handles at most {MAX_CODES} codes, not {table.shape[1]}")
    memo = Dict.empty(key_type=_KEY, value_type=_VALUE)
    table = np.ascontiguousarray(table)
    everyone = np.arange(table.shape[1], dtype=np.int64)
    total, guess = _stepped(table, everyone, win, memo, max_nodes, progress)
    if total < 0:
        return None
    paths = np.full((table.shape[1], table.shape[1]), -1, dtype=np.int64)
    nodes = _walk(table, everyone, win, memo, 0, paths)
    guesses = (paths >= 0).sum(axis=1)
    return WholeTree(int(total), int(guess), guesses, paths[:, :guesses.max()].copy(), int(nodes))


def best_guess(table: np.ndarray, subset: np.ndarray, win: int, max_nodes: int) -> tuple[int, int] | None:
    """(fewest guesses in total, first guess row) for the codes of ``subset`` (ascending column
    indices of a square ``table``, row ``c`` the code of column ``c``): the guess the tree of
    ``best_tree_guesses`` plays at a node of these codes. ``None`` past ``max_nodes`` sets.

    >>> table = np.array([[4, 2, 2], [2, 4, 1], [2, 1, 4]], dtype=np.uint8)
    >>> best_guess(table, np.array([1, 2]), 4, 100), best_guess(table, np.array([0, 1, 2]), 4, 100)
    ((3, 1), (5, 1))
    """
    memo = Dict.empty(key_type=_KEY, value_type=_VALUE)
    total, guess = _stepped(np.ascontiguousarray(table), np.asarray(subset, dtype=np.int64), win, memo, max_nodes,
                            None)
    return None if total < 0 else (int(total), int(guess))


def _stepped(table: np.ndarray, subset: np.ndarray, win: int, memo, max_nodes: int,
             progress: Callable[[int], None] | None) -> tuple[int, int]:
    """``_best`` in calls that each give up once they have solved ``STEP_NODES`` more sets (the next
    goes on from them), telling ``progress`` the sets solved after each."""
    while True:
        total, guess = _best(table, subset, win, memo, min(max_nodes, len(memo) + STEP_NODES))
        if progress:
            progress(len(memo))
        if total >= 0 or len(memo) >= max_nodes:
            return total, guess


@numba.njit(cache=True)
def _walk(table: np.ndarray, subset: np.ndarray, win: int, memo, depth: int, paths: np.ndarray) -> int:
    """Write into ``paths`` the guesses that find each code of ``subset`` in the tree ``_best`` left
    in ``memo``, ``depth`` guesses having been made; return the nodes of two codes or more."""
    n = subset.shape[0]
    if n <= 2:  # as _best: the first code, then the second
        for c in subset:
            paths[c, depth] = subset[0]
        if n == 2:
            paths[subset[1], depth + 1] = subset[1]
        return n - 1
    g = memo[_key(subset)][1]
    counts = np.zeros(256, dtype=np.int64)
    for c in subset:
        counts[table[g, c]] += 1
        paths[c, depth] = g
    nodes = 1
    for answer in range(256):
        m = counts[answer]
        if m == 0 or answer == win:
            continue
        nodes += _walk(table, _part(table, g, subset, answer, m), win, memo, depth + 1, paths)
    return nodes


@numba.njit(cache=True)
def _part(table: np.ndarray, g: int, subset: np.ndarray, answer: int, m: int) -> np.ndarray:
    """The ``m`` codes of ``subset`` that give ``answer`` to row ``g``, in ``subset``'s order."""
    part = np.empty(m, dtype=np.int64)
    k = 0
    for c in subset:
        if table[g, c] == answer:
            part[k] = c
            k += 1
    return part


@numba.njit(cache=True)
def _key(subset: np.ndarray) -> tuple[int, int, int, int]:
    words = np.zeros(4, dtype=np.uint64)
    for c in subset:
        words[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
    return (words[0], words[1], words[2], words[3])


@numba.njit(cache=True)
def _least_totals(n: int, branches: int, inside: int, outside: int) -> np.ndarray:
    """``least[m]``: a lower bound on the guesses in total over any ``m <= n`` codes of a set on
    which no row leaves more than ``branches`` parts other than the win's, none of the set's codes
    more than ``inside`` codes outside both its largest part and the win, and no other row more than
    ``outside`` codes outside its largest part. These hold on every subset too (there a code of the
    set not in the subset leaves ``inside`` codes at most outside its largest part).

    The higher of two bounds: each guess finds one code at most, so at best one code is found with
    one guess, ``branches`` with two, ``branches ** 2`` with three, ...; and a guess leaves a part
    of ``m - 1 - inside`` codes at least (``m - outside`` if it is not one of them), every other
    code but the win costing a guess more. (That needs ``least`` to grow by one at least from ``m``
    to ``m + 1``, as both do, so that a larger part costs no less.) Both are ``2m - 1`` at least;
    with one peg ``inside`` is 0 and the bound is ``m (m + 1) / 2``: every code in turn."""
    outside = max(outside, inside)
    least = np.zeros(n + 1, dtype=np.int64)
    depth, room, left = 1, 1, 1  # guesses, codes findable with that many, and those not yet used
    for m in range(1, n + 1):
        if left == 0:
            depth += 1
            room = min(room * max(branches, 1), n)
            left = room
        least[m] = least[m - 1] + depth
        a, b = min(inside, m - 1), min(outside, m - 1)
        split = least[m - 1 - a] + a
        if b > 0:  # (another code that leaves every code in one part learns nothing: never guessed)
            split = min(split, least[m - b] + b)
        least[m] = max(least[m], m + split)
        left -= 1
    return least


@numba.njit(cache=True)
def _best(table: np.ndarray, subset: np.ndarray, win: int, memo, max_nodes: int) -> tuple[int, int]:
    n = subset.shape[0]
    if n <= 2:  # guess the first code; the second, if any, comes next
        return np.int64(2 * n - 1), np.int64(subset[0])
    key = _key(subset)
    if key in memo:
        return memo[key]
    if len(memo) >= max_nodes:
        return np.int64(-1), np.int64(-1)
    rows = table.shape[0]
    inside = np.zeros(rows, dtype=np.bool_)
    for c in subset:
        inside[c] = True  # row c is the code of column c
    bounds = np.empty(rows, dtype=np.int64)
    seen = np.zeros(256, dtype=np.int64)
    counts = np.zeros(256, dtype=np.int64)
    branches, apart, apart_out = 0, 0, 0  # the most parts but the win's, codes outside the largest part (and win)
    answers = 0  # the answers below: 256 at most
    for g in range(rows):
        parts, largest = 0, 0
        for c in subset:
            answer = table[g, c]
            answers = max(answers, answer + 1)
            if seen[answer] != g + 1:
                seen[answer] = g + 1
                counts[answer] = 0
                parts += 1
            counts[answer] += 1
            largest = max(largest, counts[answer])
        # n for this guess, plus at least 2m - 1 for each part of m codes other than the win
        bounds[g] = 3 * n - parts - (1 if inside[g] else 0)
        if parts == 1 and not inside[g]:
            bounds[g] = _NO_GUESS  # learns nothing
        branches = max(branches, parts - (1 if seen[win] == g + 1 else 0))
        if inside[g]:
            apart = max(apart, n - 1 - largest)
        else:
            apart_out = max(apart_out, n - largest)
    least = _least_totals(n, branches, apart, apart_out)
    found, guess = np.int64(_NO_GUESS), np.int64(-1)
    for g in np.argsort(bounds, kind="mergesort"):  # the 2m - 1 bound orders the guesses
        if bounds[g] >= found:
            break
        counts[:answers] = 0
        for c in subset:
            counts[table[g, c]] += 1
        total, rest = np.int64(n), np.int64(0)
        for answer in range(answers):
            if counts[answer] > 0 and answer != win:
                rest += least[counts[answer]]  # least, at least 2m - 1, prunes
        if total + rest >= found:
            continue
        complete = True
        for answer in range(answers):  # in increasing order of answer, as np.unique
            m = counts[answer]
            if m == 0 or answer == win:
                continue
            sub_total, _ = _best(table, _part(table, g, subset, answer, m), win, memo, max_nodes)
            if sub_total < 0:
                return np.int64(-1), np.int64(-1)
            total += sub_total
            rest -= least[m]
            if total + rest >= found:
                complete = False
                break
        if complete:
            found, guess = total, np.int64(g)
    memo[key] = (found, guess)
    return found, guess
