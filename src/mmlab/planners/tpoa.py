"""TPOA, the two-phase optimisation algorithm of Chen, Lin and Huang (000).

At each node of the game tree the candidate guesses are clustered into hash collision groups
(HCGs) and one representative of each of the best ``b`` groups is expanded. A group is ranked
first by its heuristic — ``Hash_w``: the largest part (Knuth's worst case), ``Hash_e``: the
number of non-empty parts (Kooi's most parts) — then consistent codes first, then by the
partition vector sorted non-increasingly; guesses with the same three keys form one group,
represented by its lowest-index member. (This reading of 000 section 4 reproduces its
TPOA+(1,1) Hash_e figure, L = 5674, exactly; docs/reproductions.md gives the others.)
In the exploration phase (the first ``d`` guess levels) ``b = k`` for TPOA+ and, for TPOA*,
``b = floor(k * (d - l + 1) / d)`` at level ``l = 1..d``; below, ``b = 1`` (greedy completion).
Each node keeps the subtree that is best for the objective: the external path length, then
the height (expected case, the default, as in every series of 000's Tables 2 and 3) or the
height, then the path length (worst case); of equally good ones, the first tried.

Guesses equivalent under the symmetries of the history are scored once, which cannot change a
group's lowest-index member (see ``mmlab.knowledge.symmetry``).

>>> from mmlab.game import Game
>>> result = TPOA(variant="star", k=40, d=2, hash="w").plan(Game.parse_size("3x5"))
>>> result.tree.total_guesses, result.tree.worst
(451, 5)
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from mmlab.game import Game
from mmlab.knowledge import Knowledge, is_member
from mmlab.knowledge.symmetry import representatives
from mmlab.planners.base import Deadline, Planner, PlanResult, Timeout, least_depth
from mmlab.strategies.base import Param
from mmlab.strategies.scoring import partition_histograms
from mmlab.trees import DecisionTree, Node

# A subtree's cost: (guesses summed over its secrets, its height).
Cost = tuple[int, int]


class TPOA(Planner):
    """TPOA+ or TPOA*: explore the best ``k`` hash collision groups for ``d`` guess levels, then greedy.

    >>> from mmlab.game import Game
    >>> result = TPOA(k=2).plan(Game.parse_size("3x4"))
    >>> result.tree.total_guesses, result.tree.worst, result.proved
    (206, 4, False)
    >>> [TPOA(variant="star", k=4, d=2).branching(level) for level in (1, 2, 3)]
    [4, 2, 1]
    """

    name = "tpoa"
    summary = "two-phase optimisation: explore the best k hash collision groups for d levels, then greedy"
    source = "Chen, Lin and Huang 2007, The Computer Journal (000)"
    params = (
        Param("variant", "plus", "plus: b = k at every exploration level; star: b shrinks level by level", ("plus", "star")),
        Param("k", 1, "branching factor: hash collision groups explored per node", kind=int, minimum=1),
        Param("d", 1, "exploration depth in guesses", kind=int, minimum=1),
        Param("hash", "e", "w: sorted partition vector (worst case); e: number of parts (expected case)", ("w", "e")),
        Param("objective", "expected", "what each node minimises: expected = external path length L; "
              "worst = height, then L", ("expected", "worst")),
    )

    @property
    def objective(self) -> str:
        return self.values["objective"]

    def branching(self, level: int) -> int:
        """How many groups are expanded at guess level ``level`` (the first guess is level 1)."""
        k, d = self.values["k"], self.values["d"]
        if level > d:
            return 1
        if self.values["variant"] == "plus":
            return k
        return max(1, (k * (d - level + 1)) // d)

    def plan(
        self,
        game: Game | str,
        on_progress: Callable[[int, int], None] | None = None,
        time_limit: float | None = None,
    ) -> PlanResult:
        """Build the tree; past ``time_limit`` seconds, the best first guess finished so far is kept
        (the greedy tree if none is, which ``figures["tree_from"]`` says), with
        ``figures["stopped_by_time_limit"]``. ``on_progress(done, total)`` counts the secrets placed
        in the trees of the first guesses: ``total`` is the number of codes times the first guesses
        tried, and a first guess's tree places its secrets one answer's part at a time."""
        game = Game.of(game)
        self.check(game)
        start = time.perf_counter()
        search = _Search(self, game, on_progress, Deadline(time_limit))
        figures = {}
        try:
            _, root = search.solve(Knowledge.initial(game), 1)
        except Timeout:
            figures["stopped_by_time_limit"] = True
            if search.root_best is not None:
                root = search.root_best[1]
            else:  # not one first guess finished: complete the greedy tree, whatever the time
                greedy = _Search(self.greedy(), game, None, Deadline(None))
                greedy.greedy_memo = search.greedy_memo  # the greedy subtrees completed so far
                root = greedy.solve(Knowledge.initial(game), 1)[1]
                # as the optimal planner says of its fallback: the figures are not this search's
                figures["tree_from"] = f"{self.greedy().spec} (the greedy tree: no first guess was explored in time)"
        label = self.spec + (" (stopped by the time limit)" if figures else "")  # saved with the tree
        tree = DecisionTree(game, root, label)
        return PlanResult(tree, time.perf_counter() - start, search.nodes, self.spec, figures=figures)

    def estimate_seconds(self, game: Game) -> float:
        """Greedy completion costs about 0.3 s at 4x6 and grows with the square of the code count;
        the exploration multiplies it by at most the product of the branching factors, the first
        one no more than the first guesses that differ up to symmetry (5 at 4x6), the others no more
        than the codes (a node has no more groups than guesses: ``k`` past that explores them all).
        Levels past one more than the fewest guesses that could tell the codes apart (4 at 4x6)
        are not counted: their sets hold a few codes each, which branch little (at 4x6,
        ``tpoa:k=5,d=10`` takes as long as ``d=4``, about 10 s)."""
        expansions = float(min(self.branching(1), len(representatives(Knowledge.initial(game)))))
        for level in range(2, min(self.values["d"], least_depth(game) + 1) + 1):
            expansions *= min(self.branching(level), game.n_codes)
            if expansions > 1e12 or self.branching(level) == 1:  # past any useful guess; or no more branching
                break
        return 0.3 * (game.n_codes / 1296) ** 2 * expansions

    def unstoppable_seconds(self, game: Game) -> float:
        """The greedy tree (k=1, d=1) is completed whatever the time limit."""
        return self.greedy().estimate_seconds(game)

    def greedy(self) -> TPOA:
        """This planner without its exploration (k = 1, d = 1): the tree it completes whatever the time limit."""
        return TPOA(**{**self.values, "k": 1, "d": 1})


class _Search:
    def __init__(self, planner: TPOA, game: Game, on_progress, deadline: Deadline) -> None:
        self.planner = planner
        self.deadline = deadline
        self.root_best: tuple[Cost, Node] | None = None
        self.game = game
        self.worst = planner.objective == "worst"
        self.by_parts = planner.values["hash"] == "e"
        self.on_progress = on_progress
        self.greedy_memo: dict[bytes, tuple[Cost, Node]] = {}
        self.nodes = 0
        self.placed = 0  # secrets placed in the trees of the first guesses tried so far (for on_progress)
        self.first_guesses = 1  # how many first guesses are tried (known once the root is expanded)

    def key(self, cost: Cost) -> tuple[int, int]:
        return (cost[1], cost[0]) if self.worst else cost

    def solve(self, knowledge: Knowledge, level: int) -> tuple[Cost, Node]:
        cands = knowledge.consistent
        n = int(cands.shape[0])
        if n == 1:
            return (1, 1), Node(int(cands[0]), 1, certain=True)
        b = self.planner.branching(level)
        memo_key = cands.tobytes() if b == 1 else None
        if memo_key is not None and memo_key in self.greedy_memo:
            return self.greedy_memo[memo_key]
        self.nodes += 1
        # At every node, greedy ones too: one explored guess's greedy subtrees can take minutes
        # (5x7), and what is stopped before a first guess is finished ends in the greedy tree anyway.
        self.deadline.check()
        best: tuple[Cost, Node] | None = None
        guesses = self.candidates(knowledge, b)
        if level == 1:
            self.first_guesses = len(guesses)
        for guess in guesses:
            result = self.expand(knowledge, guess, level)
            if best is None or self.key(result[0]) < self.key(best[0]):
                best = result
            if level == 1:
                self.root_best = best
        assert best is not None
        if memo_key is not None:
            self.greedy_memo[memo_key] = best
        return best

    def expand(self, knowledge: Knowledge, guess: int, level: int) -> tuple[Cost, Node]:
        n = knowledge.n_consistent
        node = Node(guess, n)
        total, height = n, 1
        for code, child in knowledge.split(guess):
            (c_total, c_height), node.children[code] = self.solve(child, level + 1)
            total += c_total
            height = max(height, 1 + c_height)
            if level == 1:
                self._placed(child.n_consistent)
        if level == 1:
            self._placed(int(node.wins))  # the secret that is the guess itself
        return (total, height), node

    def _placed(self, secrets: int) -> None:
        self.placed += secrets
        if self.on_progress is not None and secrets:
            self.on_progress(self.placed, self.first_guesses * self.game.n_codes)

    def candidates(self, knowledge: Knowledge, b: int) -> list[int]:
        """Representatives of the best ``b`` hash collision groups, best group first."""
        game = self.game
        cands = knowledge.consistent
        n = int(cands.shape[0])
        if n == 2:
            return [int(cands[0])]
        if n < game.n_responses:
            # A consistent guess that splits the candidates into singletons is optimal for both
            # objectives (1 + 2(n-1) guesses, height 2): nothing else needs expanding.
            hist = partition_histograms(knowledge, cands)
            perfect = np.flatnonzero(hist.max(axis=1) == 1)
            if perfect.shape[0]:
                return [int(cands[perfect[0]])]
        guesses = representatives(knowledge)
        hist = partition_histograms(knowledge, guesses)
        consistent = is_member(guesses, cands)
        useful = consistent | (hist.max(axis=1) < n)  # a guess that splits nothing is never played
        guesses, hist, consistent = guesses[useful], hist[useful], consistent[useful]
        vector = -np.sort(-hist, axis=1)  # the partition vector, sorted non-increasingly
        score = -(hist > 0).sum(axis=1) if self.by_parts else vector[:, 0]
        keys = np.column_stack([score, ~consistent, vector])
        order = np.lexsort(keys.T[::-1])  # best first; stable, so each group starts with its first member
        ranked = keys[order]
        starts = np.ones(order.shape[0], dtype=bool)
        starts[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
        return [int(guesses[i]) for i in order[starts][:b]]
