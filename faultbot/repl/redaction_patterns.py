"""What ``/export --redact`` masks and what it must leave readable, declared as data: one ``IdentifierKind``
per kind of identifier, in the order ``redact`` applies them (see ``KINDS``).

A kind is a regex, the label of the placeholder a match becomes (``host`` gives ``<host-1>``) and
why it is there. When the regex has a group ``v`` only that part is masked (``password=`` stays,
what follows it goes); otherwise the whole match is. A kind without a label protects what it
matches: later kinds never see it (documentation links, versions shaped like IPv4 addresses,
timestamps). ``keep`` lets a match through untouched but visible to later kinds (system paths,
public domains, generic names such as ``root``); it reads only the match's groups, so ``redact``
works out each distinct match once. A kind that ``learns`` also reports the names it finds before
anything is masked; ``redact`` masks every bare occurrence of a learned name last, so a host named
once by ``host=node-3`` is masked in paths, launcher prefixes and prose too. ``hints`` are
lower-case strings one of which is in any text the regex can match in: ``redact`` skips a kind
whose hints are all missing, which is most kinds on most texts.

Order matters and is deliberate: secrets and links first (a token may hold anything), then paths
(a path holds IPs and host names that are part of it), then addresses, then names.

Every pattern stays linear on hostile lines: an unbounded repeat starts after a one-character
lookbehind that pins it to the start of a run, or is bounded; repeats inside repeats are separated
by a character the inner one cannot match. The tests run each one through the KB's regex lint and
time ``redact`` on megabyte lines.

The shapes redaction shares with the KB's masks (an IPv4 address, a timestamp, the characters of a
path) are defined once, in ``kb/shapes.py``, so a report and a signature read them alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import msgspec

from ..kb.shapes import IPV4, PATH_CHAR, TIMESTAMP

# redact() writes what it has dealt with as runs of these private-use characters; no pattern may
# match them (negated classes add HELD), and the one that ends the run of a masked value (HELD_END)
# lets a pattern continue right after it (the domain after a host, the interface after an address).
HELD = "\ue000-\ue1ff"
HELD_END = "\ue001"

# Names no one is identified by: never learned, never masked as a user or host.
GENERIC_NAMES = frozenset({
    "localhost", "localhost.localdomain", "localdomain", "root", "admin", "user", "users", "nobody",
    "guest", "default", "hwhiaiuser", "hwdmuser", "hwbaseuser", "ma-user", "ubuntu", "centos", "git",
    "oauth2", "x-access-token", "token", "www", "main", "master", "head", "latest", "stable", "dev",
    "host", "node", "server", "worker", "none", "null", "true", "false", "unknown", "local",
})
# Sites whose links are documentation or public code: a report keeps them so the reader can follow.
PUBLIC_DOMAINS = (
    "hiascend.com", "hiascend.cn", "huawei.com", "huaweicloud.com", "gitee.com", "gitcode.com",
    "gitcode.net", "github.com", "github.io", "githubusercontent.com", "mindspore.cn", "openeuler.org",
    "pytorch.org", "python.org", "pypi.org", "pythonhosted.org", "readthedocs.io", "kubernetes.io",
    "k8s.io", "docker.com", "docker.io", "huggingface.co", "modelscope.cn", "modelers.cn", "kernel.org",
    "nvidia.com", "ubuntu.com", "tsinghua.edu.cn", "ustc.edu.cn", "aliyun.com", "vllm.ai",
)
# System and CANN locations: the KB's own commands name them, and they say nothing about a site.
PUBLIC_PATH_PREFIXES = (
    "/usr/", "/etc/", "/proc/", "/sys/", "/dev/", "/lib/", "/lib64/", "/bin/", "/sbin/", "/run/",
    "/var/log/", "/root/ascend/", "/home/HwHiAiUser/", "~/ascend/",
    "/pytorch/",  # where PyTorch's release builds compile: its source paths in tracebacks are public code
)
# Top-level domains: two-label names need one that code never ends in (self.net, threading.local,
# Path.home are code), longer names may end in any of these.
_TLD_OF_TWO = "com|org|edu|gov|cn|io|example|internal|intranet|corp|lan|localdomain"
_TLD_OF_MORE = _TLD_OF_TWO + "|net|local|home|cloud|ai|co|tech|mil|hk|tw|jp|kr|sg|uk|de|fr|ru"
# Words that end in a number without naming a host: launcher-like prefixes (rank3:, step100:).
_NOT_HOSTS = re.compile(r"(?i)(?:local_?)?(?:rank|default|device|dev|npu|chip|die|card|cpu|core|stream|task|thread|"
                        r"pid|tid|port|id|step|epoch|iter|iteration|layer|line|batch|group|comm|ring|stage|loss|"
                        r"error|warning|info|debug|python|py|pip|perl|gcc|clang|cuda|java|bash|sh|zsh)[-_]?\d+")
_HOSTNAME_KEYS = frozenset({"hostname", "host_name", "nodename", "node_name"})
_SOURCE_FILE = re.compile(r"\.(?:cc|cpp|cxx|c|h|hpp|cu)$")


class IdentifierKind(msgspec.Struct, frozen=True):
    """One kind of identifier (or, with no label, of text to protect) and how to find it."""

    name: str
    label: str | None
    pattern: re.Pattern[str]
    why: str
    hints: tuple[str, ...]  # one of these occurs in any lower-cased text the pattern can match in
    keep: Callable[[re.Match[str]], bool] | None = None  # reads the match's groups only, never around it
    learns: bool = False

    def may_match(self, lowered: str) -> bool:
        """Whether the pattern can match in a text, judged from its lower-cased form: a substring
        test is far cheaper than a regex scan, and most kinds have nothing to find in most texts."""
        return any(hint in lowered for hint in self.hints)


def _kind(name: str, label: str | None, regex: str, why: str, *, hints: tuple[str, ...],
          keep: Callable[[re.Match[str]], bool] | None = None, learns: bool = False) -> IdentifierKind:
    return IdentifierKind(name, label, re.compile(regex), why, hints, keep, learns)


def _not(chars: str) -> str:
    """A class of every character but ``chars`` and the ones redact() holds."""
    return "[^" + chars + HELD + "]"


def value(match: re.Match[str]) -> str:
    """What a kind masks in ``match``: its group ``v``, or all of it."""
    return match.group("v") if "v" in match.re.groupindex else match.group()


@lru_cache(maxsize=4096)
def is_generic(name: str) -> bool:
    return name.lower() in GENERIC_NAMES


@lru_cache(maxsize=4096)
def is_public_host(name: str) -> bool:
    name = name.lower().rstrip(".")
    return any(name == domain or name.endswith("." + domain) for domain in PUBLIC_DOMAINS)


@lru_cache(maxsize=4096)
def is_host_name(name: str) -> bool:
    """Whether a name from a launcher prefix or a field can be a host's, not a rank or a word."""
    return not is_generic(name) and _NOT_HOSTS.fullmatch(name) is None


def _generic(match: re.Match[str]) -> bool:
    return is_generic(value(match))


def _not_a_host(match: re.Match[str]) -> bool:
    name = value(match)
    return not is_host_name(name) or not re.search(r"[\d-]", name)


def _not_a_named_host(match: re.Match[str]) -> bool:
    """``hostname: gpu`` names a host; ``host: exports``, ``node: str`` and
    ``metadata_server: P2PHANDSHAKE`` are prose, code or a constant."""
    name = value(match)
    if not is_host_name(name) or name.isupper():
        return True
    return not re.search(r"\d", name) and match.group("k").lower() not in _HOSTNAME_KEYS


def _public_or_generic_host(match: re.Match[str]) -> bool:
    """Public sites and localhost stay; an address is left to the address kinds."""
    name = value(match)
    return is_generic(name) or is_public_host(name) or re.fullmatch(r"[\d.]+", name) is not None


def _public_fqdn(match: re.Match[str]) -> bool:
    return is_generic(value(match)) or is_public_host(value(match) + "." + match.group("rest"))


def is_public_path(path: str) -> bool:
    return any(path.startswith(prefix) or path + "/" == prefix for prefix in PUBLIC_PATH_PREFIXES)


def _public_path(match: re.Match[str]) -> bool:
    return is_public_path(value(match))


def _public_package_path(match: re.Match[str]) -> bool:
    return is_public_path(value(match) + match.group("tail"))


def _source_path(match: re.Match[str]) -> bool:
    return _SOURCE_FILE.search(value(match)) is not None


def _not_a_site_ipv4(match: re.Match[str]) -> bool:
    octets = [int(part) for part in match.group().split(".")]
    return max(octets) > 255 or octets[0] == 255 or match.group() in ("0.0.0.0", "127.0.0.1")


def _no_digit(match: re.Match[str]) -> bool:
    return not re.search(r"\d", value(match))


def _all_digits(match: re.Match[str]) -> bool:
    return value(match).isdigit()


_LABEL = r"[A-Za-z0-9-]{1,63}"
_HEX4 = r"[0-9A-Fa-f]{1,4}"
_PUBLIC = "|".join(re.escape(domain) for domain in PUBLIC_DOMAINS)
_SCHEME = r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,15}://"
_URL_HOST = r"[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,10}"
_K8S = "[bcdfghjklmnpqrstvwxz2456789]"  # the alphabet of Kubernetes' generated name suffixes
_USER = r"[A-Za-z_][A-Za-z0-9_-]{0,31}(?:\.[A-Za-z0-9_-]{1,31})?"
_SEPARATOR = r"[\"']?[ \t]{0,4}[:=][ \t]{0,4}[\"']?"
_SECRET_VALUE = r"(?![/~<$%{*])(?P<v>" + _not(r"\s\"',;&") + "+)"
_NOT_IN_PATH = r"(?<![\w.:/~$}@+*" + HELD + "-])"


def _field(keys: str) -> str:
    """``KEY=value`` / ``"key": "value"`` / ``key: value`` where the key ends in one of ``keys``
    (``HF_TOKEN``, ``obsSecretKey``; not ``max_tokens``, ``tokenizer``). The pattern starts at the
    keyword, the cheapest place for a scan to fail."""
    return r"(?i:" + keys + ")" + _SEPARATOR + _SECRET_VALUE


KINDS: tuple[IdentifierKind, ...] = (
    # --- secrets and links: first, since a token or a link may hold anything -------------------
    _kind("private-key", "private-key",
          r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----(?:(?:\r\n|\n|\\n)(?:[A-Za-z0-9+/=][A-Za-z0-9+/=-]{0,199}"
          r"(?:: " + _not(r"\r\n\\") + r"{0,200})?|(?=\r?\n|\\n)))*(?:(?:\r\n|\n|\\n)-----END (?:[A-Z0-9]+ ){0,3}"
          r"PRIVATE KEY-----)?",
          "a PEM/OpenSSH private key block, header to footer (or to where a truncated paste ends)",
          hints=("private key",)),
    _kind("url-password", "secret",
          _SCHEME + _not(r"\s/@:") + r"{1,128}:(?P<v>" + _not(r"\s/@") + r"{1,256})@",
          "the password of https://user:password@host",
          hints=("://",)),
    _kind("url-user", "user",
          _SCHEME + r"(?P<v>" + _not(r"\s/@:") + r"{1,128})(?=(?::[^\s/@]{0,256})?@)",
          "the user of https://user@host, also wherever else it appears",
          hints=("://",), keep=_generic, learns=True),
    _kind("doc-url", None,
          r"(?i)(?<![a-z0-9+.-])https?://(?:[:" + HELD + r"]{3,80}@)?(?:[a-z0-9-]{1,63}\.){0,5}(?:" + _PUBLIC
          + r")(?::\d{1,5})?(?![a-z0-9.-])(?:[/#]" + _not(r"\s?<>\"'`)\]") + "*)?",
          "links to documentation and public code stay for the reader to follow (masked credentials may "
          "precede the host; a query is still masked)",
          hints=("://",)),
    _kind("http-route", None,
          r"(?<=\")(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /" + _not(r"\s\"") + r"{0,200} HTTP/\d(?:\.\d)?\"",
          "the route of an access-log line (\"POST /v1/chat/completions HTTP/1.1\") is the server's API, not a path",
          hints=("http/",)),
    _kind("timestamp", None,
          TIMESTAMP,
          "CANN timestamps (2025-05-12-20:55:44.706.132) stay whole; their digits look like other things",
          hints=(":",)),
    _kind("version", None,
          r"(?i)(?<![a-z0-9])(?:version|ver|hdk|driver|firmware|fw|cann|toolkit|nnae|npu-smi|mcu|bios|release"
          r"|package|v)[\s:=_|-]{0,4}(?:is\s{1,4})?v?\d{1,3}(?:\.\d{1,3}){3}(?![0-9]|\.[0-9])",
          "a four-part version after a word that names one (HDK 24.1.0.3, driver_24.1.0.3) is not an IP",
          hints=("v", "hdk", "firmware", "fw", "cann", "toolkit", "nnae", "npu-smi", "mcu", "bios", "release",
                 "package")),
    _kind("jwt", "secret",
          r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{2,}(?:\.[A-Za-z0-9_-]{2,})?",
          "a JSON Web Token (eyJ...): a bearer credential wherever it appears",
          hints=("eyj",)),
    _kind("authorization", "secret",
          r"(?i)(?<![a-z0-9_-])(?:proxy-)?authorization" + _SEPARATOR
          + r"(?:(?:basic|bearer|token|digest)\s{1,4})?(?P<v>" + _not(r"\s\"',;") + "{8,})",
          "the credential of an Authorization header, whatever its scheme",
          hints=("authorization",)),
    _kind("bearer-token", "secret",
          r"(?i)(?<![a-z0-9])bearer\s{1,4}(?P<v>[A-Za-z0-9._~+/-]{16,}=*)",
          "a bearer token outside a header",
          hints=("bearer",)),
    _kind("openai-style-key", "secret",
          r"(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}",
          "an sk-... API key (OpenAI-compatible serving endpoints)",
          hints=("sk-",)),
    _kind("github-token", "secret",
          r"(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})",
          "a GitHub personal access or app token",
          hints=("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    _kind("huggingface-token", "secret",
          r"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}",
          "a Hugging Face access token",
          hints=("hf_",)),
    _kind("cloud-access-key-id", "access-key",
          r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])",
          "an S3-compatible access key id on its own (OBS clients accept AWS-style keys)",
          hints=("akia", "asia")),
    _kind("password-field", "secret",
          _field("password|passwd|passphrase|pwd"),
          "a password given as a key and value (password=, db_passwd:, \"password\": ...)",
          hints=("pass", "pwd")),
    _kind("secret-key-field", "secret",
          _field(r"secret[_-]?(?:access[_-]?)?key|(?<![A-Za-z0-9])sk"),
          "the SK of a Huawei Cloud AK/SK pair (SK=, secret_access_key, obsSecretKey); before access keys",
          hints=("secret", "sk")),
    _kind("access-key-field", "access-key",
          _field(r"access[_-]?key(?:[_-]?id)?|(?<![A-Za-z0-9])ak(?:[_-]?id)?"),
          "the AK of an AK/SK pair (AK=, access_key_id): it names the account",
          hints=("access", "ak")),
    _kind("token-field", "secret",
          _field(r"token|api[_-]?key|apikey|secret|credentials?|cookie|session[_-]?id"),
          "a token, API key or other secret given as a key and value (HF_TOKEN=, api_key:); a count stays",
          hints=("token", "api", "secret", "credential", "cookie", "session"), keep=_all_digits),
    _kind("secret-cli-flag", "secret",
          r"(?<![A-Za-z0-9-])--?(?:[A-Za-z0-9]{1,20}-){0,3}(?i:password|passwd|token|secret|api-key|ak|sk"
          r"|access-key(?:-id)?|secret-key|secret-access-key)\s{1,4}" + _SECRET_VALUE,
          "a secret passed as a command-line option's next word (--password x, --sk x)",
          hints=("pass", "token", "secret", "api-key", "ak", "sk", "access-key")),
    _kind("email", "email",
          r"(?<![A-Za-z0-9._%+-])(?P<local>[A-Za-z0-9._%+-]{1,64})@(?P<d>[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})"
          r"{1,8})(?<=[A-Za-z])(?![A-Za-z0-9-])",
          "an e-mail address (git@github.com of a clone URL stays)",
          hints=("@",), keep=lambda m: m.group("local") == "git" and is_public_host(m.group("d"))),
    # --- paths: before addresses and names, which they often contain -----------------------------
    _kind("windows-path", "path",
          r"(?<![A-Za-z0-9])[A-Za-z]:\\{1,2}(?:" + _not(r"\\\s\"'<>|:*?") + r"{1,255}\\{1,2}){0,40}"
          + _not(r"\\\s\"'<>|:*?") + "{0,255}",
          "a Windows path (C:\\Users\\bob\\logs) from a laptop-side paste",
          hints=(":\\",)),
    _kind("home-relative-path", "path",
          r"(?<![\w.:/~$}-])(?P<v>~[a-z0-9_.-]{0,32}(?:/" + PATH_CHAR + "{1,255}){1,60}/?)",
          "~/job.sh or ~bob/x; CANN's default log folder ~/ascend/log stays",
          hints=("~",), keep=_public_path),
    _kind("package-path", "path",
          _NOT_IN_PATH + r"(?P<v>(?:/" + PATH_CHAR + r"{1,255}){1,40}?)"
          r"(?=(?P<tail>/(?:site-packages|dist-packages|ascend/log)/))",
          "where a Python environment or a CANN log folder lives is masked; the package path after it stays",
          hints=("site-packages", "dist-packages", "ascend/log"), keep=_public_package_path),
    _kind("absolute-path", "path",
          _NOT_IN_PATH + r"(?P<v>/(?:" + PATH_CHAR + r"{1,255}/){1,60}" + PATH_CHAR + "{0,255})",
          "a path of two or more parts (/home/alice/run/plog); system and CANN paths stay",
          hints=("/",), keep=_public_path),
    _kind("relative-path", "path",
          r"(?<![\w.:/~$}-])(?P<v>\.\.?/(?:" + PATH_CHAR + r"{1,255}/){0,60}" + PATH_CHAR + "{1,255}/?)",
          "./output/bob/run1; framework source paths (../torch/csrc/x.cpp) stay",
          hints=("./",), keep=_source_path),
    _kind("home-user", "user",
          r"(?<![A-Za-z0-9_.~/-])(?:/(?:export/)?home/|/Users/|[A-Za-z]:\\{1,2}Users\\{1,2}|~(?=[a-z_]))"
          r"(?P<v>" + _USER + r")(?![A-Za-z0-9_-])",
          "the user a home folder is named after (/home/alice, C:\\Users\\bob, ~alice)",
          hints=("/home/", "/users/", "\\users\\", "~"), keep=_generic, learns=True),
    _kind("user-field", "user",
          r"(?i)(?<![A-Za-z0-9])(?:user_?name|user|login|logname|owner)" + _SEPARATOR + r"(?P<v>" + _USER + ")"
          r"(?![A-Za-z0-9_-])",
          "a user named by a field (user=alice, USER=alice, SUDO_USER=, owner:)",
          hints=("user", "login", "logname", "owner"), keep=_generic, learns=True),
    _kind("id-user", "user",
          r"(?<![A-Za-z0-9])[ug]id=\d{1,10}\((?P<v>" + _USER + r")\)",
          "the user in the output of id (uid=1000(alice))",
          hints=("id=",), keep=_generic, learns=True),
    _kind("prompt-user", "user",
          r"(?<![^\s\[(])(?P<v>[a-z_][a-z0-9_-]{0,31})@(?=[A-Za-z][A-Za-z0-9-]{0,62}(?:[\s:\],)]|$))",
          "the user of a shell prompt or ssh target (alice@node-3)",
          hints=("@",), keep=_generic, learns=True),
    _kind("prompt-host", "host",
          r"(?<![^\s\[(])[a-z_][a-z0-9_-]{0,31}@(?P<v>[A-Za-z][A-Za-z0-9-]{0,62})(?=[\s:\],)]|$)",
          "the host of a shell prompt or ssh target ([root@node-3 ~]#)",
          hints=("@",), keep=_not_a_host, learns=True),
    # --- addresses ----------------------------------------------------------------------------
    _kind("hex-ip-field", "ip",
          r"(?<![A-Za-z0-9_])(?:(?:[A-Za-z]{1,20}_){0,3}(?:ip|IP)(?:_?(?:addr|ADDR))?|[a-z]{1,20}(?:Ip|IP)(?:Addr)?)"
          r"[\"']?(?:\s{0,4}[:=]\s{0,4}|\[|\()(?P<v>0[xX][0-9A-Fa-f]{1,8}|\d{8,10})(?![0-9A-Za-z])",
          "an IP written as an integer in a device or HCCL field (ip=0xC0A8010A, remoteIp[167772161])",
          hints=("ip",)),
    _kind("ipv4", "ip",
          IPV4,
          "an IPv4 address, also inside tags and names (AllReduce_10.0.0.1%eth0); 127.0.0.1 and masks stay",
          hints=(".",), keep=_not_a_site_ipv4),
    _kind("ipv6", "ip",
          r"(?<![A-Za-z0-9:.])(?=[0-9A-Fa-f:]{0,39}[0-9])(?:(?:" + _HEX4 + r":){7}" + _HEX4
          + r"|(?:" + _HEX4 + r":){0,6}[0-9A-Fa-f]{0,4}::(?:" + _HEX4 + r":){0,6}[0-9A-Fa-f]{0,4})(?![A-Za-z0-9:])",
          "an IPv6 address, full or compressed, also inside tags (::1 stays)",
          hints=(":",), keep=lambda m: m.group() in ("::", "::1")),
    _kind("mac", "mac",
          r"(?<![0-9A-Fa-f:-])[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}(?![0-9A-Fa-f:-])",
          "a MAC address (hccn_tool -mac, RoCE port tables); all zeros and broadcast stay",
          hints=(":", "-"),
          keep=lambda m: m.group().lower().replace("-", ":") in ("00:00:00:00:00:00", "ff:ff:ff:ff:ff:ff")),
    _kind("uuid", "uuid",
          r"(?<![0-9A-Fa-f-])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
          r"(?![0-9A-Fa-f-])",
          "a UUID: a job, pod, volume or device instance of this site",
          hints=("-",)),
    _kind("container-id", "container",
          r"(?i)(?:(?<![a-z0-9])container[ _-]?id" + _SEPARATOR + r"(?:[a-z-]{1,12}://)?|(?<![a-z0-9])"
          r"(?:docker|containerd|cri-o)://)(?P<v>[0-9a-f]{12,64})(?![0-9a-z])",
          "a container id (containerID: containerd://3f9a...)",
          hints=("container", "docker://", "cri-o://")),
    _kind("serial-number", "serial",
          r"(?i)(?<![a-z0-9])(?:serial[ _-]?(?:number|no\.?|num)?|s/n|sn|(?:board|chip|elabel|device)[ _-]?sn"
          r"|bar[ _-]?code)[\"']?(?:\s{0,4}[:=]\s{0,4}|\s{1,4}(?:is\s{1,4})?)[\"']?"
          r"(?P<v>[a-z0-9][a-z0-9-]{7,39})(?![a-z0-9-])",
          "a board, chip or device serial number (SN: 1022A3B4C5D6); \"serial number is 7\" is a counter",
          hints=("serial", "sn", "s/n", "bar"), keep=_no_digit),
    _kind("phone-cn", "phone",
          r"(?<![A-Za-z0-9_+])\+86[ -]?1[3-9]\d[ -]?\d{4}[ -]?\d{4}(?![0-9])",
          "a Chinese mobile number with its country code (+86 138 1234 5678)",
          hints=("+86",)),
    _kind("phone-international", "phone",
          r"(?<![A-Za-z0-9_+])\+[1-9]\d{0,2}(?:(?:[ -]\d{2,4}){2,5}|\d{8,12})(?![0-9])",
          "another phone number with a country code (+1 415 555 0100)",
          hints=("+",)),
    _kind("phone-field", "phone",
          r"(?i:phone|mobile|tel|cell|contact|手机|电话|联系)[^\n\d+]{0,12}"
          r"(?P<v>(?:\+86[ -]?)?1[3-9]\d(?:[ -]?\d{4}){2})(?![0-9])",
          "a Chinese mobile number a field or a word names (phone: 13812345678, 手机 138 1234 5678)",
          hints=("phone", "mobile", "tel", "cell", "contact", "手机", "电话", "联系")),
    _kind("phone-cn-mobile", "phone",
          r"1(?<![A-Za-z0-9_+.=\[(:-]1)(?<![:=] 1)[3-9]\d{9}(?![A-Za-z0-9_\])-]|\.[0-9])"
          r"(?! ?(?:bytes?|[KMGT]i?B|B)\b)",
          "a Chinese mobile number on its own (call 13812345678); not a field's value (free: 17179869184) "
          "or a byte count",
          hints=("1",)),
    # --- names ----------------------------------------------------------------------------------
    _kind("pod-replicaset", "pod",
          r"(?<![A-Za-z0-9_.-])[a-z0-9](?:[a-z0-9-]{0,50}[a-z0-9])?-(?=" + _K8S + r"{0,9}[2456789])" + _K8S
          + r"{6,10}-" + _K8S + r"{5}(?![A-Za-z0-9_-])",
          "a Deployment's pod name (train-7d9f8b6c5-x2x9z)",
          hints=("-",)),
    _kind("pod-training-role", "pod",
          r"(?<![A-Za-z0-9_.-])[a-z0-9](?:[a-z0-9-]{0,50}[a-z0-9])?-(?:master|worker|launcher|chief|ps|evaluator"
          r"|scheduler)-\d{1,5}(?![A-Za-z0-9_-])",
          "a training job's pod name (pytorch-job-worker-3, mindx-dls-master-0)",
          hints=("-master-", "-worker-", "-launcher-", "-chief-", "-ps-", "-evaluator-", "-scheduler-")),
    _kind("pod-field", "pod",
          r"(?<![A-Za-z0-9_])(?:pod|Pod|POD)(?:_NAME|_name|Name|s)?(?:/|" + _SEPARATOR + r"|[ \t]{1,4}[\"']?)"
          r"(?P<v>[a-z][a-z0-9]{0,62}(?:-[a-z0-9]{1,63}){1,10})(?![A-Za-z0-9_-])",
          "a pod named by kubectl or a field (pod/x, POD_NAME=x, pod \"x\" not found)",
          hints=("pod",), learns=True),
    _kind("host-field", "host",
          r"(?i)(?<![A-Za-z0-9])(?P<k>host_?name|node_?name|host|node|server|master[_-]addr|master)"
          r"[\"']?(?:\s{0,4}[:=]\s{0,4}|\[)[\"']?(?P<v>[A-Za-z][A-Za-z0-9-]{0,62})(?![A-Za-z0-9-])",
          "a host named by a field (host=node-3, hostname: gpu12, server[node7], MASTER_ADDR=)",
          hints=("host", "node", "server", "master"), keep=_not_a_named_host, learns=True),
    _kind("mpi-prefix-host", "host",
          r"\[(?P<v>[A-Za-z][A-Za-z0-9-]{0,62}):\d{1,7}\]",
          "the host of an Open MPI message prefix ([node-3:12345])",
          hints=("]",), keep=_not_a_host, learns=True),
    _kind("nccl-prefix-host", "host",
          r"(?m)^[ \t]{0,8}(?P<v>[A-Za-z][A-Za-z0-9-]{0,62}):\d{1,7}:\d{1,7} \[\d{1,3}\]",
          "the host of an NCCL/HCCL-style debug line (node-3:984:1357 [4] NCCL INFO ...)",
          hints=(":",), keep=_generic, learns=True),
    _kind("launcher-prefix-host", "host",
          r"(?m)^\[?(?P<v>[a-z][a-z0-9-]{0,61}[0-9])(?:\]:?|:)[ \t]",
          "the host pdsh, clush or a launcher puts before each line (node-3: ..., [node-3] ...)",
          hints=(":", "]"), keep=_not_a_host, learns=True),
    _kind("host-folder", "host",
          r"(?<=/)(?P<v>(?:[a-z0-9]{1,20}-){0,3}(?:node|host|worker|server|compute)[-_]?\d{1,5})(?=/)",
          "a per-node log folder (logs/node-3/plog); the path around it is masked as a path",
          hints=("node", "host", "worker", "server", "compute"), learns=True),
    _kind("fqdn-host", "host",
          r"(?<![A-Za-z0-9.@-])(?P<v>" + _LABEL + r")(?=\.(?P<rest>(?:" + _LABEL + r"\.){1,8}(?i:" + _TLD_OF_MORE
          + r"))(?![A-Za-z0-9-]|\.[A-Za-z0-9]))",
          "the first label of a fully qualified name (gpu-node-12.sh.example.internal) is a host",
          hints=(".",), keep=_public_fqdn, learns=True),
    _kind("domain-of-host", "domain",
          r"(?<=" + HELD_END + r")\.(?P<v>(?:" + _LABEL + r"\.){0,8}(?i:" + _TLD_OF_MORE + r"))"
          r"(?![A-Za-z0-9-]|\.[A-Za-z0-9])",
          "the domain after a host already masked (<host-1>.sh.example.internal)",
          hints=(".",)),
    _kind("domain", "domain",
          r"(?<![A-Za-z0-9.@-])(?:" + _LABEL + r"\.){2,8}(?i:" + _TLD_OF_MORE + r")(?![A-Za-z0-9-]|\.[A-Za-z0-9])"
          r"|(?<![A-Za-z0-9.@-])" + _LABEL + r"\.(?i:" + _TLD_OF_TWO + r")(?![A-Za-z0-9-]|\.[A-Za-z0-9])",
          "a domain on its own (corp.example, www.corp.example); public sites stay",
          hints=(".",), keep=lambda m: is_public_host(m.group())),
    _kind("url-host", "host",
          _SCHEME + r"(?P<v>" + _URL_HOST + r")(?![A-Za-z0-9.-])(?![^\s/@]{0,400}@)",
          "the host of any other link (http://gitlab-internal:8080/...); public sites stay",
          hints=("://",), keep=_public_or_generic_host, learns=True),
    _kind("url-host-after-user", "host",
          _SCHEME + r"[^\s/@]{1,400}@(?P<v>" + _URL_HOST + r")(?![A-Za-z0-9.-])",
          "the host of a link with a user in it (https://alice@gitlab-internal/...)",
          hints=("://",), keep=_public_or_generic_host, learns=True),
    _kind("interface-after-address", "if",
          r"(?<=" + HELD_END + r"%)(?P<v>[A-Za-z][A-Za-z0-9.-]{0,14})(?![A-Za-z0-9])",
          "the interface after an address in an HCCL communicator name or zone (10.0.0.1%enp189s0f0_60000)",
          hints=("%",)),
    _kind("interface-name", "if",
          r"(?<![A-Za-z0-9_-])(?:eth\d{1,3}|en(?:o\d{1,5}|s\d{1,5}(?:f\d{1,3})?(?:np\d)?|p\d{1,3}s\d{1,3}"
          r"(?:f\d{1,3})?(?:np\d)?|P\d{1,5}p\d{1,3}s\d{1,3}(?:f\d{1,3})?|x[0-9a-f]{12})|ib\d{1,3}|bond\d{1,3}"
          r"|team\d{1,3}|br\d{1,3}|virbr\d{1,3}|docker\d{1,3}|vlan\d{1,4}|veth[0-9a-f]{5,15}|wlan\d{1,3}"
          r"|wlp\d{1,3}s\d{1,3}|mlx\d_\d{1,3}|hns_\d{1,3})(?:\.\d{1,4})?(?![A-Za-z0-9-])",
          "a Linux network or RDMA interface name (eth0, enp189s0f0, ib0, bond0, mlx5_0)",
          hints=("eth", "en", "ib", "bond", "team", "br", "docker", "vlan", "veth", "wlan", "wlp", "mlx", "hns")),
    _kind("interface-field", "if",
          r"(?i)(?<![A-Za-z0-9])(?:if_?name|iface|interface|nic_?name|netdev)" + _SEPARATOR + r"[\^=]{0,2}"
          r"(?P<v>[A-Za-z][A-Za-z0-9_.:-]{0,14})(?![A-Za-z0-9_.:-])",
          "an interface named by a field of another shape (HCCL_SOCKET_IFNAME=ens1np0)",
          hints=("ifname", "if_name", "iface", "interface", "nic", "netdev"), keep=_no_digit, learns=True),
)
