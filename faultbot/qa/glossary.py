"""The words a question is asked with, said in the articles' words: the articles are English with
Chinese key terms, so a Chinese question reaches their text through this glossary."""

from __future__ import annotations

import re

GLOSSARY: tuple[tuple[str, str], ...] = (
    (r"\bstands? for\b|全称|缩写|代表什么", "acronym expansion"),
    (r"开启|打开|启用|使能", "enable"),
    (r"默认|缺省", "default"),
    (r"原因|根因|为什么", "cause"),
    (r"环境变量", "environment variable"),
    (r"超时", "timeout"),
    (r"报错|错误|失败", "error fail"),
    (r"卡死|卡住|挂起|hang住", "hang"),
    (r"心跳", "heartbeat"),
    (r"通信域", "communicator"),
    (r"版本", "version"),
    (r"升级", "upgrade"),
    (r"修复|解决", "fix"),
    (r"彻底|根本|长期|永久", "permanent"),
    (r"命令", "command"),
    (r"查看|检查|怎么查|排查", "check"),
    (r"网络", "network"),
    (r"网口|端口", "port"),
    (r"闪断", "flap"),
    (r"进程", "process"),
    (r"退出", "exit"),
    (r"日志", "log"),
    (r"算子", "operator"),
    (r"确定性计算", "deterministic computing"),
    (r"重传", "retransmission"),
    (r"次数", "count"),
    (r"优先级", "priority"),
    (r"异常", "exception"),
    (r"链路", "link"),
    (r"销毁|析构", "destroy"),
    (r"内存", "memory"),
    (r"多流|多条流", "stream"),
    (r"并发", "concurrent"),
    (r"模式", "mode"),
    (r"丢失", "lost"),
    (r"节点", "node"),
    (r"训练", "training"),
    (r"推理", "inference"),
    (r"含义|意思|是什么意思", "mean"),
)
_COMPILED = tuple((re.compile(pattern, re.I), words) for pattern, words in GLOSSARY)


def expand(question: str) -> str:
    """``question`` with the terms the glossary knows said in the articles' words."""
    for pattern, words in _COMPILED:
        question = pattern.sub(f" {words} ", question)
    return question
