"""Part hmac: HMAC-SHA256 in-process, Swift (`seckit-bench hmac-sha256-N`) vs Python
(baselines/hmac_round.py), same key and message, for 64- and 1024-byte messages.

Each of the SECKIT_BENCH_ROUNDS rounds starts one Swift process, then one Python process; each
warms up for 0.5 s, then counts for about 1 s. The figure for each side is the median over its rounds.
"""

from types import SimpleNamespace

from runner.context import say
from runner.stats import fixed, required_field, rounded_median, verdict

NAME = "hmac"
SIZES = (64, 1024)


def measure(ctx):
    ctx.sample_load(NAME)
    swift = {size: [] for size in SIZES}
    python = {size: [] for size in SIZES}
    for size in SIZES:
        for i in range(1, ctx.rounds + 1):
            line = ctx.bench_line("--warmup", "0.5", "--seconds", "1", "--rounds", "1", f"hmac-sha256-{size}")
            swift[size].append(required_field(line, "ops_per_sec", "seckit-bench"))
            line = ctx.peer_line("hmac_round.py", str(size))
            python[size].append(required_field(line, "ops_per_sec", "hmac_round.py"))
            say(
                f"HMAC-SHA256 {size}-byte messages, round {i}/{ctx.rounds}:"
                f" Swift {swift[size][-1]} ops/s, Python {python[size][-1]} ops/s"
            )
    return SimpleNamespace(
        swift_ops={size: rounded_median(swift[size]) for size in SIZES},
        python_ops={size: rounded_median(python[size]) for size in SIZES},
        swift_rounds={size: " ".join(swift[size]) for size in SIZES},
        python_rounds={size: " ".join(python[size]) for size in SIZES},
    )


def report(ctx, m):
    ratio = {size: float(m.swift_ops[size]) / float(m.python_ops[size]) for size in SIZES}
    ok = verdict(ratio[64] >= 1.5)
    rows = f"| Swift HMAC-SHA256 (64-byte messages) ops/s ≥ 1.5 × Python's | {fixed(ratio[64], 2)} × | {ok} |"
    text = f"HMAC target: {ok}."
    results = f"""### HMAC-SHA256, 32-byte key

| message | Swift `HMAC<SHA256>` ops/s (median) | Python `hmac.new` ops/s (median) | Swift / Python |
| --- | --- | --- | --- |
| 64 bytes | {m.swift_ops[64]} | {m.python_ops[64]} | **{fixed(ratio[64], 2)}** (target ≥ 1.5) |
| 1024 bytes | {m.swift_ops[1024]} | {m.python_ops[1024]} | {fixed(ratio[1024], 2)} (no target) |

All rounds (ops/s, in run order):

- Swift, 64 bytes: {m.swift_rounds[64]}
- Python, 64 bytes: {m.python_rounds[64]}
- Swift, 1024 bytes: {m.swift_rounds[1024]}
- Python, 1024 bytes: {m.python_rounds[1024]}"""
    return rows, text, results
