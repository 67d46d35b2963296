"""The browser front end: a JSON API over live game sessions, and one page that plays it.

``create_app`` (in ``mmlab.web.app``) builds the FastAPI application that ``mmlab serve`` runs;
it is imported on first use, so that importing ``mmlab.web.games`` does not load the web stack.
"""

from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str):
    if name == "create_app":
        from mmlab.web.app import create_app

        return create_app
    raise AttributeError(f"module 'mmlab.web' has no attribute {name!r}")
