"""Part keychain: `seccli cred get` vs `secret-tool lookup` per process, and an in-process lookup
among 1,000 items.

tools/bench/keychain-session does the measuring inside tools/with-secret-service (a private D-Bus
session and a fresh gnome-keyring-daemon, so the caller's keyring is never touched): per round,
SECKIT_BENCH_KEYCHAIN_PROCESSES runs of each command on the same item, back to back, timed as a whole,
outputs checked; then seckit-bench keychain-lookup-1000 (one timed lookup per round, 300 rounds).
"""

import shutil
from types import SimpleNamespace

from runner.context import fail, output, output_or, say
from runner.stats import fixed, median, required_field, verdict

NAME = "keychain"


def measure(ctx):
    ctx.sample_load(NAME)
    for tool in ("secret-tool", "gnome-keyring-daemon", "dbus-run-session"):
        if not shutil.which(tool):
            fail(f"the keychain part needs {tool} (tools/install-deps)")
    session = ["tools/with-secret-service", "tools/bench/keychain-session", ctx.seccli, ctx.bench]
    lines = output([*session, ctx.keychain_rounds, ctx.keychain_processes]).splitlines()
    per_process = [line for line in lines if line.startswith("per-process ")]
    if not per_process:
        fail("tools/bench/keychain-session printed no per-process round")
    seccli = [required_field(line, "seccli", "keychain-session") for line in per_process]
    secret_tool = [required_field(line, "secret_tool", "keychain-session") for line in per_process]
    lookup = next((line for line in lines if line.startswith("keychain-lookup-1000 ")), None)
    if lookup is None:
        fail("seckit-bench keychain-lookup-1000 printed nothing")
    m = SimpleNamespace(
        seccli=median(seccli),
        secret_tool=median(secret_tool),
        seccli_all=" ".join(fixed(float(v) * 1000, 1) for v in seccli),
        secret_tool_all=" ".join(fixed(float(v) * 1000, 1) for v in secret_tool),
        lookup=float(required_field(lookup, "seconds_per_op", "seckit-bench")),
        lookup_min_rate=float(required_field(lookup, "min", "seckit-bench")),
        lookup_max_rate=float(required_field(lookup, "max", "seckit-bench")),
    )
    say(
        f"keychain: seccli cred get {fixed(m.seccli * 1000, 2)} ms per process,"
        f" secret-tool lookup {fixed(m.secret_tool * 1000, 2)} ms;"
        f" in-process lookup among 1,000: {fixed(m.lookup * 1000, 3)} ms (median)"
    )
    libsecret = output_or(["pkg-config", "--modversion", "libsecret-1"], "?").strip()
    daemon = output_or(["gnome-keyring-daemon", "--version"], "").split("\n")[0]
    m.versions = f"libsecret {libsecret}, {daemon}"
    return m


def report(ctx, m):
    ratio = fixed(m.seccli / m.secret_tool, 2)
    process_ok = verdict(m.seccli / m.secret_tool <= 0.8)
    lookup_ok = verdict(m.lookup <= 0.002)
    seccli_ms, secret_tool_ms = fixed(m.seccli * 1000, 1), fixed(m.secret_tool * 1000, 1)
    rows = (
        "| `seccli cred get` per process ≤ 0.8 × `secret-tool lookup` per process, same item, private gnome-keyring"
        f" | {ratio} × ({seccli_ms} ms vs {secret_tool_ms} ms) | {process_ok} |\n"
        "| In-process lookup of one item among 1,000 in an access group (`SecretServiceStore.secret(for:)`), median ≤ 2 ms"
        f" | {fixed(m.lookup * 1000, 3)} ms | {lookup_ok} |"
    )
    text = f"Keychain targets: per process {process_ok}, in-process lookup {lookup_ok}."
    rounds = f"median of {ctx.keychain_rounds} rounds of {ctx.keychain_processes}"
    results = f"""### Keychain (Secret Service: {m.versions})

| case | seccli / SecKeychain | reference | ratio |
| --- | --- | --- | --- |
| one secret per process: `seccli cred get --service S --account A` vs `secret-tool lookup service S account A` (ms per process, {rounds}) | {fixed(m.seccli * 1000, 2)} | {fixed(m.secret_tool * 1000, 2)} | **{ratio}** (target ≤ 0.8) |
| in-process `secret(for:)` of one of 1,000 items in one access group (ms, median of 300 single lookups) | {fixed(m.lookup * 1000, 3)} | — | target ≤ 2 ms |

Per-process rounds (ms per process, in run order): seccli {m.seccli_all}; secret-tool {m.secret_tool_all}.
In-process lookups: fastest {fixed(1000 / m.lookup_max_rate, 3)} ms, slowest {fixed(1000 / m.lookup_min_rate, 3)} ms."""
    return rows, text, results
