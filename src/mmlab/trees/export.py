"""Decision trees in and out: JSON files, Graphviz DOT, Knuth's notation and Python source.

JSON (``to_json``/``from_json``, ``save``/``load``)::

    {"format": "mmlab-tree", "version": 2,
     "game": {"pegs": 4, "colours": 6, "repeats": true, "feedback": "black-white"},
     "strategy": "knuth", "secrets": 1296, "total_guesses": 5801, "worst": 5,
     "root": {"guess": "1122", "wins": true, "children": {"1,1": {...}, "0,0": {...}}}}

Children are keyed ``"black,white"`` in the order of ``Game.feedbacks`` (winning answer
first, ``0,0`` last); ``"wins": true`` marks a guess that is itself one of the secrets reaching
its node, ``"certain": true`` a winning guess the strategy had deduced to be the secret (not
counted in the guesses "until known" of Singley's tables), and a node without next moves has no
``"children"``. Sizes are rebuilt on load and the summary figures must match the rebuilt tree.
Version 1 files, written before ``"certain"`` was kept, are still read: a winning guess there is
taken as certain when it was the only secret left, the rule of most strategies.

Knuth's notation (``to_knuth``), after Knuth 1976 as read by Singley: a node is
``n(guess: a1, ..., ak)`` with ``n`` the codes still possible and one entry ``ai`` for every
answer the game can give, in the order of ``Game.feedbacks`` (14 for 4 pegs of 3 colours or
more: 4,0 3,0 2,2 2,1 2,0 1,3 1,2 1,1 1,0 0,4 0,3 0,2 0,1 0,0; 9 for 4x2, whose codes of two
colours never answer 2,1, 1,3, 1,1, 0,3 or 0,1). The entry of the winning answer is ``*`` if the
guess can win there and ``-`` if not; an answer no remaining code gives is ``-``; a class of one
code that the next guess wins is ``1(code)``; any other class is its nested node. With
``multiline=True`` (the default) the root's entries come one per line, indented by two spaces,
with the closing parenthesis on a line of its own; nested nodes stay on their entry's line.

>>> from mmlab.game import Game
>>> from mmlab.strategies import make_strategy
>>> from mmlab.trees import DecisionTree
>>> tree = DecisionTree.build(Game.parse_size("3x2"), make_strategy("norvig:first=211"))
>>> print(to_knuth(tree))
8(211:
  *,
  3(212: *, -, 1(221), 1(111), -, -),
  2(112: *, -, 1(121), -, -, -),
  1(222),
  1(122),
  -
)
>>> from_json(to_json(tree)).total_guesses
18
"""

from __future__ import annotations

import json
import keyword
import os
import re
from collections.abc import Callable, Iterator
from typing import Any

from mmlab.errors import BadArgument, BadCode, BadFeedback, BadSize, BadTree, shown
from mmlab.game import ENUMERATION_LIMIT, Feedback, Game
from mmlab.game.feedback import NUMBER_DIGITS
from mmlab.knowledge import Knowledge
from mmlab.trees.tree import DecisionTree, Node

FORMAT = "mmlab-tree"
VERSION = 2
READABLE_VERSIONS = (1, 2)

_NODE_KEYS = {"guess", "wins", "certain", "children"}
_ANSWER = re.compile(rf"^\s*(\d{{1,{NUMBER_DIGITS}}})\s*,\s*(\d{{1,{NUMBER_DIGITS}}})\s*$")


def _children_in_order(node: Node, game: Game) -> Iterator[tuple[Feedback, Node]]:
    for fb in game.feedbacks():
        child = node.children.get(fb.code(game.pegs))
        if child is not None:
            yield fb, child


def _require_whole(tree: DecisionTree) -> None:
    """Refuse a tree built over some secrets, or read from a file that leaves some out: its nodes
    count those secrets, not the codes left, and an answer it does not follow is not one no code gives."""
    if tree.over_some_secrets:
        secrets = f"{tree.n_secrets} secret{'s' * (tree.n_secrets != 1)}"
        raise BadTree(f"this tree follows only the answers of {secrets} of the {tree.root.consistent} (built "
                      "over some secrets, or read from a file that leaves some out): only a tree of every secret "
                      "is written out")


# ===================================================================== JSON
def to_json(tree: DecisionTree, indent: int | None = 1) -> str:
    """The tree as an ``mmlab-tree`` JSON document (see the module docstring); ``from_json`` reads it back.

    >>> tree = DecisionTree.build(Game.parse_size("3x2"), "norvig:first=211")
    >>> from_json(to_json(tree)).total_guesses, json.loads(to_json(tree))["root"]["guess"]
    (18, '211')
    """
    _require_whole(tree)
    game = tree.game
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "game": {"pegs": game.pegs, "colours": game.colours, "repeats": game.repeats, "feedback": game.feedback},
        "strategy": tree.strategy,
        "secrets": tree.n_secrets,
        "total_guesses": tree.total_guesses,
        "worst": tree.worst,
        "root": _node_to_dict(tree.root, game),
    }
    return json.dumps(doc, indent=indent)


def _node_to_dict(node: Node, game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {"guess": game.format(node.guess)}
    if node.wins:
        out["wins"] = True
    if node.certain:
        out["certain"] = True
    if node.children:
        out["children"] = {str(fb): _node_to_dict(child, game) for fb, child in _children_in_order(node, game)}
    return out


def from_json(text: str) -> DecisionTree:
    """Read an ``mmlab-tree`` JSON document; raises ``BadTree`` saying what is wrong (naming the
    format of a tree written as DOT, Python or Knuth's notation, which are not read back)."""
    if isinstance(text, str) and text.startswith("\ufeff"):  # a byte order mark, as some editors write: not JSON
        text = text[1:]
    exported = _exported_format(text)
    if exported is not None:
        raise BadTree(f"this is a tree written as {exported}, which mmlab writes but does not read back: only a JSON "
                      "tree loads (write one with -o tree.json)")
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as e:
        raise BadTree(f"not valid JSON: {e}") from None
    except RecursionError:
        raise BadTree("not a usable tree file: it is nested too deeply") from None
    except ValueError:  # (not a JSONDecodeError) an integer past the 4300 digits Python converts
        raise BadTree("not a usable tree file: it holds a number too long to read") from None
    if not isinstance(doc, dict):
        raise BadTree(f"not an {FORMAT} file: expected a JSON object, got {type(doc).__name__}")
    _check_header(doc)
    game = _read_game(doc.get("game"))
    strategy = doc.get("strategy", "")
    if not isinstance(strategy, str):
        raise BadTree(f"'strategy' should be a string, got {strategy!r}")
    if not strategy.isprintable():  # a label printed in titles: no line breaks or terminal escapes
        raise BadTree(f"'strategy' should be one line of printable text, got {strategy!r}")
    if "root" not in doc:
        raise BadTree("the tree file has no 'root' node")
    try:
        root = _read_node(doc["root"], game, [])
    except RecursionError:
        raise BadTree("the tree is nested too deeply to be a tree of this game") from None
    tree = DecisionTree(game, root, strategy)
    _check_summary(doc, tree)
    _check_rules(tree, mark_certain=doc["version"] == 1)
    return tree


#: How the other formats ``WRITERS`` write begin (after any white space), to name them when one is read as JSON.
_EXPORTED_STARTS = {
    "Graphviz DOT (--format dot)": re.compile(r"digraph\b"),
    "Python (--format python)": re.compile(r"def "),
    "Knuth's notation (--format knuth)": re.compile(r"\d+\("),
}


def _exported_format(text: Any) -> str | None:
    """The name of the other format ``text`` is written in (``to_dot``, ``to_python``, ``to_knuth``), if one is."""
    if not isinstance(text, str):
        return None
    start = text.lstrip()
    return next((name for name, pattern in _EXPORTED_STARTS.items() if pattern.match(start)), None)


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise BadTree(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def _check_header(doc: dict[str, Any]) -> None:
    if doc.get("format") != FORMAT:
        found = f"its format is {shown(doc['format'])}" if "format" in doc else "it has no 'format' key"
        raise BadTree(f"not an {FORMAT} file: {found}, expected {FORMAT!r} (trees are written by 'mmlab tree -o' "
                      "and 'mmlab plan -o')")
    version = doc.get("version")
    if not _is_whole(version) or version not in READABLE_VERSIONS:  # (not 2.0 or true, equal to 2 and 1 in Python)
        readable = " and ".join(map(str, READABLE_VERSIONS))
        raise BadTree(f"{FORMAT} version {version!r} is not supported (this mmlab reads versions {readable})")


def _is_whole(value: Any) -> bool:
    """Whether ``value`` is a JSON integer: not a boolean, not a float such as 2.0.

    >>> _is_whole(2), _is_whole(2.0), _is_whole(True)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def _read_game(spec: Any) -> Game:
    if not isinstance(spec, dict):
        raise BadTree(f"'game' should be an object with pegs, colours, repeats and feedback, got {spec!r}")
    missing = [k for k in ("pegs", "colours", "repeats", "feedback") if k not in spec]
    if missing:
        raise BadTree(f"the game of the tree file lacks {', '.join(missing)}")
    if not isinstance(spec["repeats"], bool):
        raise BadTree(f"game 'repeats' should be true or false, got {spec['repeats']!r}")
    for key in ("pegs", "colours"):
        if not _is_whole(spec[key]):
            raise BadTree(f"game {key!r} should be a whole number, got {spec[key]!r}")
    try:
        game = Game(spec["pegs"], spec["colours"], spec["repeats"], spec["feedback"])
    except BadSize as e:
        raise BadTree(f"bad game in the tree file: {e}") from None
    if not game.enumerable:  # no tree is built or planned there, and none could be checked or played
        raise BadTree(f"the tree file is of {game}, whose {game.n_codes:.3g} codes are too many for a decision tree "
                      f"(trees are built and played in games of at most {ENUMERATION_LIMIT:.3g} codes)")
    return game


def _where(path: list[str]) -> str:
    return "the root" if not path else "the node after " + "; ".join(path)


def _read_node(data: Any, game: Game, path: list[str]) -> Node:
    where = _where(path)
    if not isinstance(data, dict):
        raise BadTree(f"{where} should be an object with a 'guess', got {data!r}")
    unknown = sorted(set(data) - _NODE_KEYS)
    if unknown:
        raise BadTree(f"{where} has unknown keys {', '.join(map(repr, unknown))}")
    if not isinstance(data.get("guess"), str):
        raise BadTree(f"{where} should have a 'guess' written as a code string, got {data.get('guess')!r}")
    try:
        guess = game.parse(data["guess"])
    except BadCode as e:
        raise BadTree(f"{where}: {e}") from None
    wins = data.get("wins", False)
    if not isinstance(wins, bool):
        raise BadTree(f"{where}: 'wins' should be true or false, got {wins!r}")
    certain = data.get("certain", False)
    if not isinstance(certain, bool):
        raise BadTree(f"{where}: 'certain' should be true or false, got {certain!r}")
    if certain and not (wins and not data.get("children")):
        raise BadTree(f"{where}: the guess {game.format(guess)} is marked as certain, so it must win and end the game")
    node = Node(guess, int(wins), certain=certain)
    for code, child in _read_children(data.get("children", {}), game, path, game.format(guess)):
        node.children[code] = child
    node.size += sum(c.size for c in node.children.values())
    if node.size == 0:
        raise BadTree(f"{where} is a dead end: its guess {game.format(guess)} does not win and it has no next moves")
    return node


def _read_children(data: Any, game: Game, path: list[str], guess: str) -> list[tuple[int, Node]]:
    if not isinstance(data, dict):
        raise BadTree(f"{_where(path)}: 'children' should be an object keyed by answers like \"1,2\"")
    out = []
    for key, value in data.items():
        fb = _read_answer(key, game, f"{_where(path)}, guess {guess}")
        out.append((fb.code(game.pegs), _read_node(value, game, path + [f"{guess} -> {fb}"])))
    codes = [code for code, _ in out]
    if len(set(codes)) != len(codes):
        raise BadTree(f"{_where(path)} lists the same answer twice")
    return sorted(out, key=lambda item: item[0])


def _read_answer(key: str, game: Game, where: str) -> Feedback:
    m = _ANSWER.match(key)
    if not m:
        raise BadTree(f"{where}: the answer {key!r} should be written black,white (for example \"1,2\")")
    try:
        fb = game.check_feedback(Feedback(int(m.group(1)), int(m.group(2))))
    except BadFeedback as e:
        raise BadTree(f"{where}: {e}") from None
    if fb == game.win:
        raise BadTree(f"{where}: the answer {fb} ends the game, so it cannot lead to another guess")
    return fb


def _check_summary(doc: dict[str, Any], tree: DecisionTree) -> None:
    if tree.n_secrets > tree.game.n_codes:
        raise BadTree(
            f"the file is inconsistent: its tree solves {tree.n_secrets} secrets, "
            f"and {tree.game} has only {tree.game.n_codes} codes"
        )
    winners = [node.guess for node, _ in tree.root.walk() if node.wins]
    if len(set(winners)) != len(winners):
        raise BadTree("the file is inconsistent: the same secret is won at two places of its tree")
    actual = {"secrets": tree.n_secrets, "total_guesses": tree.total_guesses, "worst": tree.worst}
    for key, value in actual.items():
        if key not in doc:
            raise BadTree(f"the tree file lacks its summary figure {key!r}")
        if doc[key] != value or not _is_whole(doc[key]):
            raise BadTree(f"the file is inconsistent: it says {key} = {doc[key]!r}, but its tree gives {value}")


def _check_rules(tree: DecisionTree, mark_certain: bool = False) -> None:
    """Refuse a tree that breaks the game's rules: an answer that no secret left can give, a win
    claimed by a guess that no secret left can be, or a guess claimed certain with other secrets
    left. With ``mark_certain`` (a version 1 file), mark a winning guess certain when it is the
    only secret left."""
    game = tree.game

    def visit(node: Node, knowledge: Knowledge, path: list[str]) -> None:
        guess = game.format(node.guess)
        if node.wins and not knowledge.is_consistent(node.guess):
            raise BadTree(f"{_where(path)}: the guess {guess} is marked as winning, but no secret left is {guess}")
        if mark_certain:
            node.certain = node.wins and knowledge.n_consistent == 1
        if node.certain and knowledge.n_consistent != 1:
            raise BadTree(f"{_where(path)}: the guess {guess} is marked as certain, "
                          f"but {knowledge.n_consistent} secrets are left there")
        if node.size != knowledge.n_consistent:  # a file that leaves some secrets out (they load, and play)
            node.codes_left = knowledge.n_consistent
        parts = dict(knowledge.split(node.guess))
        for code, child in node.children.items():
            fb = Feedback.from_code(code, game.pegs)
            if code not in parts:
                raise BadTree(f"{_where(path)}: no secret left gives the guess {guess} the answer {fb}")
            visit(child, parts[code], path + [f"{guess} -> {fb}"])

    visit(tree.root, Knowledge.initial(game), [])


def save(tree: DecisionTree, path: str | os.PathLike[str], form: str | None = None) -> None:
    """Write ``tree`` to ``path`` in ``form`` (``json``, ``dot``, ``knuth`` or ``python``; by default
    the one of the file's extension, ``FORMAT_OF_SUFFIX``, else ``json``). ``load`` reads the
    ``mmlab-tree`` JSON back.

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> tree = DecisionTree.build(Game.parse_size("3x2"), "norvig:first=211")
    >>> save(tree, os.path.join(folder, "tree.json")); save(tree, os.path.join(folder, "tree.dot"))
    >>> load(os.path.join(folder, "tree.json")).worst
    3
    """
    if not isinstance(tree, DecisionTree):
        raise BadTree(f"save writes a DecisionTree, got {shown(tree)}; a plan's result saves its .tree")
    _check_path(path)
    form = form or format_of(path)
    if form not in WRITERS:
        raise BadArgument(f"cannot write a tree as {form!r}: choose one of {', '.join(WRITERS)}")
    text = WRITERS[form](tree)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text if text.endswith("\n") else text + "\n")


def format_of(path: str | os.PathLike[str]) -> str:
    """The format ``save`` writes to ``path``, from its extension.

    >>> format_of("knuth.txt"), format_of("t.gv"), format_of("tree")
    ('knuth', 'dot', 'json')
    """
    return FORMAT_OF_SUFFIX.get(os.path.splitext(os.fspath(path))[1].lower(), "json")


def _check_path(path: object) -> None:
    """Refuse a path that is no text or path: ``open(42)`` would use file descriptor 42."""
    if not isinstance(path, (str, os.PathLike)):
        raise BadTree(f"expected the path of a tree file, e.g. 'tree.json', got {shown(path)}")


def load(path: str | os.PathLike[str]) -> DecisionTree:
    """Read an ``mmlab-tree`` JSON file written by ``save``; raises ``BadTree`` naming ``path`` if it cannot."""
    _check_path(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise BadTree(f"{path}: no such tree file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BadTree(f"{path}: cannot read the tree file ({e})") from None
    try:
        return from_json(text)
    except BadTree as e:
        raise BadTree(f"{path}: {e}") from None


# ===================================================================== Graphviz
def to_dot(tree: DecisionTree) -> str:
    """Graphviz DOT: a box per guess (``code`` and ``n=`` secrets reaching it), bold double
    border where the guess wins; edges labelled ``black,white``.

    >>> to_dot(DecisionTree.build(Game.parse_size("3x2"), "norvig:first=211")).splitlines()[1]
    '  label="3x2 norvig:first=211: 8 secrets, 18 guesses, worst 3";'
    """
    _require_whole(tree)
    game = tree.game
    title = f"{game} {tree.strategy}".strip()
    title += f": {tree.n_secrets} secrets, {tree.total_guesses} guesses, worst {tree.worst}"
    lines = [
        "digraph mastermind {",
        f"  label={_dot_quote(title)};",
        "  labelloc=t;",
        "  node [shape=box, fontname=monospace];",
        "  edge [fontname=monospace, fontsize=10];",
    ]
    counter = iter(range(tree.n_nodes))

    def emit(node: Node) -> str:
        name = f"n{next(counter)}"
        style = ", style=bold, peripheries=2" if node.wins else ""
        label = _dot_quote(f"{game.format(node.guess)}\nn={node.size}")
        lines.append(f"  {name} [label={label}{style}];")
        for fb, child in _children_in_order(node, game):
            target = emit(child)
            answer = game.answer_text(fb)  # (as a black-only game is answered)
            lines.append(f"  {name} -> {target} [label={_dot_quote(answer)}];")
        return name

    emit(tree.root)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


# ===================================================================== Knuth 1976
def to_knuth(tree: DecisionTree, multiline: bool = True) -> str:
    """Knuth's condensed notation of the whole tree (reading given in the module docstring, with an
    example); ``multiline=False`` puts it on one line."""
    _require_whole(tree)
    if not multiline:
        return knuth_node(tree.root, tree.game)
    node, game = tree.root, tree.game
    entries = _knuth_entries(node, game)
    body = ",\n".join("  " + e for e in entries)
    return f"{node.size}({game.format(node.guess)}:\n{body}\n)"


def knuth_node(node: Node, game: Game) -> str:
    """One node (and its subtree) in Knuth's notation, on one line."""
    return f"{node.size}({game.format(node.guess)}: {', '.join(_knuth_entries(node, game))})"


def _knuth_entries(node: Node, game: Game) -> list[str]:
    out = []
    for fb in game.feedbacks():
        if fb == game.win:
            out.append("*" if node.wins else "-")
            continue
        child = node.children.get(fb.code(game.pegs))
        if child is None:
            out.append("-")
        elif child.size == 1 and child.wins:
            out.append(f"1({game.format(child.guess)})")
        else:
            out.append(knuth_node(child, game))
    return out


# ===================================================================== Python source
#: Deepest tree written as Python: one indented block per guess, and CPython's parser allows 100.
PYTHON_MAX_GUESSES = 95


def to_python(tree: DecisionTree, name: str = "master_mind") -> str:
    """Source of ``def name(answer)``, which plays the tree (after Norvig's generated Lisp).

    ``answer(guess)`` receives a code string and returns ``(black, white)`` (in a game that counts
    black pegs only, the number of black pegs); the function returns the secret as a string and
    raises ``ValueError`` on answers no secret of the tree can give.

    >>> game, namespace = Game.parse_size("3x2"), {}
    >>> exec(to_python(DecisionTree.build(game, "norvig:first=211")), namespace)
    >>> namespace["master_mind"](lambda guess: tuple(game.score(game.parse("221"), game.parse(guess))))
    '221'
    """
    _require_whole(tree)
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"{name!r} is not a valid Python function name")
    if tree.worst > PYTHON_MAX_GUESSES:
        raise BadTree(f"the tree needs up to {tree.worst} guesses, one nested block each, and Python compiles at most "
                      f"about 100 nested blocks: write it as JSON instead (--format json)")
    game = tree.game
    strategy = _docstring_safe(tree.strategy or "stored")
    example = game.format(tree.root.guess)
    doc = [
        f'    """Play Mastermind {game} with the {strategy} decision tree (generated by mmlab).',
        "",
        f"    {tree.n_secrets} secrets, {tree.total_guesses} guesses in all, {tree.worst} at worst.",
        "",
        f"    Call ``{name}(answer)``: ``answer(guess)`` receives a guess such as {example!r}",
        "    and returns " + ("(black, white)." if game.with_white else "the number of black pegs (right colour, "
                                                                       "right place).")
        + " Returns the secret as a string;",
        "    raises ValueError on answers that no secret can give.",
        '    """',
    ]
    lines = [f"def {name}(answer):", *doc]
    _python_node(tree.root, game, 1, [], lines)
    return "\n".join(lines) + "\n"


def _python_answer(fb: Feedback, game: Game) -> str:
    """An answer as the generated player compares it: ``(1, 2)``, or ``1`` in a black-only game."""
    return repr(tuple(fb)) if game.with_white else repr(fb.black)


def _docstring_safe(text: str) -> str:
    """``text`` escaped so that it cannot end a triple-quoted docstring."""
    return repr(text)[1:-1].replace('"', '\\"')


def _python_node(node: Node, game: Game, depth: int, path: list[str], lines: list[str]) -> None:
    pad = "    " * depth
    guess = game.format(node.guess)
    if game.with_white:
        lines.append(f"{pad}black, white = answer({guess!r})")
        said, told = "(black, white)", "{black},{white}"
    else:  # answered by the black pegs alone
        lines.append(f"{pad}black = answer({guess!r})")
        said, told = "black", "{black}"
    branch = "if"
    if node.wins:
        lines.append(f"{pad}if {said} == {_python_answer(game.win, game)}:")
        lines.append(f"{pad}    return {guess!r}")
        branch = "elif"
    for fb, child in _children_in_order(node, game):
        lines.append(f"{pad}{branch} {said} == {_python_answer(fb, game)}:")
        said_as = game.answer_text(fb)
        _python_node(child, game, depth + 1, path + [f"{guess} -> {said_as}"], lines)
        branch = "elif"
    context = f"after {'; '.join(path)}, " if path else ""
    message = f"inconsistent answers: {context}no secret gives {told} to {guess}"
    if branch == "elif":
        lines.append(f"{pad}else:")
        lines.append(f"{pad}    raise ValueError(f{message!r})")
    else:
        lines.append(f"{pad}raise ValueError(f{message!r})")


#: The format of a tree file by its extension (``save``, ``mmlab tree -o``); JSON for any other.
FORMAT_OF_SUFFIX = {".json": "json", ".dot": "dot", ".gv": "dot", ".py": "python", ".txt": "knuth"}
#: Each format's writer.
WRITERS: dict[str, Callable[[DecisionTree], str]] = {"json": to_json, "dot": to_dot, "knuth": to_knuth,
                                                     "python": to_python}
