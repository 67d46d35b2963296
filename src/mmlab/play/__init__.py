"""Playing with a person: the game sessions and the terminal dialogue."""

from mmlab.play.session import CodebreakerSession, CodemakerSession, Hint

__all__ = ["CodebreakerSession", "CodemakerSession", "Hint"]
