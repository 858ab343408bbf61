"""Part hashing: `seccli hash --algorithm sha256` vs `openssl dgst -sha256` on the big file.

One untimed run of each, then SECKIT_BENCH_RUNS timed runs of each, alternated (which goes first
alternates too, so neither always runs right after the other). Every output must hold the digest
`openssl dgst -r` computed first; a wrong one ends the run.
"""

import re
from types import SimpleNamespace

from runner.context import fail, output, run, say
from runner.stats import all_met, each_fixed, fixed, median, run_timed, verdict

NAME = "hashing"


def measure(ctx):
    ctx.sample_load(NAME)
    expected = output(["openssl", "dgst", "-sha256", "-r", ctx.file]).split(" ")[0]
    commands = {
        "seccli": [ctx.seccli, "hash", "--algorithm", "sha256", ctx.file],
        "openssl": ["openssl", "dgst", "-sha256", ctx.file],
    }

    def check(name):
        text = (ctx.work / f"out.{name}").read_text(errors="replace")
        found = re.search(r"[0-9a-f]{64}", text)
        if (found.group(0) if found else "") != expected:
            fail(f"{name} printed '{text.rstrip(chr(10))}', expected digest {expected}")

    say("hashing: one untimed run of each")
    for name, command in commands.items():
        with open(ctx.work / f"out.{name}", "wb") as out:
            run(command, stdout=out)
        check(name)

    times = {"seccli": [], "openssl": []}
    for i in range(1, ctx.runs + 1):
        order = ("seccli", "openssl") if i % 2 else ("openssl", "seccli")
        for name in order:
            times[name].append(run_timed(ctx.work, ctx.work / f"out.{name}", commands[name]))
            check(name)
        say(f"run {i}/{ctx.runs}: seccli {times['seccli'][-1].wall} s, openssl {times['openssl'][-1].wall} s")

    walls = {name: [t.wall for t in runs] for name, runs in times.items()}
    return SimpleNamespace(
        seccli_wall=median(walls["seccli"]),
        openssl_wall=median(walls["openssl"]),
        seccli_rss_max=max(t.rss_kib for t in times["seccli"]),
        openssl_rss_max=max(t.rss_kib for t in times["openssl"]),
        seccli_walls=each_fixed(walls["seccli"], 3),
        openssl_walls=each_fixed(walls["openssl"], 3),
    )


def report(ctx, m):
    gib = ctx.file_bytes / 1073741824
    wall_ratio = fixed(m.seccli_wall / m.openssl_wall, 3)
    rss_mib = fixed(m.seccli_rss_max / 1024, 1)
    openssl_rss_mib = fixed(m.openssl_rss_max / 1024, 1)
    wall_ok = verdict(m.seccli_wall / m.openssl_wall <= 1.05)
    rss_ok = verdict(m.seccli_rss_max <= 16384)
    rows = (
        f"| `seccli hash --algorithm sha256` wall time ≤ 1.05 × `openssl dgst -sha256` on 1 GiB | {wall_ratio} × | {wall_ok} |\n"
        f"| `seccli` peak RSS ≤ 16 MiB while hashing 1 GiB | {rss_mib} MiB ({m.seccli_rss_max} KiB) | {rss_ok} |"
    )
    text = f"File hashing target (time and memory together): {all_met(wall_ok, rss_ok)}."
    results = f"""### Hashing a {fixed(gib, 3)} GiB file (SHA-256, page cache warm)

| command | median wall time | throughput | peak RSS (max) | all runs (s) |
| --- | --- | --- | --- | --- |
| `seccli hash --algorithm sha256` | {fixed(m.seccli_wall, 3)} s | {fixed(gib / m.seccli_wall, 2)} GiB/s | {rss_mib} MiB | {m.seccli_walls} |
| `openssl dgst -sha256` | {fixed(m.openssl_wall, 3)} s | {fixed(gib / m.openssl_wall, 2)} GiB/s | {openssl_rss_mib} MiB | {m.openssl_walls} |

seccli / openssl wall time: **{wall_ratio}** (target ≤ 1.05)."""
    return rows, text, results
