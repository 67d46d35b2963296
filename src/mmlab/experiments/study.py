"""A study: strategies x sizes x secrets x runs, with one seed, read from a TOML file.

Every strategy plays the same secrets, and game ``(run, slot)`` draws its choices from
``numpy.random.default_rng([seed, run, slot])`` whichever strategy plays it, so comparisons are
paired and a study is reproduced from its file. A deterministic strategy plays each secret once
(run 0): more runs would repeat its games.

>>> study = Study.from_toml('''
... name = "demo"
... sizes = ["3x4"]
... strategies = ["knuth", "random"]
... secrets = "all"
... runs = 2
... seed = 7
... ''')
>>> study.n_games   # knuth plays the 64 secrets once, random twice
192
"""

from __future__ import annotations

import hashlib
import json
import numbers
import re
import tomllib
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from mmlab.errors import ECHO_CHARS, BadStudy, MastermindError, shown
from mmlab.experiments.secret_sets import SecretSet
from mmlab.game import Game

if TYPE_CHECKING:
    from mmlab.strategies import Strategy

KEYS = {
    "name": "the study's name, its key in the store (letters, digits, - _ .)",
    "description": "free text",
    "sizes": 'game sizes, e.g. ["4x6", "4x8"]',
    "strategies": 'strategy specs, e.g. ["entropy:pool=consistent,ties=random,first=1231"]',
    "secrets": '"all", N (a sample of N distinct codes), "instance:N" (each code once or twice) or a list of distinct codes',
    "runs": "games per secret (a positive whole number; deterministic strategies play each secret once)",
    "seed": "the seed of every random choice (a whole number, 0 or more)",
    "repeats": "whether codes may repeat a colour (true or false)",
    "feedback": '"black-white" or "black"',
    "max_guesses": "give up a game after this many guesses (default: never)",
}
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
MAX_GAMES = 10**7  # games in a study: planning them takes about 135 bytes each (26 million took 3.5 GB)
_STORED: ContextVar[bool] = ContextVar("stored", default=False)  # reading a study back from a store (Study.stored)


@dataclass(frozen=True)
class Study:
    """The definition of an experiment; ``games()`` lists what it plays.

    >>> Study("demo", ["4x6"], ["knuth", "random"], secrets=200).secrets
    SecretSet(kind='sample', n=200, codes=())
    """

    name: str
    sizes: tuple[str, ...]
    strategies: tuple[str, ...]
    secrets: SecretSet = SecretSet("all")
    runs: int = 1
    seed: int = 0
    repeats: bool = True
    feedback: str = "black-white"
    max_guesses: int | None = None
    description: str = ""
    source: str = field(default="", compare=False)  # the TOML text it was read from

    def __post_init__(self) -> None:
        """Take the plain values a study made in Python may give (``secrets=200``, lists of sizes),
        and check every value against the games before anything runs, as a study file is checked;
        a bad one raises ``BadStudy`` naming its key."""
        if not isinstance(self.secrets, SecretSet):
            given = list(self.secrets) if isinstance(self.secrets, tuple) else self.secrets
            try:
                object.__setattr__(self, "secrets", SecretSet.parse(given))
            except MastermindError as e:
                raise _refused("secrets", str(e)) from None
        for key in ("sizes", "strategies"):
            value = getattr(self, key)
            if isinstance(value, str):
                raise BadStudy(f"{key} must be a list, e.g. [{value!r}], not the string {shown(value)}")
            object.__setattr__(self, key, tuple(value))
        for key in ("runs", "seed", "max_guesses"):  # numpy's whole numbers too (np.int64(3)), as Python's
            value = getattr(self, key)
            if isinstance(value, numbers.Integral) and not isinstance(value, bool):
                object.__setattr__(self, key, int(value))
        self._check_values()
        self._check_games()

    def _check_values(self) -> None:
        """Refuse a value of the wrong kind or out of range (``BadStudy`` naming the key)."""
        if not isinstance(self.name, str) or not NAME.match(self.name):
            raise _refused("name", f"{toml_text(self.name)} is not a usable name")
        for key in ("sizes", "strategies"):
            value = getattr(self, key)
            if not value or not all(isinstance(v, str) and v.strip() for v in value):
                raise _refused(key, f"{toml_text(list(value))} is not a non-empty list of strings")
        if type(self.runs) is not int or self.runs < 1:
            raise _refused("runs", f"{toml_text(self.runs)} is not a positive whole number")
        if type(self.seed) is not int or not 0 <= self.seed < 2**63:
            raise _refused("seed", f"{toml_text(self.seed)} is not a whole number from 0 to 2**63 - 1")
        if not isinstance(self.repeats, bool):
            raise _refused("repeats", f"{toml_text(self.repeats)} is not true or false")
        if self.feedback not in ("black-white", "black"):
            raise _refused("feedback", f"{toml_text(self.feedback)} is not allowed")
        if self.max_guesses is not None and (type(self.max_guesses) is not int or self.max_guesses < 1):
            raise _refused("max_guesses", f"{toml_text(self.max_guesses)} is not a positive whole number")
        if not isinstance(self.description, str):
            raise _refused("description", "not a string")

    def _check_games(self) -> None:
        """Refuse a size that is no game or is listed twice, a strategy that is unknown, listed twice
        or cannot play one of the sizes, and secrets the games cannot give or listed twice."""
        games = []
        for size in self.sizes:
            try:
                games.append(Game.parse_size(size, repeats=self.repeats, feedback=self.feedback))
            except MastermindError as e:
                raise _refused("sizes", str(e)) from None
        sizes = [g.size for g in games]
        if len(set(sizes)) != len(sizes):  # "4X6 " and "4x6" are one size
            raise _refused("sizes", f"a size is listed twice: {_twice(sizes)}")
        # (imported here, as in canonical and _made: reading a store's studies needs no engine)
        from mmlab.strategies import make_strategy

        players = []
        for spec in self.strategies:
            try:
                players.append(make_strategy(spec))
            except MastermindError as e:
                if not _STORED.get():
                    raise _refused("strategies", str(e)) from None
                players.append(None)  # played by a strategy this session does not know (unknown_strategies)
        known = [p.spec for p in players if p is not None]
        if len(set(known)) != len(known) and not _STORED.get():  # (mmlab took two spellings before 2026-11-23)
            twice = _twice(known)
            spelt = list(dict.fromkeys(spec.strip() for spec, p in zip(self.strategies, players, strict=True)
                                       if p is not None and p.spec == twice))
            raise _refused("strategies", f"a strategy is listed twice: {twice}" if len(spelt) == 1 else
                           f"a strategy is listed twice: {' and '.join(shown(x) for x in spelt)} are both {twice} "
                           "(default parameters spelt out or not)")
        secrets = 0
        for game in games:
            try:
                drawn = self.secrets.draw(game, self.seed)
            except MastermindError as e:
                raise _refused("secrets", str(e)) from None
            if self.secrets.kind == "list" and not _STORED.get():  # ("1234", "1 2 3 4": one code)
                codes, counts = np.unique(drawn, return_counts=True)
                if counts.max() > 1:
                    raise _refused("secrets", f"the secret {game.format(int(codes[counts > 1][0]))} is listed twice")
            secrets += drawn.shape[0]
            for spec, player in zip(self.strategies, players):
                if player is None:
                    continue
                try:
                    player.start(game)  # refuses a game the strategy cannot play, before anything runs
                except MastermindError as e:
                    raise _refused("strategies", f"{spec} cannot play {game}: {e}") from None
        n_games = secrets * sum(1 if p is not None and p.deterministic else self.runs for p in players)
        if n_games > MAX_GAMES and not _STORED.get():
            raise _refused("runs" if self.runs > 1 else "secrets",
                           f"the study plays {n_games:,} games (secrets of each size, times runs of each strategy), "
                           f"more than the {MAX_GAMES:,} a study may hold: fewer runs or secrets, or several studies")

    # ------------------------------------------------------------------ reading
    @staticmethod
    def from_toml(text: str, where: str = "study") -> "Study":
        """The study a TOML text describes (``load`` reads a file); a malformed text or a bad value
        raises ``BadStudy`` naming the key and its line, with ``where`` (the file) first.

        >>> Study.from_toml('name = "d"\\nsizes = ["3x3"]\\nstrategies = ["knuth"]\\nruns = 0', "d.toml")
        Traceback (most recent call last):
        mmlab.errors.BadStudy: d.toml, line 4: runs: 0 is not a positive whole number (expected games per secret (a positive whole number; deterministic strategies play each secret once))
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise BadStudy(f"{where}: not valid TOML: {e}") from None
        return Study.from_dict(data, where, text)

    @staticmethod
    def load(path: str | Path) -> "Study":
        """Read the study file at ``path`` (TOML, keys as in docs/experiments.md).

        Example: ``run_study(Study.load("studies/merelo-4x6.toml"), "mmlab-results.duckdb")``;
        an unreadable file or a bad value raises ``BadStudy`` naming the file, line and key.
        """
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise BadStudy(f"cannot read the study file {str(path)!r}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise BadStudy(f"the study file {str(path)!r} is not UTF-8 text (TOML files are)") from None
        return Study.from_toml(text, str(path))

    @staticmethod
    def from_dict(data: dict[str, Any], where: str = "study", text: str = "") -> "Study":
        """The study of a dict of a study file's keys; ``where`` and ``text`` (the file's name and
        TOML text) name the file and line of a bad value."""
        def fail(key: str, problem: str) -> BadStudy:
            line = _line_of(text, key)
            at = f", line {line}" if line else ""
            expected = f" (expected {KEYS[key]})" if key in KEYS else ""
            return BadStudy(f"{where}{at}: {key}: {problem}{expected}", key, problem)

        for key in data:
            if key not in KEYS:
                raise fail(key, f"unknown key; the keys are {', '.join(KEYS)}")
        for key in ("name", "sizes", "strategies"):
            if key not in data:
                raise BadStudy(f"{where}: the key {key!r} is missing ({key}: {KEYS[key]})")
        sizes = _list_of_strings(data["sizes"], lambda p: fail("sizes", p))
        strategies = _list_of_strings(data["strategies"], lambda p: fail("strategies", p))
        secrets = data.get("secrets", "all")
        if isinstance(secrets, bool) or not isinstance(secrets, (str, int, list)):
            raise fail("secrets", f"{toml_text(secrets)} is not a set of secrets")
        try:
            # (a stored study keeps its sizes as written: mmlab's first studies wrote "4X6" so in their games too)
            sizes = sizes if _STORED.get() else tuple(_size_text(s) for s in sizes)
            return Study(data["name"], sizes, strategies, secrets,
                         data.get("runs", 1), data.get("seed", 0), data.get("repeats", True),
                         data.get("feedback", "black-white"), data.get("max_guesses"), data.get("description", ""),
                         text)
        except BadStudy as e:
            if e.key is None:
                raise
            raise fail(e.key, e.problem) from None

    @staticmethod
    def stored(data: dict[str, Any], where: str, text: str = "") -> Study:
        """A study a store holds, read back (``from_dict``): checked as a new one is, but what earlier
        mmlab took stands as it was played: a list of secrets with one listed twice, a strategy in
        two spellings (``knuth`` and ``knuth:ties=first``), sizes as they were written (``4X6``, as
        its games name them); and so does a strategy this session cannot make
        (``unknown_strategies``): one registered in the Python session that played it, or known to
        another version of mmlab."""
        token = _STORED.set(True)
        try:
            return Study.from_dict(data, where, text)
        finally:
            _STORED.reset(token)

    # ------------------------------------------------------------------ content
    def game(self, size: str) -> Game:
        return Game.parse_size(size, repeats=self.repeats, feedback=self.feedback)

    def runs_of(self, spec: str) -> int:
        """Runs a strategy plays: a deterministic one plays each secret once, its games would repeat
        (one this session cannot make, in a stored study, is counted with every run)."""
        player = _made(spec)
        return 1 if player is not None and player.deterministic else self.runs

    def unknown_strategies(self) -> list[str]:
        """The strategies of a stored study (``stored``) that this session cannot make: registered in
        the Python session that played them, or known to another version of mmlab. Their stored
        games are reported as they are; ``[]`` for a study made here, which refuses them.

        >>> Study.stored({"name": "s", "sizes": ["3x3"], "strategies": ["knuth", "mine"]}, "s").unknown_strategies()
        ['mine']
        """
        return [spec for spec in self.strategies if _made(spec) is None]

    def exact_mean(self, spec: str, size: str, games: int) -> bool:
        """Whether ``games`` stored games of ``spec`` at ``size`` give an exact mean: a deterministic
        strategy has played every code once (every secret of the study, and they are every code:
        ``all``, or a sample as large as the game)."""
        game = self.game(size)
        player = _made(spec)
        if not (player is not None and player.deterministic and games == game.n_codes):
            return False
        return self.secrets.kind == "all" or np.unique(self.secrets.draw(game, self.seed)).shape[0] == game.n_codes

    @property
    def n_games(self) -> int:
        per_size = sum(self.secrets.draw(self.game(s), self.seed).shape[0] for s in self.sizes)
        return per_size * sum(self.runs_of(spec) for spec in self.strategies)

    def definition(self) -> dict[str, Any]:
        """Everything that decides the results, as plain data (what the store keeps and compares)."""
        return {
            "name": self.name,
            "sizes": list(self.sizes),
            "strategies": list(self.strategies),
            "secrets": str(self.secrets) if self.secrets.kind != "list" else list(self.secrets.codes),
            "runs": self.runs,
            "seed": self.seed,
            "repeats": self.repeats,
            "feedback": self.feedback,
            "max_guesses": self.max_guesses,
        }

    def canonical(self) -> "Study":
        """The same games in one spelling: strategy specs as ``make_strategy`` writes them (defaults
        left out), a set holding every code of each size as ``all``, and, when every strategy is
        deterministic, one run, and seed 0 unless it draws the secrets. ``mmlab compare`` names its
        studies by this, so comparisons spelt differently are one study (the order of the sizes and
        strategies is kept: the tables follow it).

        >>> Study("c", ("4x5",), ("knuth:pool=all,ties=first",), secrets=99999, runs=4, seed=5).canonical().definition()
        {'name': 'c', 'sizes': ['4x5'], 'strategies': ['knuth'], 'secrets': 'all', 'runs': 1, 'seed': 0, \
'repeats': True, 'feedback': 'black-white', 'max_guesses': None}
        """
        from mmlab.strategies import make_strategy

        players = [make_strategy(spec) for spec in self.strategies]
        specs = tuple(player.spec for player in players)
        every = self.secrets.kind != "list" and all(self.secrets.every_code(self.game(s)) for s in self.sizes)
        secrets = SecretSet("all") if every else self.secrets
        deterministic = all(player.deterministic for player in players)
        runs = 1 if deterministic else self.runs
        seed = 0 if deterministic and secrets.kind in ("all", "list") else self.seed
        return replace(self, strategies=specs, secrets=secrets, runs=runs, seed=seed)

    @property
    def fingerprint(self) -> str:
        """A hash of ``definition()``: two studies with one name must have the same fingerprint."""
        return hashlib.sha256(json.dumps(self.definition(), sort_keys=True).encode()).hexdigest()[:16]


def _made(spec: str) -> Strategy | None:
    """The strategy ``spec`` names, or ``None`` when this session cannot make it (a stored study's,
    ``Study.unknown_strategies``)."""
    from mmlab.strategies import make_strategy

    try:
        return make_strategy(spec)
    except MastermindError:
        return None


def _refused(key: str, problem: str) -> BadStudy:
    """The error of a bad value of ``key`` in a study made in Python (``from_dict`` names the file
    and line instead of ``study``)."""
    expected = f" (expected {KEYS[key]})" if key in KEYS else ""
    return BadStudy(f"study: {key}: {problem}{expected}", key, problem)


def _twice(names: list[str]) -> str:
    """The first of ``names`` that comes again.

    >>> _twice(["4x6", "5x8", "4x6"])
    '4x6'
    """
    return next(name for k, name in enumerate(names) if name in names[:k])


def _size_text(size: str) -> str:
    """``size`` as mmlab writes it ("4X6 " is "4x6"), or as given when it is no size (the study's
    check says why)."""
    try:
        return Game.parse_size(size).size
    except MastermindError:
        return size


def _list_of_strings(value: Any, fail) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise fail(f"{toml_text(value)} is not a non-empty list of strings")
    return tuple(v.strip() for v in value)


def toml_text(value: Any) -> str:
    """``value`` as a TOML file spells it, for a message naming what a file holds; its middle
    elided when long.

    >>> toml_text(True), toml_text("two"), toml_text([1, "a"]), toml_text({"x": 1.5})
    ('true', '"two"', '[1, "a"]', '{x = 1.5}')
    """
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    elif isinstance(value, (list, tuple)):
        text = "[" + ", ".join(toml_text(v) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k} = {toml_text(v)}" for k, v in value.items()) + "}"
    else:
        text = shown(value)
    return text if len(text) <= ECHO_CHARS else f"{text[:ECHO_CHARS // 2 - 2]} ... {text[-(ECHO_CHARS // 2 - 3):]}"


def _line_of(text: str, key: str) -> int | None:
    """The line where ``key`` is set, or its ``[key]`` table opens, in a TOML text (1-based), if it is there.

    >>> _line_of('name = "a"\\n[extra]\\nx = 1', "extra")
    2
    """
    key = re.escape(key)
    pattern = re.compile(rf"^\s*(?:{key}\s*=|\[\[?\s*{key}\s*\]\]?)")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return None
