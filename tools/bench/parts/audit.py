"""Part audit: what the audit log (SECKIT_AUDIT_LOG) costs `seccli cred get`, per process.

tools/bench/audit-session runs inside tools/with-secret-service: one item stored with secret-tool;
per round, SECKIT_BENCH_KEYCHAIN_PROCESSES runs of `seccli cred get` without the log and as many
with it, back to back, timed as a whole (which goes first alternates), every output checked; the
log must then verify with one record per logged run.
"""

import shutil
from types import SimpleNamespace

from runner.context import fail, output, say
from runner.stats import fixed, median, required_field, verdict

NAME = "audit"
TARGET = 1.05  # issue 31: cred get with the log on costs at most 1.05 × with it off


def measure(ctx):
    ctx.sample_load(NAME)
    for tool in ("secret-tool", "gnome-keyring-daemon", "dbus-run-session"):
        if not shutil.which(tool):
            fail(f"the audit part needs {tool} (tools/install-deps)")
    session = ["tools/with-secret-service", "tools/bench/audit-session", ctx.seccli]
    lines = output([*session, ctx.keychain_rounds, ctx.keychain_processes]).splitlines()
    rounds = [line for line in lines if line.startswith("audit round=")]
    if not rounds:
        fail("tools/bench/audit-session printed no round")
    off = [float(required_field(line, "off", "audit-session")) for line in rounds]
    on = [float(required_field(line, "on", "audit-session")) for line in rounds]
    m = SimpleNamespace(
        off=median(off),
        on=median(on),
        ratios=[b / a for a, b in zip(off, on)],
        off_all=" ".join(fixed(v * 1000, 2) for v in off),
        on_all=" ".join(fixed(v * 1000, 2) for v in on),
    )
    say(f"audit: cred get {fixed(m.off * 1000, 2)} ms without the log, {fixed(m.on * 1000, 2)} ms with it (medians)")
    return m


def report(ctx, m):
    # The rounds' processes are interleaved pairs: each round's ratio compares like with like, and their
    # median is less at the mercy of a shared machine's load than the ratio of the two medians.
    ratio = median(m.ratios)
    ok = verdict(ratio <= TARGET)
    rows = (
        f"| `seccli cred get` with `SECKIT_AUDIT_LOG` set ≤ {TARGET} × without it, per process, same item, private gnome-keyring"
        f" | {fixed(ratio, 3)} × ({fixed(m.on * 1000, 2)} ms vs {fixed(m.off * 1000, 2)} ms) | {ok} |"
    )
    text = f"Audit log target: {ok}."
    per_round = ", ".join(fixed(r, 3) for r in m.ratios)
    results = f"""### Audit log (`SECKIT_AUDIT_LOG`)

| case | log off | log on | ratio |
| --- | --- | --- | --- |
| `seccli cred get` per process (ms, median of {ctx.keychain_rounds} rounds of {ctx.keychain_processes}; ratio: the median of the rounds' ratios) | {fixed(m.off * 1000, 2)} | {fixed(m.on * 1000, 2)} | **{fixed(ratio, 3)}** (target ≤ {TARGET}) |

Per-round ms per process (in run order): off {m.off_all}; on {m.on_all}; ratios {per_round}."""
    return rows, text, results
