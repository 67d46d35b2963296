"""What the codebreaker knows: the history of answers and the codes consistent with it."""

from mmlab.knowledge.knowledge import Knowledge, minimal_contradiction

__all__ = ["Knowledge", "minimal_contradiction"]
