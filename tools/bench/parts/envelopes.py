"""Part envelopes: JWE (dir + A256GCM) and Fernet round trips of a 1 KiB payload, Swift vs Python.

One round trip seals a random 1 KiB payload (drawn once per process) and opens the token again;
both sides check, inside the timed loop, that the opened bytes equal the payload. Swift:
seckit-bench jwe-dir-a256gcm-1024 (JWE.encrypt(_:using:), whose defaults are dir + A256GCM, then
JWE.decrypt(_:using:)) and fernet-1024 (Fernet(key: String), .encrypt(_:), .decrypt(_:)), in-process
on one thread. Python (baselines/envelope_round.py): joserfc's jwe.encrypt_compact and decrypt_compact,
and cryptography.fernet.Fernet's encrypt and decrypt. In each round every case runs one Swift and one
Python process (which goes first alternates); each warms up for 0.5 s, then counts round trips for
about 1 s. Each Python process first opens the token the last Swift process printed (result=: a seal
of patternBytes(1024, seed: 1) under patternBytes(32, seed: 9)) and checks its plaintext, so a fast
but wrong Swift side ends the run.
"""

import re
import subprocess
from types import SimpleNamespace

from runner.context import fail, say
from runner.stats import fixed, required_field, rounded_median, verdict

NAME = "envelopes"
CASES = ("jwe-dir-a256gcm-1024", "fernet-1024")
LABEL = {"jwe-dir-a256gcm-1024": "JWE dir/A256GCM", "fernet-1024": "Fernet"}
PEER = {"jwe-dir-a256gcm-1024": "joserfc", "fernet-1024": "cryptography.fernet"}
TARGET = {"jwe-dir-a256gcm-1024": 8, "fernet-1024": 5}
VERSIONS = 'from importlib.metadata import version as v; print("joserfc", v("joserfc") + ", cryptography", v("cryptography"))'


def measure(ctx):
    ctx.sample_load(NAME)
    check = subprocess.run(["python3", "-c", "import joserfc, cryptography.fernet"], stderr=subprocess.DEVNULL)
    if check.returncode != 0:
        fail("the envelopes part needs Python's joserfc and cryptography (see install-deps)")
    # Each side's rates per round: (round trips per second of wall time, of user CPU time).
    swift = {name: [] for name in CASES}
    python = {name: [] for name in CASES}
    tokens = {}

    def rates(line, who):
        return required_field(line, "ops_per_sec", who), required_field(line, "cpu_ops_per_sec", who)

    def swift_round(name):
        line = ctx.bench_line("--warmup", "0.5", "--seconds", "1", "--rounds", "1", name)
        swift[name].append(rates(line, "seckit-bench"))
        token = re.search(r".* result=([A-Za-z0-9_.=-]*)", line)
        if not token or not token.group(1):
            fail(f"seckit-bench {name} printed no token: {line}")
        tokens[name] = token.group(1)

    def python_round(name):
        python[name].append(rates(ctx.peer_line("envelope_round.py", name, tokens[name]), "envelope_round.py"))

    for i in range(1, ctx.rounds + 1):
        for name in CASES:
            # Python opens the token of the last Swift process, so the very first round starts with Swift.
            if i % 2:
                swift_round(name)
                python_round(name)
            else:
                python_round(name)
                swift_round(name)
            say(
                f"{LABEL[name]} round trips of 1 KiB, round {i}/{ctx.rounds}: Swift {swift[name][-1][0]}/s,"
                f" {PEER[name]} {python[name][-1][0]}/s (per second of user CPU: {swift[name][-1][1]}, {python[name][-1][1]})"
            )
    m = SimpleNamespace(
        swift={name: rounded_median([wall for wall, _ in swift[name]]) for name in CASES},
        python={name: rounded_median([wall for wall, _ in python[name]]) for name in CASES},
        swift_cpu={name: rounded_median([cpu for _, cpu in swift[name]]) for name in CASES},
        python_cpu={name: rounded_median([cpu for _, cpu in python[name]]) for name in CASES},
        swift_all={name: " ".join(wall for wall, _ in swift[name]) for name in CASES},
        python_all={name: " ".join(wall for wall, _ in python[name]) for name in CASES},
    )
    m.ratio = {name: fixed(float(m.swift[name]) / float(m.python[name]), 2) for name in CASES}
    m.cpu_ratio = {name: fixed(float(m.swift_cpu[name]) / float(m.python_cpu[name]), 2) for name in CASES}
    m.ok = {name: verdict(float(m.swift[name]) / float(m.python[name]) >= TARGET[name]) for name in CASES}
    for name in CASES:
        say(
            f"envelopes: {LABEL[name]}: Swift {m.swift[name]} round trips/s, {PEER[name]} {m.python[name]}/s:"
            f" {m.ratio[name]} × (target ≥ {TARGET[name]} ×): {m.ok[name].replace('*', '')};"
            f" by user CPU time {m.cpu_ratio[name]} ×"
        )
    versions = subprocess.run(["python3", "-c", VERSIONS], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ctx.python_env_versions = versions.stdout.strip() if versions.returncode == 0 else "versions unknown"
    return m


def report(ctx, m):
    jwe, fernet = CASES
    rows = (
        "| JWE dir/A256GCM: seal + open of 1 KiB in-process on one core, round trips/s ≥ 8 × Python `joserfc`"
        f" | {m.ratio[jwe]} × | {m.ok[jwe]} |\n"
        "| Fernet: seal + open of 1 KiB in-process on one core, round trips/s ≥ 5 × Python `cryptography.fernet`"
        f" | {m.ratio[fernet]} × | {m.ok[fernet]} |"
    )
    text = f"Envelope targets: JWE {m.ok[jwe]}, Fernet {m.ok[fernet]}."

    def row(label, name):
        return (
            f"| {label} | {m.swift[name]} | {m.python[name]} | **{m.ratio[name]}** | ≥ {TARGET[name]}: {m.ok[name]}"
            f" | {m.swift_cpu[name]}, {m.python_cpu[name]}: {m.cpu_ratio[name]} |"
        )

    results = f"""### Envelopes: seal + open of a 1 KiB payload (round trips per second, one thread)

| envelope | Swift (median) | Python (median) | Swift / Python | target | by user CPU time: Swift, Python (medians), Swift / Python |
| --- | --- | --- | --- | --- | --- |
{row("JWE compact, `dir` + `A256GCM` (`JWE.encrypt`/`decrypt` vs `joserfc`)", jwe)}
{row("Fernet (`Fernet.encrypt`/`decrypt` vs `cryptography.fernet`)", fernet)}

The target is judged by the wall clock, like the HMAC target; the user-CPU figures (`getrusage` on both
sides) are a cross-check that moves less when other work shares the cores.

All rounds (round trips/s, in run order):

- Swift JWE: {m.swift_all[jwe]}
- joserfc: {m.python_all[jwe]}
- Swift Fernet: {m.swift_all[fernet]}
- cryptography.fernet: {m.python_all[fernet]}"""
    return rows, text, results
