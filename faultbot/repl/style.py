"""Colours: a conclusion's confidence (green sure, yellow likely, red doubtful) and the prompt's look."""

from __future__ import annotations

from prompt_toolkit.styles import Style

_LEVELS = ((0.8, "green"), (0.5, "yellow"), (0.0, "red"))

PROMPT_STYLE = Style.from_dict({
    "prompt": "bold",
    "question": "bold ansicyan",
    "bottom-toolbar": "noreverse bg:ansibrightblack fg:ansiwhite",
    "toolbar.green": "fg:ansibrightgreen bold",
    "toolbar.yellow": "fg:ansibrightyellow bold",
    "toolbar.red": "fg:ansibrightred bold",
})


def confidence_colour(confidence: float) -> str:
    return next(colour for threshold, colour in _LEVELS if confidence >= threshold)
