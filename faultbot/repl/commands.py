"""The chat's slash commands, all in one registry: it dispatches them, writes /help and drives
completion (as litecli does)."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from difflib import get_close_matches
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from ..atomic_files import write_atomically
from ..case_export import case_document
from ..engine.candidates import Status
from ..qa.answer import suggestions
from ..render.answer_markdown import sources_markdown
from ..render.diagnosis_markdown import how_markdown
from ..render.entry_markdown import entry_markdown
from ..render.safe_text import code_span, one_line
from ..session import StepKind
from . import views
from .redact import redact
from .reply import Reply
from .report import report_markdown

if TYPE_CHECKING:
    from ..kb.loader import KnowledgeBase
    from .chat import Chat

SEARCH_HITS = 6


class Command(msgspec.Struct, frozen=True):
    name: str
    args: str
    help: str
    handler: Callable[[Chat, str], Reply]
    completes: str = ""      # what its argument completes with: "entry", "candidate", "export" or nothing


def _help(chat: Chat, arg: str) -> Reply:
    return Reply(help_markdown())


def _why(chat: Chat, arg: str) -> Reply:
    if chat.pending is None:
        return Reply("Nothing is being asked now. `/how` shows how the conclusion was reached.")
    return Reply(views.question_block(chat.pending, explain=True))


def _how(chat: Chat, arg: str) -> Reply:
    diagnosis = chat.diagnosis
    if not arg:
        if diagnosis.top is None:
            return Reply(error="no conclusion yet: paste the failing rank's log first")
        return Reply("\n".join(how_markdown(diagnosis.top, diagnosis)))
    known = {c.id: c for c in (*diagnosis.conclusions, *diagnosis.excluded)}
    if arg not in known:
        close = get_close_matches(arg, list(known), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else f" (candidates: {', '.join(known) or 'none'})"
        return Reply(error=f"'{arg}' is not a candidate of this diagnosis{hint}")
    return Reply("\n".join(how_markdown(known[arg], diagnosis)))


def _facts(chat: Chat, arg: str) -> Reply:
    return Reply(views.facts_markdown(chat.diagnosis.memory))


def _evidence(chat: Chat, arg: str) -> Reply:
    inputs = [(s.label, s.evidence.stats) for s in chat.session.steps if s.kind.adds_evidence and s.evidence]
    return Reply(views.evidence_markdown(inputs, chat.diagnosis))


def _alternatives(chat: Chat, arg: str) -> Reply:
    return Reply(views.alternatives_markdown(chat.diagnosis))


def _back(chat: Chat, arg: str) -> Reply:
    step = chat.apply_undo()
    if step is None:
        return Reply(error="nothing to take back")
    chat.record("undo")
    what = one_line(step.label) if step.kind.adds_evidence else f"the answer `{step.fact}` = {one_line(step.text)}"
    state = chat.conclusion_reply() if chat.has_evidence else Reply()
    return Reply("\n\n".join(filter(None, (f"Took back {what}.", state.markdown))), conclusion=state.conclusion)


def _reset(chat: Chat, arg: str) -> Reply:
    chat.apply_reset()
    chat.record("reset")
    return Reply("Started over: no logs, no answers. The transcript still holds everything said.")


def _show(chat: Chat, arg: str) -> Reply:
    entry = chat.kb.entry(arg)
    if entry is None:
        close = get_close_matches(arg, chat.kb.index.ids, n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else "; /search finds entries by words"
        return Reply(error=f"no entry '{arg}' in the knowledge base{hint}")
    return Reply(entry_markdown(entry, chat.kb))


def _search(chat: Chat, arg: str) -> Reply:
    if not arg:
        return Reply(error="give words to search for: /search TEXT")
    hits = chat.knowledge.search(arg, limit=SEARCH_HITS)
    return Reply(views.search_markdown(hits, chat.kb.articles, suggestions(arg, chat.knowledge)))


def _cite(chat: Chat, arg: str) -> Reply:
    top = chat.diagnosis.top
    parts = [sources_markdown(map(str, top.entry.citations), chat.kb.articles, f"Sources of `{top.id}`")
             if top else "", sources_markdown(chat.last_citations, chat.kb.articles, "Sources of the last answer")]
    return Reply("\n\n".join(filter(None, parts)) or "Nothing to cite yet.")


def _export(chat: Chat, arg: str) -> Reply:
    try:
        words = shlex.split(arg)
    except ValueError as error:
        return Reply(error=f"/export: {error}")
    hide = "--redact" in words
    words = [w for w in words if w != "--redact"]
    case_dir = None
    if "--as-case" in words:
        at = words.index("--as-case")
        if at + 1 >= len(words):
            return Reply(error="/export --as-case needs a folder: /export --as-case tests/cases")
        case_dir = Path(words.pop(at + 1))
        words.pop(at)
    if len(words) > 1 or any(w.startswith("--") for w in words):
        return Reply(error=f"/export takes [FILE] [--redact] [--as-case DIR], not '{arg}'")
    try:
        if case_dir is not None:
            return _export_case(chat, case_dir, hide)
        path = Path(words[0] if words else f"faultbot-{chat.session_id}.md")
        text = report_markdown(chat.session_id, chat.diagnosis, chat.kb, chat.session.stats, chat.session.steps)
        write_atomically(path, redact(text, keep=_quoted_commands(chat.kb)) if hide else text)
    except OSError as error:
        return Reply(error=f"cannot write {error.filename or 'the file'}: {error.strerror}")
    masked = " (site identifiers masked: addresses, hosts, users, paths, secrets, serials)." if hide else "."
    return Reply(f"Wrote the incident report to {code_span(path)}{masked}")


def _quoted_commands(kb: KnowledgeBase) -> set[str]:
    """The KB's fix and check commands: a report quotes them, and redaction keeps them whole."""
    return {command for entry in kb.entries
            for step in (*entry.fixes.workaround, *entry.fixes.permanent, *entry.fixes.next_checks)
            for command in step.commands}


def _export_case(chat: Chat, directory: Path, hide: bool) -> Reply:
    top = chat.diagnosis.top
    if top is not None and top.status is not Status.CONFIRMED:
        return Reply(error=f"the conclusion is {top.status.value}, not confirmed: answer the questions first")
    log = "\n".join(s.text.rstrip("\n") for s in chat.session.steps if s.kind is StepKind.PASTE)
    if not log:
        return Reply(error="no log was pasted: a case needs one")
    expect = top.id if top else "none"
    text = case_document(f"chat {chat.session_id}: {expect}", redact(log) if hide else log, chat.session.answers, expect)
    path = directory / f"{chat.session_id}.yaml"
    write_atomically(path, text)
    return Reply(f"Wrote the eval case to {code_span(path)} (expect `{expect}`); "
                 f"{code_span(f'faultbot eval {directory}')} runs it.")


def _quit(chat: Chat, arg: str) -> Reply:
    return Reply(quit=True)


COMMANDS: tuple[Command, ...] = (
    Command("help", "", "this list", _help),
    Command("why", "", "why the pending question is asked: what its answer decides", _why),
    Command("how", "[ID]", "how the conclusion (or candidate ID) was reached, from log lines through rules",
            _how, "candidate"),
    Command("facts", "", "every fact known, its value and where it came from", _facts),
    Command("evidence", "", "the inputs read and the log lines that point at each candidate", _evidence),
    Command("alternatives", "", "other candidates, what would decide them, and what was ruled out", _alternatives),
    Command("back", "", "take back the last answer or paste", _back),
    Command("reset", "", "start the diagnosis over (the transcript keeps everything)", _reset),
    Command("show", "ID", "a knowledge base entry: cause, fixes, sources", _show, "entry"),
    Command("search", "TEXT", "search the knowledge base and the articles", _search),
    Command("cite", "", "the sources of the conclusion and of the last answer", _cite),
    Command("export", "[FILE] [--redact] [--as-case DIR]",
            "write the incident report (Markdown); --redact masks what identifies the site; "
            "--as-case saves the session as an eval case", _export, "export"),
    Command("quit", "", "leave (the session can be continued with faultbot --resume)", _quit),
)
ALIASES = {"exit": "quit", "?": "help", "undo": "back"}


def find(name: str) -> Command | None:
    """The command ``name`` names: exactly, by an alias, or by a prefix only it has."""
    name = ALIASES.get(name, name)
    exact = [c for c in COMMANDS if c.name == name]
    prefixed = [c for c in COMMANDS if c.name.startswith(name)] if name else []
    return exact[0] if exact else prefixed[0] if len(prefixed) == 1 else None


def help_markdown() -> str:
    lines = ["| command | what it does |", "| --- | --- |"]
    lines += [f"| `/{c.name}{' ' + c.args if c.args else ''}` | {c.help} |" for c in COMMANDS]
    return "\n".join([*lines, "", "Paste a log to diagnose it, answer the question asked (or `unknown`), "
                      "describe a failure in words, or ask about the knowledge base."])


def run_command(chat: Chat, text: str) -> Reply:
    name, _, arg = text.strip()[1:].partition(" ")
    command = find(name.lower())
    if command is None:
        return Reply(error=f"unknown command '/{name}' — /help lists them")
    return command.handler(chat, arg.strip())
