"""Errors of the web server, each with the HTTP status it is answered with.

Every other ``MastermindError`` (a bad code, an impossible answer, an unknown strategy) is a 422,
and contradictory answers are a 409.

>>> status_of(GameNotFound("no game with id 'x'"))
404
>>> from mmlab.errors import BadCode, InconsistentFeedback
>>> status_of(BadCode("code '12': ...")), status_of(InconsistentFeedback("..."))
(422, 409)
"""

from __future__ import annotations

from mmlab.errors import InconsistentFeedback, MastermindError


class WebError(MastermindError):
    """An error of the web server; ``status`` is its HTTP status."""

    status = 422


class GameNotFound(WebError):
    """No live game has this id: it never existed, was left, or expired."""

    status = 404


class GameTooLarge(WebError):
    """The game has more codes than the server plays."""

    status = 422


class TooManyGames(WebError):
    """The server holds as many live games as it may."""

    status = 429


class WrongRole(WebError):
    """A request for the other role: a guess in a codemaker game, an answer in a codebreaker game."""

    status = 409


class GameOver(WebError):
    """A move in a game that has ended."""

    status = 409


class TooManyMoves(WebError):
    """A move in a game that holds as many moves as the server keeps."""

    status = 409


class StaleRequest(WebError):
    """A move asked for on a view of the game that another move has changed since."""

    status = 409


class GameBusy(WebError):
    """An earlier request on the same game (a hint, mmlab's move) still runs."""

    status = 503


class ServerStopping(WebError):
    """The server was stopped while the request ran: it is abandoned."""

    status = 503


def status_of(error: MastermindError) -> int:
    """The HTTP status of a user's mistake."""
    if isinstance(error, WebError):
        return error.status
    if isinstance(error, InconsistentFeedback):
        return 409
    return 422
