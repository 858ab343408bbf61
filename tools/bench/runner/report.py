"""The summary: targets, Machine, Method (full runs only) and Results, printed on stdout and, with
--write-docs, written to docs/performance.md, the whole page. What changed and why, run by run, is
written by hand in docs/performance-journal.md."""

import os
import re
import subprocess
import time
from pathlib import Path

from runner import method
from runner.context import load_averages, output_or, say

# Rows of the targets table in their order in the docs (which is not quite the run order).
TARGETS_ORDER = ["hashing", "manyfiles", "hmac", "encryption", "throughput", "pbkdf2", "envelopes", "keychain", "audit", "tls", "nio"]
RESULTS_ORDER = ["hashing", "manyfiles", "encryption", "throughput", "hmac", "pbkdf2", "envelopes", "keychain", "audit", "tls", "nio"]
CPU_FLAGS = ["sha_ni", "aes", "pclmulqdq", "vaes", "vpclmulqdq", "avx2", "avx512f"]
DOC = Path("docs/performance.md")


def machine_text(ctx, nproc, load_at_end):
    cpuinfo = Path("/proc/cpuinfo").read_text()
    model = re.search(r"(?m)^model name[^:]*:(.*)$", cpuinfo)
    cpu_model = model.group(1).lstrip(" ") if model else "(no 'model name' in /proc/cpuinfo)"
    flags = ", ".join(f for f in CPU_FLAGS if re.search(rf"(?<![\w]){f}(?![\w])", cpuinfo, re.ASCII))
    flags = flags or "none of " + ", ".join(CPU_FLAGS)
    memory = next(line.split()[1] for line in output_or(["free", "-g"], "Mem: ?").splitlines() if line.startswith("Mem:"))
    version = subprocess.run(["swift", "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    swift = next((line for line in version.splitlines() if "Swift version" in line), "unknown")
    python = output_or(["python3", "-c", 'import sys, ssl; print(sys.version.split()[0], "with", ssl.OPENSSL_VERSION)'], "")
    python = python.strip() + (f"; {ctx.python_env_versions}" if ctx.python_env_versions else "")
    parts_text = ", ".join(ctx.load_parts)
    return f"""## Machine

- CPU: {cpu_model}; `nproc` = {nproc}; CPU flags of note: {flags}
- Memory: {memory} GiB; kernel {os.uname().release}
- Load average (1, 5, 15 min) when the run started: {ctx.load_at_start}; when it ended: {load_at_end};
  1-minute load at the start of each part ({parts_text}): {" ".join(ctx.load_samples)}
- OpenSSL: {output_or(["openssl", "version"], "?").strip()} (the CLI; seccli and Python use the system libcrypto)
- Swift: {swift}
- Python: {python}"""


def commit_text():
    commit = output_or(["git", "rev-parse", "--short", "HEAD"], "unknown").strip() or "unknown"
    status = ["git", "status", "--porcelain", "--", "Sources", "Package.swift"]
    status = subprocess.run(status, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if status.stdout.strip():
        commit += " (with uncommitted changes under Sources/ or Package.swift)"
    return commit


def summary(ctx, parts, measured):
    """The whole summary text; `parts` maps each part's name to its module, `measured` to what it measured."""
    load_at_end = load_averages()
    ctx.load_samples.append(load_at_end.split()[0])
    ctx.load_parts.append("end")
    nproc = output_or(["nproc"], "?").strip()
    load_max = max(float(v) for v in ctx.load_samples)
    busy_note = ""
    if load_max > int(nproc) / 2:
        busy_note = (
            "Other work was running on this machine during the run (1-minute load average up to"
            f" {max(ctx.load_samples, key=float)} on {nproc} cores; see Machine), so these figures are probably"
            " pessimistic and noisier than usual."
        )
    reports = {name: parts[name].report(ctx, measured[name]) for name in ctx.parts}
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    commit = commit_text()
    # Every targets row names its run, so that a row of a partial run copied into the page by hand
    # still says where it comes from.
    run = f"{date}, {commit}" + ("" if ctx.all_run else f", `--only {','.join(ctx.parts)}`")
    rows = "\n".join(reports[name][0] for name in TARGETS_ORDER if name in reports)
    rows_text = "\n".join(f"{row} {run} |" for row in rows.split("\n"))
    targets_text = " ".join(reports[name][1] for name in TARGETS_ORDER if name in reports)
    results_text = "\n\n".join(reports[name][2] for name in RESULTS_ORDER if name in reports)
    closing = f"""## Results

{results_text}

The machine has {nproc} cores and may be shared with other work (builds, tests), so figures move by a few
percent between runs; compare ratios from the same run rather than absolute numbers across runs.
{busy_note}"""
    targets = f"""## Targets

| target | measured | status | run |
| --- | --- | --- | --- |
{rows_text}

The run column names the run that measured each row. A row measured later by a partial run
(`tools/bench/run --only PART` prints its rows in this form) may be copied here by hand, with the
rest of that run in [performance-journal.md](performance-journal.md), until the next full run
writes the page again.

{targets_text}

{machine_text(ctx, nproc, load_at_end)}"""
    if ctx.all_run:
        text = f"""# SecKit performance

Generated by `tools/bench/run --write-docs` on {date}, SecKit commit {commit}.
Rerun with `tools/bench/run --write-docs` from the repository root (or `tools/bench/run` to print
only). These are measurements for humans, not tests: nothing here fails a build. What changed and
why, run by run, newest first: [performance-journal.md](performance-journal.md).

{targets}

{method.text(ctx, measured, nproc)}

{closing}"""
    else:
        text = f"""# SecKit performance: partial run ({" ".join(ctx.parts)})

Printed by `tools/bench/run --only {",".join(ctx.parts)}` on {date}, SecKit commit {commit};
not written to docs/performance.md (`--write-docs` needs every part). The method is described there.

{targets}

{closing}"""
    return text.rstrip("\n")


def write_docs(text):
    """Writes the summary to docs/performance.md: the whole page, generated."""
    DOC.parent.mkdir(exist_ok=True)
    temporary = DOC.with_name(DOC.name + ".tmp")
    temporary.write_text(f"{text}\n")
    temporary.replace(DOC)
    say(f"wrote {DOC}")
