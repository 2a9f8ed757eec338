"""Reading ``kb/codes.yaml``: how a CANN error code reads (level, module, number class)."""

from __future__ import annotations

from typing import Any

from .fields import Fields, Problems
from .model import CodeBook, CodeClass

CODEBOOK_FIELDS = ("citation", "levels", "levels_citation", "modules", "modules_citation", "classes", "classes_citation")
CLASS_FIELDS = ("first", "last", "name", "meaning")
CODE_NUMBER_RANGE = (0, 9999)


def parse_codebook(raw: Any, problems: Problems) -> CodeBook:
    fields = Fields(raw, "the error-code structure", problems, 1, CODEBOOK_FIELDS)
    levels = {str(k): str(v) for k, v in fields.mapping_of("levels", required=True).items()}
    modules = {str(k): str(v) for k, v in fields.mapping_of("modules", required=True).items()}
    classes = []
    low, high = CODE_NUMBER_RANGE
    for line, item in fields.items("classes", required=True, min_items=1):
        klass = Fields(item, "a code class", problems, line, CLASS_FIELDS)
        if klass.ok:
            classes.append(CodeClass(int(klass.number("first", low, low, high)), int(klass.number("last", high, low, high)),
                                     klass.text("name"), " ".join(klass.text("meaning").split())))
    citations = tuple(c for key in ("citation", "levels_citation", "modules_citation", "classes_citation")
                      if (c := fields.text(key, required=key == "citation")))
    return CodeBook(levels, modules, tuple(classes), citations)
