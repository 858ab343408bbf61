"""Timing of whole processes, medians, and the number formats of the summary.

Measurements are kept as the text they were printed or timed as, and medians are taken the way the
bash version of this script took them (`sort -g` and awk), so the figures it prints compare with
earlier runs digit for digit in format.
"""

import re
import subprocess
import time
from dataclasses import dataclass

from runner.context import command_text, fail


def median_text(values):
    """The median of numbers given as text: for an odd count the middle one as given, for an even
    count the mean of the two middle ones with six decimals."""
    ordered = sorted(values, key=float)
    if not ordered:
        fail("no measurement to take the median of")
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return f"{(float(ordered[middle - 1]) + float(ordered[middle])) / 2:.6f}"


def median(values):
    return float(median_text(values))


def rounded_median(values):
    """The median as a whole number (rates of operations)."""
    return f"{median(values):.0f}"


def fixed(value, decimals):
    return f"{float(value):.{decimals}f}"


def each_fixed(values, decimals):
    """Every value with `decimals` decimals, space-separated (the "all runs" columns)."""
    return " ".join(fixed(value, decimals) for value in values)


def mbs(bytes_per_second):
    """Bytes per second as MB/s (10^6, as openssl speed's k)."""
    return f"{float(bytes_per_second) / 1e6:.1f}"


def field(line, name, pattern="[0-9.]"):
    """The value of ` name=` in a result line (the last one when there are several), or None."""
    found = re.findall(rf" {re.escape(name)}=({pattern}*)", line)
    return found[-1] if found and found[-1] else None


def required_field(line, name, who, pattern="[0-9.]"):
    value = field(line, name, pattern)
    if value is None:
        fail(f"{who} printed no {name}=: {line}")
    return value


def bench_round(ctx, name, seconds, expected, complaint):
    """One seckit-bench round of `name` for `seconds` after a 0.5 s warm-up, whose line must hold
    `expected` (else the run fails with `complaint`): (ops/s by the wall clock, by user CPU time)."""
    line = ctx.bench_line("--warmup", "0.5", "--seconds", seconds, "--rounds", "1", name)
    if expected not in line:
        fail(f"seckit-bench {name} {complaint}: {line}")
    who = "seckit-bench"
    return required_field(line, "ops_per_sec", who), required_field(line, "cpu_ops_per_sec", who)


def verdict(met):
    return "**met**" if met else "**NOT met**"


def all_met(*verdicts):
    return verdict(all(v == "**met**" for v in verdicts))


@dataclass
class Timed:
    """One timed process: wall seconds (as text, six decimals), peak RSS in KiB, user and system CPU
    seconds (as GNU time printed them)."""

    wall: str
    rss_kib: int
    user: str
    system: str


def run_timed(work, out_path, command):
    """Runs `command` under GNU time with its standard output in `out_path`: wall time from a
    monotonic clock around the process (both tools compared pay the same fork and exec of
    /usr/bin/time), peak RSS and CPU times from GNU time (%M, %U, %S)."""
    rss_file = work / "rss"
    with open(out_path, "wb") as out:
        start = time.perf_counter()
        completed = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", str(rss_file), *map(str, command)], stdout=out)
        end = time.perf_counter()
    if completed.returncode != 0:
        fail(f"{command_text(command)} exited with status {completed.returncode}")
    rss, user, system = rss_file.read_text().splitlines()[-1].split()
    return Timed(f"{end - start:.6f}", int(rss), user, system)
