"""A regex matching any of many literal phrases, written as a tree of their common beginnings:
each branch point tries at most one branch per next character, so a text is read once however
many phrases there are (a thousand host names, the vocabulary's synonyms), and where phrases
share a beginning the longest is taken."""

from __future__ import annotations

import re


def any_of(phrases: list[str]) -> str:
    """The pattern (without anchors or word boundaries: the caller adds what it needs)."""
    root: dict[str, dict] = {}
    for phrase in phrases:
        node = root
        for char in phrase:
            node = node.setdefault(char, {})
        node[""] = {}

    def written(node: dict[str, dict]) -> str:
        branches = [re.escape(char) + written(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return written(root)
