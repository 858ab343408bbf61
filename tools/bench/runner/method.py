"""The Method section of the full summary: how each part measures, with this run's settings.

METHOD is a string.Template: text() fills in its $names; the rest is written as it appears in
docs/performance.md.
"""

from string import Template

from parts import pbkdf2, throughput
from runner.context import output_or


def linkage(seccli):
    """Whether seccli carries the Swift runtime, and which shared libraries it loads."""
    ldd = output_or(["ldd", str(seccli)], "")
    if "libswiftCore" in ldd:
        return "Swift runtime linked dynamically (unexpected)"
    names = {line.split()[0].split(".so")[0] for line in ldd.splitlines() if line.split()}
    names = sorted(n for n in names if "linux-vdso" not in n and "ld-linux" not in n)
    return "Swift runtime linked statically; dynamic libraries: " + ", ".join(names)


def text(ctx, measured, nproc):
    encryption = measured["encryption"]
    if encryption.out_fs == "tmpfs":
        out_note = f"a tmpfs (`{encryption.out_parent}`), so seccli's fsync before the rename costs next to nothing"
        warm_note = (
            "Just before each timed run, as much tmpfs memory as the output needs is allocated (`fallocate`) and"
            " freed, outside the timing, so that both tools write into pages this VM has just used: pages left free"
            " for a few seconds are apparently taken back by the hypervisor. This narrows, but does not remove, a"
            " spread of up to twofold between runs (see [the journal](performance-journal.md#encryption-cipher-throughput-and-pbkdf2-notes-and-profile-2026-11-22-commit-18664c0)). "
        )
    else:
        out_note = (
            f"`{encryption.out_parent}` ({encryption.out_fs}, not a tmpfs), so seccli's fsync before the rename"
            " writes the file to disk inside its timing and openssl (which does not fsync) is favoured"
        )
        warm_note = ""
    if ctx.file_given:
        file_source = "given by SECKIT_BENCH_FILE"
    else:
        file_source = "random bytes from /dev/urandom in a temporary folder, deleted at exit"
    return METHOD.substitute(
        linkage=linkage(ctx.seccli),
        file_gib=f"{ctx.file_bytes / 1073741824:.3f}",
        file_source=file_source,
        runs=ctx.runs,
        out_note=out_note,
        warm_note=warm_note,
        cipher_runs=ctx.cipher_runs,
        speed_seconds=ctx.speed_seconds,
        speed_rounds=ctx.speed_rounds,
        gcm_tag_note=throughput.gcm_tag_note(measured["throughput"]),
        rounds=ctx.rounds,
        pbkdf2_key=measured["pbkdf2"].key,
        pbkdf2_per_process=pbkdf2.PER_PROCESS,
        python_env_versions=ctx.python_env_versions,
        tls_rounds=ctx.rounds,
        tls_seconds=ctx.tls_seconds,
        nio_seconds=ctx.nio_seconds,
        nproc=nproc,
        keychain_rounds=ctx.keychain_rounds,
        keychain_processes=ctx.keychain_processes,
        keychain_scale_runs=ctx.keychain_scale_runs,
        keychain_sizes=" and ".join(f"{size:,}" for size in ctx.keychain_sizes),
    )


METHOD = Template(
    """## Method

- **Builds**: `seccli` by `tools/build-release` (`swift build -c release --static-swift-stdlib -Xlinker --no-export-dynamic`,
  libstdc++ linked statically, libsecret not linked: see the script)
  (${linkage}); the benchmark executable `seckit-bench` (package `tools/bench`, depends on SecKit's
  library products by path) with `swift build -c release --package-path tools/bench --scratch-path tools/bench/.build`.
- **The big file**: a ${file_gib} GiB file (${file_source}),
  read twice with `cat` first so it is in the page cache. The same file is hashed, encrypted, and (its
  ciphertext) decrypted.
- **File hashing**: One untimed run of each command, then
  ${runs} runs each of `seccli hash --algorithm sha256 FILE` and `openssl dgst -sha256 FILE`,
  alternated (the first of each pair alternates too). Every output is checked against the expected digest.
  Wall time: `time.perf_counter` of the run script around each process; reported figure: the median. Peak RSS: GNU
  `/usr/bin/time -f %M`; reported figure: the largest of the ${runs} runs.
- **Many files**: 48 files of random bytes, 1 to 16 MiB (file i has 1 + (7 i mod 16) MiB, each size three
  times in a mixed order; 408 MiB), read twice with `cat` first. `seccli hash --algorithm sha256 F1 … F48`
  (one reading thread per processor of its affinity mask, lines printed in argument order) against
  `openssl dgst -sha256 F1 … F48` (one process, one file after the other) and
  `xargs -P N -n 1 openssl dgst -sha256` over the same list (N = `nproc`: one openssl process per file,
  xargs starting the next whenever one of its N ends). One untimed run of each, then ${runs} timed runs
  of each, the order of the three rotating; wall time and peak RSS as for hashing. Every output must
  hold every file's digest from `openssl dgst -r` (seccli's in argument order).
- **File encryption and decryption (AES-256-CBC, raw key and IV, PKCS#7 padding)**: a random 32-byte key
  and 16-byte IV per run of the script. Commands:
  `seccli encrypt --cipher aes-256-cbc --key env:SECKIT_BENCH_KEY --iv IV --in FILE --out OUT` vs
  `openssl enc -aes-256-cbc -K KEY -iv IV -in FILE -out OUT`, and
  `seccli decrypt … --in CIPHERTEXT --out OUT` vs `openssl enc -d -aes-256-cbc -K KEY -iv IV -in CIPHERTEXT -out OUT`.
  Both tools write to a regular file in ${out_note}; the ciphertext that both decrypt lies there too.
  Not `--out /dev/null`: seccli writes `--out` to a temporary file beside the path and renames it into
  place after an fsync (so decrypted output appears only once the padding has verified). That cannot work
  for a device: as root it would replace the device node (see [the journal](performance-journal.md#encryption-cipher-throughput-and-pbkdf2-notes-and-profile-2026-11-22-commit-18664c0)). Not standard output either: `seccli decrypt` without `--out` first spools everything to an
  unlinked temporary file. Each output is deleted before every run (outside the timing, so neither tool
  pays for freeing the previous one) and compared with `cmp` after it: encryption outputs with the
  ciphertext of an untimed `openssl enc` run, decryption outputs with the original file. ${warm_note}One untimed
  run of each first, then ${cipher_runs} timed runs of each of the four commands: in each round both
  encryptions, then both decryptions, the first tool of each pair alternating between rounds. Wall time
  and peak RSS as for hashing (median; largest); user and system CPU time from GNU time (`%U`, `%S`; medians).
- **Cipher throughput (16 KiB chunks)**: `openssl speed -evp CIPHER -bytes 16384 -seconds ${speed_seconds}` encrypts one
  16 KiB buffer in place again and again through one `EVP_CIPHER_CTX` with padding off (its
  `EVP_Update_loop`): no per-chunk IV, AAD or tag, even for GCM. It divides by the **user CPU time** of the
  process (it does unless given `-elapsed`). `seckit-bench aes-256-gcm-16384` and `des-ede3-cbc-16384` do
  the same through the public API: one `CipherStream(…, .encrypt, key:, iv:, padding: .none)`,
  `update(_:into:)` of the same 16 KiB input into one reused 16 KiB + 1 block output buffer (a new stream
  after every GiB, far below GCM's 64 GiB limit per nonce); they report bytes per second of user CPU time
  (`getrusage`) and of wall time. **One seal per chunk is not what `openssl speed -evp aes-256-gcm`
  measures**; it is what `openssl speed -aead -evp aes-256-gcm` does (OpenSSL 3.0's
  `EVP_Update_loop_aead_enc`, per chunk on one context: set the IV length, re-init with the key and the
  IV, a 13-byte AAD, update, final; it never reads the tag). So the streaming GCM target is
  judged on the streaming case, and the per-message target on `seckit-bench aes-256-gcm-seal-16384`
  (`AES.GCM.seal(chunk, using: key, nonce:, authenticating: 13 bytes)` per chunk, returning a
  `SealedBox`; one `SymmetricKey`, so its kept context is reused as `openssl speed -aead` reuses its own;
  fixed nonce — for benchmarking only) and `aes-256-gcm-seal-into-16384` (the same seal written into
  a ciphertext and a tag buffer the caller reuses), each against its own `-aead` rounds.
  `seckit-bench chacha20-poly1305-seal-16384` is the same seal with `ChaChaPoly`, against `openssl speed
  -aead -evp chacha20-poly1305`, as the issue set it; but that loop is chosen by mode (GCM, CCM, OCB,
  SIV), and OpenSSL 3.0 runs its streaming `EVP_Update_loop` for ChaCha20-Poly1305, a stream cipher to
  it (callgrind: one `EVP_EncryptUpdate` per chunk, no re-init, AAD, final or tag), so that figure has no
  per-message work in it. The same seal is therefore also compared with the per-message loop itself run
  on ChaCha20-Poly1305, in C: `tools/bench/floor/aead-seal-floor.c` mode 4 (built with `cc -O2 … -lcrypto`;
  bytes per second of the process's CPU time). ${speed_rounds} rounds; in each, every case runs once in
  seckit-bench (0.5 s warm-up, then ${speed_seconds} s) and once in `openssl speed -mr …` (-mr only changes
  the output format), and the ChaCha20-Poly1305 case once in the C loop too, the order turning from round
  to round. Reported figure: the median over the rounds, in MB/s (10^6 bytes, as
  openssl's "k" is 1000 bytes). Results checked each round: the SHA-256 of the first chunk's ciphertext
  against `openssl enc` (GCM's ciphertext equals AES-256-CTR from the counter block nonce‖00000002;
  3DES with `-nopad`), and ${gcm_tag_note}.
- **HMAC**: `seckit-bench hmac-sha256-N` calls `HMAC<SHA256>.authenticationCode(for:using:)` in-process
  with a 32-byte `SymmetricKey` over an N-byte `[UInt8]` message, timed with `ContinuousClock`; the
  Python loop calls `hmac.new(key, msg, 'sha256').digest()` with 32-byte `bytes` key and N-byte message,
  timed with `time.perf_counter`. ${rounds} rounds, alternating one Swift process and one Python process; each
  process warms up for 0.5 s, then counts operations for about 1 s. Reported figure: the median ops/s over
  the rounds. Both are single-threaded.
- **PBKDF2**: `seckit-bench pbkdf2-sha256-600000` calls `KDF.PBKDF2.deriveKey(from:salt:using: .sha256,
  unsafeUncheckedIterations: 600000, outputByteCount: 32)`; Python calls
  `hashlib.pbkdf2_hmac('sha256', password, salt, 600000, 32)`; the same 16-byte password and salt, and the
  derived keys must be equal (they were: `${pbkdf2_key}`). ${rounds} rounds, alternating one Swift and one
  Python process (which goes first alternates); each process derives once untimed, then times
  ${pbkdf2_per_process} derivations one at a time by the wall clock (`ContinuousClock`, `time.perf_counter`) and
  reports their median. Reported figure: the median of the ${rounds} per-process medians.
- **Envelopes (1 KiB round trips)**: one round trip seals a 1 KiB payload of random bytes (drawn once per
  process) and opens the token again; both sides compare the opened bytes with the payload inside the
  timed loop. Swift: `seckit-bench jwe-dir-a256gcm-1024` calls `JWE.encrypt(payload, using: key)`
  (its defaults: `dir` + `A256GCM`, compact serialization, a `String`) and `JWE.decrypt(token, using: key)`
  with a 32-byte `SymmetricKey`; `seckit-bench fernet-1024` calls `encrypt(_:)` and `decrypt(_:)` of a
  `Fernet(key:)` made from the key's base64url text; the payload is a `Data`. Python (${python_env_versions}):
  `jwe.encrypt_compact({"alg": "dir", "enc": "A256GCM"}, payload, OctKey.import_key(key))` and
  `jwe.decrypt_compact(token, key).plaintext`; `Fernet(key).encrypt(payload)` and `.decrypt(token)`,
  with `bytes`. ${rounds} rounds; in each, every case runs one Swift and one Python process (which goes
  first alternates); each warms up for 0.5 s, then counts round trips for about 1 s (`ContinuousClock`,
  `time.perf_counter`). Reported figure: the median round trips per second over the rounds; the same
  per second of user CPU time (`getrusage`, `resource.getrusage`) is shown beside it. Both sides
  are single-threaded. Each Python process first opens a token printed by the last Swift process (a seal
  of a fixed pattern payload under the same key) and checks its header and plaintext.
- **TLS handshakes**: one `openssl s_server -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256 -quiet` on a free port of
  127.0.0.1, with an EC P-256 certificate (SAN localhost, 127.0.0.1) under a throwaway CA made by the openssl CLI,
  serves every measurement. `seckit-bench tls-handshake` and `tls-handshake-pinned` time `TLSClient.connect(host:
  "127.0.0.1", port:)` + `close()` through one `TLSClient` (CA file trust, SNI and host name `localhost`; each
  connection a full handshake); the pinned one also checks a `PinPolicy` with one pin, that of the CA, the last
  certificate of the verified chain (so every certificate's pin is computed). Both check, before timing, that the pin
  evaluation is what it should be and print the negotiated version and cipher, which must be TLSv1.3 and
  TLS_AES_128_GCM_SHA256. `openssl s_time -connect 127.0.0.1:PORT -new -time S -CAfile ca.pem -tls1_3` makes new
  connections (full handshakes; s_time does not fail on verification errors, but OpenSSL verifies the chain all the
  same) against the same server; its rate is the number of connections it prints over its wall time (`time.perf_counter`
  around the process, which includes the process's start-up; s_time's own "real seconds" are
  whole seconds). ${tls_rounds} rounds of ${tls_seconds} s per case (seckit-bench warms up 0.5 s first), the order of the
  three rotating between rounds. Reported figures: medians of the rounds, by the wall clock (the target) and per second
  of user CPU time (seckit-bench: `getrusage`; s_time: its own "connections/user sec"). The server is single-threaded
  and shares the ${nproc} cores with the client, so each rate includes the server's work.
- **SwiftNIO, AsyncHTTPClient, Hummingbird and Vapor** (part `nio`): a throwaway PKI made by the openssl CLI (root CA,
  intermediate CA, EC P-256 leaves for the server, SAN localhost and 127.0.0.1, and for a client, both issued by the
  intermediate and always sent with it); every client and server trusts the root only. Each case is a pair, the same
  connections verified by swift-nio-ssl (BoringSSL) alone and by SecKit, timed by `seckit-bench` (one operation = one
  new TCP connection with a full handshake, from the main thread, which waits for it; clients on one event loop
  thread, in-process servers on another). `nio-handshake` and `nio-handshake-seckit`: `ClientBootstrap` connect to
  one `openssl s_server -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256 -cert_chain intermediate.pem`, TLS handshake with
  SNI and host name `localhost`, close; `NIOSSLClientHandler` with `trustRoots` the CA (full verification) vs
  SecKitNIO's `ClientTLSContext(.caFile(ca))` with a `PinPolicy` for localhost holding the leaf's pin
  (`addHandlers`; its future must report the pin matched at depth 0). s_server is a separate process, so the
  server's work is not in the client's CPU figures. `ahc-get` and `ahc-get-seckit`: one AsyncHTTPClient GET of
  `https://127.0.0.1:PORT/` with `connection: close` (AsyncHTTPClient then closes the connection after the response
  and never pools it, so every request makes a new connection) to an in-process Hummingbird HTTP/1.1 server with
  `.tls` (swift-nio-ssl); `HTTPClient.Configuration` with swift-nio-ssl TLS trusting the CA vs
  `HTTPClient.Configuration(secKit:)` with the CA and the leaf's pin (before timing, three requests must give three
  pin matches: one new connection each). `mtls-get` and `mtls-get-seckit`: the same GETs from a client presenting
  its certificate, to Hummingbird `.tls` requiring a client certificate (`certificateVerification
  .noHostnameVerification`, `trustRoots` the CA) vs `.mutualTLS(context:)` with a `ServerTLSContext` whose
  `ClientCertificateVerifier` trusts the CA (the answer must name the client SecKit verified). `vapor-mtls-get` and
  `vapor-mtls-get-seckit`: the same GETs to an in-process Vapor application on the servers' event loop: Vapor's own
  TLS (`tlsConfiguration` with `certificateVerification .noHostnameVerification`, `trustRoots` the CA, HTTP/1.1, a
  60 s idle timeout) vs SecKitVapor's `useMutualTLS` with the same kind of `ServerTLSContext` (which sets HTTP/1.1 and
  the 60 s idle timeout too); the handler answers `req.secKitClient`'s subject, which must name the client SecKit
  verified (Vapor makes a swift-nio-ssl context per connection in both). `http-preset` and
  `http-digest`: GETs of `/digest/index.txt` on one kept-alive HTTP/1.1 connection (plain TCP) to a lighttpd that the
  part starts (mod_auth, plain user file, Digest SHA-256); one operation = 16 GETs awaited in a row in one task,
  counted as 16 (a task and a semaphore per GET would add two thread wake-ups to each, and those decided the
  comparison). Preset: every GET carries one Authorization header made once from the challenge (lighttpd does not
  check the nonce count). Digest: `HTTPAuthenticator` with an in-memory credential, after one untimed GET that took
  the challenge; every GET gets a new header (the next nonce count, a new client nonce). lighttpd is a process of its
  own: its work is not in the CPU figures. ${rounds} rounds of
  ${nio_seconds} s per case (each process warms up 0.5 s first); the two cases of a pair run back to back, which goes
  first alternating between rounds. Reported figures: medians of the rounds by the wall clock (the target) and per
  second of user CPU time of the seckit-bench process (which holds the in-process servers too).
- **Keychain**: `tools/bench/keychain-session` runs inside `tools/with-secret-service` (a private D-Bus
  session bus and a fresh `gnome-keyring-daemon` with an unlocked login keyring; the caller's keyring is
  never touched). Per process: one item stored with `secret-tool store service seckit-bench account alice`;
  5 untimed runs of each command, then ${keychain_rounds} rounds of ${keychain_processes} runs of `seccli cred get --service
  seckit-bench --account alice` and ${keychain_processes} of `secret-tool lookup service seckit-bench account alice` (the
  static release `seccli` above), back to back with output to a file, each batch timed as a whole by bash
  `EPOCHREALTIME` (which tool goes first alternates); every batch's last output is compared with the secret.
  Reported figure: the median over the rounds of the time per process. Start-up: the same rounds of
  `seccli --version` and `secret-tool --version` (secret-tool has no such option: it prints its usage and exits 2,
  its whole start-up), each exit status checked. In-process: `seckit-bench
  keychain-lookup-1000` stores 1,000 generic passwords in the access group `seckit-bench` through
  `SecretServiceStore.upsert`, then times 300 single lookups (`secret(for:)` of the next account, the
  secret checked; one `ContinuousClock` measurement each; the set-up search has already opened the session). Reported figure: the median.
- **Keychain at scale**: `tools/bench/keychain-scale`, in a private session of its own. gnome-keyring answers every
  call by going through all its items, so both tools' costs grow with the keyring. The bench items go in first:
  `seccli cred set` stores service `seckit-scale-get` account `alice`, `seckit-scale-set` account `alice` and five
  accounts of `seckit-scale-list`; `secret-tool store` stores `seckit-scale-store` account `alice`. Then, for a keyring
  of ${keychain_sizes} items in turn, Python `secretstorage` adds items up to that size (a third each in the attribute
  shapes SecKit, `secret-tool` and Python keyring write, each under a service of its own: gnome-keyring rewrites its
  file at every addition, so filling slows as the keyring grows), and each case runs ${keychain_scale_runs} times for
  each tool, interleaved (one `seccli`, one `secret-tool`, which goes first alternating), after 3 untimed runs of each:
  `cred get --service seckit-scale-get --account alice` vs `secret-tool lookup service seckit-scale-get account
  alice`; the same for service `seckit-scale-absent` (no item of the service) and for account `nobody` (another
  account's item of the service is there); `cred list --service seckit-scale-list` vs `secret-tool search --all
  service seckit-scale-list` (five items; secret-tool also loads and prints the secrets); `cred set` of
  `seckit-scale-set`/`alice` vs `secret-tool store` of `seckit-scale-store`/`alice`, each replacing its own item
  (both save the keyring file). Each process is started by `posix_spawn` from the Python driver and timed by the wall
  clock around it (`time.perf_counter`); its CPU time comes from `wait4`, and gnome-keyring-daemon's from the time its
  threads spent on a CPU before and after it (`/proc/PID/task/*/schedstat`, nanoseconds; `/proc/PID/stat` counts
  10 ms ticks). Every output is checked (the secret, exit 10 and 1 for absent items, the five listed items), and each
  set service holds one item at the end. Reported figures: medians of the runs. The targets apply from 1,000 items;
  `SECKIT_BENCH_KEYCHAIN_SCALE=5000` adds a step at 5,000 items (about ten minutes of filling).
- **Audit log**: `tools/bench/audit-session`, inside `tools/with-secret-service` as the keychain part: one item stored
  with `secret-tool`; 5 untimed runs of each case, then ${keychain_rounds} rounds of ${keychain_processes} runs of `seccli cred get
  --service seckit-bench --account alice` without `SECKIT_AUDIT_LOG` and ${keychain_processes} with it set to a file in the
  temporary folder (the log grows over the run, one record per logged run), back to back, each batch timed as a
  whole by bash `EPOCHREALTIME` (which case goes first alternates); every batch's last output is compared with the
  secret, and afterwards `seccli audit verify` must find one intact record per logged run. Reported figure: the
  median over the rounds of each round's ratio of its median times per process (on / off)."""
)
