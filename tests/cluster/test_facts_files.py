"""`faultbot extract` on each node, then `faultbot diagnose --facts`: the same verdict as diagnosing the
whole tree in one place, from files far smaller than the logs; damaged files are refused in one line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from faultbot.facts_file import read_facts
from faultbot.ingest.inputs import LogPath
from faultbot.ingest.reader import LogReader

from .conftest import Scenarios, run


# With HCCL_ENTRY_LOG_ENABLE (comm-destroyed) every dispatched op is an Entry- record worth keeping.
@pytest.mark.parametrize("name, smaller", [("network-flap", 50), ("comm-destroyed", 20)])
def test_merged_facts_files_give_the_verdict_of_the_whole_tree(scenarios: Scenarios, tmp_path: Path,
                                                                name: str, smaller: int) -> None:
    done = scenarios.diagnosed(name)
    files = scenarios.facts(name)
    code, out, err = run("diagnose", "--facts", *map(str, files), "--no-ask", "--format", "json")
    assert (code, err) == (done.code, "")
    merged = json.loads(out)
    for part in ("conclusions", "questions", "excluded", "facts", "input", "cluster"):
        assert merged[part] == done.report[part], part
    logs = sum(path.stat().st_size for path in done.tree.rglob("*") if path.is_file())
    assert logs / sum(path.stat().st_size for path in files) > smaller


def test_a_facts_file_rebuilds_the_records_it_kept(tmp_path: Path, scenarios: Scenarios) -> None:
    node = scenarios.diagnosed("process-exit").tree / "node-2"
    target = tmp_path / "node-2.facts.jsonl.gz"
    code, _, err = run("extract", str(node), "-o", str(target))
    kept = read_facts(target)
    assert code == 0 and err.startswith(f"faultbot: kept {len(kept.records)} of {kept.stats.records} records from "
                                        f"{_files(node)} file(s)")
    wanted = set(kept.records)
    read = [r for r in LogReader([LogPath(node)]).records() if r in wanted]
    assert list(kept.records) == read and len(read) > 20
    assert kept.header["format"] == "faultbot-facts" and kept.header["version"] == 1
    assert kept.stats.files == _files(node)
    lines = gzip.decompress(target.read_bytes()).decode().splitlines()
    assert json.loads(lines[-1])["end"]["records"] == len(lines) - 2


def test_logs_whose_path_names_no_node_take_the_node_option(tmp_path: Path) -> None:
    log = tmp_path / "plog-1.log"
    log.write_text("[ERROR] HCCL(7,python):2025-10-24-11:18:29.597.044 [task_exception_handler.cc:908] [7]"
                   "[TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], "
                   "tag[AllReduce_g], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n")
    target = tmp_path / "a.facts.jsonl.gz"
    assert run("extract", str(log), "-o", str(target), "--node", "worker-7")[0] == 0
    [record] = read_facts(target).records
    assert (record.origin.node, record.origin.source) == ("worker-7", f"worker-7:{log}")


def _files(node: Path) -> int:
    return sum(1 for path in node.rglob("*") if path.is_file())


def _gz(path: Path, lines: list[str]) -> Path:
    path.write_bytes(gzip.compress("".join(line + "\n" for line in lines).encode()))
    return path


HEADER = json.dumps({"format": "faultbot-facts", "version": 1, "kb": "sha256:0", "node": "n"})


@pytest.mark.parametrize("content, message", [
    (b"plain text, not gzip", "not a readable facts file"),
    (None, "cut short (no end line)"),
    ("other", "not a faultbot facts file"),
    ("future", "is newer than this faultbot reads"),
    ("bad-json", "not a JSON line"),
])
def test_damaged_facts_files_are_refused_in_one_line(tmp_path: Path, content, message: str) -> None:
    path = tmp_path / "n.facts.jsonl.gz"
    if content is None:
        _gz(path, [HEADER])
    elif content == "other":
        _gz(path, ['{"hello": 1}'])
    elif content == "future":
        _gz(path, [HEADER.replace('"version": 1', '"version": 99')])
    elif content == "bad-json":
        _gz(path, [HEADER, "{not json"])
    else:
        path.write_bytes(content)
    code, out, err = run("diagnose", "--facts", str(path), "--no-ask", "--format", "json")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_a_cut_gzip_stream_and_a_missing_file_are_usage_errors(scenarios: Scenarios, tmp_path: Path) -> None:
    first = scenarios.facts("op-mismatch")[0]
    cut = tmp_path / "cut.facts.jsonl.gz"
    cut.write_bytes(first.read_bytes()[: first.stat().st_size // 2])
    for args in (["--facts", str(cut)], ["--facts", str(tmp_path / "absent.gz")]):
        code, _, err = run("diagnose", *args, "--no-ask")
        assert code == 2 and err.startswith("faultbot: error: ") and err.count("\n") == 1


def test_extract_refuses_a_missing_input_or_output_folder(tmp_path: Path) -> None:
    assert run("extract", str(tmp_path / "absent"), "-o", str(tmp_path / "x.gz"))[0] == 2
    code, _, err = run("extract", str(tmp_path), "-o", str(tmp_path / "no" / "x.gz"))
    assert code == 2 and "no such folder for -o" in err
    assert not list(tmp_path.glob("*.partial"))


def test_files_from_another_knowledge_base_are_read_with_a_warning(scenarios: Scenarios, tmp_path: Path) -> None:
    files = [tmp_path / path.name for path in scenarios.facts("op-mismatch")]
    for source, copy in zip(scenarios.facts("op-mismatch"), files):
        copy.write_bytes(source.read_bytes())
    lines = gzip.decompress(files[0].read_bytes()).decode().splitlines()
    header = json.loads(lines[0])
    _gz(files[0], [json.dumps({**header, "kb": "sha256:older"}), *lines[1:]])
    code, out, err = run("diagnose", "--facts", *map(str, files), "--no-ask", "--format", "json")
    assert code == 0 and "1 facts file(s)" in err and "another knowledge base" in err
    assert json.loads(out)["conclusions"][0]["id"] == "hccl.notify-timeout.op-mismatch"
