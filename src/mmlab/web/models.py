"""The JSON bodies of the web API (requests and answers), which FastAPI's OpenAPI schema documents.

Codes travel as text as mmlab prints them: ``"1122"``, or space-separated past 9 colours
(``"10 2 11 1"``); requests may also write them ``"1 1 2 2"`` or ``"AABB"``.

>>> NewGame(size="5x8", role="codemaker").strategy is None
True
>>> AnswerIn(answer="BWW").black is None
True
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

#: What the answers count, named as ``Game.feedback`` names it (as ``repeats`` is ``Game.repeats``).
FeedbackKind = Literal["black-white", "black", "higher-lower", "euclidean", "manhattan"]
FEEDBACK = ("what each answer counts: black-white (pegs right in colour and place, and pegs right in colour "
            "only), black (pegs right in colour and place only, as 'mmlab play --black-only'), or one of MathMind's "
            "(codebreaker role only, colours read as the values 1..m, as 'mmlab mathmind guess'): higher-lower "
            "(black pegs, then how many other pegs must go up in value, the rest down), euclidean (the squared "
            "distance between guess and secret), manhattan (the sum of the pegs' absolute differences)")
#: The kinds above that make a MathMind game (``mmlab.variants.mathmind.FEEDBACKS``).
MATHMIND_FEEDBACKS = ("higher-lower", "euclidean", "manhattan")
#: What an answer's ``black`` and ``white`` are in a MathMind game, which counts no white pegs.
NO_PEGS = " (null in a MathMind game: see reply)"
REPLY = Field(description="the answer in words, e.g. '1 black, 2 white', '1 black, 2 higher, 1 lower' or 'distance² 14'")


class Request(BaseModel):
    """A request body: unknown fields are refused, so a misspelt one is not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class NewGame(Request):
    size: str = Field("4x6", description="PEGSxCOLOURS, e.g. 4x6 (standard) or 5x8 (Super Mastermind)")
    role: Literal["codebreaker", "codemaker"] = Field(
        "codebreaker", description="codebreaker: you guess mmlab's secret; codemaker: you keep a secret and answer")
    strategy: str | None = Field(None, description="strategy spec that guesses (codemaker) or gives hints "
                                                   "(codebreaker), e.g. knuth or most-parts:ties=first; "
                                                   "in a MathMind game one of knuth, irving, most-parts, entropy; "
                                                   "default knuth")
    secret: str | None = Field(None, description="codebreaker role: the secret to find (default: drawn at random)")
    repeats: StrictBool = Field(True, description="whether a code may repeat a colour")
    feedback: FeedbackKind = Field("black-white", description=FEEDBACK)
    seed: StrictInt | None = Field(None, ge=0, description="seed of the random secret and of random strategies")


SEEN_MOVES = Field(None, ge=0, description="the number of moves the game had when you looked (optional): the "
                                           "move is refused (409) if another was made since, e.g. by a double "
                                           "click or a second tab")


class MoveRequest(Request):
    """A request that makes or takes back a move."""

    seen_moves: StrictInt | None = SEEN_MOVES


class GuessIn(MoveRequest):
    code: str = Field(description="your guess, e.g. 1122, '1 1 2 2' or AABB")


class AnswerIn(MoveRequest):
    black: StrictInt | None = Field(None, description="pegs right in colour and place")
    white: StrictInt | None = Field(None, description="pegs right in colour only (0 or left out in a game of "
                                                      "black feedback)")
    answer: str | None = Field(None, description="instead of black and white: '1 2', '1,2' or pegs 'BWW'")


class UndoIn(MoveRequest):
    pass


class CorrectionIn(AnswerIn):
    move: StrictInt = Field(description="the number (1-based) of the guess whose answer is corrected")


class Answer(BaseModel):
    black: int
    white: int


class Move(BaseModel):
    move: int
    guess: str
    black: int | None = Field(description="pegs right in colour and place" + NO_PEGS)
    white: int | None = Field(description="pegs right in colour only" + NO_PEGS)
    reply: str = REPLY
    remaining: int = Field(description="codes that fit every answer up to this move")


class GameState(BaseModel):
    id: str
    size: str
    pegs: int
    colours: int
    repeats: bool
    feedback: FeedbackKind = Field(description=FEEDBACK)
    role: Literal["codebreaker", "codemaker"]
    strategy: str = Field(description="the strategy that guesses (codemaker) or gives hints (codebreaker)")
    deterministic: bool = Field(description="whether that strategy has a decision tree (GET .../path)")
    moves: list[Move]
    remaining: int = Field(description="codes that fit every answer so far")
    won: bool
    over: bool
    gave_up: bool
    secret: str | None = Field(description="the codebreaker role's secret, once the game is over")
    next_guess: str | None = Field(description="codemaker role: mmlab's guess awaiting your answer")
    improvised: bool = Field(description="codemaker role: the strategy could not follow a corrected history, "
                                         "so mmlab plays codes that fit the answers instead")
    answers: list[Answer] = Field(description="every answer this game can give (empty in a MathMind game)")
    rule_guesses: int | None = Field(None, description="a MathMind game, once over: the guesses its strategy (the "
                                                       "hints' rule) needs for this secret")
    idle_minutes: float = Field(description="the game is dropped after this long without a request")


class AnswerClass(BaseModel):
    black: int | None = Field(description="pegs right in colour and place" + NO_PEGS)
    white: int | None = Field(description="pegs right in colour only" + NO_PEGS)
    reply: str = REPLY
    win: bool = Field(description="whether this answer ends the game")
    codes: int = Field(description="remaining codes that would give this answer")


class PartitionTable(BaseModel):
    guess: str
    candidates: int = Field(description="codes remaining before the guess")
    consistent: bool = Field(description="whether the guess fits every answer (it may be the secret)")
    parts: int = Field(description="non-empty answer classes")
    largest: int
    expected_size: float = Field(description="expected size of the class the secret falls into")
    entropy_bits: float
    classes: list[AnswerClass] = Field(description="every possible answer, the winning one first (in a MathMind "
                                                   "game, only the answers some code left gives)")


class HintOut(BaseModel):
    remaining: int
    strategy: str
    suggestion: str
    options: list[PartitionTable] = Field(description="the suggestion's table first, then other top scorers")


class Candidates(BaseModel):
    remaining: int
    codes: list[str]


class PathNode(BaseModel):
    depth: int
    guess: str
    remaining: int = Field(description="codes still possible at this node")
    parts: int = Field(description="answer classes the guess splits them into")
    answer: Answer | None = Field(description="your answer; null for the guess awaiting it")
    strategy_move: bool = Field(description="whether the guess is the strategy's move at this node (false after "
                                            "an earlier answer was corrected)")


class TreePath(BaseModel):
    strategy: str
    nodes: list[PathNode]
    on_tree: bool = Field(description="whether every guess so far is the strategy's move")


class StrategyInfo(BaseModel):
    name: str
    summary: str
    deterministic: bool = Field(description="with its default parameters")


class ServerInfo(BaseModel):
    max_games: int
    max_codes: int
    max_mathmind_codes: int = Field(description="the most codes of a MathMind game here: max_codes, or "
                                                "MathMind's own limit when lower")
    idle_minutes: float
    live_games: int
    default_strategy: str
    strategies: list[StrategyInfo]


class FieldProblem(BaseModel):
    loc: list[str | int] = Field(description="where in the request, e.g. ['body', 'black']")
    msg: str


class Problem(BaseModel):
    detail: str = Field(description="what went wrong and what to do")
    error: str = Field(description="the kind of error, e.g. BadCode, InconsistentFeedback, GameNotFound, "
                                   "MalformedRequest")
    errors: list[FieldProblem] | None = Field(None, description="MalformedRequest: each field's problem")
