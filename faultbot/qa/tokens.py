"""Search tokens: English words with their parts, and Chinese as overlapping character bigrams
(确定性计算 -> 确定 定性 性计 计算), which match whatever word boundaries the text had."""

from __future__ import annotations

import re
from collections.abc import Callable

_RUN = re.compile(r"[A-Za-z0-9_]+(?:[.\-][A-Za-z0-9_]+)*|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_CAMEL = re.compile(r"[a-z][A-Z]")
_GLUED = re.compile(r"[A-Za-z][a-z]+(?:[A-Z][a-z]+)+")    # words glued CamelCase: crimerRank, SendBuf
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_COUNTED = re.compile(r"\d+-[a-z]+")
_SPAN = re.compile(r"\d+-\d+")      # ranks 0-6, cards 0-7: which ones, not a name
_MEASURE = re.compile(r"\d+(?:\.\d+)?(?:[kmgt]i?b|ms|us|ns|min|s|h)", re.I)   # 0.25MB, 30s: an amount, not a name
# Chinese function words, the longest first so that 怎么办 goes whole, not as 怎么 and a stray 办.
_CJK_STOP_WORDS = """
    问题 什么 怎么 怎样 如何 为什么 哪些 哪个 请问 是否 一下 多少 可以 这么 那么 这个 那个 才能
    能不能 会不会 有没有 一般 可能 还是 或者 以及 应该 到底 没有 任何 但是 所有 整个 几乎 时候
    之后 以后 之前 如果 现在 就是 为啥 一直 总是 经常 突然 里面 我们 他们 大家 出现 怎么回事
    什么样 怎么办 不是 知道 实际 分别 一会儿 的话 新人 咋样 咋 顺便 在哪里 在哪 哪里 哪儿 哪台 哪张
    需要 想看 想要 想让 只想 每个 和 有啥 要不要 那台 这台 那张 这张
    通常 真正 各自 了解 往往 具体 平时 大概
    吗 呢 吧 啊 呀 的 了 是 我 你 都 也
""".split()
_CJK_STOP = re.compile("|".join(sorted(_CJK_STOP_WORDS, key=len, reverse=True)))

STOP_WORDS = frozenset("""
a an and are as at be been but by can could did do does doing for from had has have how i if in into is it
its me my no not of on or our so than that the their them then there these they this those to was we were
what when where which who whom why will with would you your yes about after before does should shall may
many much any some get got all also just only now else still really actually please whether
see seeing saw seen keep keeps tell know want wants thanks thank hi hello hey anyone guys help pls plz given
us too very such via here again once something anything everything someone thing things maybe perhaps
probably even though although however like lot lots okay ok sure
""".split())

_VOWEL = re.compile(r"[aeiouy]")
_KEPT_DOUBLE = frozenset("aeiouylsz")     # fall-ing, pass-ed, buzz-ed: the double is the word's own


def is_cjk(text: str) -> bool:
    return _CJK.search(text) is not None


# initialise / initialize / initialised / initialization: one word in British and American spelling
_ISE = re.compile(r"(?<=[a-z]{3}[a-rt-z])([iy])[sz](?:e|es|ed|ing|er|ers|ation|ations)$")    # not buffsize


def _stem(word: str) -> str:
    if not word.isalpha() or len(word) <= 3:
        return word
    if (spelled := _ISE.sub(r"\1s", word)) != word:
        return spelled
    if word.endswith("ly") and len(word) > 6:
        return word[:-2]
    if word.endswith(("ies", "ied")) and len(word) > 4:    # retries, retried -> retry
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    for suffix, shortest in (("ing", 6), ("ed", 5)):
        stem = word[:-len(suffix)]
        if word.endswith(suffix) and len(word) >= shortest and _VOWEL.search(stem):    # string, not "str"
            # occurred -> occur, stopped -> stop: the consonant doubled before the suffix
            doubled = len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in _KEPT_DOUBLE
            return stem[:-1] if doubled else stem
    return word


MIN_PREFIX_PARTS = 3        # HcclCommInit of HcclCommInitRootInfo; two parts (HcclComm) name nothing of their own


def _word_tokens(run: str, prefixes: bool = False) -> list[str]:
    """The tokens of a word; ``prefixes``: of a text searched, a CamelCase or snake_case name also
    stands for the names it begins with (HcclCommInitRootInfoInner logs a call of
    HcclCommInitRootInfo; aiv_all_reduce_910b_bfloat16_t is a kernel of aiv_all_reduce)."""
    whole = run.lower()
    if whole in STOP_WORDS or (len(whole) == 1 and whole.isalpha()):    # "x", "s" of "what's": no meaning alone
        return []
    stem = _stem(whole)
    if stem in STOP_WORDS:    # getting, gets: as empty as "get"
        return []
    tokens = [stem]
    if re.search(r"[._\-]", run) or _CAMEL.search(run):
        parts = [p.lower() for p in _PARTS.findall(run)]
        tokens += [_stem(p) for p in parts if len(p) > 1 and not p.isdigit() and p not in STOP_WORDS]
        if _CAMEL.search(run) and len(parts) > 2 and parts[1].isalpha():
            tokens.append("".join(parts[1:]))    # LcalAllReduce is also an AllReduce: a name after its prefix
        if prefixes and _CAMEL.search(run) and all(p.isalpha() for p in parts):
            first = 1 if "-" in run else 0     # Entry-HcclCommInitRootInfoInner: the name after Entry-
            tokens += ["".join(parts[first:end]) for end in range(first + MIN_PREFIX_PARTS, len(parts))]
        segments = whole.split("_")
        if prefixes and len(segments) > MIN_PREFIX_PARTS:    # aiv_all_reduce_910b_bfloat16_t: an aiv_all_reduce
            tokens += ["_".join(segments[:end]) for end in range(MIN_PREFIX_PARTS, len(segments))]
    return tokens


def _cjk_tokens(run: str) -> list[str]:
    tokens = []
    for piece in cjk_pieces(run):
        tokens += [piece] if len(piece) == 1 else [piece[i:i + 2] for i in range(len(piece) - 1)]
    return tokens


def cjk_pieces(run: str) -> list[str]:
    """A run of Chinese without its function words, in the pieces they leave (怎么安装 -> 安装)."""
    return _CJK_STOP.sub(" ", run).split()


def _is_name(run: str) -> bool:
    """Written as a name: with digits, "_" or "." (EI0002, HCCL_BUFFSIZE), capitals inside (AllReduce),
    or hyphens and a capital or digit (Entry-HcclAllReduce); not words joined by hyphens (card-to-card)
    nor a count of something (6-digit, 32-node) or a span of numbers (ranks 0-6)."""
    if is_cjk(run) or _COUNTED.fullmatch(run) or _MEASURE.fullmatch(run) or _SPAN.fullmatch(run):
        return False
    return bool(re.search(r"[0-9_.]", run)) or any(c.isupper() for c in run[1:])


def query_terms(text: str, known: Callable[[str], bool] | None = None) -> dict[str, float]:
    """A question's tokens and how much each counts: a word written as a name (HCCL_EXEC_TIMEOUT,
    LcalAllReduce, AIV, EI0002) names what is asked about, so it counts double. Given what the
    index ``known``s, a CamelCase word it does not know made of words it does (crimerRank, sendBuf)
    is those words glued, as field names are: its words count as words. Past MAX_QUERY_TERMS
    different terms (a paste of a whole log) the rest is left out: a question's search stays quick."""
    terms: dict[str, float] = {}
    for run in _RUN.findall(text):
        if len(terms) >= MAX_QUERY_TERMS:
            break
        tokens = _cjk_tokens(run) if is_cjk(run) else _word_tokens(run)
        name = _is_name(run)
        if name and tokens and known is not None and _GLUED.fullmatch(run) and not known(tokens[0]):
            words_glued = [_stem(part.lower()) for part in _PARTS.findall(run)]
            if all(map(known, words_glued)):
                tokens, name = words_glued, False
        for position, token in enumerate(tokens):
            boost = (NAME_BOOST if position == 0 else PART_OF_NAME) if name else 1.0
            terms[token] = max(terms.get(token, 0.0), boost)
    return terms


NAME_BOOST = 2.0
MAX_QUERY_TERMS = 1000
PART_OF_NAME = 0.5     # "lcal" of LcalAllReduce: the name itself says it better


def words(text: str, gaps: bool = False) -> list[str]:
    """The words of ``text`` in order, a name as one word (HCCL_EXEC_TIMEOUT, not also its parts):
    what a name of a thing is matched with. ``gaps``: a stop word leaves "" in its place, so
    that how far apart two words are is still seen."""
    found: list[str] = []
    for run in _RUN.findall(text):
        said = _cjk_tokens(run) if is_cjk(run) else _word_tokens(run)[:1]
        found += said or ([""] if gaps else [])
    return found


def tokenize(text: str) -> list[str]:
    """Search tokens of ``text``, in order, repeats kept (BM25 counts them)."""
    tokens: list[str] = []
    for run in _RUN.findall(text):
        tokens += _cjk_tokens(run) if is_cjk(run) else _word_tokens(run, prefixes=True)
    return tokens
