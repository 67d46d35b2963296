"""Published figures of deterministic strategies, evaluated exactly through their decision trees
(tie rule ``first``, pool ``all``, each strategy's own first guess)."""

import pytest

from mmlab.game import Feedback, Game
from mmlab.strategies import make_strategy
from mmlab.trees import DecisionTree


def test_knuth_4x6_knuth_1976(game46):
    """Knuth 1976 (mean 4.476, worst 5); 000 Table 3 prints 5803 for it, Knuth's own figure is 5801."""
    tree = DecisionTree.build(game46, make_strategy("knuth"))
    assert tree.total_guesses == 5801
    assert tree.worst == 5
    assert tree.histogram == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}


def test_most_parts_4x6_kooi_2005(game46):
    """Kooi 2005; 000 Table 3 row 'Barteld': L = 5668, worst 6."""
    tree = DecisionTree.build(game46, make_strategy("most-parts"))
    assert (tree.total_guesses, tree.worst) == (5668, 6)


@pytest.mark.parametrize("name, total", [("irving", 5696), ("entropy", 5722)])
def test_irving_and_entropy_4x6_kooi_2005(game46, name, total):
    """Kooi 2005, table of one-step heuristics: expected size 5696, entropy 5722."""
    assert DecisionTree.build(game46, make_strategy(name)).total_guesses == total


def test_norvig_3x2_generated_tree_002():
    """002, 'Generated Code': S' on 3 pegs of 2 colours, worst 3 guesses, 18 in all over the 8
    secrets (his 'average 2.3'). With W as colour 1 and B as colour 2 our tree is his, node for node:
    (? (W B B) ((0 2) (? (B W W))) ((1 2) (? (B W B) ((1 2) (? (B B W))))) ((1 0) (? (W W W)))
               ((2 0) (? (W W B) ((1 2) (? (W B W))) ((1 0) (? (B B B))))))"""
    game = Game.parse_size("3x2")
    tree = DecisionTree.build(game, make_strategy("norvig:first=122"))
    assert (tree.total_guesses, tree.worst) == (18, 3)

    def shape(node):
        return (game.format(node.guess), {str(Feedback.from_code(code, game.pegs)): shape(child)
                                          for code, child in sorted(node.children.items())})

    his = ("122", {"0,2": ("211", {}), "1,2": ("212", {"1,2": ("221", {})}), "1,0": ("111", {}),
                   "2,0": ("112", {"1,2": ("121", {}), "1,0": ("222", {})})})
    assert shape(tree.root) == his
    # With B as colour 1 (first=211) the totals agree, but two ties fall the other way.
    other = DecisionTree.build(game, make_strategy("norvig:first=211"))
    assert (other.total_guesses, other.worst) == (18, 3) and shape(other.root) != his
    # Norvig's own tie rule (ties=lisp) with his colour list (B W), B = 1 and W = 2, plays his tree
    # from his first guess on, with nothing fixed.
    lisp = DecisionTree.build(game, make_strategy("norvig:ties=lisp"))
    assert shape(lisp.root) == ("211", {"0,2": ("122", {}), "1,2": ("121", {"1,2": ("112", {})}), "1,0": ("222", {}),
                                        "2,0": ("221", {"1,2": ("212", {}), "1,0": ("111", {})})})


def all_possibilities(colours: int, pegs: int) -> list[tuple[int, ...]]:
    """002's ALL-POSSIBILITIES as written in Lisp: for each colour and each shorter sequence in
    its list's order, PUSH the two joined onto the result (so the list comes out reversed)."""
    if pegs == 1:
        return [(c,) for c in range(colours)]
    results: list[tuple[int, ...]] = []
    for colour in range(colours):
        for p in all_possibilities(colours, pegs - 1):
            results.insert(0, (colour, *p))  # push
    return results


@pytest.mark.parametrize("size", ["3x2", "4x6", "3x5"])
def test_lisp_order_is_the_list_norvigs_program_builds(size):
    from mmlab.strategies.exhaustive import lisp_order

    game = Game.parse_size(size)
    theirs = [game.index_of(code) for code in all_possibilities(game.colours, game.pegs)]
    assert lisp_order(game).tolist() == sorted(range(game.n_codes), key=theirs.index)


def test_norvig_4x6_with_his_tie_rule_002(game46):
    """002: 'S' has a worst case of 6 guesses, and an average of 4.47 guesses.' With his program's
    tie rule, 5799 guesses (4.4745); with ours (ties=first), 5828 (4.4969)."""
    tree = DecisionTree.build(game46, make_strategy("norvig:ties=lisp"))
    assert (tree.total_guesses, tree.worst, round(tree.mean, 2)) == (5799, 6, 4.47)


@pytest.mark.parametrize("answers, his_guesses", [
    ("0 2, 1 2, 0 3, 2 0, 4 0", "PGPG GPYB OPGY GOBP GYRP"),
    ("0 0, 0 1, 2 1, 3 0, 4 0", "PGPG YOYB ORRR RBRR RYRR"),
])
def test_norvig_sample_games_002(game46, answers, his_guesses):
    """002's two sample games, guess for guess, his colours (G Y B R O P) being 1-6."""
    tree = DecisionTree.build(game46, make_strategy("norvig:ties=lisp"))
    node, played = tree.root, []
    for answer in answers.split(", "):
        played.append(game46.format(node.guess))
        if answer != "4 0":
            node = node.children[game46.answer(answer).code(game46.pegs)]
    assert " ".join(played) == his_guesses.translate(str.maketrans("GYBROP", "123456"))
