"""Exports with --redact: IPs, host names and paths masked consistently, links and code names kept."""

from __future__ import annotations

from faultbot.repl.redact import redact


def test_ips_hosts_and_paths_are_masked_the_same_everywhere():
    text = ("local rank [127.10.0.1/1]: crimer rank [127.10.0.2/2] ... remoteIP{server[127.10.0.2]} "
            "host=node-03 on worker-3.cluster.local reads /home/alice/run/plog/plog-1.log and ~/job.sh")
    masked = redact(text, hosts=set())
    for secret in ("127.10.0.1", "127.10.0.2", "node-03", "worker-3.cluster.local", "/home/alice", "~/job.sh"):
        assert secret not in masked
    assert masked.count("<ip-2>") == 2 and "<ip-1>" in masked
    assert "<host-1>" in masked and "<path-1>" in masked


def test_links_timestamps_versions_and_source_files_stay():
    text = ("2025-10-23-07:52:59.191.363 [heartbeat.cc:951] CANN 8.0.RC2 std::vector "
            "https://www.hiascend.com/document/detail/zh/x.html")
    assert redact(text, hosts=set()) == text


def test_this_machines_name_is_masked():
    assert redact("ran on gpu-box-7 today", hosts={"gpu-box-7"}) == "ran on <host-1> today"


def test_ips_and_interfaces_inside_tags_and_communicator_names_are_masked():
    text = ("tag[AllReduce_10.0.0.1%eth0_60000_0_1761275812718970], group:[192.168.1.7%enp189s0f0_60000_0_17], "
            "HCCL_SOCKET_IFNAME=bond0 on ib0")
    masked = redact(text, hosts=set())
    for secret in ("10.0.0.1", "192.168.1.7", "eth0", "enp189s0f0", "bond0", "ib0"):
        assert secret not in masked, masked
    assert masked.startswith("tag[AllReduce_<ip-1>%<if-1>_60000_0_1761275812718970]")


def test_mail_addresses_and_secrets_are_masked():
    text = ("contact ops.oncall@example-corp.com; export HF_TOKEN=hf_abcdefghijklmnop ACCESS_KEY: 'AKIAXYZ123' "
            "password=hunter2, Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload")
    masked = redact(text, hosts=set())
    for secret in ("ops.oncall@example-corp.com", "hf_abcdefghijklmnop", "AKIAXYZ123", "hunter2", "eyJhbGciOiJIUzI1NiJ9"):
        assert secret not in masked, masked
    assert "HF_TOKEN=<secret-1>" in masked and "<email-1>" in masked


def test_ipv6_and_fully_qualified_host_names_are_masked():
    text = "peer fe80::1ff:fe23:4567:890a on gpu-node-12.sh.example.internal, 2001:db8:85a3:0:0:8a2e:370:7334"
    masked = redact(text, hosts=set())
    for secret in ("fe80::1ff:fe23:4567:890a", "gpu-node-12.sh.example.internal", "2001:db8:85a3:0:0:8a2e:370:7334"):
        assert secret not in masked, masked
