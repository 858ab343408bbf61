"""Part tls: TLS 1.3 full handshakes, with and without a pin check, vs `openssl s_time -new`; and
handshakes whose pin fails, with and without an RFC 7469 report URI.

One local `openssl s_server` (TLS 1.3 only, one cipher suite, an EC P-256 certificate under a
throwaway CA, made here with the openssl CLI) serves every measurement. seckit-bench tls-handshake
and tls-handshake-pinned time TLSClient.connect + close in-process (one TLSClient, so one OpenSSL
context; every connection a new session: full handshake, chain verified against the CA file, host
name checked; the pinned variant also checks a pin of the CA, the last certificate of the verified
chain, so every certificate's SPKI pin is computed), and must report TLSv1.3 with the server's one
cipher suite. `openssl s_time -new -time S` makes new connections with full handshakes against the
same server and prints how many it made; its rate is that count over its wall time (a monotonic
clock around the process, as s_time's own "real seconds" are whole seconds). seckit-bench
tls-pin-failure and tls-pin-failure-report make the same handshakes with an enforced pin that no
certificate has (each refused with pinMismatch); the report variant's policy has a report URI whose
collector, a socket here that listens and never accepts, never answers. In each round every case
runs once for SECKIT_BENCH_TLS_SECONDS, the order rotating between rounds.
"""

import base64
import hashlib
import os
import re
import socket
import subprocess
import time
from types import SimpleNamespace

from runner.context import fail, output, say
from runner.stats import bench_round, fixed, median, verdict

NAME = "tls"
VERSION_OPTION = "-tls1_3"
CIPHER = "TLS_AES_128_GCM_SHA256"
CASES = ("tls-handshake", "tls-handshake-pinned", "s_time", "tls-pin-failure", "tls-pin-failure-report")
CERTIFICATES = [
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
     "-out", "ca.pem", "-days", "2", "-subj", "/CN=seckit-bench TLS CA",
     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"],
    ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "server.key",
     "-out", "server.csr", "-subj", "/CN=localhost"],
    ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-days", "2",
     "-extfile", "server.ext", "-out", "server.pem"],
]


def make_certificates(folder):
    folder.mkdir(parents=True)
    (folder / "server.ext").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n")
    for arguments in CERTIFICATES:
        made = subprocess.run(["openssl", *arguments], cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if made.returncode != 0:
            fail("could not make the TLS test certificates with openssl")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(ctx, folder, port, chain=None):
    """openssl s_server on 127.0.0.1:port (sending `chain` after its certificate, when given),
    stopped when the part ends or the run does."""
    log = open(ctx.work / "s_server.log", "wb")
    server = subprocess.Popen(
        ["openssl", "s_server", "-accept", f"127.0.0.1:{port}", "-cert", folder / "server.pem",
         "-key", folder / "server.key", *(["-cert_chain", chain] if chain else []), VERSION_OPTION,
         "-ciphersuites", CIPHER, "-quiet"],
        stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
    )
    ctx.on_exit(lambda: stop_server(server))
    for attempt in range(201):  # until it listens (a probe connection, which the server drops)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            pass
        if server.poll() is not None:
            fail(f"openssl s_server exited: {(ctx.work / 's_server.log').read_text(errors='replace')}")
        if attempt == 200:
            fail(f"openssl s_server does not listen on port {port}")
        time.sleep(0.05)


def stop_server(server):
    if server.poll() is None:
        server.terminate()
    server.wait()


def spki_pin(certificate):
    """The SPKI pin of a certificate's key, sha256/<base64>."""
    public_key = output(["openssl", "x509", "-in", certificate, "-pubkey", "-noout"])
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=public_key.encode(), stdout=subprocess.PIPE)
    if der.returncode != 0:
        fail(f"openssl pkey could not read the public key of {certificate}")
    return "sha256/" + base64.b64encode(hashlib.sha256(der.stdout).digest()).decode()


def measure(ctx):
    ctx.sample_load(NAME)
    folder = ctx.work / "tls"
    make_certificates(folder)
    port = free_port()
    server = start_server(ctx, folder, port)
    # The report collector that never answers: connections complete in the kernel's backlog.
    collector = socket.socket()
    collector.bind(("127.0.0.1", 0))
    collector.listen(1024)
    ctx.on_exit(collector.close)
    os.environ.update(
        SECKIT_BENCH_TLS_PORT=str(port), SECKIT_BENCH_TLS_CA=str(folder / "ca.pem"), SECKIT_BENCH_TLS_PIN=spki_pin(folder / "ca.pem"),
        SECKIT_BENCH_TLS_REPORT_URI=f"http://127.0.0.1:{collector.getsockname()[1]}/hpkp",
    )
    rates = {name: [] for name in CASES}  # (handshakes per second of wall time, of user CPU time)

    def one_round(name):
        if name == "s_time":
            command = ["openssl", "s_time", "-connect", f"127.0.0.1:{port}", "-new", "-time", str(ctx.tls_seconds),
                       "-CAfile", str(folder / "ca.pem"), VERSION_OPTION]
            start = time.perf_counter()
            s_time = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            end = time.perf_counter()
            line = next((line for line in s_time.stdout.splitlines() if " connections/user sec" in line), None)
            if s_time.returncode != 0 or line is None:
                fail("openssl s_time printed no result")
            count = line.split(" connections in ")[0]
            cpu = re.search(r"s; ([0-9.]*) connections/user sec", line)
            rates[name].append((fixed(float(count) / (end - start), 1), cpu.group(1) if cpu else "0"))
        elif name.startswith("tls-pin-failure"):
            rates[name].append(bench_round(ctx, name, ctx.tls_seconds, " result=mismatched", "did not fail the pin"))
        else:
            expected = f" result=TLSv1.3/{CIPHER}"
            rates[name].append(bench_round(ctx, name, ctx.tls_seconds, expected, f"did not negotiate TLSv1.3 with {CIPHER}"))

    for i in range(1, ctx.rounds + 1):
        for j in range(len(CASES)):
            one_round(CASES[(i + j) % len(CASES)])
        say(
            f"TLS handshakes, round {i}/{ctx.rounds}: unpinned {rates['tls-handshake'][-1][0]}/s,"
            f" pinned {rates['tls-handshake-pinned'][-1][0]}/s, openssl s_time {rates['s_time'][-1][0]}/s,"
            f" pin failure {rates['tls-pin-failure'][-1][0]}/s, with a report URI {rates['tls-pin-failure-report'][-1][0]}/s"
        )
    stop_server(server)

    m = SimpleNamespace(
        wall={name: f"{median([w for w, _ in rates[name]]):.0f}" for name in CASES},
        cpu={name: f"{median([c for _, c in rates[name]]):.0f}" for name in CASES},
        all={name: " ".join(fixed(w, 0) for w, _ in rates[name]) for name in CASES},
    )

    def ratio(values, a, b):
        return fixed(float(values[a]) / float(values[b]), 3)

    m.pin_ratio = ratio(m.wall, "tls-handshake-pinned", "tls-handshake")
    m.stime_ratio = ratio(m.wall, "tls-handshake-pinned", "s_time")
    m.pin_cpu_ratio = ratio(m.cpu, "tls-handshake-pinned", "tls-handshake")
    m.stime_cpu_ratio = ratio(m.cpu, "tls-handshake-pinned", "s_time")
    # Cost, not rate: time per failed handshake with a report URI over time without one.
    m.report_cost = ratio(m.wall, "tls-pin-failure", "tls-pin-failure-report")
    m.report_cpu_cost = ratio(m.cpu, "tls-pin-failure", "tls-pin-failure-report")
    say(
        f"TLS: pinned {m.wall['tls-handshake-pinned']}/s, unpinned {m.wall['tls-handshake']}/s ({m.pin_ratio} ×),"
        f" openssl s_time -new {m.wall['s_time']}/s ({m.stime_ratio} ×); a failed pin with a report URI costs"
        f" {m.report_cost} × one without"
    )
    return m


def report(ctx, m):
    pin_ok = verdict(float(m.pin_ratio) >= 0.95)
    stime_ok = verdict(float(m.stime_ratio) >= 0.95)
    report_ok = verdict(float(m.report_cost) <= 1.05)
    rows = (
        "| TLS 1.3 full handshakes with a pin check ≥ 0.95 × the same handshakes without pinning (local `openssl s_server`)"
        f" | {m.pin_ratio} × | {pin_ok} |\n"
        "| TLS 1.3 full handshakes with a pin check ≥ 0.95 × `openssl s_time -new` connections/s, same server, version and cipher"
        f" | {m.stime_ratio} × | {stime_ok} |\n"
        "| A TLS 1.3 handshake whose pin fails, with a report URI to a collector that never answers, costs ≤ 1.05 × one without a report URI"
        f" | {m.report_cost} × | {report_ok} |"
    )
    text = f"TLS targets: pin check {pin_ok}, vs s_time {stime_ok}, pin-failure report {report_ok}."

    def row(label, name):
        return f"| {label} | {m.wall[name]} | {m.cpu[name]} | {m.all[name]} |"

    results = f"""### TLS handshakes against a local `openssl s_server` ({VERSION_OPTION[1:]}, {CIPHER}, EC P-256 certificate)

| client | handshakes/s (median) | per second of user CPU (median) | all rounds (handshakes/s, in run order) |
| --- | --- | --- | --- |
{row("`TLSClient.connect` + `close`, CA file, host name checked, no pins (`seckit-bench tls-handshake`)", "tls-handshake")}
{row("the same with a pin check (`seckit-bench tls-handshake-pinned`)", "tls-handshake-pinned")}
{row(f"`openssl s_time -new -time {ctx.tls_seconds}`", "s_time")}
{row("`TLSClient.connect` with an enforced pin that fails, no report URI (`seckit-bench tls-pin-failure`)", "tls-pin-failure")}
{row("the same with a report URI to a collector that never answers (`seckit-bench tls-pin-failure-report`)", "tls-pin-failure-report")}

Pinned / unpinned: **{m.pin_ratio}** (by user CPU {m.pin_cpu_ratio}); pinned / s_time: **{m.stime_ratio}** (by user CPU {m.stime_cpu_ratio}). Target ≥ 0.95 for both, judged by the wall clock.
Cost of a failed pin with a report URI over one without: **{m.report_cost}** (by user CPU {m.report_cpu_cost}); target ≤ 1.05. The first failure of each seckit-bench process starts the report (before the timed handshakes); every later one is the same failure within 10 minutes, which the rate limiter counts and drops."""
    return rows, text, results
