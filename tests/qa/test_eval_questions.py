"""`faultbot eval --questions`: real questions (asked in a public thread, with its URL) are reported
apart from the written paraphrases, in the table and in the JSON."""

from __future__ import annotations

import json

from faultbot.cli import main as cli

QUESTION_SET = """\
seed: 1
facts:
  - id: hccl-acronym
    about: what the acronym HCCL stands for
    cites: [hccl-task-execution-faults#overview]
    contains: ["Huawei Collective Communication Library"]
    questions:
      - q: what does HCCL stand for
      - q: HCCL 是什么的缩写？
        held_out: true
      - q: "newbie here, HCCL = ?"
        source_url: "https://example.org/forum/thread/1"
must_not_answer:
  - q: what is the default NCCL_TIMEOUT
  - q: how do I install MindSpore with pip on Windows
    source_url: "https://example.org/forum/thread/2"
"""


def test_real_questions_are_counted_apart(tmp_path, capsys):
    path = tmp_path / "questions.yaml"
    path.write_text(QUESTION_SET, encoding="utf-8")
    cli.main(["eval", "--questions", str(path), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    asked = {name: figures["asked"] for name, figures in report["sets"].items()}
    assert asked == {"paraphrases (tuning)": 1, "paraphrases (held-out fifth)": 1, "must not answer": 1,
                     "real questions (tuning)": 1, "real questions (held-out fifth)": 0,
                     "real questions, must not answer": 1}
    urls = {q["question"]: q["source_url"] for q in report["questions"]}
    assert urls["newbie here, HCCL = ?"] == "https://example.org/forum/thread/1"
    assert urls["what does HCCL stand for"] is None


def test_the_table_names_the_real_sets_it_has(tmp_path, capsys):
    path = tmp_path / "questions.yaml"
    path.write_text(QUESTION_SET, encoding="utf-8")
    cli.main(["eval", "--questions", str(path)])
    out = capsys.readouterr().out
    assert "real questions (tuning): " in out and "real questions, must not answer: " in out
    assert "real questions (held-out fifth)" not in out


def test_a_question_asked_twice_is_a_problem_of_the_set_with_both_lines(tmp_path, capsys):
    path = tmp_path / "questions.yaml"
    path.write_text(QUESTION_SET.replace("  - q: what is the default NCCL_TIMEOUT\n",
                                         "  - q: what is the default NCCL_TIMEOUT\n  - q: what does HCCL stand for\n"),
                    encoding="utf-8")
    code = cli.main(["eval", "--questions", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{path}:15: the same question as {path}:8" in err
