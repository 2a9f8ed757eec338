"""``faultbot ask "QUESTION"``: an answer from the articles and the KB, with its sources."""

from __future__ import annotations

import argparse
import json
import sys

from ..kb.loader import load_kb
from ..qa.answer import answer
from ..qa.index import KnowledgeIndex
from ..render.answer_markdown import answer_markdown
from ..render.console import print_markdown
from ..render.entry_json import citation_dict
from ..render.safe_text import json_safe
from .errors import EXIT_NO_MATCH, EXIT_OK, UsageError
from .kb_location import kb_paths

JSON_SCHEMA_VERSION = 1


def cmd_ask(args: argparse.Namespace) -> int:
    question = " ".join(args.question).strip()
    if not question:
        raise UsageError("give a question, e.g. faultbot ask \"what is the default HCCL_EXEC_TIMEOUT\"")
    kb = load_kb(*kb_paths(args))
    found = answer(KnowledgeIndex.of(kb), question)
    if args.format == "json":
        payload = {"schema": JSON_SCHEMA_VERSION, "answer": found.text,
                   "citations": [citation_dict(c, kb.articles) for c in found.citations],
                   "score": found.score, "suggestions": list(found.suggestions), "direct": found.direct}
        print(json.dumps(json_safe(payload), ensure_ascii=False, indent=2))
    else:
        print_markdown(answer_markdown(found, kb.articles) + "\n", sys.stdout)
    return EXIT_OK if found.found else EXIT_NO_MATCH
