"""One Python process of the pbkdf2 part: hashlib.pbkdf2_hmac('sha256', password, salt, 600000, 32)
once untimed, then COUNT derivations timed one by one. Prints
"python-pbkdf2-sha256-600000 seconds_per_op=MEDIAN result=KEY". Usage: pbkdf2_round.py COUNT"""

import hashlib
import statistics
import sys
import time

n = int(sys.argv[1])
password = bytes((i * 31 + 0x70) & 0xFF for i in range(16))
salt = bytes((i * 31 + 0x73) & 0xFF for i in range(16))
key = hashlib.pbkdf2_hmac('sha256', password, salt, 600000, 32)
times = []
for _ in range(n):
    start = time.perf_counter()
    hashlib.pbkdf2_hmac('sha256', password, salt, 600000, 32)
    times.append(time.perf_counter() - start)
print(f"python-pbkdf2-sha256-600000 seconds_per_op={statistics.median(times):.9f} result={key.hex()}")
