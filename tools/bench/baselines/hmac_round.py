"""One Python process of the hmac part: hmac.new(key, msg, 'sha256').digest() over a SIZE-byte
message with a 32-byte key, 0.5 s of warm-up, then about 1 s counted. Prints
"python-hmac-sha256-SIZE ops_per_sec=N". Usage: hmac_round.py SIZE"""

import hmac
import sys
import time

size = int(sys.argv[1])
key = bytes((i * 31 + 7) & 0xFF for i in range(32))
msg = bytes((i * 31 + 1) & 0xFF for i in range(size))


def run_for(seconds, batch=1000):
    ops, start = 0, time.perf_counter()
    while True:
        for _ in range(batch):
            hmac.new(key, msg, 'sha256').digest()
        ops += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return ops / elapsed


run_for(0.5)
print(f"python-hmac-sha256-{size} ops_per_sec={round(run_for(1.0))}")
