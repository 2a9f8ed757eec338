"""Passages cut into sentences: shell blocks stay with the sentence before, log blocks go, rows read alone."""

from __future__ import annotations

from faultbot.qa.sentences import sentences

PASSAGE = """Turn on deterministic computing. It takes another path, e.g. around the bug:

```bash
export LCCL_DETERMINISTIC=1
```

```text
[ERROR] a log line nobody quotes
```

| Acronym | Expansion |
|---|---|
| LCCL | Low-latency Collective Communication Library |

- first item. Its second sentence.

**Key terms (zh):** 确定性计算
"""


def test_sentences_rows_items_and_commands():
    found = sentences(PASSAGE)
    texts = [s.text for s in found]
    assert texts[:2] == ["Turn on deterministic computing.", "It takes another path, e.g. around the bug:"]
    assert found[1].commands == ("export LCCL_DETERMINISTIC=1",)
    assert "Acronym: LCCL; Expansion: Low-latency Collective Communication Library" in texts
    assert found[texts.index("first item.")].bullet
    assert not any("log line" in t or "Key terms" in t for t in texts)


def test_a_full_stop_inside_inline_code_ends_no_sentence():
    cut = [s.text for s in sentences("It shows `NPU out of memory. Tried to allocate <size>` first. Then it dies.")]
    assert cut == ["It shows `NPU out of memory. Tried to allocate <size>` first.", "Then it dies."]
