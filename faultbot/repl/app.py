"""The chat at a terminal: the prompt_toolkit session and its loop, new or resumed, and replies
shown with rich; ``loop`` takes any prompt session, so tests drive it through a pipe."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output
from rich.text import Text

from ..kb.loader import KnowledgeBase
from ..render.console import console_for, print_markdown
from ..render.safe_text import code_span, one_line
from .busy import busy, drop_typeahead
from .chat import Chat
from .completer import ChatCompleter
from .history import ChatHistory
from .key_bindings import chat_key_bindings
from .locations import history_file, sessions_dir
from .replay import earlier_turns, replay
from .reply import Reply
from .style import PROMPT_STYLE, confidence_colour
from .toolbar import toolbar
from .transcript import SessionInUse, Transcript, last_transcript

WELCOME = ("faultbot chat — paste the error (a log, any length), describe the failure, or ask a question. "
           "/help lists the commands; Alt-Enter starts a new line; Ctrl-D leaves.")


class NoSessionToResume(Exception):
    """``--resume`` cannot continue a session: there is none (the message says where it looked), or
    the last one is open in another chat."""


def show(reply: Reply, out: TextIO) -> None:
    console = console_for(out)

    def line(text: str, style: str) -> None:
        if console is None:
            out.write(one_line(text) + "\n")
        else:
            console.print(Text(one_line(text), style=style))

    if reply.notice:
        line(f"faultbot: {reply.notice}", "bold yellow")
    if reply.error:
        line(f"faultbot: {reply.error}", "bold red")
    if reply.conclusion is not None:
        top = reply.conclusion
        line(f"● {top.status.value} {top.confidence:.2f}  {top.id}", f"bold {confidence_colour(top.confidence)}")
    if reply.markdown:
        print_markdown(reply.markdown, out)


def prompt_session(chat: Chat, history: Path, input: Input | None = None, output: Output | None = None) -> PromptSession:
    kb = chat.kb
    entry_ids = list(kb.index.ids)
    vocabulary = [("entry", entry_ids), ("fact", sorted(kb.facts)),
                  ("error code", sorted({c for codes in kb.index.error_codes.values() for c in codes}))]
    completer = ChatCompleter(vocabulary, lambda: chat.pending,
                              lambda: [c.id for c in (*chat.diagnosis.conclusions, *chat.diagnosis.excluded)],
                              entry_ids)
    return PromptSession(history=ChatHistory(history), auto_suggest=AutoSuggestFromHistory(), completer=completer,
                         key_bindings=chat_key_bindings(), multiline=True, prompt_continuation="… ",
                         bottom_toolbar=lambda: toolbar(chat.diagnosis, chat.pending), style=PROMPT_STYLE,
                         complete_while_typing=True, input=input, output=output)


def _prompt(chat: Chat) -> FormattedText:
    if chat.pending is not None:
        return FormattedText([("class:question", f"{chat.pending.fact}>"), ("", " ")])
    return FormattedText([("class:prompt", "faultbot>"), ("", " ")])


def loop(chat: Chat, prompt: PromptSession, out: TextIO) -> int:
    told = ""
    while True:
        problem = getattr(prompt.history, "problem", "")     # a history file that cannot be used: said once
        if problem and problem != told:
            told = problem
            show(Reply(notice=problem), out)
        try:
            text = prompt.prompt(_prompt(chat))
        except KeyboardInterrupt:
            continue          # Ctrl-C drops the input being typed, as in a shell
        except EOFError:
            break
        try:
            with busy():
                reply = chat.respond(text)
        except KeyboardInterrupt:
            drop_typeahead()
            reply = Reply(error="cancelled: that input and what was typed meanwhile are dropped; the session is as "
                                "it was before it")
        except Exception as error:     # a bug must not end the session or lose the transcript
            chat.record("reply", text=f"internal error: {error!r}")
            reply = Reply(error=f"internal error ({type(error).__name__}: {error}); the session is saved, "
                                "please report this")
        show(reply, out)
        if reply.quit:
            break
    return 0


def start(kb: KnowledgeBase, resume: bool, out: TextIO) -> Chat:
    """A new chat with a new transcript, or the last session continued (its turns shown)."""
    directory = sessions_dir()
    if not resume:
        chat = Chat(kb, Transcript.create(directory, kb.kb_dir))
        print_markdown(f"{WELCOME}\n\n*Session saved as it goes: {code_span(chat.transcript.path)}*\n", out)
        return chat
    path = last_transcript(directory)
    if path is None:
        raise NoSessionToResume(f"no earlier session to resume in {directory}")
    try:
        transcript, records = Transcript.reopen(path)
    except SessionInUse:
        raise NoSessionToResume(f"session {path.stem} is open in another faultbot chat; leave that one first, "
                                "or start a new chat without --resume") from None
    chat = Chat(kb)
    try:
        skipped = replay(chat, records)
    except BaseException:
        transcript.close()
        raise
    chat.transcript = transcript
    lines = [f"Continuing session {code_span(path.stem)}:", "", earlier_turns(records)]
    lines += [f"*Skipped: {reason}*" for reason in skipped]
    print_markdown("\n".join(lines) + "\n", out)
    if chat.session.steps:
        show(chat.conclusion_reply(), out)
    return chat


def run(kb: KnowledgeBase, resume: bool) -> int:
    chat = start(kb, resume, sys.stdout)
    try:
        return loop(chat, prompt_session(chat, history_file()), sys.stdout)
    finally:
        if chat.transcript is not None:
            chat.transcript.close()
            path = one_line(chat.transcript.path)
            if chat.unsaved:
                print(f"Session saved up to the failure reported above: {path}", file=sys.stderr)
            else:
                print(f"Session saved: {path} (faultbot --resume continues it)", file=sys.stderr)
