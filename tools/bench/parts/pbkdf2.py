"""Part pbkdf2: PBKDF2-HMAC-SHA256, 600,000 iterations, 32 bytes, Swift in-process
(`seckit-bench pbkdf2-sha256-600000`) vs Python hashlib (baselines/pbkdf2_round.py).

Each round starts one seckit-bench process and one Python process (which goes first alternates);
each derives once untimed, then times PER_PROCESS derivations one by one (wall clock) and reports
their median. The figure for each side is the median of its per-process medians. Both derive from
the same password and salt, and every key must be the same: different keys end the run.
"""

import re
from types import SimpleNamespace

from runner.context import fail, say
from runner.stats import each_fixed, fixed, median, required_field, verdict

NAME = "pbkdf2"
PER_PROCESS = 5


def measure(ctx):
    ctx.sample_load(NAME)
    seconds = {"swift": [], "python": []}
    keys = set()

    def derive(side):
        if side == "swift":
            line = ctx.bench_line("--warmup", "0.001", "--seconds", "0.001", "--rounds", PER_PROCESS, "pbkdf2-sha256-600000")
        else:
            line = ctx.peer_line("pbkdf2_round.py", str(PER_PROCESS))
        seconds[side].append(required_field(line, "seconds_per_op", side))
        key = re.search(r".* result=([0-9a-f]*)", line)
        keys.add(key.group(1) if key else "")

    for i in range(1, ctx.rounds + 1):
        for side in ("swift", "python") if i % 2 else ("python", "swift"):
            derive(side)
        say(
            f"PBKDF2-HMAC-SHA256 600000 iterations, round {i}/{ctx.rounds}:"
            f" Swift {seconds['swift'][-1]} s, Python {seconds['python'][-1]} s per derivation"
        )
    if len(keys) != 1 or not re.fullmatch(r"[0-9a-f]{64}", next(iter(keys))):
        fail("Swift and Python derived different PBKDF2 keys: " + " ".join(sorted(keys)))
    return SimpleNamespace(
        key=next(iter(keys)),
        swift=median(seconds["swift"]),
        python=median(seconds["python"]),
        swift_all=each_fixed(seconds["swift"], 4),
        python_all=each_fixed(seconds["python"], 4),
    )


def report(ctx, m):
    ratio = fixed(m.swift / m.python, 3)
    ok = verdict(m.swift / m.python <= 1.02)
    rows = (
        "| PBKDF2-HMAC-SHA256, 600,000 iterations, 32 bytes: time per derivation ≤ 1.02 × Python"
        f" `hashlib.pbkdf2_hmac` | {ratio} × | {ok} |"
    )
    text = f"PBKDF2 target: {ok}."
    results = f"""### PBKDF2-HMAC-SHA256, 600,000 iterations, 32-byte key

| implementation | time per derivation (median) | per-process medians (s, in run order) |
| --- | --- | --- |
| Swift `KDF.PBKDF2.deriveKey` | {fixed(m.swift, 4)} s | {m.swift_all} |
| Python `hashlib.pbkdf2_hmac` | {fixed(m.python, 4)} s | {m.python_all} |

Swift / Python time per derivation: **{ratio}** (target ≤ 1.02)."""
    return rows, text, results
