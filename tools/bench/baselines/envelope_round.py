"""One Python process of the envelopes part. Usage: envelope_round.py CASE SWIFT_TOKEN

CASE is jwe-dir-a256gcm-1024 (joserfc) or fernet-1024 (cryptography.fernet). It first opens
SWIFT_TOKEN, the token seckit-bench printed (a seal of the pattern payload under the pattern key),
and checks its plaintext (and the JWE header), so a fast but wrong Swift side is caught. Then round
trips of a random 1 KiB payload, each opened payload compared, 0.5 s of warm-up, then about 1 s
counted. Prints "python-CASE ops_per_sec=N cpu_ops_per_sec=N" (per second of wall, of user CPU time).
"""

import base64
import os
import resource
import sys
import time

case, swift_token = sys.argv[1], sys.argv[2]
pattern = lambda n, s: bytes((i * 31 + s) & 0xFF for i in range(n))
key_bytes = pattern(32, 9)
payload = os.urandom(1024)
if case == "jwe-dir-a256gcm-1024":
    from joserfc import jwe
    from joserfc.jwk import OctKey
    key = OctKey.import_key(key_bytes)
    protected = {"alg": "dir", "enc": "A256GCM"}

    def open_token(token):
        opened = jwe.decrypt_compact(token, key)
        if opened.protected != protected:
            sys.exit(f"run: seckit-bench's JWE has the header {opened.protected}")
        return opened.plaintext

    def round_trip():
        token = jwe.encrypt_compact(protected, payload, key)
        if jwe.decrypt_compact(token, key).plaintext != payload:
            sys.exit("run: joserfc opened other bytes than it sealed")
elif case == "fernet-1024":
    from cryptography.fernet import Fernet
    fernet = Fernet(base64.urlsafe_b64encode(key_bytes))
    open_token = fernet.decrypt

    def round_trip():
        if fernet.decrypt(fernet.encrypt(payload)) != payload:
            sys.exit("run: cryptography.fernet opened other bytes than it sealed")
else:
    sys.exit(f"run: unknown envelope case {case}")
if open_token(swift_token) != pattern(1024, 1):
    sys.exit(f"run: the {case} token of seckit-bench opens in Python to other bytes than the pattern payload")
user_cpu = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_utime


def run_for(seconds, batch=100):
    """(round trips per second of wall time, per second of user CPU time)"""
    ops, start, cpu_start = 0, time.perf_counter(), user_cpu()
    while True:
        for _ in range(batch):
            round_trip()
        ops += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return ops / elapsed, ops / max(user_cpu() - cpu_start, 1e-6)


run_for(0.5)
wall, cpu = run_for(1.0)
print(f"python-{case} ops_per_sec={round(wall)} cpu_ops_per_sec={round(cpu)}")
