"""The tools the run needs, the two builds (seccli and seckit-bench), and the big file."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from runner.context import fail, output, run, say

FILE_PARTS = ("hashing", "encryption")  # seccli on the big file
SECCLI_PARTS = (*FILE_PARTS, "manyfiles", "keychain", "audit")  # the parts that run the release seccli
BENCH_PARTS = ("hmac", "throughput", "pbkdf2", "envelopes", "keychain", "tls", "nio")  # in-process, seckit-bench


def check_tools():
    """GNU time measures peak RSS and CPU time of the file commands; it is installed when missing
    and the run may install it."""
    if not os.access("/usr/bin/time", os.X_OK):
        if os.getuid() == 0 and shutil.which("apt-get"):
            say("installing GNU time (apt-get install time)")
            run(["apt-get", "update", "-qq"], stdout=sys.stderr)
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            run(["apt-get", "install", "-y", "-qq", "time"], stdout=sys.stderr, env=env)
        else:
            fail("GNU time (/usr/bin/time) is missing: install the 'time' package")
    for tool in ("swift", "openssl", "python3"):
        if not shutil.which(tool):
            fail(f"'{tool}' not found")


def build(ctx):
    if any(ctx.want(p) for p in SECCLI_PARTS):
        # The seccli users get: the Swift runtime linked statically, in a scratch folder of its own.
        say("building seccli (tools/build-release)")
        ctx.seccli = output(["tools/build-release"]).strip()
    if any(ctx.want(p) for p in BENCH_PARTS):
        say("building seckit-bench (release, tools/bench/.build)")
        swift_build = ["swift", "build", "-c", "release", "--package-path", "tools/bench", "--scratch-path", "tools/bench/.build"]
        run(swift_build, stdout=sys.stderr)
        ctx.bench = Path(output([*swift_build, "--show-bin-path"]).strip()) / "seckit-bench"


def big_file(ctx):
    """The file hashed and encrypted: SECKIT_BENCH_FILE, or 1 GiB of random bytes made here; read
    twice first so every command finds it in the page cache."""
    if not any(ctx.want(p) for p in FILE_PARTS):
        return
    given = os.environ.get("SECKIT_BENCH_FILE")
    if given:
        if not (os.path.isfile(given) and os.access(given, os.R_OK)):
            fail(f"SECKIT_BENCH_FILE '{given}' is not a readable file")
        ctx.file = Path(given)
        say(f"using {given}")
    else:
        ctx.file = ctx.work / "random-1GiB.bin"
        say(f"generating 1 GiB of random bytes in {ctx.file}")
        with open(ctx.file, "wb") as out:
            run(["head", "-c", str(1024 * 1024 * 1024), "/dev/urandom"], stdout=out)
    ctx.file_bytes = ctx.file.stat().st_size
    say("warming the page cache")
    for _ in range(2):
        run(["cat", ctx.file], stdout=subprocess.DEVNULL)
