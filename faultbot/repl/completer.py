"""Tab completion: command names (with their help), their arguments (entry ids, candidates, export
options and paths), the pending question's choices, and otherwise entry ids, fact names and
error codes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document

from ..engine.questions import Question
from .commands import COMMANDS, find

EXPORT_OPTIONS = ("--redact", "--as-case")
MIN_WORD = 2      # complete free text only from this many characters on


def _matching(word: str, candidates: Iterable[str], meta: str = "") -> Iterable[Completion]:
    lowered = word.lower()
    for candidate in dict.fromkeys(candidates):
        if candidate.lower().startswith(lowered) and candidate != word:
            yield Completion(candidate, start_position=-len(word), display_meta=meta)


class ChatCompleter(Completer):
    def __init__(self, vocabulary: Sequence[tuple[str, Sequence[str]]], pending: Callable[[], Question | None],
                 candidates: Callable[[], Sequence[str]], entry_ids: Sequence[str]):
        self.vocabulary = vocabulary     # (what it is, words): entry ids, fact names, error codes
        self.pending = pending
        self.candidates = candidates
        self.entry_ids = entry_ids
        self.paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        if "\n" in text:
            return    # a pasted log: nothing to complete
        if text.startswith("/"):
            yield from self._command(text, document, complete_event)
            return
        question = self.pending()
        if question is not None:
            yield from _matching(text.lstrip(), [*question.choices, "unknown", "skip"], question.fact)
            return
        word = document.get_word_before_cursor(WORD=True)
        if len(word) >= MIN_WORD:
            for meta, words in self.vocabulary:
                yield from _matching(word, words, meta)

    def _command(self, text: str, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        name, space, argument = text[1:].partition(" ")
        if not space:
            for command in COMMANDS:
                if command.name.startswith(name.lower()):
                    yield Completion(f"/{command.name}", start_position=-len(text), display_meta=command.help)
            return
        command = find(name.lower())
        word = document.get_word_before_cursor(WORD=True)
        if command is None:
            return
        if command.completes == "entry":
            yield from _matching(argument.strip(), self.entry_ids, "entry")
        elif command.completes == "candidate":
            yield from _matching(argument.strip(), self.candidates(), "candidate")
        elif command.completes == "export":
            if word.startswith("-"):
                yield from _matching(word, EXPORT_OPTIONS, "option")
            else:
                yield from self.paths.get_completions(Document(word, len(word)), event)
