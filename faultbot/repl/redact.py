"""Masking what identifies a site in an export: IPs (also inside tags), interface and host names,
paths, e-mail addresses and secrets (``password=...``, tokens), each value with its own numbered
placeholder (``<ip-1>``) wherever it occurs, so the report still shows which are the same."""

from __future__ import annotations

import re
import socket

_URL = re.compile(r"https?://\S+")
# Not only between spaces: HCCL writes IPs into tags and communicator names
# (tag[AllReduce_10.0.0.1%eth0_60000_0_...]), so letters and underscores around one do not protect it.
_IPV4 = re.compile(r"(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])")
# A network interface: after the % of a communicator name (10.0.0.1%enp189s0f0), or a common
# Linux interface name on its own.
_INTERFACE = re.compile(r"(?<=%)[A-Za-z][\w.-]*?(?=_\d|[\s\]\),;]|$)|(?<![\w-])(?:eth|enp|ens|eno|ib|bond|bond_)\w*\d\w*(?![\w-])")
# Full (eight groups) or compressed (with ::) IPv6, holding a digit; times (07:52:59) have three groups.
_IPV6 = re.compile(r"(?<![\w:])(?=[\w:]*\d)(?:(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}"
                   r"|(?:[0-9a-fA-F]{1,4}:)*[0-9a-fA-F]{0,4}::(?:[0-9a-fA-F]{1,4}:)*[0-9a-fA-F]{0,4})(?![\w:])")
# A host named by a field (host=node-3, hostname: gpu12, server[node7]) or a dotted name
# (worker-3.cluster.local) ending in a DNS-looking label; file names (a.cc, version.cfg) have
# two labels, so three or more are required.
_HOST_FIELD = re.compile(r"(?i)\b(?:host(?:name)?|node(?:name)?|server)\s*(?:[:=]\s*|\[)\s*([A-Za-z][\w.-]*[A-Za-z0-9])")
_DOTTED_HOST = re.compile(r"(?<![\w./-])(?:[A-Za-z][\w-]*\.){2,}[A-Za-z]{2,}(?![\w./-])")
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
# Secrets: key=value / key: value pairs whose key names one, and bearer tokens.
_SECRET = re.compile(r"(?i)\b([\w.-]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key)[\w.-]*)"
                     r"(\s*[=:]\s*)(['\"]?)([^\s'\",;]+)")
_BEARER = re.compile(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/=-]{8,})")
_PATH = re.compile(r"(?<![\w.:/-])(?:~/|/)(?:[\w.@+-]+/)*[\w.@+-]+/?")


def _local_names() -> set[str]:
    names = {socket.gethostname()}
    try:
        names.add(socket.getfqdn())
    except OSError:
        pass
    return {n for n in names if n and n != "localhost" and len(n) > 2}


class _Placeholders:
    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], str] = {}

    def __call__(self, kind: str, value: str) -> str:
        key = (kind, value)
        if key not in self.seen:
            count = sum(1 for k, _ in self.seen if k == kind) + 1
            self.seen[key] = f"<{kind}-{count}>"
        return self.seen[key]


def _redact_span(text: str, placeholder: _Placeholders, hosts: set[str]) -> str:
    text = _SECRET.sub(lambda m: m.group(1) + m.group(2) + m.group(3) + placeholder("secret", m.group(4)), text)
    text = _BEARER.sub(lambda m: m.group(1) + placeholder("secret", m.group(2)), text)
    text = _EMAIL.sub(lambda m: placeholder("email", m.group()), text)
    text = _IPV4.sub(lambda m: placeholder("ip", m.group()), text)
    text = _IPV6.sub(lambda m: placeholder("ip", m.group()), text)
    text = _INTERFACE.sub(lambda m: placeholder("if", m.group()), text)
    text = _HOST_FIELD.sub(lambda m: m.group().replace(m.group(1), placeholder("host", m.group(1))), text)
    text = _DOTTED_HOST.sub(lambda m: placeholder("host", m.group()), text)
    for name in sorted(hosts, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", lambda m: placeholder("host", m.group()), text)
    return _PATH.sub(lambda m: placeholder("path", m.group()) if m.group().count("/") >= 2 or m.group().startswith("~")
                     else m.group(), text)


def redact(text: str, hosts: set[str] | None = None) -> str:
    """``text`` with IPs, host names (and this machine's names, or ``hosts``) and paths masked."""
    hosts = _local_names() if hosts is None else hosts
    placeholder = _Placeholders()
    parts, start = [], 0
    for url in _URL.finditer(text):
        parts += [_redact_span(text[start:url.start()], placeholder, hosts), url.group()]
        start = url.end()
    parts.append(_redact_span(text[start:], placeholder, hosts))
    return "".join(parts)
