"""Part throughput: cipher throughput on 16 KiB chunks, SecCrypto in-process vs `openssl speed`.

`openssl speed -evp CIPHER -bytes 16384 -seconds S` encrypts one 16 KiB buffer again and again
through one EVP_CIPHER_CTX (EVP_EncryptUpdate in place, padding off; no per-chunk IV, AAD or tag,
even for GCM) and divides by the user CPU time of the process. seckit-bench's aes-256-gcm-16384 and
des-ede3-cbc-16384 do the same through one CipherStream with one reused output buffer, and report
cpu_bytes_per_sec (user CPU time, getrusage) beside the wall-clock bytes_per_sec. One seal per chunk
is what `openssl speed -aead` times (re-init with the IV, 13-byte AAD, update, final), so
seckit-bench's aes-256-gcm-seal-16384 (AES.GCM.seal per chunk, 13-byte AAD, returning a SealedBox)
and aes-256-gcm-seal-into-16384 (the same seal into buffers the caller reuses) are compared with that,
and chacha20-poly1305-seal-16384 (ChaChaPoly.seal per chunk, the same inputs) with `openssl speed -aead
-evp chacha20-poly1305`.
-mr only changes how openssl speed prints (+F:...:bytes per second), not what it measures.

OpenSSL 3.0's `openssl speed -aead` runs its per-message AEAD loop (EVP_Update_loop_aead_enc) for the
GCM, CCM, OCB and SIV modes only: for ChaCha20-Poly1305, a stream cipher to it, it runs the streaming
EVP_Update_loop (one EVP_EncryptUpdate per chunk on a context never restarted: no nonce, AAD, final or
tag per message). So the ChaCha20-Poly1305 seal is also compared with that per-message loop run on
ChaCha20-Poly1305: tools/bench/floor/aead-seal-floor.c mode 4, built here with cc, by CPU time.

Every round checks seckit-bench's result= against openssl enc (and against Python's cryptography
for the GCM and ChaCha20-Poly1305 tags, when it is installed): a wrong result ends the run.
"""

import hashlib
import re
import subprocess
from types import SimpleNamespace

from runner.context import fail, output, run, say
from runner.stats import all_met, fixed, mbs, median, required_field, verdict

NAME = "throughput"
CASES = (
    "aes-256-gcm-16384",
    "des-ede3-cbc-16384",
    "aes-256-gcm-seal-16384",
    "aes-256-gcm-seal-into-16384",
    "chacha20-poly1305-seal-16384",
)
CHACHA = CASES[-1]
OPENSSL_ARGS = {
    "aes-256-gcm-16384": ["-evp", "aes-256-gcm"],
    "des-ede3-cbc-16384": ["-evp", "des-ede3-cbc"],
    "aes-256-gcm-seal-16384": ["-aead", "-evp", "aes-256-gcm"],
    "aes-256-gcm-seal-into-16384": ["-aead", "-evp", "aes-256-gcm"],
    "chacha20-poly1305-seal-16384": ["-aead", "-evp", "chacha20-poly1305"],
}
# The tag of AES.GCM.seal (or ChaChaPoly.seal: AEAD=ChaCha20Poly1305) of patternBytes(16384, seed: 1),
# key: patternBytes(32, seed: 3), nonce: patternBytes(12, seed: 5), aad: 13 bytes of 0xcc, by Python's
# cryptography.
AEAD_TAG = """
from cryptography.hazmat.primitives.ciphers.aead import AEAD
p = lambda n, s: bytes((i * 31 + s) & 0xFF for i in range(n))
print(AEAD(p(32, 3)).encrypt(p(12, 5), p(16384, 1), b"\\xcc" * 13)[-16:].hex())"""


def pattern(count, seed):
    """patternBytes(count, seed:) of seckit-bench."""
    return bytes((i * 31 + seed) & 0xFF for i in range(count))


def expected_results(ctx):
    """What each case's result= must be. GCM's ciphertext is AES-CTR from the counter block
    nonce || 00000002; 3DES is CBC without padding."""
    chunk = ctx.work / "chunk.bin"
    chunk.write_bytes(pattern(16384, 1))

    def digest_of(cipher, key, iv, *extra):
        command = ["openssl", "enc", cipher, *extra, "-K", key.hex(), "-iv", iv, "-in", chunk]
        return hashlib.sha256(run(command, stdout=subprocess.PIPE).stdout).hexdigest()

    expected = {
        "aes-256-gcm-16384": digest_of("-aes-256-ctr", pattern(32, 3), pattern(12, 5).hex() + "00000002"),
        "des-ede3-cbc-16384": digest_of("-des-ede3-cbc", pattern(24, 3), pattern(8, 5).hex(), "-nopad"),
    }
    def tag_of(aead):
        script = AEAD_TAG.replace("AEAD", aead)
        tag = subprocess.run(["python3", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return tag.stdout.strip() if tag.returncode == 0 else ""

    expected["aes-256-gcm-seal-16384"] = tag_of("AESGCM")
    expected["aes-256-gcm-seal-into-16384"] = expected["aes-256-gcm-seal-16384"]
    expected["chacha20-poly1305-seal-16384"] = tag_of("ChaCha20Poly1305")
    return expected


def build_floor(ctx):
    """openssl speed's per-message AEAD loop, in C (tools/bench/floor/aead-seal-floor.c)."""
    floor = ctx.work / "aead-seal-floor"
    run(["cc", "-O2", "tools/bench/floor/aead-seal-floor.c", "-o", floor, "-lcrypto"])
    return floor


def measure(ctx):
    ctx.sample_load(NAME)
    expected = expected_results(ctx)
    floor = build_floor(ctx)
    swift = {name: [] for name in CASES}  # (cpu bytes/s, wall bytes/s)
    openssl = {name: [] for name in CASES}  # bytes/s by user CPU time
    chacha_loop = []  # bytes/s of CPU time: openssl speed's AEAD loop on ChaCha20-Poly1305, in C

    def swift_round(name):
        line = ctx.bench_line("--warmup", "0.5", "--seconds", ctx.speed_seconds, "--rounds", "1", name)
        got = re.search(r".* result=([0-9a-f]*)", line)
        got = got.group(1) if got else ""
        if expected[name] and got != expected[name]:
            fail(f"seckit-bench {name} computed result={got}, expected {expected[name]}")
        cpu = required_field(line, "cpu_bytes_per_sec", "seckit-bench")
        swift[name].append((cpu, required_field(line, "bytes_per_sec", "seckit-bench")))

    def openssl_round(name):
        command = ["openssl", "speed", "-mr", *OPENSSL_ARGS[name], "-bytes", "16384", "-seconds", ctx.speed_seconds]
        values = re.findall(r"(?m)^\+F:[0-9]*:[^:\n]*:([0-9.]*)$", output(command, stderr=subprocess.DEVNULL))
        if not values or not values[-1]:
            fail(f"could not read the result of openssl speed {' '.join(OPENSSL_ARGS[name])}")
        openssl[name].append(values[-1])

    def chacha_loop_round():
        line = output([floor, "4", f"-{ctx.speed_seconds}", "chacha20-poly1305"])
        got = re.search(r"^mode 4: ([0-9]+) MB/s", line)
        if not got:
            fail(f"could not read the result of aead-seal-floor: {line.strip()}")
        chacha_loop.append(str(int(got.group(1)) * 10**6))

    for i in range(1, ctx.speed_rounds + 1):
        for name in CASES:
            # The order within a round turns from round to round, so that no side always runs first.
            sides = [lambda: swift_round(name), lambda: openssl_round(name)]
            if name == CHACHA:
                sides.append(chacha_loop_round)
            shift = (i - 1) % len(sides)
            for side in sides[shift:] + sides[:shift]:
                side()
            loop = f", its AEAD loop in C {mbs(chacha_loop[-1])} MB/s" if name == CHACHA else ""
            say(
                f"throughput {name}, round {i}/{ctx.speed_rounds}: SecCrypto {mbs(swift[name][-1][0])} MB/s,"
                f" openssl speed {mbs(openssl[name][-1])} MB/s{loop}"
            )
    return SimpleNamespace(
        gcm_tag_checked=bool(expected["aes-256-gcm-seal-16384"]),
        swift={name: median([cpu for cpu, _ in swift[name]]) for name in CASES},
        swift_wall={name: median([wall for _, wall in swift[name]]) for name in CASES},
        openssl={name: median(openssl[name]) for name in CASES},
        chacha_loop=median(chacha_loop),
        swift_all={name: " ".join(mbs(cpu) for cpu, _ in swift[name]) for name in CASES},
        openssl_all={name: " ".join(mbs(v) for v in openssl[name]) for name in CASES},
        chacha_loop_all=" ".join(mbs(v) for v in chacha_loop),
    )


def gcm_tag_note(m):
    if m.gcm_tag_checked:
        return "the tags of the seal cases against Python's `cryptography` AESGCM and ChaCha20Poly1305"
    return "the tags of the seal cases are not checked (Python's `cryptography` is not installed)"


def report(ctx, m):
    ratio = {name: fixed(m.swift[name] / m.openssl[name], 3) for name in CASES}
    ok = {name: verdict(m.swift[name] / m.openssl[name] >= 0.95) for name in CASES}
    loop_ratio = fixed(m.swift[CHACHA] / m.chacha_loop, 3)
    loop_ok = verdict(m.swift[CHACHA] / m.chacha_loop >= 0.95)
    # The per-chunk seal against the streaming openssl speed figure as well, for readers who
    # expected that comparison.
    seal_vs_stream = fixed(m.swift["aes-256-gcm-seal-16384"] / m.openssl["aes-256-gcm-16384"], 3)
    gcm, des, seal, into, chacha = CASES
    s = ctx.speed_seconds
    rows = (
        "| SecCrypto AES-256-GCM, 16 KiB chunks through one `CipherStream`, ≥ 0.95 ×"
        f" `openssl speed -evp aes-256-gcm -bytes 16384 -seconds {s}` | {ratio[gcm]} × | {ok[gcm]} |\n"
        "| SecCrypto 3DES (des-ede3-cbc), 16 KiB chunks through one `CipherStream`, ≥ 0.95 ×"
        f" `openssl speed -evp des-ede3-cbc -bytes 16384 -seconds {s}` | {ratio[des]} × | {ok[des]} |\n"
        "| One `AES.GCM.seal` per 16 KiB message with a 13-byte AAD (a `SealedBox`) ≥ 0.95 ×"
        f" `openssl speed -aead -evp aes-256-gcm -bytes 16384` (see Method) | {ratio[seal]} × | {ok[seal]} |\n"
        "| The same seal into the caller's buffers (`seal(_:using:nonce:authenticating:into:tag:)`), same threshold"
        f" | {ratio[into]} × | {ok[into]} |\n"
        "| One `ChaChaPoly.seal` per 16 KiB message with a 13-byte AAD ≥ 0.95 ×"
        " `openssl speed -aead -evp chacha20-poly1305 -bytes 16384` (OpenSSL 3.0 streams it: no nonce, AAD or"
        f" tag per message; see Method) | {ratio[chacha]} × | {ok[chacha]} |\n"
        "| The same seal ≥ 0.95 × openssl speed's per-message AEAD loop run on ChaCha20-Poly1305"
        f" (`tools/bench/floor/aead-seal-floor.c` mode 4) | {loop_ratio} × | {loop_ok} |"
    )
    text = (
        f"Cipher throughput target (AES-256-GCM and 3DES streaming): {all_met(ok[gcm], ok[des])};"
        f" per-message `AES.GCM.seal`: {all_met(ok[seal], ok[into])}; per-message `ChaChaPoly.seal`: {all_met(ok[chacha])}"
        f" against `openssl speed`, {all_met(loop_ok)} against its AEAD loop in C."
    )

    def row(label, name, note):
        return (
            f"| {label} | {mbs(m.swift[name])} | {mbs(m.swift_wall[name])} | {mbs(m.openssl[name])}"
            f" | **{ratio[name]}** ({note}) |"
        )

    results = f"""### Cipher throughput, 16 KiB chunks (MB/s = 10^6 bytes per second of user CPU time)

| case | SecCrypto (median) | SecCrypto, by wall clock | openssl speed (median) | SecCrypto / openssl |
| --- | --- | --- | --- | --- |
{row("AES-256-GCM, streaming (`aes-256-gcm-16384` vs `-evp aes-256-gcm`)", gcm, "target ≥ 0.95")}
{row("3DES-CBC, streaming (`des-ede3-cbc-16384` vs `-evp des-ede3-cbc`)", des, "target ≥ 0.95")}
{row("AES-256-GCM, one seal per chunk (`aes-256-gcm-seal-16384` vs `-aead -evp aes-256-gcm`)", seal, "target ≥ 0.95")}
{row("AES-256-GCM, one seal per chunk into reused buffers (`aes-256-gcm-seal-into-16384` vs the same)", into, "target ≥ 0.95")}
{row("ChaCha20-Poly1305, one seal per chunk (`chacha20-poly1305-seal-16384` vs `-aead -evp chacha20-poly1305`, which streams)", chacha, "target ≥ 0.95")}
| ChaCha20-Poly1305, one seal per chunk vs openssl speed's AEAD loop in C (`aead-seal-floor.c` mode 4, by CPU time) | {mbs(m.swift[chacha])} | {mbs(m.swift_wall[chacha])} | {mbs(m.chacha_loop)} | **{loop_ratio}** (target ≥ 0.95) |

One seal per chunk against the streaming `openssl speed -evp aes-256-gcm` figure: {seal_vs_stream}.

All rounds (MB/s, in run order):

- SecCrypto AES-256-GCM streaming: {m.swift_all[gcm]}
- openssl speed -evp aes-256-gcm: {m.openssl_all[gcm]}
- SecCrypto 3DES-CBC streaming: {m.swift_all[des]}
- openssl speed -evp des-ede3-cbc: {m.openssl_all[des]}
- SecCrypto AES.GCM.seal per chunk: {m.swift_all[seal]}
- openssl speed -aead -evp aes-256-gcm: {m.openssl_all[seal]}
- SecCrypto AES.GCM.seal per chunk into reused buffers: {m.swift_all[into]}
- openssl speed -aead -evp aes-256-gcm (its own rounds): {m.openssl_all[into]}
- SecCrypto ChaChaPoly.seal per chunk: {m.swift_all[chacha]}
- openssl speed -aead -evp chacha20-poly1305: {m.openssl_all[chacha]}
- openssl speed's AEAD loop on ChaCha20-Poly1305, in C: {m.chacha_loop_all}"""
    return rows, text, results
