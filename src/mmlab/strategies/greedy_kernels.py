"""Singley's deterministic methods played against every secret at once, in numba.

The thesis tables (003 appendix) go up to 7x8, two million secrets; the scripts of
``greedy.py`` and ``local_search.py`` are the readable reference, and these kernels repeat them
move for move (the tests check both agree on every secret of small games). Each kernel of
``ALL_SECRETS`` returns, per secret index, the guesses until the code was known (a deduced last
guess not counted, the thesis's count) and the guesses until the win; ``secrets_games`` also
gives the codes played, for the study runner's moves.

>>> known, played = greedy2_all(4, 6)
>>> int(known.sum()), int(known.max()), int(played.sum())    # 003 appendix: mean 10.80015432 = 13997/1296
(13997, 17, 14256)
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

from mmlab.strategies.base import Strategy
from mmlab.strategies.registry import REGISTRY


@numba.njit(cache=True)
def _decode(index, n, m, out):
    rest = index
    for p in range(n - 1, -1, -1):
        out[p] = rest % m
        rest //= m


@numba.njit(cache=True)
def _index(code, m):
    """The index of ``code`` among the game's codes (``_decode``'s inverse)."""
    index = 0
    for p in range(code.shape[0]):
        index = index * m + code[p]
    return index


@numba.njit(cache=True)
def _log(log, at, code, m):
    """Write the index of ``code``, the move ``at`` (from 0), to ``log``, unless ``log`` is ``None``
    (numba compiles that case without the write)."""
    if log is not None:
        log[at] = _index(code, m)


@numba.njit(cache=True)
def _bulls(code, secret):
    b = 0
    for p in range(code.shape[0]):
        if code[p] == secret[p]:
            b += 1
    return b


@numba.njit(cache=True)
def _rotate(code, i, secret, first, stop, base, m, log, played):
    """Try colours ``first..stop-1`` at stone ``i`` until the bulls move from ``base``, writing each
    test to ``log`` after the ``played`` moves before. Returns the colour the stone must have (-1 if
    no test told), the tests played, and whether one won."""
    tests = 0
    for colour in range(first, stop):
        code[i] = colour
        _log(log, played + tests, code, m)
        tests += 1
        b = _bulls(code, secret)
        if b == code.shape[0]:
            return colour, tests, True
        if b != base:  # a new bull: this colour; a lost bull: colour 1 was right
            return (colour if b > base else 0), tests, False
    return -1, tests, False


@numba.njit(cache=True)
def _greedy1(secret, n, m, log):
    code = np.zeros(n, dtype=np.int64)
    played = 0
    for i in range(n):
        code[i] = 0
        _log(log, played, code, m)
        played += 1
        base = _bulls(code, secret)
        if base == n:
            return played
        found, tests, won = _rotate(code, i, secret, 1, m, base, m, log, played)
        played += tests
        if won:
            return played
        code[i] = found
    return -1  # never reached: the last stone's test always wins


@numba.njit(cache=True)
def _greedy2(secret, n, m, log):
    """Returns the guesses until the win; negative when the last guess was deduced (certain)."""
    code = np.zeros(n, dtype=np.int64)
    _log(log, 0, code, m)
    played = 1
    base = _bulls(code, secret)
    if base == n:
        return played
    for i in range(n):
        if base == n:  # every remaining stone must be colour 1
            return -(played + 1)
        found, tests, won = _rotate(code, i, secret, 1, m - 1, base, m, log, played)
        played += tests
        if won:
            return played
        code[i] = m - 1 if found < 0 else found
        if code[i] != 0:
            base += 1
    return -(played + 1)


@numba.njit(cache=True)
def _feedback(code, secret, m):
    b = 0
    for p in range(code.shape[0]):
        if code[p] == secret[p]:
            b += 1
    total = 0
    for c in range(m):
        x = 0
        y = 0
        for p in range(code.shape[0]):
            if code[p] == c:
                x += 1
            if secret[p] == c:
                y += 1
        total += min(x, y)
    return b, total - b


@numba.njit(cache=True)
def _count_colours(secret, n, m, counts, log):
    """Singley's preprocessing, every colour but the last tested (``greedy.count_colours``).
    Fills ``counts``; returns the tests played, negative if one of them won."""
    code = np.zeros(n, dtype=np.int64)
    found = 0
    for colour in range(m - 1):
        for p in range(n - found):
            code[p] = colour
        p = n - found
        for c in range(colour - 1, -1, -1):  # the colours found so far, descending, on the right
            for _ in range(counts[c]):
                code[p] = c
                p += 1
        _log(log, colour, code, m)
        b, w = _feedback(code, secret, m)
        if b == n:
            return -(colour + 1)
        counts[colour] = b + w - found
        found += counts[colour]
    counts[m - 1] = n - found
    return m - 1


@numba.njit(cache=True)
def _most_frequent(counts, exclude):
    best = exclude
    for c in range(counts.shape[0]):
        if counts[c] > 0 and c != exclude and (best == exclude or counts[c] >= counts[best]):
            best = c
    return best


@numba.njit(cache=True)
def _greedy3(secret, n, m, use_lost, log):
    counts = np.zeros(m, dtype=np.int64)
    played = _count_colours(secret, n, m, counts, log)
    if played < 0:
        return -played
    code = np.zeros(n, dtype=np.int64)
    for i in range(n - 1):
        main = _most_frequent(counts, -1)
        found = main
        for colour in range(m):
            if counts[colour] == 0 or (use_lost and colour == main):
                continue
            filler = main if colour != main else _most_frequent(counts, colour)
            code[i] = colour
            for p in range(i + 1, n):
                code[p] = filler
            _log(log, played, code, m)
            played += 1
            b = _bulls(code, secret)
            if b == n:
                return played
            expected = i + (counts[filler] if filler != colour else 0)
            if b > expected:
                found = colour
                break
            if use_lost and b < expected:
                break
        code[i] = found
        counts[found] -= 1
    return -(played + 1)  # the last stone is deduced: the code is known


@numba.njit(cache=True)
def _local_search(secret, n, m, log):
    counts = np.zeros(m, dtype=np.int64)
    played = _count_colours(secret, n, m, counts, log)
    if played < 0:
        return -played
    code = np.empty(n, dtype=np.int64)
    p = 0
    for c in range(m - 1, -1, -1):
        for _ in range(counts[c]):
            code[p] = c
            p += 1
    _log(log, played, code, m)
    played += 1
    b, w = _feedback(code, secret, m)
    if b == n:
        return played
    value = 2 * b + w
    for i in range(n - 1):
        for j in range(i + 1, n):
            if code[i] == code[j]:
                continue
            code[i], code[j] = code[j], code[i]
            _log(log, played, code, m)
            played += 1
            b, w = _feedback(code, secret, m)
            if b == n:
                return played
            if 2 * b + w > value:
                value = 2 * b + w
            else:
                code[i], code[j] = code[j], code[i]
    return -1  # never reached: one pass of 2-swaps always sorts the stones into place


@numba.njit(cache=True)
def _play(method, s, n, m, log):
    """Play ``method`` (1-5, ``_METHODS``) against secret index ``s``, writing the index of each code
    played to ``log`` (``None``: none); returns the guesses until the win, negative when the
    last one was deduced."""
    secret = np.empty(n, dtype=np.int64)
    _decode(s, n, m, secret)
    if method == 1:
        r = _greedy1(secret, n, m, log)
    elif method == 2:
        r = _greedy2(secret, n, m, log)
    elif method == 3:
        r = _greedy3(secret, n, m, False, log)
    elif method == 4:
        r = _local_search(secret, n, m, log)
    else:
        r = _greedy3(secret, n, m, True, log)
    if r < 0 and log is not None:
        log[-r - 1] = s  # the deduced last guess is the secret
    return r


@numba.njit(cache=True, parallel=True)
def _all_secrets(method, n, m):
    total = m**n
    known = np.empty(total, dtype=np.int64)
    played = np.empty(total, dtype=np.int64)
    for s in numba.prange(total):
        r = _play(method, s, n, m, None)
        played[s] = abs(r)
        known[s] = abs(r) - 1 if r < 0 else r
    return known, played


@numba.njit(cache=True, parallel=True)
def _secrets_games(method, n, m, secrets):
    """``_play`` against each of ``secrets``: the results and the codes played, a row a secret, as
    wide as the longest game (played twice: first to find that width)."""
    r = np.empty(secrets.shape[0], dtype=np.int64)
    for k in numba.prange(secrets.shape[0]):
        r[k] = _play(method, secrets[k], n, m, None)
    width = 1
    for k in range(r.shape[0]):
        width = max(width, abs(r[k]))
    logs = np.full((secrets.shape[0], width), -1, dtype=np.int64)
    for k in numba.prange(secrets.shape[0]):
        _play(method, secrets[k], n, m, logs[k])
    return r, logs


@numba.njit(cache=True)
def feedback_codes(codes, secrets, n, m, with_white):
    """Feedback codes (``black * (n + 1) + white``, ``uint8``; blacks only without ``with_white``)
    of the code indices ``codes[k]`` against the secret indices ``secrets[k]``, from the indices
    alone: no table of every code (8x8's are 0.3 GB).

    >>> feedback_codes(np.array([0, 5]), np.array([5, 5]), 2, 3, True).tolist()   # 11 and 23 against 23
    [0, 6]
    """
    out = np.empty(codes.shape[0], dtype=np.uint8)
    code = np.empty(n, dtype=np.int64)
    secret = np.empty(n, dtype=np.int64)
    for k in range(codes.shape[0]):
        _decode(codes[k], n, m, code)
        _decode(secrets[k], n, m, secret)
        b, w = _feedback(code, secret, m)
        out[k] = b * (n + 1) + (w if with_white else 0)
    return out


#: Each method's number in the kernels, by strategy name and greedy3's ``lost_bull``.
_METHODS = {("greedy1", None): 1, ("greedy2", None): 2, ("greedy3", "ignore"): 3, ("local-search", None): 4,
            ("greedy3", "use"): 5}


def greedy1_all(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Greedy 1 against every secret of ``n`` pegs and ``m`` colours: (known, played) per secret."""
    return _all_secrets(_METHODS["greedy1", None], n, m)


def greedy2_all(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Greedy 2 against every secret: (known, played) per secret."""
    return _all_secrets(_METHODS["greedy2", None], n, m)


def greedy3_all(n: int, m: int, lost_bull: str = "ignore") -> tuple[np.ndarray, np.ndarray]:
    """Greedy 3 against every secret: (known, played) per secret."""
    return _all_secrets(_METHODS["greedy3", lost_bull], n, m)


def local_search_all(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Local search against every secret: (known, played) per secret."""
    return _all_secrets(_METHODS["local-search", None], n, m)


def secrets_games(name: str, n: int, m: int, secrets: np.ndarray, lost_bull: str = "ignore"
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The games of method ``name`` (a key of ``ALL_SECRETS``; ``lost_bull`` for greedy3) against
    the secret indices ``secrets``: per secret, the guesses until the code was known and until the
    win, and the codes played, one row a secret (indices, then -1 past the game's end).

    >>> known, played, codes = secrets_games("greedy1", 2, 3, np.array([5]))   # 2x3, secret 23
    >>> int(known[0]), codes[0].tolist()           # 11 21 21 22 23: the second stone starts again at 1
    (5, [0, 3, 3, 4, 5])
    """
    r, logs = _secrets_games(_METHODS[name, lost_bull if name == "greedy3" else None], n, m,
                             np.asarray(secrets, dtype=np.int64))
    played = np.abs(r)
    return np.where(r < 0, played - 1, played), played, logs


#: The kernel of each method, by strategy name: ``ALL_SECRETS[name](n, m, **parameters)``.
ALL_SECRETS: dict[str, Callable[..., tuple[np.ndarray, np.ndarray]]] = {
    "greedy1": greedy1_all,
    "greedy2": greedy2_all,
    "greedy3": greedy3_all,
    "local-search": local_search_all,
}


def kernel_parameters(strategy: Strategy) -> dict | None:
    """The parameters these kernels play ``strategy`` with (``ALL_SECRETS[strategy.name](n, m,
    **parameters)``, ``secrets_games(strategy.name, n, m, secrets, **parameters)``), or ``None`` when
    they do not play it: only Singley's deterministic methods as the registry's classes define them
    (a subclass may play otherwise).

    >>> from mmlab.strategies import make_strategy
    >>> kernel_parameters(make_strategy("greedy3:lost_bull=use")), kernel_parameters(make_strategy("knuth"))
    ({'lost_bull': 'use'}, None)
    """
    if strategy.name not in ALL_SECRETS or type(strategy) is not REGISTRY.get(strategy.name):
        return None
    return dict(strategy.values)
