"""What the codebreaker knows: the history of answers and the codes consistent with it."""

from mmlab.knowledge.knowledge import Knowledge, contradiction_message, is_member, minimal_contradiction

__all__ = ["Knowledge", "contradiction_message", "is_member", "minimal_contradiction"]
