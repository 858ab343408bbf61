"""What every part of the benchmark shares: the settings, the temporary folder, the built
executables, progress messages, fatal errors and the child processes."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ALL_PARTS = ["hashing", "manyfiles", "encryption", "hmac", "throughput", "pbkdf2", "envelopes", "keychain", "audit", "tls", "nio"]

# SECKIT_BENCH_* settings that are counts or seconds: variable, default.
SETTINGS = {
    "runs": ("SECKIT_BENCH_RUNS", 5),
    "rounds": ("SECKIT_BENCH_ROUNDS", 5),
    "cipher_runs": ("SECKIT_BENCH_CIPHER_RUNS", 7),
    "speed_rounds": ("SECKIT_BENCH_SPEED_ROUNDS", 5),
    "speed_seconds": ("SECKIT_BENCH_SPEED_SECONDS", 3),
    "keychain_rounds": ("SECKIT_BENCH_KEYCHAIN_ROUNDS", 5),
    "keychain_processes": ("SECKIT_BENCH_KEYCHAIN_PROCESSES", 40),
    "keychain_scale_runs": ("SECKIT_BENCH_KEYCHAIN_SCALE_RUNS", 40),
}

# The keyring sizes of the keychain part's scale step; SECKIT_BENCH_KEYCHAIN_SCALE adds a larger one.
KEYCHAIN_SCALE_SIZES = [100, 1000]


def say(message):
    """A progress line on stderr; stdout is kept for the summary."""
    print(f"== {message}", file=sys.stderr, flush=True)


def fail(message, status=1):
    """Stops the run: something could not be built or run, or an output was wrong."""
    print(f"run: {message}", file=sys.stderr, flush=True)
    sys.exit(status)


def positive_setting(variable, default):
    text = os.environ.get(variable) or str(default)
    if not re.fullmatch(r"[1-9][0-9]*", text):
        fail(f"{variable} must be a positive integer", 2)
    return int(text)


def command_text(command):
    return " ".join(str(word) for word in command)


def run(command, **options):
    """Runs a command whose failure ends the run (as `set -e` did), its stderr left to the terminal."""
    completed = subprocess.run([str(word) for word in command], **options)
    if completed.returncode != 0:
        fail(f"{command_text(command)} exited with status {completed.returncode}")
    return completed


def output(command, **options):
    """The standard output of a command that must succeed, as text."""
    return run(command, stdout=subprocess.PIPE, text=True, **options).stdout


def output_or(command, fallback):
    """The standard output of a command, or `fallback` when it fails or is missing (for labels only)."""
    try:
        completed = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return fallback
    return completed.stdout if completed.returncode == 0 else fallback


def one_minute_load():
    return Path("/proc/loadavg").read_text().split()[0]


def load_averages():
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


class Context:
    """The state of one run: which parts, their settings, where files go, what was built."""

    def __init__(self, parts, write_docs):
        self.parts = parts
        self.all_run = len(parts) == len(ALL_PARTS)
        self.write_docs = write_docs
        for name, (variable, default) in SETTINGS.items():
            setattr(self, name, positive_setting(variable, default))
        # Read, like the other settings, before anything is built, so a bad value fails at once.
        self.tls_seconds = positive_setting("SECKIT_BENCH_TLS_SECONDS", 3) if "tls" in parts else 3
        self.nio_seconds = positive_setting("SECKIT_BENCH_NIO_SECONDS", 3) if "nio" in parts else 3
        self.keychain_sizes = list(KEYCHAIN_SCALE_SIZES)
        if os.environ.get("SECKIT_BENCH_KEYCHAIN_SCALE"):
            extra = positive_setting("SECKIT_BENCH_KEYCHAIN_SCALE", 0)
            if extra <= KEYCHAIN_SCALE_SIZES[-1]:
                fail(f"SECKIT_BENCH_KEYCHAIN_SCALE must be more than {KEYCHAIN_SCALE_SIZES[-1]}", 2)
            self.keychain_sizes.append(extra)
        self.root = Path(__file__).resolve().parents[3]
        self.load_at_start = load_averages()
        self.load_samples = []
        self.load_parts = []
        self.cleanups = []
        self.work = Path(tempfile.mkdtemp(prefix="seckit-bench.", dir=os.environ.get("TMPDIR") or "/tmp"))
        self.on_exit(lambda: shutil.rmtree(self.work, ignore_errors=True))
        self.seccli = None  # the static release seccli (tools/build-release)
        self.bench = None  # seckit-bench, the in-process benchmarks (package tools/bench)
        self.file = None  # the big file of hashing and encryption
        self.file_bytes = 0
        self.file_given = bool(os.environ.get("SECKIT_BENCH_FILE"))
        self.python_env_versions = ""  # set by the envelopes part; the Machine section shows it

    def want(self, part):
        return part in self.parts

    def on_exit(self, action):
        """Runs `action` when the run ends, however it ends (newest first)."""
        self.cleanups.append(action)

    def clean_up(self):
        while self.cleanups:
            try:
                self.cleanups.pop()()
            except OSError:
                pass

    def sample_load(self, part):
        """The 1-minute load at the start of each part, for the Machine section."""
        self.load_samples.append(one_minute_load())
        self.load_parts.append(part)

    def bench_line(self, *arguments):
        """Runs seckit-bench and returns its result line; its per-round details (stderr) are shown
        only when it fails."""
        completed = subprocess.run(
            [str(self.bench), *[str(a) for a in arguments]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        if completed.returncode != 0:
            sys.stderr.write(completed.stderr)
            fail(f"seckit-bench {command_text(arguments)} exited with status {completed.returncode}")
        line = completed.stdout.strip()
        if not line:
            fail(f"seckit-bench {command_text(arguments)} printed nothing")
        return line

    def peer_line(self, script, *arguments):
        """Runs one of the Python baselines in tools/bench/baselines (its own process, as each round needs)
        and returns its result line."""
        path = Path(__file__).resolve().parents[1] / "baselines" / script
        return output(["python3", path, *arguments]).strip()
