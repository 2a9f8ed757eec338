"""Reading ``kb/codes.yaml``: how a CANN error code reads (level, module, number class), how
torch_npu's ERR codes read (submodule and code), and how aclError return codes read (class digit)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .fields import Fields, Problems
from .model import CodeBook, CodeClass, ReturnCodes, WrapperCodes

CODEBOOK_FIELDS = ("citation", "levels", "level_notes", "levels_citation", "modules", "modules_citation", "classes",
                   "classes_citation", "torch_npu", "acl")
CLASS_FIELDS = ("first", "last", "name", "meaning")
CODE_NUMBER_RANGE = (0, 9999)
TORCH_NPU_FIELDS = ("citation", "submodules", "codes", "says")
SUBMODULE_DIGITS = 2        # ERR02200: submodule 02, code 200
CODE_DIGITS = 3
ACL_FIELDS = ("citation", "classes", "unclassified", "named_in")
ACL_CLASS_DIGITS = 1        # 507015: class 5
ACL_CODE_DIGITS = 6


def _digit_keys(mapping: Mapping[Any, Any], digits: int, what: str, fields: Fields, key: str) -> dict[str, str]:
    """``mapping`` with keys of ``digits`` digits each: ERR02200 is submodule 02, code 200."""
    found = {}
    for name, meaning in mapping.items():
        if not (isinstance(name, str) and name.isdigit() and len(name) == digits):
            fields.problems.add(fields.line_of(key), f"{what} {name!r} must be {digits} digits")
            continue
        found[name] = str(meaning)
    return found


def _torch_npu(fields: Fields) -> WrapperCodes | None:
    raw = fields.mapping_of("torch_npu")
    if not raw:
        return None
    codes = Fields(raw, "the torch_npu ERR codes", fields.problems, fields.line_of("torch_npu"), TORCH_NPU_FIELDS)
    return WrapperCodes(_digit_keys(codes.mapping_of("submodules", required=True), SUBMODULE_DIGITS, "submodule",
                                    codes, "submodules"),
                        _digit_keys(codes.mapping_of("codes", required=True), CODE_DIGITS, "code", codes, "codes"),
                        codes.text("citation"), " ".join(codes.text("says", required=False).split()))


def _acl(fields: Fields) -> ReturnCodes | None:
    raw = fields.mapping_of("acl")
    if not raw:
        return None
    codes = Fields(raw, "the aclError return codes", fields.problems, fields.line_of("acl"), ACL_FIELDS)
    unclassified = codes.text("unclassified", required=False)
    if unclassified and not (unclassified.isdigit() and len(unclassified) == ACL_CODE_DIGITS):
        fields.problems.add(codes.line_of("unclassified"), f"unclassified {unclassified!r} must be {ACL_CODE_DIGITS} digits")
    classes = _digit_keys(codes.mapping_of("classes", required=True), ACL_CLASS_DIGITS, "class", codes, "classes")
    named_in = tuple(str(section) for _, section in codes.items("named_in"))
    return ReturnCodes({digit: " ".join(meaning.split()) for digit, meaning in classes.items()},
                       codes.text("citation"), unclassified, named_in)


def parse_codebook(raw: Any, problems: Problems) -> CodeBook:
    fields = Fields(raw, "the error-code structure", problems, 1, CODEBOOK_FIELDS)
    levels = {str(k): str(v) for k, v in fields.mapping_of("levels", required=True).items()}
    notes = {str(k): " ".join(str(v).split()) for k, v in fields.mapping_of("level_notes").items()}
    for letter in notes.keys() - levels.keys():
        problems.add(fields.line_of("level_notes"), f"level note for '{letter}', which is not a level letter")
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
    return CodeBook(levels, modules, tuple(classes), citations, _torch_npu(fields), _acl(fields), notes)
