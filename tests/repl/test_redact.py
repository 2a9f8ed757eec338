"""Exports with --redact: every kind of site identifier is masked with its own placeholder, the same
value with the same placeholder everywhere; versions, the KB's commands and paths, timestamps,
source lines, error codes, device addresses and documentation links come out as they went in; and
hostile megabyte lines take linear time."""

from __future__ import annotations

import re
import time

import pytest

from faultbot.kb.regex_safety import check_regex
from faultbot.repl.redact import redact
from faultbot.repl.redaction_patterns import KINDS

from .conftest import EXAMPLE_LOG

# (kind, a line as it shows up in a log or a ticket, the line redacted): the expected line is
# exact, so each row also shows that nothing around the identifier was touched.
MASKED = [
    ("private-key",
     ("ssh key: -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\n"
      "AAAAMwAAAAtzc2gtZWQyNTUxOQ\n-----END OPENSSH PRIVATE KEY-----\nnext line"),
     "ssh key: <private-key-1>\nnext line"),
    ("private-key",
     ('"key": "-----BEGIN RSA PRIVATE KEY-----\\nMIIEpAIBAAKCAQEA7Vb\\nQm9iIHNlY3JldA==\\n'
      '-----END RSA PRIVATE KEY-----"'),
     '"key": "<private-key-1>"'),
    ("private-key",
     ("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F1A2B\n\nMIIEowIBAAKCAQEAu1\n"
      "-----END RSA PRIVATE KEY-----\nafter"),
     "<private-key-1>\nafter"),
    ("url-password", "git clone https://deploy:Gh7xPq2rT@gitlab.corp.example/ai/llm.git",
     "git clone https://<user-1>:<secret-1>@<host-1>/ai/llm.git"),
    ("url-user", "pip install -i https://alice@pypi.mirror.lan/simple torch_npu==2.1.0.post11",
     "pip install -i https://<user-1>@<host-1>/simple torch_npu==2.1.0.post11"),
    ("jwt", "X-Auth-Token: eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtYS11c2VyIn0.dGhpc2lzYXNpZ25hdHVyZQ",
     "X-Auth-Token: <secret-1>"),
    ("authorization", "curl -H 'Authorization: Basic YWxpY2U6czNjcjN0UGFzcw==' http://obs-gw/",
     "curl -H 'Authorization: Basic <secret-1>' http://<host-1>/"),
    ("bearer-token", "401 Unauthorized for Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
     "401 Unauthorized for Bearer <secret-1>"),
    ("openai-style-key", "benchmark client uses sk-proj-4fG7hJ9kL2mN5pQ8rS1tU3vW6xY",
     "benchmark client uses <secret-1>"),
    ("github-token", "fetch with ghp_1A2b3C4d5E6f7G8h9I0jK1lM2nO3pQ4rS5tU6v failed", "fetch with <secret-1> failed"),
    ("huggingface-token", "Loaded hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 from cache", "Loaded <secret-1> from cache"),
    ("cloud-access-key-id", "obsutil cp using AKIAIOSFODNN7EXAMPLE", "obsutil cp using <access-key-1>"),
    ("password-field", "db_password: 'Hunter2!x' retries=3", "db_password: '<secret-1>' retries=3"),
    ("secret-key-field", "export HUAWEICLOUD_SDK_SK=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",
     "export HUAWEICLOUD_SDK_SK=<secret-1>"),
    ("secret-key-field", "secret_access_key = 8pQmW3xZrT5vYb2nK7cL", "secret_access_key = <secret-1>"),
    ("access-key-field", "AK=HPUAXR4K2M9Q7ZL1WB3N SK=Zm9vYmFyYmF6cXV4MTIz", "AK=<access-key-1> SK=<secret-1>"),
    ("access-key-field", "access_key_id: HPUAXR4K2M9Q7ZL1WB3N", "access_key_id: <access-key-1>"),
    ("token-field", "export HF_TOKEN=hf_abcdefghijklmnop", "export HF_TOKEN=<secret-1>"),
    ("token-field", '{"api_key": "4a1f0c9e7b2d", "max_tokens": 2048}',
     '{"api_key": "<secret-1>", "max_tokens": 2048}'),
    ("secret-cli-flag", "python deploy.py --password Tr0ub4dor --port 8000",
     "python deploy.py --password <secret-1> --port 8000"),
    ("email", "escalated to zhang.wei@corp-example.com by on-call", "escalated to <email-1> by on-call"),
    ("windows-path", "copied logs to C:\\Users\\bob\\logs\\plog-1.log", "copied logs to <path-1>"),
    ("home-relative-path", "tail -f ~bob/jobs/run.log", "tail -f <path-1>"),
    ("home-relative-path", "sbatch ~/jobs/llama70b.sh", "sbatch <path-1>"),
    ("package-path", 'File "/home/alice/miniconda3/envs/mt/lib/python3.9/site-packages/torch_npu/utils.py", line 12',
     'File "<path-1>/site-packages/torch_npu/utils.py", line 12'),
    ("package-path", "ASCEND_PROCESS_LOG_PATH=/data/u123/ascend/log/debug/plog",
     "ASCEND_PROCESS_LOG_PATH=<path-1>/ascend/log/debug/plog"),
    ("absolute-path", "loading checkpoint /data/projects/bob-llm/ckpt/iter_0001000", "loading checkpoint <path-1>"),
    ("relative-path", "saving to ./output/bob/run1", "saving to <path-1>"),
    ("home-user", "job /home/alice/run.sh started by alice", "job <path-1> started by <user-1>"),
    ("home-user", "see ~alice for the job files", "see ~<user-1> for the job files"),
    ("user-field", "USER=alice LOGNAME=alice\nalice_run1 failed",
     "USER=<user-1> LOGNAME=<user-1>\n<user-1>_run1 failed"),
    ("id-user", "uid=1001(zhangsan) gid=1001(zhangsan)", "uid=1001(<user-1>) gid=1001(<user-1>)"),
    ("prompt-user", "[alice@node-3 ~]$ npu-smi info", "[<user-1>@<host-1> ~]$ npu-smi info"),
    ("prompt-host", "root@gpu12:~# hccn_tool -i 0 -link -g", "root@<host-1>:~# hccn_tool -i 0 -link -g"),
    ("hex-ip-field", "[ERROR] HCCP(1234,python): ra_socket_init: ip=0xC0A8010A port=60000",
     "[ERROR] HCCP(1234,python): ra_socket_init: ip=<ip-1> port=60000"),
    ("hex-ip-field", "remoteIp[167772161] localIp[167772162]", "remoteIp[<ip-1>] localIp[<ip-2>]"),
    ("ipv4", "connect to 192.168.1.10:60000 failed, retry 3", "connect to <ip-1>:60000 failed, retry 3"),
    ("ipv4", "tag[AllReduce_10.0.0.1%eth0_60000_0_1761275812718970]",
     "tag[AllReduce_<ip-1>%<if-1>_60000_0_1761275812718970]"),
    ("ipv6", "peer fe80::1ff:fe23:4567:890a is unreachable", "peer <ip-1> is unreachable"),
    ("ipv6", "tag[AllGather_fd00:1148:9000:5000:4:200:3:ff21%enp189s0f0_60000_0]",
     "tag[AllGather_<ip-1>%<if-1>_60000_0]"),
    ("mac", "hccn_tool -i 0 -mac -g: mac addr: 78:b4:6a:2c:91:0e", "hccn_tool -i 0 -mac -g: mac addr: <mac-1>"),
    ("uuid", "job 3f2b9c1e-8d4a-4e6f-9b2c-7a1d5e3f9c08 failed", "job <uuid-1> failed"),
    ("container-id", "containerID: containerd://3f9a1b2c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8",
     "containerID: containerd://<container-1>"),
    ("serial-number", "npu-smi info -t board -i 0: Serial Number : 033FAY10N3000123",
     "npu-smi info -t board -i 0: Serial Number : <serial-1>"),
    ("serial-number", "board SN: 1022A3B4C5D6", "board SN: <serial-1>"),
    ("phone-cn", "on-call +86 138 1234 5678", "on-call <phone-1>"),
    ("phone-international", "vendor hotline +1 415 555 0100", "vendor hotline <phone-1>"),
    ("phone-field", "联系人 张工 手机: 13912345678", "联系人 张工 手机: <phone-1>"),
    ("phone-cn-mobile", "call 13812345678 if it hangs again", "call <phone-1> if it hangs again"),
    ("pod-replicaset", "kubectl logs train-7d9f8b6c5-x2x9z -c main", "kubectl logs <pod-1> -c main"),
    ("pod-training-role", "pytorch-job-worker-3 exited with code 137", "<pod-1> exited with code 137"),
    ("pod-field", 'Error from server (NotFound): pods "llm-sft-job-x7k2p" not found',
     'Error from server (NotFound): pods "<pod-1>" not found'),
    ("host-field", "init failed on host=node-3\n[ERROR] node-3 lost heartbeat; see node-3.log",
     "init failed on host=<host-1>\n[ERROR] <host-1> lost heartbeat; see <host-1>.log"),
    ("host-field", "hostname: gpu12", "hostname: <host-1>"),
    ("host-field", "remoteIP{server[node7]}", "remoteIP{server[<host-1>]}"),
    ("host-field", "MASTER_ADDR=gpu-head-01 MASTER_PORT=29500", "MASTER_ADDR=<host-1> MASTER_PORT=29500"),
    ("mpi-prefix-host", "[gpu12:48213] *** Process received signal ***",
     "[<host-1>:48213] *** Process received signal ***"),
    ("nccl-prefix-host", "worker-07:984:1357 [4] NCCL INFO Bootstrap : Using eth0:10.0.0.7<0>",
     "<host-1>:984:1357 [4] NCCL INFO Bootstrap : Using <if-1>:<ip-1><0>"),
    ("launcher-prefix-host",
     "node-3: [ERROR] HCCL(2817,python):2025-05-12-20:55:44.706.132 [heartbeat.cc:951] lost\nrestarted node-3",
     "<host-1>: [ERROR] HCCL(2817,python):2025-05-12-20:55:44.706.132 [heartbeat.cc:951] lost\nrestarted <host-1>"),
    ("launcher-prefix-host", "[worker-07] EI0002: The wait execution of the Notify register times out.",
     "[<host-1>] EI0002: The wait execution of the Notify register times out."),
    ("host-folder", "reading logs/node-3/plog/plog-1.log", "reading logs/<host-1>/plog/plog-1.log"),
    ("fqdn-host", "connecting to gpu-node-12.sh.example.internal:8080, gpu-node-12 refused",
     "connecting to <host-1>.<domain-1>:8080, <host-1> refused"),
    ("domain-of-host", "host=worker-3.cluster.local", "host=<host-1>.<domain-1>"),
    ("domain", "proxy at corp.example:3128", "proxy at <domain-1>:3128"),
    ("domain", "resolved www.corp.example", "resolved <domain-1>"),
    ("url-host", "POST http://gitlab-internal:8080/api/v4/jobs", "POST http://<host-1>:8080/api/v4/jobs"),
    ("url-host", "GET http://10.2.3.4:9000/metrics", "GET http://<ip-1>:9000/metrics"),
    ("url-host-after-user", "https://deploy@artifacts-01/repo/llm.tar", "https://<user-1>@<host-1>/repo/llm.tar"),
    ("interface-after-address", "group:[192.168.1.7%data0_60000_0_17]", "group:[<ip-1>%<if-1>_60000_0_17]"),
    ("interface-name", "HCCL_SOCKET_IFNAME=bond0, RDMA on mlx5_0 and ib0, data on enp189s0f0",
     "HCCL_SOCKET_IFNAME=<if-1>, RDMA on <if-2> and <if-3>, data on <if-4>"),
    ("interface-field", "NCCL_SOCKET_IFNAME=data0", "NCCL_SOCKET_IFNAME=<if-1>"),
]

# (what must survive, a line): each comes out of redact exactly as it went in. The first word names
# the protecting kind where there is one.
KEPT = [
    ("version", "HDK 24.1.0.3, CANN 8.0.RC2.10, firmware 7.0.0.5.242, driver 23.0.6, torch_npu 2.1.0.post11"),
    ("version", "Ascend-hdk-910b-npu-driver_24.1.0.3_linux-aarch64.run"),
    ("version", "npu-smi 24.1.0.3    Version: 24.1.0.3"),
    ("kb-path", "source /usr/local/Ascend/ascend-toolkit/set_env.sh"),
    ("kb-path", "cat /usr/local/Ascend/ascend-toolkit/latest/version.cfg"),
    ("kb-path", "ls /var/log/npu/slog/debug/device-0/"),
    ("kb-path", 'grep -r "Entry-" ~/ascend/log'),
    ("kb-path", "grep -rn ERROR $HOME/ascend/log/debug/plog/ ${HOME}/aic_err_info/plog"),
    ("kb-path", "rm -rf /root/ascend/log/debug/plog/*"),
    ("kb-path", 'grep -r "Transport init error! createLink para:" debug/plog/plog-*.log  # on the peer node'),
    ("kb-command", "npu-smi info -t board -i 0"),
    ("kb-command", "hccn_tool -i 0 -link -g"),
    ("kb-command", "npu-smi info -t health -i <device_id> -c <chip_id>"),
    ("kb-command", "for i in {0..7}; do hccn_tool -i $i -ip -g; done"),
    ("kb-command", "hccn_tool -i 0 -tls -s path /root pri pri.pem pub pub.pem ca1 ca1.pem"),
    ("kb-command", "sysctl -w net.ipv4.ip_local_reserved_ports=60000-60031"),
    ("kb-command", "export HCCL_CONNECT_TIMEOUT=600 HCCL_BUFFSIZE=100 HCCL_EXEC_TIMEOUT=1836"),
    ("timestamp", "[ERROR] HCCL(2817,):2026-08-04-06:53:21.443.429 [task_exception_handler.cc:947] [3154]"),
    ("timestamp", "[2025-05-12 20:55:44,706] 2025-05-12-20:55:44.706.132"),
    ("device-address", ("opData information is deviceId:[3], index[1338], count[8290304], src[0x12c25487ac00], "
                        "dst[0x12df46c5c000], dataType[bfloat16].")),
    ("error-code", "EI0002: The wait execution of the Notify register times out. EZ9999: Inner Error!"),
    ("error-code", "error code 0x715006c; rtStreamSynchronize failed, ret 507048"),
    ("doc-url", "https://www.hiascend.com/document/detail/zh/canncommercial/80RC2/apiref/envvar/envref_07_0082.html"),
    ("doc-url", "https://gitee.com/ascend/pytorch/issues/I9ABCD, https://github.com/vllm-project/vllm-ascend/issues/1"),
    ("doc-url", "https://www.hiascend.com/developer/techArticles/20260604-10?envFlag=1"),
    ("http-route", 'INFO:     127.0.0.1:59272 - "POST /v1/chat/completions HTTP/1.1" 200 OK'),
    ("counter", "The error from device(chipId:3, dieId:0), serial number is 7, there is a vector core timeout"),
    ("counter", "fault kernel_name=LcalAllReduce, program id=17, hash=4122903761870532011."),
    ("counter", "alloc device memory failed, free: 17179869184, size=13421772800, total 65536MB"),
    ("counter", "max_tokens=2048 num_tokens: 4096 tokenizer_mode=auto"),
    ("code", "std::vector<int> HcclCommunicator::ExecOp torch_npu.npu.set_device(0)"),
    ("code", "self.net threading.local logger.info( Path.home()"),
    ("code", "cann_version version in <8.2.RC1 -> true — `kb/entries/lccl/lccl.allreduce-flag-cleanup.yaml:26`"),
    ("source-line", 'File "/usr/local/python3.9.2/lib/python3.9/site-packages/torch_npu/__init__.py", line 12'),
    ("source-line", "../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970"),
    ("launcher", "[1,3]<stdout>: rank 3 started\n[rank0]: Traceback (most recent call last):\nrank3: loss 2.1"),
    ("generic", "MASTER_ADDR=127.0.0.1 listen 0.0.0.0:29500 netmask 255.255.255.0"),
    ("generic", "[root@localhost ~]# npu-smi info; git clone git@github.com:Ascend/pytorch.git"),
    ("generic", "CANN 8.0.RC2 std::vector https://www.hiascend.com/document/detail/zh/x.html"),
]
PROTECTING_KINDS = {kind.name for kind in KINDS if kind.label is None}


def test_every_kind_has_an_example_and_there_are_forty_of_them():
    shown = {kind for kind, _, _ in MASKED} | {what for what, _ in KEPT}
    assert {kind.name for kind in KINDS} <= shown
    assert len({kind for kind, _, _ in MASKED}) >= 40


@pytest.mark.parametrize(("kind", "line", "expected"), MASKED, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(MASKED)])
def test_each_kind_is_masked_with_its_own_placeholder(kind, line, expected):
    assert redact(line, hosts=set()) == expected


@pytest.mark.parametrize(("what", "line"), KEPT, ids=[f"{w}-{i}" for i, (w, _) in enumerate(KEPT)])
def test_what_the_reader_needs_comes_out_unchanged(what, line):
    assert redact(line, hosts=set()) == line


def test_the_protecting_kinds_are_the_ones_the_table_names():
    assert PROTECTING_KINDS == {"doc-url", "http-route", "timestamp", "version"}


def test_a_value_keeps_its_placeholder_wherever_and_however_it_appears():
    log = ("node-3: [ERROR] HCCL(7,python):2025-05-12-20:55:44.706.132 host=node-3 remote 10.0.0.1 "
           "tag[AllReduce_10.0.0.1%eth0_60000_0]\n"
           "[node-3:4242] *** Process received signal *** on node-3.cluster.local\n"
           "logs/node-3/plog/plog-1.log by USER=alice; alice@node-3 ran it, 10.0.0.2 answered")
    masked = redact(log, hosts=set())
    for value in ("node-3", "10.0.0.1", "10.0.0.2", "alice", "eth0"):
        assert value not in masked
    assert masked.count("<host-1>") == 6 and "<host-2>" not in masked
    assert masked.count("<ip-1>") == 2 and masked.count("<ip-2>") == 1  # numbered by first appearance
    assert masked.count("<user-1>") == 2 and "<if-1>" in masked and "<domain-1>" in masked
    assert "2025-05-12-20:55:44.706.132" in masked and "[ERROR] HCCL(7,python)" in masked


def test_the_earlier_example_ips_hosts_and_paths_are_masked_the_same_everywhere():
    text = ("local rank [127.10.0.1/1]: crimer rank [127.10.0.2/2] ... remoteIP{server[127.10.0.2]} "
            "host=node-03 on worker-3.cluster.local reads /home/alice/run/plog/plog-1.log and ~/job.sh")
    masked = redact(text, hosts=set())
    for secret in ("127.10.0.1", "127.10.0.2", "node-03", "worker-3", "cluster.local", "/home/alice", "~/job.sh"):
        assert secret not in masked
    assert masked.count("<ip-2>") == 2 and "<ip-1>" in masked
    assert "<host-1>" in masked and "<path-1>" in masked


def test_this_machines_names_are_masked_short_and_qualified():
    assert redact("ran on gpu-box-7 today", hosts={"gpu-box-7"}) == "ran on <host-1> today"
    assert (redact("gpu-box-7.corp.example and gpu-box-7", hosts={"gpu-box-7.corp.example"})
            == "<host-1>.<domain-1> and <host-1>")


def test_text_holding_the_private_use_characters_redact_works_with_comes_back_intact():
    text = "\ue000\ue100\ue001 host=node-3 \ue001%x \ue1ff"
    assert redact(text, hosts=set()) == "\ue000\ue100\ue001 host=<host-1> \ue001%x \ue1ff"


def _fix_steps(kb):
    return [step for entry in kb.entries
            for step in (*entry.fixes.workaround, *entry.fixes.permanent, *entry.fixes.next_checks)]


def test_the_kbs_fix_texts_survive_except_interface_names(kb):
    pieces = [step.text for step in _fix_steps(kb)]
    pieces += [text for entry in kb.entries for text in (entry.title, entry.summary, entry.cause) if text]
    assert len(pieces) > 300
    changed = {piece: redact(piece, hosts=set()) for piece in pieces if redact(piece, hosts=set()) != piece}
    assert all(after == before.replace("eth0", "<if-1>") for before, after in changed.items())


def test_the_kbs_commands_survive_whole_when_kept_and_the_sites_interface_is_still_masked(kb):
    commands = {command for step in _fix_steps(kb) for command in step.commands}
    assert any("eth0" in command for command in commands)
    report = "\n".join(sorted(commands)) + "\nremote 10.0.0.1%eth0 timed out, host=node-3"
    masked = redact(report, hosts=set(), keep=commands)
    assert masked.splitlines()[:-1] == sorted(commands)
    assert masked.splitlines()[-1] == "remote <ip-1>%<if-1> timed out, host=<host-1>"
    assert redact(report, hosts=set()) != masked  # without keep, the commands' eth0 is masked too


def test_a_redacted_report_of_a_log_without_identifiers_is_the_plain_report(chat, tmp_path):
    chat.respond(EXAMPLE_LOG)
    chat.respond("8.0.RC2")
    chat.respond(f"/export {tmp_path / 'plain.md'}")
    report = (tmp_path / "plain.md").read_text(encoding="utf-8")
    assert "24.1.0.3" in report and "/usr/local/Ascend/ascend-toolkit/latest/version.cfg" in report
    assert redact(report, hosts=set()) == report


def test_export_redact_writes_a_report_with_the_site_masked(chat, tmp_path):
    site = ("node-3: job by USER=alice on 10.0.0.1%enp189s0f0, ssh alice@node-3, SN: 1022A3B4C5D6, "
            "HF_TOKEN=hf_abcdefghijklmnop, mail ops@corp.example\n")
    chat.respond(site + EXAMPLE_LOG)
    chat.respond(f"/export {tmp_path / 'r.md'} --redact")
    report = (tmp_path / "r.md").read_text(encoding="utf-8")
    for secret in ("node-3", "alice", "10.0.0.1", "enp189s0f0", "1022A3B4C5D6", "hf_abcdefghijklmnop", "corp.example"):
        assert secret not in report
    assert re.search(r"<host-\d+>: job by USER=<user-\d+>", report) and "https://www.hiascend.com/" in report


def test_export_redact_keeps_the_kbs_command_whole_and_masks_the_sites_interface(chat, tmp_path):
    log = ("[ERROR] HCCL(402871,python):2025-11-02-09:41:13.602.117 [externalinput.cc:921] [402871][InitGroupStage]"
           "[EnvConfig]set ifname to [enp189s0f0] by HCCL_SOCKET_IFNAME, but not found in the environment, "
           "ifnames in the environment is as follows\n")
    chat.respond(log)
    chat.respond(f"/export {tmp_path / 'r.md'} --redact")
    report = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "hccl.invalid-env.socket-ifname-not-found" in report
    assert "export HCCL_SOCKET_IFNAME=eth0" in report and "enp189s0f0" not in report


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_every_pattern_passes_the_kb_regex_lint(kind):
    assert check_regex(kind.pattern.pattern) == []


# One megabyte of what makes regexes backtrack: runs of the characters the patterns repeat and the
# starts of their keywords; and half a megabyte on which every kind finds its hints, so all of them
# scan it (about 57 linear scans: the most a line can cost).
HOSTILE = {
    "dotted words": "a." * 500_000,
    "dotted digits": "1." * 500_000,
    "digits": "1" * 1_000_000,
    "colons": "1:" * 500_000,
    "hex groups": "ab:" * 333_333,
    "hyphens": "a-" * 500_000,
    "underscores": "a_" * 500_000,
    "slashes": "/a" * 500_000,
    "at signs": "a@a." * 250_000,
    "key headers": "-----BEGIN PRIVATE KEY-----\n" * 35_000,
    "jwt starts": "eyJaaaaaaaaa." * 76_000,
    "host fields": "host=node-3 " * 83_000,
    "links": "http://a" * 125_000,
    "windows paths": "C:\\a\\" * 200_000,
    "held characters": "\ue001%a" * 333_000,
    "every kind": ((" ".join(hint for kind in KINDS for hint in kind.hints) + " a.a.1.1.1.1:1 /a/a ~a/a ")
                   * 2_000)[:500_000],
}
HOSTILE_CPU_SECONDS = 3.0  # a quadratic pattern takes minutes on these; linear ones a second or two


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_megabyte_line_takes_linear_time(text):
    started = time.process_time()  # this process's CPU time: other jobs on the machine do not count
    redact(text, hosts=set())
    assert time.process_time() - started < HOSTILE_CPU_SECONDS
