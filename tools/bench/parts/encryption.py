"""Part encryption: AES-256-CBC encryption and decryption of the big file, `seccli encrypt/decrypt`
vs `openssl enc`, alternated.

Raw mode on both sides (key and IV given, no salt, no KDF), so seccli's output is byte for byte
openssl's. Both write with --out / -out to a regular file, not to standard output or /dev/null:
seccli writes --out through a temporary file beside the path, fsyncs it and renames it into place
(so decrypted output appears only after the padding verified), which /dev/null cannot take (the
rename would replace the device node). So both write into a tmpfs when there is one, where the fsync
costs nothing. Each output is deleted before the next run (outside the timing) and compared byte for
byte (cmp) after it; a difference ends the run.

On a tmpfs, just before each timed run, as much memory as the output needs is allocated there and
freed again, so both tools write into pages the VM has just used: pages left free for a while are
apparently taken back by the hypervisor, and writing into them made run times spread widely (see
docs/performance-journal.md).
"""

import os
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import SimpleNamespace

from runner.context import fail, output, run, say
from runner.stats import all_met, each_fixed, fixed, median, median_text, run_timed, verdict

NAME = "encryption"
RUN_NAMES = ("enc.seccli", "enc.openssl", "dec.seccli", "dec.openssl")


def output_folder(ctx):
    """SECKIT_BENCH_OUT_DIR, else /dev/shm when it is a tmpfs with room for two outputs, else the
    temporary folder."""
    given = os.environ.get("SECKIT_BENCH_OUT_DIR")
    if given:
        if not (os.path.isdir(given) and os.access(given, os.W_OK)):
            fail(f"SECKIT_BENCH_OUT_DIR '{given}' is not a writable folder")
        return Path(given)
    shm = subprocess.run(["stat", "-f", "-c", "%T", "/dev/shm"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if shm.stdout.strip() == "tmpfs" and os.access("/dev/shm", os.W_OK):
        space = os.statvfs("/dev/shm")
        if space.f_bavail * space.f_frsize > 2 * ctx.file_bytes + 268435456:
            return Path("/dev/shm")
    return ctx.work


def touch_pages(folder, byte_count):
    """Allocates `byte_count` bytes of the tmpfs in `folder` and frees them again."""
    warm = folder / "warm"
    with open(warm, "wb") as out:
        try:
            os.posix_fallocate(out.fileno(), 0, byte_count)
        except OSError:
            run(["head", "-c", str(byte_count), "/dev/zero"], stdout=out)
    warm.unlink()


def measure(ctx):
    ctx.sample_load(NAME)
    out_parent = output_folder(ctx)
    out_dir = Path(tempfile.mkdtemp(prefix="seckit-bench-out.", dir=out_parent))
    ctx.on_exit(lambda: shutil.rmtree(out_dir, ignore_errors=True))
    out_fs = output(["stat", "-f", "-c", "%T", out_dir]).strip()
    say(f"encryption outputs go to {out_dir} ({out_fs})")

    # A throw-away key for this run: seccli reads it as --key env:SECKIT_BENCH_KEY; on openssl's
    # command line it is visible in ps.
    key = secrets.token_hex(32)
    os.environ["SECKIT_BENCH_KEY"] = key
    iv = secrets.token_hex(16)
    ciphertext = out_dir / "ciphertext.openssl"  # the reference ciphertext, and the input of both decryptions
    sources = {"enc": ctx.file, "dec": ciphertext}
    expected_outputs = {"enc": ciphertext, "dec": ctx.file}

    def command(op, tool):
        target = out_dir / f"{op}.{tool}"
        if tool == "seccli":
            verb = "encrypt" if op == "enc" else "decrypt"
            options = ["--cipher", "aes-256-cbc", "--key", "env:SECKIT_BENCH_KEY", "--iv", iv]
            return [ctx.seccli, verb, *options, "--in", sources[op], "--out", target]
        decrypt = ["-d"] if op == "dec" else []
        return ["openssl", "enc", *decrypt, "-aes-256-cbc", "-K", key, "-iv", iv, "-in", sources[op], "-out", target]

    def check_same(name, produced, expected):
        """Byte-for-byte comparison; then the output is deleted."""
        if subprocess.run(["cmp", "-s", "--", str(produced), str(expected)]).returncode != 0:
            size = produced.stat().st_size if produced.exists() else "no file"
            fail(f"{name} wrote {produced} ({size} bytes), which differs from {expected}")
        produced.unlink(missing_ok=True)

    times = {name: [] for name in RUN_NAMES}

    def cipher_run(op, tool, timed=False):
        produced = out_dir / f"{op}.{tool}"
        produced.unlink(missing_ok=True)
        stdout_path = ctx.work / f"stdout.{op}.{tool}"
        if timed:
            if out_fs == "tmpfs":
                touch_pages(out_dir, cipher_bytes)
            times[f"{op}.{tool}"].append(run_timed(ctx.work, stdout_path, command(op, tool)))
        else:
            with open(stdout_path, "wb") as out:
                run(command(op, tool), stdout=out)
        check_same(f"{tool} {op}", produced, expected_outputs[op])

    say("encryption: one untimed run of each (openssl's output is the reference ciphertext)")
    run(command("enc", "openssl"))
    os.replace(out_dir / "enc.openssl", ciphertext)
    cipher_bytes = ciphertext.stat().st_size
    if cipher_bytes != (ctx.file_bytes // 16 + 1) * 16:
        fail(f"openssl's ciphertext has {cipher_bytes} bytes for {ctx.file_bytes} of input")
    cipher_run("enc", "seccli")
    cipher_run("dec", "seccli")
    cipher_run("dec", "openssl")

    for i in range(1, ctx.cipher_runs + 1):
        order = ("seccli", "openssl") if i % 2 else ("openssl", "seccli")
        for op in ("enc", "dec"):
            for tool in order:
                cipher_run(op, tool, timed=True)
        last = {name: runs[-1].wall for name, runs in times.items()}
        say(
            f"encryption run {i}/{ctx.cipher_runs}: seccli {last['enc.seccli']} s, openssl {last['enc.openssl']} s;"
            f" decryption: seccli {last['dec.seccli']} s, openssl {last['dec.openssl']} s"
        )
    ciphertext.unlink()

    return SimpleNamespace(
        out_parent=out_parent,
        out_fs=out_fs,
        wall={name: median([t.wall for t in runs]) for name, runs in times.items()},
        user={name: median_text([t.user for t in runs]) for name, runs in times.items()},
        system={name: median_text([t.system for t in runs]) for name, runs in times.items()},
        rss_max={name: max(t.rss_kib for t in runs) for name, runs in times.items()},
        walls={name: each_fixed([t.wall for t in runs], 3) for name, runs in times.items()},
    )


def report(ctx, m):
    gib = ctx.file_bytes / 1073741824
    enc_ratio = fixed(m.wall["enc.seccli"] / m.wall["enc.openssl"], 3)
    dec_ratio = fixed(m.wall["dec.seccli"] / m.wall["dec.openssl"], 3)
    rss_kib = max(m.rss_max["enc.seccli"], m.rss_max["dec.seccli"])
    rss_mib = fixed(rss_kib / 1024, 1)
    enc_ok = verdict(m.wall["enc.seccli"] / m.wall["enc.openssl"] <= 1.0)
    dec_ok = verdict(m.wall["dec.seccli"] / m.wall["dec.openssl"] <= 1.05)
    rss_ok = verdict(rss_kib <= 16384)
    rows = (
        "| `seccli encrypt --cipher aes-256-cbc --key … --iv …` wall time ≤ 1.00 × `openssl enc -aes-256-cbc -K … -iv …`"
        f" on 1 GiB | {enc_ratio} × | {enc_ok} |\n"
        "| `seccli decrypt` of that ciphertext, wall time ≤ 1.05 × `openssl enc -d -aes-256-cbc -K … -iv …`"
        f" | {dec_ratio} × | {dec_ok} |\n"
        f"| `seccli` peak RSS ≤ 16 MiB while encrypting and decrypting 1 GiB | {rss_mib} MiB ({rss_kib} KiB) | {rss_ok} |"
    )
    text = f"File encryption target (encryption and decryption time, memory): {all_met(enc_ok, dec_ok, rss_ok)}."

    def row(label, name):
        wall = m.wall[name]
        return (
            f"| `{label}` | {fixed(wall, 3)} s | {fixed(gib / wall, 2)} GiB/s | {m.user[name]} + {m.system[name]} s"
            f" | {fixed(m.rss_max[name] / 1024, 1)} MiB | {m.walls[name]} |"
        )

    results = f"""### Encrypting and decrypting a {fixed(gib, 3)} GiB file (AES-256-CBC, output to {m.out_fs})

| command | median wall time | throughput | median user + system CPU | peak RSS (max) | all runs (s) |
| --- | --- | --- | --- | --- | --- |
{row("seccli encrypt --cipher aes-256-cbc", "enc.seccli")}
{row("openssl enc -aes-256-cbc", "enc.openssl")}
{row("seccli decrypt --cipher aes-256-cbc", "dec.seccli")}
{row("openssl enc -d -aes-256-cbc", "dec.openssl")}

seccli / openssl wall time: encryption **{enc_ratio}** (target ≤ 1.00), decryption **{dec_ratio}** (target ≤ 1.05).
Every output matched byte for byte."""
    return rows, text, results
