"""The exact optimal strategy: minimum total guesses L (Koyama and Lai 1993), optionally among
trees of depth at most D, or the minimum depth (worst case) and then the minimum L.

Depth-first branch and bound over the game tree. A set of ``n`` candidates needs at least the
external path length of the "full" tree (000 section 5): one secret found by the first guess,
at most R by the second, R² by the third, and so on, R being the most non-winning answers any
guess gets on the set (no subset of it gets more). A guess is scored by ``n`` plus that bound
for each of its classes; guesses are tried best bound first and cut as soon as the bound reaches
the best tree found. Before a guess's classes are searched, each class's own bound one guess
deeper is taken (the best score of any guess on it), so every class is searched within what
its siblings are known to need. Sets of at most ``SMALL_SET`` codes are solved by a numba kernel
(``mmlab.planners.kernels.solve_small``). Solved sets are memoised (exact values and proven
lower bounds), and guesses equivalent under the symmetries of the history are tried once.

>>> from mmlab.game import Game
>>> result = Optimal().plan(Game.parse_size("3x3"))
>>> result.tree.total_guesses, result.proved
(73, True)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from mmlab.errors import BadArgument
from mmlab.game import Game, kernels
from mmlab.knowledge import Knowledge
from mmlab.knowledge.symmetry import representatives
from mmlab.planners import kernels as solver_kernels
from mmlab.planners.base import Deadline, Planner, PlanResult, Timeout, least_depth
from mmlab.planners.tpoa import TPOA
from mmlab.strategies.base import Param
from mmlab.trees import DecisionTree, Node

#: The solver keeps the N x N feedback table in memory; larger games are refused.
TABLE_LIMIT = 256 * 2**20
INFINITY = solver_kernels.INFINITY  # sums of a few of these stay far inside int64
#: Largest ``max_depth`` taken (the kernels hold depths in machine integers; no game here needs so many).
MAX_DEPTH = 1000
GREEDY = {"k": 1, "d": 1, "hash": "e"}  # the TPOA tree that is the search's first upper bound
#: Sets of at most this many candidates are solved by one numba kernel (all guesses, no symmetry).
SMALL_SET = 8
#: Steps of the progress bar a first guess counts for: it moves as the first guess's answers are searched.
PROGRESS_STEPS = 1000


def full_tree_bounds(n_max: int, answers: int, depth: int | None = None) -> np.ndarray:
    """``bound[n]``: the fewest guesses, summed over ``n`` secrets, that any strategy can need
    when every guess has ``answers`` non-winning answers (``INFINITY`` if ``n`` secrets cannot be
    told apart within ``depth`` guesses).

    >>> full_tree_bounds(5, 13).tolist()
    [0, 1, 3, 5, 7, 9]
    """
    bound = np.zeros(n_max + 1, dtype=np.int64)
    n, level, width, total = 0, 1, 1, 0
    while n < n_max:
        if depth is not None and level > depth:
            bound[n + 1 :] = INFINITY
            break
        take = min(width, n_max - n)
        for i in range(take):
            total += level
            bound[n + i + 1] = total
        n += take
        level += 1
        width *= answers
    return bound


def _none_within(game: Game, depth: int, why: str = "") -> BadArgument:
    """The error of a depth within which no strategy finds every secret of ``game`` (``why``: how it is known)."""
    return BadArgument(f"no strategy for {game} finds every secret within {depth} guess{'es' * (depth != 1)}{why}")


class Optimal(Planner):
    """The exact optimum by branch and bound: the fewest total guesses (``objective=expected``), or
    the fewest in the worst case and then the fewest total (``worst``); ``max_depth`` caps the guesses.

    >>> from mmlab.game import Game
    >>> result = Optimal(objective="worst").plan(Game.parse_size("3x3"))
    >>> result.tree.worst, result.tree.total_guesses, result.figures["proved_depth"]
    (4, 73, 4)
    """

    name = "optimal"
    summary = "exact optimum by branch and bound: fewest total guesses, or fewest guesses in the worst case"
    source = "Koyama and Lai 1993; full-tree bound of 000 section 5"
    params = (
        Param("objective", "expected", "expected: minimise L; worst: minimise the depth, then L", ("expected", "worst")),
        Param("max_depth", 0, "only trees of at most this many guesses (0 = no limit)", kind=int, minimum=0,
              maximum=MAX_DEPTH),
    )

    def plan(
        self,
        game: Game | str,
        on_progress: Callable[[int, int], None] | None = None,
        time_limit: float | None = None,
    ) -> PlanResult:
        """Solve ``game`` exactly (``proved`` is True); past ``time_limit`` seconds, return the best
        tree found so far with a proven lower bound in ``figures``. Raises ``BadArgument`` if no
        tree fits ``max_depth``."""
        game = Game.of(game)
        self.check(game)
        start = time.perf_counter()
        deadline = Deadline(time_limit)
        search = _Search(game, on_progress, deadline)
        cap = depth = self.values["max_depth"] or None
        if cap is not None and search.bound(cap)[game.n_codes] >= INFINITY:  # too few answers in that many guesses
            raise _none_within(game, cap, f": {'one guess' if cap == 1 else 'that many guesses'} cannot tell "
                                          f"{game.n_codes} codes apart")
        # The greedy TPOA tree is the first upper bound, and the answer if time runs out at once.
        greedy = TPOA(**GREEDY).plan(game).tree
        root = Knowledge.initial(game)
        figures: dict = {}
        try:
            if self.values["objective"] == "worst":
                # The fewest guesses in the worst case: the first depth with a tree, from the
                # first one that can tell every code apart at all.
                depth = least_depth(game)
                while search.solve(root, INFINITY, depth)[0] >= INFINITY:
                    if cap is not None and depth >= cap:
                        raise _none_within(game, cap)
                    depth += 1
                figures["proved_depth"] = depth
            fits = depth is None or greedy.worst <= depth
            cost, _ = search.solve(root, greedy.total_guesses + 1 if fits else INFINITY, depth)
        except Timeout:
            return self._stopped(game, search, greedy, depth, figures, time.perf_counter() - start)
        if cost >= INFINITY:
            raise _none_within(game, depth)
        tree = DecisionTree(game, search.tree(root, depth), self.spec)
        figures["proved_total_guesses"] = int(cost)
        return PlanResult(tree, time.perf_counter() - start, search.nodes, self.spec, proved=True, figures=figures)

    def check(self, game: Game) -> None:
        """Refuse a game too large to enumerate, or whose N x N feedback table exceeds ``TABLE_LIMIT`` bytes."""
        game.require_enumerable(self.name)
        if game.n_codes**2 > TABLE_LIMIT:
            raise BadArgument(
                f"the optimal solver keeps a {game.n_codes}² feedback table, too large for {game} "
                f"(limit {TABLE_LIMIT // 2**20} MiB); use a TPOA planner instead"
            )

    def unstoppable_seconds(self, game: Game) -> float:
        """Its first upper bound, the greedy TPOA tree, is completed whatever the time limit."""
        return TPOA(**GREEDY).estimate_seconds(game)

    def _stopped(self, game: Game, search: "_Search", greedy: DecisionTree, depth, figures: dict, seconds: float):
        """The best tree known when the time limit hit, with the lower bounds proved so far."""
        figures["stopped_by_time_limit"] = True
        worst = self.values["objective"] == "worst"
        cap = self.values["max_depth"] or None
        trees = [greedy]
        if search.root_best is not None:
            root = Knowledge.initial(game)
            trees.append(DecisionTree(game, search.tree(root, search.root_best[2], search.root_best[1]), self.spec))
        within = [t for t in trees if cap is None or t.worst <= cap] or trees
        tree = min(within, key=lambda t: (t.worst, t.total_guesses) if worst else (t.total_guesses,))
        if tree is greedy:  # the planner's result all the same, as TPOA's fallback is TPOA's
            figures["tree_from"] = f"{TPOA(**GREEDY).spec} (the greedy tree, the search's first upper bound)"
            tree = DecisionTree(game, greedy.root, self.spec)
        if worst and "proved_depth" not in figures and tree.worst <= depth:
            figures["proved_depth"] = depth  # no tree is shallower, and this one is as shallow
        if worst and "proved_depth" not in figures:
            # Stopped looking for the fewest guesses: no depth below this one has a tree, and any
            # tree's total is at least the bound without a depth.
            figures["lower_bound_depth"] = int(depth)
            figures["lower_bound_total_guesses"] = search.root_lower_bound(None)
            if tree.worst > depth:
                figures["note"] = (f"every tree needs at least {depth} guesses in the worst case; the best "
                                   f"found in time needs {tree.worst}")
        else:
            figures["lower_bound_total_guesses"] = search.root_lower_bound(depth)
            if figures["lower_bound_total_guesses"] >= INFINITY:  # proved before time ran out: no such tree
                raise _none_within(game, depth)
        if cap is not None and tree.worst > cap:
            figures["note"] = f"no tree within {cap} guesses was found in time; this one needs {tree.worst}"
        # A saved tree says it is not proved: 'mmlab eval --tree' shows the label, not these figures.
        tree = DecisionTree(game, tree.root, f"{self.spec} (stopped by the time limit, not proved optimal)")
        return PlanResult(tree, seconds, search.nodes, self.spec, proved=False, figures=figures)

    def estimate_seconds(self, game: Game) -> float:
        """Fitted to this machine's runs of ``python benchmarks/bench_optimal.py`` and ``mmlab plan
        4x7 --planner optimal`` (4x5 0.13 s, 4x6 0.85 s, 4x7 22.5 s): about the 5.3rd power of the
        number of codes past 4x6. A rough guide: other shapes of game can take far longer or less
        (Bulls and Cows, 5040 codes, took 281-369 s)."""
        return 0.85 * (game.n_codes / 1296) ** 5.3


class _Search:
    def __init__(
        self, game: Game, on_progress: Callable[[int, int], None] | None = None, deadline: Deadline | None = None
    ) -> None:
        self.game = game
        self.on_progress = on_progress
        self.deadline = deadline or Deadline(None)
        self.root_floor: dict[int | None, int] = {}  # by depth: a lower bound on the root's total, once known
        self.root_best: tuple[int, int, int | None] | None = None  # (total, guess, depth) of the best root tree
        self.table = kernels.feedback_table(game.all_digits, game.all_counts, game.with_white)
        assert np.array_equal(self.table, self.table.T), "the kernels read feedback by secret: it must be symmetric"
        self.win = game.win.code(game.pegs)
        self.answers = len(game.feedbacks()) - 1
        self.bounds: dict[tuple[int | None, int], np.ndarray] = {}
        self.keys = np.random.default_rng(0).integers(0, 2**63, game.n_codes).astype(np.uint64)
        # memo[(set, depth)] = (lower bound, exact?, best guess)
        self.memo: dict[tuple[bytes, int | None], tuple[int, bool, int]] = {}
        self.nodes = 0
        self.every = np.arange(game.n_codes, dtype=np.int64)
        self._expanded: OrderedDict = OrderedDict()

    def bound(self, depth: int | None, answers: int | None = None) -> np.ndarray:
        key = (depth, self.answers if answers is None else answers)
        if key not in self.bounds:
            self.bounds[key] = full_tree_bounds(self.game.n_codes, max(key[1], 1), depth)
        return self.bounds[key]

    def solve(self, knowledge: Knowledge, limit: int, depth: int | None) -> tuple[int, int]:
        """``(cost, guess)``: the least total guesses for the consistent set if below ``limit``
        (then exact), else a lower bound that is at least ``limit``. ``depth`` caps the guesses."""
        cands = knowledge.consistent
        n = int(cands.shape[0])
        if depth is not None and depth <= 0:
            return INFINITY, -1
        if n == 1:
            return 1, int(cands[0])
        key = (cands.tobytes(), depth)
        known = self.memo.get(key)
        if known is not None and (known[1] or known[0] >= limit):
            return known[0], known[2]
        self.nodes += 1
        self.deadline.check()
        if n <= SMALL_SET:
            cost, guess = solver_kernels.solve_small(
                cands, self.table, self.game.n_responses, self.win, -1 if depth is None else depth, limit, self.keys
            )
            cost = int(cost)
            self.memo[key] = (cost, cost < limit, int(guess))
            return cost, int(guess)
        child_depth = None if depth is None else depth - 1
        guesses, lower, consistent, bound, answers = self._expand(knowledge, key)
        order = np.lexsort((~consistent, lower))
        best, best_guess = limit, -1
        floor = int(lower[order[0]])  # no guess can do better than this
        if not knowledge.history:
            self.root_floor[depth] = max(self.root_floor.get(depth, 0), floor)
        for tried, i in enumerate(order):
            if lower[i] >= best:
                break
            share = None  # of the first guesses tried, at the root: its bar moves as each is searched
            if self.on_progress is not None and not knowledge.history:
                def share(part: float, tried: int = tried) -> None:
                    self.on_progress(int((tried + part) * PROGRESS_STEPS), len(order) * PROGRESS_STEPS)

                share(0.0)
            cost = self._try(knowledge, int(guesses[i]), int(lower[i]), best, child_depth, bound, answers, share)
            if cost < best:
                best, best_guess = cost, int(guesses[i])
                if not knowledge.history:
                    self.root_best = (best, best_guess, depth)
                if best == floor:
                    break
        if best < limit:
            self.memo[key] = (best, True, best_guess)
            return best, best_guess
        proven = max(best, floor, known[0] if known else 0)
        self.memo[key] = (proven, False, -1)
        return proven, -1

    def _expand(self, knowledge: Knowledge, key: tuple[bytes, int | None]):
        """``(guesses, lower, consistent, bound, answers)`` of a set: one guess per class of equivalent
        guesses, the full-tree bound of each (``n`` plus ``bound`` of each non-winning class),
        whether it is a candidate, the children's bound by size, and the most non-winning answers. Recent sets are cached, as
        ``_try`` expands the children once for their bounds and again to solve them."""
        cached = self._expanded.get(key)
        if cached is not None:
            return cached
        cands = knowledge.consistent
        n = int(cands.shape[0])
        depth = key[1]
        child_depth = None if depth is None else depth - 1
        guesses = representatives(knowledge)
        hist = solver_kernels.histograms(cands, self.table, self.game.n_responses, guesses)
        # No guess splits this set, or any subset of it, into more non-winning classes.
        answers = int(solver_kernels.max_parts(hist, self.win))
        bound = self.bound(child_depth, answers)
        lower = solver_kernels.guess_bounds(hist, n, self.win, bound)
        consistent = hist[:, self.win] > 0
        out = (guesses, lower, consistent, bound, answers)
        self._expanded[key] = out
        if len(self._expanded) > 256:
            self._expanded.popitem(last=False)
        return out

    def lower_bound(self, knowledge: Knowledge, depth: int | None, answers: int | None = None) -> int:
        """A proven lower bound on the set's least total guesses, without searching: the memo's,
        or the best full-tree bound over the guesses (small sets are solved outright).
        ``answers``: at most this many non-winning answers split the set (its parent's number)."""
        cands = knowledge.consistent
        n = int(cands.shape[0])
        if depth is not None and depth <= 0:
            return INFINITY
        if n == 1:
            return 1
        key = (cands.tobytes(), depth)
        known = self.memo.get(key)
        if known is not None:
            return known[0]
        if n <= SMALL_SET:
            return self.solve(knowledge, INFINITY, depth)[0]
        d = -1 if depth is None else depth
        args = (cands, self.table, self.game.n_responses, self.win, d)
        floor = int(solver_kernels.candidate_floor(*args, self.answers if answers is None else answers))
        if floor < 0:
            # every guess: cheaper here than finding one per class of equivalent guesses
            floor = int(solver_kernels.set_floor(*args, self.every))
        self.memo[key] = (floor, False, -1)
        return floor

    def root_lower_bound(self, depth: int | None) -> int:
        """A proven lower bound on the whole game's total from what the search has memoised so
        far: for each first guess, the best known bound of each of its classes, summed."""
        root = Knowledge.initial(self.game)
        n = self.game.n_codes
        key = (root.consistent.tobytes(), depth)
        known = self.memo.get(key)
        if known is not None and known[1]:
            return int(known[0])
        child_depth = None if depth is None else depth - 1
        guesses, lower, _, bound, _ = self._expand(root, key)
        best = INFINITY
        for i in np.flatnonzero(lower < INFINITY):
            total = n
            for _, child in self.split(root, int(guesses[i])):
                size = child.n_consistent
                known_child = self.memo.get((child.consistent.tobytes(), child_depth))
                total += max(int(bound[size]), int(known_child[0]) if known_child else 0)
            best = min(best, total)
        return int(max(best, self.root_floor.get(depth, 0), known[0] if known else 0))

    def _try(
        self, knowledge: Knowledge, guess: int, lower: int, limit: int, depth: int | None, bound, answers: int,
        share: Callable[[float], None] | None = None,
    ) -> int:
        """Total guesses of the best subtree under ``guess`` if below ``limit``, else ``limit``.

        Every child's lower bound is taken first (a look one guess deeper than ``lower``), so
        that each child is then searched within what the others are known to need at least.
        ``share`` is told the share of the children's codes searched, as each child is."""
        children = [child for _, child in self.split(knowledge, guess) if child.n_consistent > 1]
        children.sort(key=lambda child: -child.n_consistent)  # largest first: it decides most
        floors = []
        total = lower
        for child in children:
            optimistic = int(bound[child.n_consistent])
            floors.append(max(optimistic, self.lower_bound(child, depth, answers)))
            total = min(total + floors[-1] - optimistic, INFINITY)
            if total >= limit:
                return limit
        codes, searched = sum(child.n_consistent for child in children), 0
        for child, floor in zip(children, floors):
            cost, _ = self.solve(child, limit - (total - floor), depth)
            total = min(total + cost - floor, INFINITY)
            if total >= limit:
                return limit
            searched += child.n_consistent
            if share is not None:
                share(searched / codes)
        return total

    def split(self, knowledge: Knowledge, guess: int) -> list[tuple[int, Knowledge]]:
        return knowledge.split(guess, self.table[guess][knowledge.consistent])

    def tree(self, knowledge: Knowledge, depth: int | None, guess: int | None = None) -> Node:
        """The optimal tree, rebuilt from the memoised best guesses (``guess`` at the top if given)."""
        cands = knowledge.consistent
        n = int(cands.shape[0])
        if n == 1:
            return Node(int(cands[0]), 1, certain=True)
        if guess is None and n <= SMALL_SET:
            cost, guess = solver_kernels.solve_small(
                cands, self.table, self.game.n_responses, self.win, -1 if depth is None else depth, INFINITY, self.keys
            )
            assert cost < INFINITY, "the tree is rebuilt only from solved sets"
            guess = int(guess)
        if guess is None:
            cost, exact, guess = self.memo[(cands.tobytes(), depth)]
            assert exact and cost < INFINITY, "the tree is rebuilt only from solved sets"
        node = Node(guess, n)
        child_depth = None if depth is None else depth - 1
        for code, child in self.split(knowledge, guess):
            node.children[code] = self.tree(child, child_depth)
        return node
