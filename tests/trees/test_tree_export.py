"""Tree files and exports: JSON round trips, refused files, DOT, Knuth's notation, Python source."""

import json
import re

import pytest

from mmlab.errors import BadTree
from mmlab.game import Game, possible_feedbacks
from mmlab.strategies import make_strategy
from mmlab.trees import DecisionTree, Node, TreeStrategy, from_json, load, save, to_dot, to_json, to_knuth, to_python


@pytest.fixture(scope="module")
def trees46(game46) -> dict[str, DecisionTree]:
    return {name: DecisionTree.build(game46, make_strategy(name)) for name in ("knuth", "most-parts", "entropy")}


@pytest.fixture(scope="module")
def norvig32() -> DecisionTree:
    return DecisionTree.build(Game.parse_size("3x2"), make_strategy("norvig:first=211"))


def shape(node: Node) -> tuple:
    """Everything of a subtree: guess, size, wins and the children by feedback code."""
    return (node.guess, node.size, node.wins, tuple(sorted((k, shape(c)) for k, c in node.children.items())))


# ----------------------------------------------------------------- JSON round trip
@pytest.mark.parametrize("name", ["knuth", "most-parts", "entropy"])
def test_json_round_trip_4x6(trees46, tmp_path, name):
    tree = trees46[name]
    path = tmp_path / f"{name}.json"
    save(tree, path)
    loaded = load(path)
    assert loaded.game == tree.game and loaded.strategy == tree.strategy == name
    assert (loaded.n_secrets, loaded.total_guesses, loaded.worst) == (1296, tree.total_guesses, tree.worst)
    assert loaded.histogram == tree.histogram
    assert (loaded.depths() == tree.depths()).all()
    assert (loaded.known_depths() == tree.known_depths()).all()  # the deduced last guesses are kept
    assert shape(loaded.root) == shape(tree.root)
    assert to_json(loaded) == path.read_text().rstrip("\n")

    replay = DecisionTree.build(tree.game, TreeStrategy(loaded))
    assert replay.strategy == f"tree:{name}"
    assert (replay.total_guesses, replay.histogram) == (tree.total_guesses, tree.histogram)
    assert shape(replay.root) == shape(tree.root)


def test_json_layout(trees46):
    doc = json.loads(to_json(trees46["knuth"]))
    summary = {k: doc[k] for k in ("format", "version", "strategy", "secrets", "total_guesses", "worst")}
    assert summary == {
        "format": "mmlab-tree",
        "version": 2,
        "strategy": "knuth",
        "secrets": 1296,
        "total_guesses": 5801,
        "worst": 5,
    }
    assert doc["game"] == {"pegs": 4, "colours": 6, "repeats": True, "feedback": "black-white"}
    root = doc["root"]
    assert root["guess"] == "1122" and root["wins"] is True
    order = [str(fb) for fb in possible_feedbacks(4)]
    assert list(root["children"]) == [k for k in order if k in root["children"]]
    assert "1,3" not in root["children"]  # 1122 cannot get 1,3: that class is empty
    leaves = [n for n in _walk(root) if "children" not in n]
    assert leaves and all(n["wins"] is True for n in leaves)


def _walk(node: dict):
    yield node
    for child in node.get("children", {}).values():
        yield from _walk(child)


def test_json_keeps_other_games():
    game = Game(4, 6, repeats=False, feedback="black")
    tree = DecisionTree.build(game, make_strategy("knuth"))
    loaded = from_json(to_json(tree))
    assert loaded.game == game
    assert shape(loaded.root) == shape(tree.root)


# ----------------------------------------------------------------- refused files
def _tampered(tree: DecisionTree, change) -> str:
    doc = json.loads(to_json(tree))
    change(doc)
    return json.dumps(doc)


def _set(doc: dict, path: list, value) -> None:
    for key in path[:-1]:
        doc = doc[key]
    doc[path[-1]] = value


def _first_grandchild(doc: dict) -> dict:
    return next(iter(doc["root"]["children"].values()))


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: _set(d, ["format"], "something-else"), "not an mmlab-tree file: its format is 'something-else'"),
        (lambda d: d.pop("format"), "not an mmlab-tree file"),
        (lambda d: _set(d, ["version"], 3), "version 3 is not supported"),
        (lambda d: _set(d, ["version"], True), "version True is not supported"),
        (lambda d: _set(d, ["version"], 2.0), "version 2.0 is not supported"),
        (lambda d: _set(d, ["game", "pegs"], 11), "bad game in the tree file: pegs must be"),
        (lambda d: _set(d, ["game", "feedback"], "colour"), "bad game in the tree file: feedback must be"),
        (lambda d: d["game"].pop("colours"), "the game of the tree file lacks colours"),
        (lambda d: _set(d, ["game", "repeats"], "yes"), "'repeats' should be true or false"),
        (lambda d: _set(d, ["root", "guess"], "11223"), "the root: code '11223' has 5 pegs, the 4x6 game needs 4"),
        (lambda d: _set(d, ["root", "guess"], "1127"), "the root: code '1127'"),
        (lambda d: _set(_first_grandchild(d), ["guess"], "12"), r"the node after 1122 -> 3,0: code '12' has 2"),
        (lambda d: _set(d["root"]["children"], ["3,1"], {"guess": "1111", "wins": True}), "answer 3,1 cannot occur"),
        (lambda d: _set(d["root"]["children"], ["2,3"], {"guess": "1111", "wins": True}), "cannot exceed the 4 pegs"),
        (lambda d: _set(d["root"]["children"], ["4,0"], {"guess": "1111", "wins": True}), "answer 4,0 ends the game"),
        (lambda d: _set(d["root"]["children"], ["one,two"], {"guess": "1111"}), "should be written black,white"),
        (lambda d: _set(d["root"]["children"], ["7" * 5000 + ",0"], {"guess": "1111"}), "should be written black"),
        (lambda d: _set(d["root"], ["colour"], "red"), "the root has unknown keys 'colour'"),
        (lambda d: d["root"].pop("wins"), "the file is inconsistent: it says secrets = 1296, but its tree gives 1295"),
        (
            lambda d: _set(d, ["total_guesses"], 5800),
            "the file is inconsistent: it says total_guesses = 5800, but its tree gives 5801",
        ),
        (lambda d: _set(d, ["worst"], 4), "the file is inconsistent: it says worst = 4"),
        (lambda d: _set(d, ["total_guesses"], 5801.0), "it says total_guesses = 5801.0, but its tree gives 5801"),
        (lambda d: _set(d, ["secrets"], 1295), "the file is inconsistent: it says secrets = 1295"),
        (lambda d: d.pop("worst"), "lacks its summary figure 'worst'"),
        (lambda d: d.pop("root"), "no 'root' node"),
        (lambda d: _set(d, ["root", "certain"], "yes"), "the root: 'certain' should be true or false"),
        (lambda d: _set(d, ["root", "certain"], True), "the guess 1122 is marked as certain, so it must win and end"),
    ],
)
def test_bad_files_say_what_is_wrong(trees46, change, message):
    with pytest.raises(BadTree, match=message):
        from_json(_tampered(trees46["knuth"], change))


def test_dead_end_node_is_refused(norvig32):
    def change(doc):
        doc["root"]["children"]["1,0"].pop("wins")
        doc["root"]["children"]["1,0"].pop("certain")
        doc["secrets"], doc["total_guesses"] = 7, 16

    with pytest.raises(BadTree, match="the node after 211 -> 1,0 is a dead end"):
        from_json(_tampered(norvig32, change))


def test_secret_won_twice_is_refused(norvig32):
    def change(doc):
        doc["root"]["children"]["1,0"]["guess"] = "122"  # the 0,2 leaf already wins 122

    with pytest.raises(BadTree, match="the same secret is won at two places"):
        from_json(_tampered(norvig32, change))


def test_an_answer_given_twice_in_two_spellings_is_refused(norvig32):
    def change(doc):
        children = doc["root"]["children"]
        children["02,0"] = children["2,0"]  # (JSON's own check of keys sees two keys)

    with pytest.raises(BadTree, match="the root lists the same answer twice"):
        from_json(_tampered(norvig32, change))


def test_trees_that_break_the_rules_are_refused(norvig32):
    """Each node is checked against the secrets left there: swapped answers, or an answer no
    secret can give, are refused when the file is read, not in the middle of a game."""
    def swap(doc):
        children = doc["root"]["children"]
        children["1,0"], children["0,2"] = children["0,2"], children["1,0"]

    with pytest.raises(BadTree, match="the node after 211 -> 0,2: the guess 222 is marked as winning, but no "
                                      "secret left is 222"):
        from_json(_tampered(norvig32, swap))

    def impossible(doc):
        doc["root"]["children"]["0,0"] = doc["root"]["children"].pop("1,2")  # 211 shares a colour with every code

    with pytest.raises(BadTree, match="the root: no secret left gives the guess 211 the answer 0,0"):
        from_json(_tampered(norvig32, impossible))
    assert from_json(to_json(norvig32)).total_guesses == norvig32.total_guesses


def _without_certain(node: dict) -> None:
    node.pop("certain", None)
    for child in node.get("children", {}).values():
        _without_certain(child)


def test_the_deduced_last_guesses_survive_a_file_and_its_replay():
    """Greedy 2 knows a secret later than 'one code left' would say (Singley's count, 003): the
    tree file keeps when it knew, and a strategy replaying the file reports the same."""
    game = Game.parse_size("3x4")
    tree = DecisionTree.build(game, make_strategy("greedy2"))
    loaded = from_json(to_json(tree))
    replay = DecisionTree.build(game, TreeStrategy(loaded))
    assert tree.known_depths().sum() == loaded.known_depths().sum() == replay.known_depths().sum() == 331
    assert tree.total_guesses == 352


def test_a_version_1_file_counts_a_guess_certain_when_one_secret_is_left(trees46):
    """Files written before 'certain' was kept: the rule of most strategies (one code left)."""
    doc = json.loads(to_json(trees46["knuth"]))
    doc["version"] = 1
    _without_certain(doc["root"])
    loaded = from_json(json.dumps(doc))
    assert (loaded.known_depths() == trees46["knuth"].known_depths()).all()
    assert loaded.known_depths().sum() < loaded.total_guesses


def test_a_guess_marked_certain_must_be_the_only_secret_left(norvig32):
    def change(doc):
        doc["root"]["children"]["2,0"] = {"guess": "212", "wins": True, "certain": True}  # 221 and 111 dropped
        doc["secrets"], doc["total_guesses"] = 6, 12

    with pytest.raises(BadTree, match="the node after 211 -> 2,0: the guess 212 is marked as certain, but 3 secrets"):
        from_json(_tampered(norvig32, change))


def test_a_partial_tree_loads_and_says_which_answer_it_does_not_cover(norvig32):
    from mmlab.knowledge import Knowledge

    def drop(doc):
        del doc["root"]["children"]["1,0"]  # the leaf that wins 222 at the second guess
        doc["secrets"], doc["total_guesses"] = 7, norvig32.total_guesses - 2

    tree = from_json(_tampered(norvig32, drop))
    game = tree.game
    player = TreeStrategy(tree)
    player.start(game)
    root, secret = tree.root.guess, game.parse("222")
    with pytest.raises(BadTree, match="no move after 211 -> 1,0: it does not cover the secrets that give this answer"):
        player.guess(Knowledge.initial(game).update(root, game.score(secret, root)))


@pytest.mark.parametrize("write", [to_knuth, to_python, to_dot, to_json])
def test_a_partial_tree_from_a_file_is_not_written_out_as_if_whole(norvig32, write):
    """Read from a file that leaves 222 out, the tree was written in Knuth's notation as '7(211: *,
    -, ...)': 7 codes left at the start (there are 8) and '-', "no code gives it", for 1,0; its
    Python player raised "no secret gives 1,0 to 211". Its nodes now count the codes left too."""
    def drop(doc):
        del doc["root"]["children"]["1,0"]  # the leaf that wins 222 at the second guess
        doc["secrets"], doc["total_guesses"] = 7, norvig32.total_guesses - 2

    tree = from_json(_tampered(norvig32, drop))
    assert (tree.n_secrets, tree.root.consistent, tree.over_some_secrets) == (7, 8, True)
    with pytest.raises(BadTree, match=r"follows only the answers of 7 secrets of the 8 \(built over some secrets, "
                                      r"or read from a file that leaves some out\)"):
        write(tree)


def test_not_json_and_duplicates():
    with pytest.raises(BadTree, match="not valid JSON"):
        from_json("{format: mmlab-tree")
    with pytest.raises(BadTree, match="expected a JSON object, got list"):
        from_json("[1, 2]")
    with pytest.raises(BadTree, match="the key 'version' appears twice"):
        from_json('{"format": "mmlab-tree", "version": 1, "version": 1}')


@pytest.mark.parametrize("form, name", [("dot", "Graphviz DOT"), ("python", "Python"), ("knuth", "Knuth's notation")])
def test_a_tree_written_in_another_format_is_named_when_read(norvig32, tmp_path, form, name):
    """'mmlab tree -o tree.txt' then 'eval --tree tree.txt' said only "not valid JSON: Extra data:
    line 1 column 2": the reader now says which format it was given and that only JSON loads."""
    path = tmp_path / "tree.json"  # (the format given by --format, whatever the extension)
    save(norvig32, path, form)
    with pytest.raises(BadTree, match=re.escape(f"{path}: this is a tree written as {name} (--format {form})") +
                       ".*only a JSON tree loads"):
        load(path)


def test_a_number_too_long_to_read_is_refused_as_a_bad_tree(norvig32):
    """A number of more than 4300 digits raised Python's ValueError through json.loads: a traceback."""
    text = to_json(norvig32).replace(f'"total_guesses": {norvig32.total_guesses}', '"total_guesses": ' + "9" * 5000)
    with pytest.raises(BadTree, match="not a usable tree file: it holds a number too long to read"):
        from_json(text)


def test_a_byte_order_mark_is_read_past(norvig32, tmp_path):
    """A tree saved again by an editor that writes a UTF-8 byte order mark (Notepad, PowerShell's
    'Out-File -Encoding utf8') was refused: "not valid JSON: Unexpected UTF-8 BOM"."""
    path = tmp_path / "tree.json"
    path.write_text(to_json(norvig32), encoding="utf-8-sig")
    assert load(path).total_guesses == norvig32.total_guesses
    assert from_json("\ufeff" + to_json(norvig32)).total_guesses == norvig32.total_guesses


@pytest.mark.parametrize("label", ["knuth\n(proved)", "\x1b[31mknuth", "knuth\x07"])
def test_a_strategy_label_must_be_one_printable_line(norvig32, label):
    """The label is printed as it is in 'eval --tree' titles: a terminal escape in a tree file
    reached the terminal, and a line break split the title."""
    with pytest.raises(BadTree, match="'strategy' should be one line of printable text"):
        from_json(_tampered(norvig32, lambda doc: doc.update(strategy=label)))
    assert from_json(_tampered(norvig32, lambda doc: doc.update(strategy="tpoa:k=5 (stopped, é)"))).strategy


def test_load_names_the_file(tmp_path):
    missing = tmp_path / "nowhere.json"
    with pytest.raises(BadTree, match=re.escape(f"{missing}: no such tree file")):
        load(missing)
    broken = tmp_path / "broken.json"
    broken.write_text("not json at all")
    with pytest.raises(BadTree, match=re.escape(f"{broken}: not valid JSON")):
        load(broken)
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"format": "mmlab-tree", "version": 7}')
    with pytest.raises(BadTree, match=re.escape(f"{wrong}: mmlab-tree version 7 is not supported")):
        load(wrong)


# ----------------------------------------------------------------- DOT
def test_dot_structure(norvig32):
    dot = to_dot(norvig32)
    lines = dot.strip().splitlines()
    assert lines[0] == "digraph mastermind {" and lines[-1] == "}"
    assert dot.count("{") == dot.count("}") == 1
    nodes = re.findall(r'^  (n\d+) \[label="(\d+)\\nn=(\d+)"(.*)\];$', dot, re.M)
    edges = re.findall(r'^  (n\d+) -> (n\d+) \[label="(\d),(\d)"\];$', dot, re.M)
    assert len(nodes) == norvig32.n_nodes == 8 and len(edges) == 7
    names = {n for n, *_ in nodes}
    assert all(a in names and b in names for a, b, *_ in edges)
    assert nodes[0][1:3] == ("211", "8")
    assert all("peripheries=2" in extra for *_, extra in nodes)  # every node of this tree wins
    assert len(lines) == 5 + 8 + 7 + 1  # header, nodes, edges, closing brace


def test_dot_marks_only_winning_nodes(trees46):
    tree = trees46["knuth"]
    dot = to_dot(tree)
    winning = sum(1 for n, _ in tree.root.walk() if n.wins)
    assert dot.count("peripheries=2") == winning == 1296 < tree.n_nodes
    assert dot.count(" -> ") == tree.n_nodes - 1


def test_dot_quotes_strategy_names(norvig32):
    odd = DecisionTree(norvig32.game, norvig32.root, 'say "hi"\\')
    assert 'label="3x2 say \\"hi\\"\\\\: 8 secrets' in to_dot(odd)


# ----------------------------------------------------------------- Knuth's notation
def test_knuth_notation_small(norvig32):
    text = to_knuth(norvig32)
    assert text.startswith("8(211:")
    assert to_knuth(norvig32, multiline=False) == (
        "8(211: *, 3(212: *, -, 1(221), 1(111), -, -), 2(112: *, -, 1(121), -, -, -), 1(222), 1(122), -)"
    )
    lines = text.splitlines()
    assert len(lines) == 2 + 6 == 2 + len(norvig32.game.feedbacks()) and lines[-1] == ")"  # one per answer of 3x2
    assert re.sub(r"\s*\n\s*", " ", text).replace("( ", "(").replace(" )", ")") == to_knuth(
        norvig32, multiline=False
    )


def test_knuth_notation_writes_out_a_last_code_found_by_another_guess(norvig32):
    """'1(code)' is a class of one code that the next guess wins; a class of one whose next guess is
    another code (here 111 before 222) is a node of its own, its entries written out."""
    def detour(doc):
        doc["root"]["children"]["1,0"] = {"guess": "111", "children": {"0,0": {"guess": "222", "wins": True,
                                                                              "certain": True}}}
        doc["total_guesses"] += 1

    tree = from_json(_tampered(norvig32, detour))
    assert tree.depths()[tree.game.parse("222")] == 3
    assert to_knuth(tree, multiline=False) == (
        "8(211: *, 3(212: *, -, 1(221), 1(111), -, -), 2(112: *, -, 1(121), -, -, -), 1(111: -, -, -, -, -, 1(222)), "
        "1(122), -)"
    )


def test_knuth_notation_4x6(trees46):
    text = to_knuth(trees46["knuth"])
    lines = text.splitlines()
    assert lines[0] == "1296(1122:" and len(lines) == 16
    assert lines[1] == "  *," and lines[6] == "  -,"  # wins at 4,0; 1122 never gets 1,3
    assert lines[-2].startswith("  256(")  # 0,0 leaves 256 codes
    flat = to_knuth(trees46["knuth"], multiline=False)
    assert flat.count("(") == flat.count(")")
    assert flat.count("*") + len(re.findall(r"(?<!\d)1\(\d{4}\)", flat)) == 1296  # one mark per secret


# ----------------------------------------------------------------- Python source
def _play_all(tree: DecisionTree) -> None:
    game = tree.game
    namespace: dict = {}
    exec(compile(to_python(tree, name="solve"), "<generated>", "exec"), namespace)
    solve = namespace["solve"]
    assert solve.__doc__ and str(game) in solve.__doc__ and tree.strategy in solve.__doc__
    depths = tree.depths()
    for secret in range(game.n_codes):
        asked = []

        def answer(guess: str) -> tuple[int, int] | int:
            asked.append(guess)
            feedback = game.score(secret, game.parse(guess))
            return tuple(feedback) if game.with_white else feedback.black  # (as a black-only game is answered)

        assert solve(answer) == game.format(secret)
        assert len(asked) == depths[secret]


@pytest.mark.parametrize("size, spec", [("3x3", "knuth"), ("3x2", "norvig:first=211"), ("4x6", "knuth")])
def test_python_plays_every_secret(size, spec, trees46):
    game = Game.parse_size(size)
    tree = trees46["knuth"] if size == "4x6" else DecisionTree.build(game, make_strategy(spec))
    _play_all(tree)


def test_a_black_only_tree_is_answered_by_black_pegs_alone():
    tree = DecisionTree.build(Game.parse_size("3x4", feedback="black"), make_strategy("knuth"))
    _play_all(tree)
    assert "returns the number of black pegs" in to_python(tree) and ",0;" not in to_python(tree)
    edges = re.findall(r'-> n\d+ \[label="([^"]*)"\]', to_dot(tree))
    assert edges and all(label.isdigit() for label in edges)  # '1', as the answers are given, not '1,0'
    namespace: dict = {}
    exec(to_python(tree), namespace)
    with pytest.raises(ValueError, match="no secret gives 4 to 111"):
        namespace["master_mind"](lambda guess: 4)


def test_python_refuses_inconsistent_answers(norvig32):
    namespace: dict = {}
    exec(to_python(norvig32), namespace)
    answers = iter([(2, 0), (0, 0)])
    with pytest.raises(ValueError, match="inconsistent answers: after 211 -> 2,0, no secret gives 0,0 to 212"):
        namespace["master_mind"](lambda guess: next(answers))
    with pytest.raises(ValueError, match="no secret gives 1,1 to 211"):
        namespace["master_mind"](lambda guess: (1, 1))


def test_python_is_safe_with_odd_names(norvig32):
    odd = DecisionTree(norvig32.game, norvig32.root, 'x"""\nraise SystemExit\\')
    namespace: dict = {}
    exec(to_python(odd), namespace)
    assert 'x"""' in namespace["master_mind"].__doc__
    with pytest.raises(ValueError, match="not a valid Python function name"):
        to_python(norvig32, name="class")


def test_a_tree_too_deep_for_python_is_refused_with_one_line(monkeypatch):
    from mmlab.errors import BadTree
    from mmlab.trees import export as exporting

    tree = DecisionTree.build(Game.parse_size("3x3"), make_strategy("knuth"))
    monkeypatch.setattr(exporting, "PYTHON_MAX_GUESSES", tree.worst - 1)
    with pytest.raises(BadTree, match=f"needs up to {tree.worst} guesses.*--format json"):
        exporting.to_python(tree)


def test_only_a_strategy_that_ties_first_deterministically_is_told_to():
    from mmlab.errors import BadTree

    with pytest.raises(BadTree, match="no single decision tree; use ties=first"):
        DecisionTree.build(Game.parse_size("3x3"), make_strategy("entropy:ties=random"))
    with pytest.raises(BadTree, match=r"no single decision tree$"):
        DecisionTree.build(Game.parse_size("3x3"), make_strategy("sample"))


def test_a_tree_over_some_secrets_is_not_written_out(game46):
    """Its nodes count the secrets followed, not the codes left, so no file would read true."""
    import numpy as np

    part = DecisionTree.build(game46, make_strategy("knuth"), secrets=np.array([0, 7, 1295]))
    assert part.over_some_secrets and part.root.consistent == 1296 and part.n_secrets == 3
    for write in (to_json, to_dot, to_knuth, to_python):
        with pytest.raises(BadTree, match="follows only the answers of 3 secrets of the 1296"):
            write(part)
    whole = DecisionTree.build(game46, make_strategy("knuth"), secrets=np.arange(1296))
    assert not whole.over_some_secrets and to_json(whole) == to_json(DecisionTree.build(game46, make_strategy("knuth")))


def test_a_tree_file_of_a_game_too_large_to_list_is_refused_when_read(norvig32):
    """A file of 8x12 (4.3e8 codes) was read unchecked, and 'eval --tree' then said 'tree needs
    every code of the game ... Strategies that play without enumerating: evo, ga, ...'."""
    def big(doc):
        doc["game"].update(pegs=8, colours=12)
        doc.update(secrets=1, total_guesses=1, worst=1, root={"guess": "1" * 8, "wins": True})

    with pytest.raises(BadTree, match=r"the tree file is of 8x12, whose 4.3e\+08 codes are too many for a decision tree"):
        from_json(_tampered(norvig32, big))
