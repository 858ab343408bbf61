"""Part manyfiles: `seccli hash` over 48 files, which it reads several at once (one thread per
processor), vs `openssl dgst -sha256` over the same 48 files in one process (serial), and vs
`xargs -P N -n 1 openssl dgst -sha256` (N = the processors in this process's affinity mask, as
`nproc` counts them and seccli uses them): one openssl process per file, xargs starting the next one
whenever one of its N ends, the way `find … | xargs -P N -n 1` is run.

The files: 48 of 1 to 16 MiB (file i has 1 + (7 i mod 16) MiB, so each size occurs three times, in a
mixed order; 408 MiB in all) of random bytes, in the run's temporary folder, read twice with `cat`
first so every command finds them in the page cache. The argument order (and xargs's list) is the
files' order. One untimed run of each command, then SECKIT_BENCH_RUNS timed runs of each, the order of
the three rotating from run to run. Every output must hold the digest of every file that
`openssl dgst -sha256 -r` computed first (seccli's also in argument order); a wrong one ends the run.
"""

import os
import re
import subprocess
from types import SimpleNamespace

from runner.context import fail, output, run, say
from runner.stats import all_met, each_fixed, fixed, median, run_timed, verdict

NAME = "manyfiles"
COUNT = 48
MIB = 1024 * 1024


def sizes():
    return [(1 + (7 * i) % 16) * MIB for i in range(COUNT)]


def make_files(ctx):
    folder = ctx.work / "manyfiles"
    folder.mkdir()
    files = []
    for i, size in enumerate(sizes()):
        path = folder / f"file-{i:02d}.bin"
        with open(path, "wb") as out:
            run(["head", "-c", str(size), "/dev/urandom"], stdout=out)
        files.append(path)
    say("warming the page cache")
    for _ in range(2):
        run(["cat", *files], stdout=subprocess.DEVNULL)
    return files


def digests(text, name):
    """{file: hex digest} from the output of one command: seccli's `<hex>  <file>` lines or openssl's
    `SHA2-256(<file>)= <hex>`, in the order printed."""
    found = {}
    for line in text.splitlines():
        if match := re.fullmatch(r"([0-9a-f]{64})  (.+)", line):
            hex_digest, path = match.groups()
        elif match := re.fullmatch(r"SHA2-256\((.+)\)= ([0-9a-f]{64})", line):
            path, hex_digest = match.groups()
        else:
            fail(f"{name} printed an unexpected line: '{line}'")
        found[path] = hex_digest
    return found


def measure(ctx):
    ctx.sample_load(NAME)
    workers = len(os.sched_getaffinity(0))
    say(f"manyfiles: writing {COUNT} files of 1-16 MiB ({sum(sizes()) // MIB} MiB)")
    files = make_files(ctx)
    paths = [str(path) for path in files]
    expected = {}
    for line in output(["openssl", "dgst", "-sha256", "-r", *paths]).splitlines():
        hex_digest, path = line.split(" *", 1)
        expected[path] = hex_digest
    file_list = ctx.work / "manyfiles.list"
    file_list.write_text("".join(f"{path}\n" for path in paths))
    commands = {
        "seccli": [ctx.seccli, "hash", "--algorithm", "sha256", *paths],
        "openssl": ["openssl", "dgst", "-sha256", *paths],
        "xargs": ["xargs", "-a", file_list, "-d", "\\n", "-P", str(workers), "-n", "1", "openssl", "dgst", "-sha256"],
    }

    def check(name):
        found = digests((ctx.work / f"out.{name}").read_text(errors="replace"), name)
        if found != expected:
            wrong = sorted(path for path in expected if found.get(path) != expected[path])
            fail(f"{name}: wrong or missing digests for {len(wrong)} files, first {wrong[:1]}")
        if name != "xargs" and list(found) != paths:
            fail(f"{name} printed the files in another order than given")

    say("manyfiles: one untimed run of each")
    for name, command in commands.items():
        with open(ctx.work / f"out.{name}", "wb") as out:
            run(command, stdout=out)
        check(name)

    names = list(commands)
    times = {name: [] for name in names}
    for i in range(1, ctx.runs + 1):
        shift = (i - 1) % len(names)
        for name in names[shift:] + names[:shift]:
            times[name].append(run_timed(ctx.work, ctx.work / f"out.{name}", commands[name]))
            check(name)
        say(
            f"run {i}/{ctx.runs}: seccli {times['seccli'][-1].wall} s, openssl {times['openssl'][-1].wall} s,"
            f" xargs -P {workers} {times['xargs'][-1].wall} s"
        )

    walls = {name: [t.wall for t in runs] for name, runs in times.items()}
    return SimpleNamespace(
        workers=workers,
        total_bytes=sum(sizes()),
        wall={name: median(walls[name]) for name in names},
        walls={name: each_fixed(walls[name], 3) for name in names},
        seccli_rss_max=max(t.rss_kib for t in times["seccli"]),
        openssl_rss_max=max(t.rss_kib for t in times["openssl"]),
    )


def report(ctx, m):
    n = m.workers
    serial_ratio = m.wall["seccli"] / m.wall["openssl"]
    xargs_ratio = m.wall["seccli"] / m.wall["xargs"]
    serial_ok = verdict(serial_ratio <= 1.1 / n)
    xargs_ok = verdict(xargs_ratio <= 1.05)
    rss_mib = fixed(m.seccli_rss_max / 1024, 1)
    rows = (
        f"| `seccli hash` of {COUNT} files (1–16 MiB) wall time ≤ 1.1/N × serial `openssl dgst -sha256` (N = {n})"
        f" | {fixed(serial_ratio, 3)} × (≤ {fixed(1.1 / n, 3)}) | {serial_ok} |\n"
        f"| the same ≤ 1.05 × `xargs -P {n} -n 1 openssl dgst -sha256` | {fixed(xargs_ratio, 3)} × | {xargs_ok} |"
    )
    text = f"Many-files hashing target: {all_met(serial_ok, xargs_ok)}."
    gib = m.total_bytes / 1073741824
    lines = "\n".join(
        f"| {label} | {fixed(m.wall[name], 3)} s | {fixed(gib / m.wall[name], 2)} GiB/s | {m.walls[name]} |"
        for name, label in (
            ("seccli", f"`seccli hash --algorithm sha256` ({n} threads)"),
            ("openssl", "`openssl dgst -sha256`, all files in one process"),
            ("xargs", f"`xargs -P {n} -n 1 openssl dgst -sha256`, one process per file"),
        )
    )
    results = f"""### Hashing {COUNT} files of 1–16 MiB ({m.total_bytes // 1048576} MiB, SHA-256, page cache warm, N = {n} processors)

| command | median wall time | throughput | all runs (s) |
| --- | --- | --- | --- |
{lines}

seccli / serial openssl: **{fixed(serial_ratio, 3)}** (target ≤ 1.1/{n} = {fixed(1.1 / n, 3)}); seccli / xargs:
**{fixed(xargs_ratio, 3)}** (target ≤ 1.05). Peak RSS: seccli {rss_mib} MiB ({m.seccli_rss_max} KiB), serial openssl
{fixed(m.openssl_rss_max / 1024, 1)} MiB (largest of the runs)."""
    return rows, text, results
