"""Checks across the whole knowledge base: ids, parents, citations, and the tests each entry needs."""

from __future__ import annotations

from .diagnostics import Problem
from .entry_schema import NO_CONCLUSION
from .model import Article, Citation, CodeBook, Decoder, Entry, Rule


def _citation_problem(citation: Citation | str, articles: dict[str, Article]) -> str | None:
    article_id, _, slug = str(citation).partition("#")
    article = articles.get(article_id)
    if article is None:
        known = ", ".join(sorted(articles)) or "none"
        return f"cites unknown article '{article_id}' (known: {known})"
    if article.section(slug) is None:
        return f"cites '#{slug}', which is not a section of {article.file}"
    return None


def check_entries(entries: list[Entry], articles: dict[str, Article], file_of: dict[int, str]) -> list[Problem]:
    """``file_of`` maps id(entry) to the file it was read from, for the file-name rule."""
    problems: list[Problem] = []
    first_seen: dict[str, Entry] = {}
    for entry in entries:
        where = entry.where
        if entry.id in first_seen:
            problems.append(Problem(where.file, entry.line_of("id"), f"duplicate id '{entry.id}' (also in "
                                    f"{first_seen[entry.id].where.file})", "ids must be unique"))
        first_seen.setdefault(entry.id, entry)
        stem = file_of[id(entry)].rsplit("/", 1)[-1].removesuffix(".yaml")
        if entry.id and stem != entry.id:
            problems.append(Problem(where.file, entry.line_of("id"), f"file is named '{stem}.yaml' but holds '{entry.id}'",
                                    f"rename it to {entry.id}.yaml: one entry per file, named by its id"))
    ids = set(first_seen)
    for entry in entries:
        file = entry.where.file
        if entry.parent_id and entry.parent_id not in ids:
            problems.append(Problem(file, entry.line_of("id"), f"'{entry.id}' refines '{entry.parent_id}', which does not exist",
                                    "add the parent entry or shorten the id"))
        if not entry.parent_id and not entry.symptoms:
            problems.append(Problem(file, 1, f"'{entry.id}' has no symptoms",
                                    "add 'symptoms:' (children may inherit their parent's, roots may not)"))
        for citation in entry.citations:
            problem = _citation_problem(citation, articles)
            if problem:
                problems.append(Problem(file, citation.line or entry.line_of("citations"), problem,
                                        "cite an existing article#section (see articles/)"))
        steps = entry.fixes.workaround + entry.fixes.permanent + entry.fixes.next_checks
        for step in steps:
            problem = step.citation and _citation_problem(step.citation, articles)
            if problem:
                problems.append(Problem(file, entry.line_of("fixes"), f"a fix step {problem}"))
        positive = any(test.is_positive_for(entry.id) for test in entry.tests)
        negative = any(test.is_negative_for(entry.id) for test in entry.tests)
        if not positive:
            problems.append(Problem(file, entry.line_of("tests"), f"'{entry.id}' has no positive test",
                                    f"add a test with 'expect: {entry.id}' and a log it must diagnose"))
        if not negative:
            problems.append(Problem(file, entry.line_of("tests"), f"'{entry.id}' has no negative test",
                                    f"add a test with 'expect_not: {entry.id}' (or another expect) and a near-miss log"))
        for test in entry.tests:
            for named in (test.expect, test.expect_not):
                if named and named != NO_CONCLUSION and named not in ids:
                    problems.append(Problem(file, test.where.line, f"test '{test.name}' names unknown id '{named}'"))
    return problems


def check_rule_citations(rules: tuple[Rule, ...], articles: dict[str, Article]) -> list[Problem]:
    problems = []
    for rule in rules:
        problem = rule.citation and _citation_problem(rule.citation, articles)
        if problem:
            problems.append(Problem(rule.where.file, rule.where.line, f"rule '{rule.id}' {problem}"))
    return problems


def check_codebook_citations(codebook: CodeBook, shown: str, articles: dict[str, Article]) -> list[Problem]:
    cited = (*codebook.citations, *(extra.citation for extra in (codebook.torch_npu, codebook.acl) if extra),
             *(codebook.acl.named_in if codebook.acl else ()))
    return [Problem(shown, 1, f"error-code structure {problem}")
            for citation in cited if (problem := _citation_problem(citation, articles))]


def check_decoder_citations(decoders: tuple[Decoder, ...], articles: dict[str, Article]) -> list[Problem]:
    problems = []
    for decoder in decoders:
        cited = [(decoder.where, decoder.citation)] + [(case.where, case.citation) for case in decoder.cases]
        problems += [Problem(where.file, where.line, f"decoder '{decoder.id}' {problem}")
                     for where, citation in cited if citation and (problem := _citation_problem(citation, articles))]
    return problems
