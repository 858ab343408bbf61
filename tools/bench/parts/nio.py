"""Part nio: SecKit inside SwiftNIO stacks vs the same stacks verifying with swift-nio-ssl alone.

Five pairs of seckit-bench cases, each pair the same work with and without SecKit:
nio-handshake(-seckit), full TLS 1.3 handshakes of a NIO client against one local `openssl
s_server` (NIOSSLClientHandler with BoringSSL's verification vs SecKitNIO's ClientTLSContext with a
pin policy); ahc-get(-seckit), AsyncHTTPClient GETs each on a new connection against an in-process
Hummingbird TLS server (swift-nio-ssl TLS vs HTTPClient.Configuration(secKit:) with a leaf pin);
mtls-get(-seckit), the same GETs with a client certificate against Hummingbird servers that require
one (`.tls` with swift-nio-ssl's client verification vs `.mutualTLS` with SecKit's);
vapor-mtls-get(-seckit), the same against Vapor applications (its own `tlsConfiguration` with
swift-nio-ssl's client verification vs SecKitVapor's `useMutualTLS`);
grpc-unary(-seckit), gRPC unary calls each on a new mutual TLS connection to an in-process server
(grpc-swift-nio-transport's own `.mTLS` on both ends vs SecKitGRPC's `connectGRPC` with a leaf pin
and `MutualTLSServerTransport`), 8 awaited in a row per timing call. A throwaway
PKI made here with the openssl CLI: root CA, intermediate CA, server and client leaves under the
intermediate (EC P-256), every leaf sent with the intermediate. http-preset / http-digest, GETs on
one kept-alive connection to a lighttpd Digest SHA-256 area started here: a preset Authorization
header vs HTTPAuthenticator making a new one per request; seckit-bench awaits them 16 in a row in
one task (HTTPAuthBench.swift says why). In each round every case runs once for
SECKIT_BENCH_NIO_SECONDS, the two of a pair back to back, which goes first alternating.
"""

import os
import socket
import subprocess
import time
from types import SimpleNamespace

from parts.tls import free_port, spki_pin, start_server, stop_server
from runner.context import output, say
from runner.stats import bench_round, fixed, median, verdict

NAME = "nio"
PAIRS = (  # (plain, SecKit, the result each must print)
    ("nio-handshake", "nio-handshake-seckit", ("handshake-no-pin", "handshake-leaf-pin-matched")),
    ("ahc-get", "ahc-get-seckit", ("ok", "ok-3-connections-pinned")),
    ("mtls-get", "mtls-get-seckit", ("ok", "client CN=seckit-bench client")),
    ("vapor-mtls-get", "vapor-mtls-get-seckit", ("ok", "client CN=seckit-bench client")),
    ("grpc-unary", "grpc-unary-seckit", ("ok", "client CN=seckit-bench client")),
    ("http-preset", "http-digest", ("ok", "ok")),
)
# The SecKit side's rate must reach this share of the plain side's: 0.95 for TLS; for HTTP
# authentication, a Digest request may cost 1.1 times one with a preset Authorization header.
THRESHOLDS = {"http-digest": 1 / 1.1}
LIGHTTPD_CONFIGURATION = """server.modules = ( "mod_auth", "mod_authn_file" )
server.document-root = "{root}"
server.bind = "127.0.0.1"
server.port = {port}
server.errorlog = "{folder}/error.log"
mimetype.assign = ( ".txt" => "text/plain" )
auth.backend = "plain"
auth.backend.plain.userfile = "{folder}/users"
auth.require = ( "/digest/" => ( "method" => "digest", "realm" => "Digest Realm", "algorithm" => "SHA-256", "require" => "valid-user" ) )
"""


def start_lighttpd(ctx, folder):
    """A lighttpd on a free port whose /digest/ needs Digest SHA-256 (alice, wonderland), stopped when
    the part ends or the run does; its URL and process."""
    (folder / "www" / "digest").mkdir(parents=True)
    (folder / "www" / "digest" / "index.txt").write_text("area /digest/\n")
    (folder / "users").write_text("alice:wonderland\n")
    port = free_port()
    (folder / "lighttpd.conf").write_text(LIGHTTPD_CONFIGURATION.format(root=folder / "www", port=port, folder=folder))
    process = subprocess.Popen(["/usr/sbin/lighttpd", "-D", "-f", str(folder / "lighttpd.conf")])
    ctx.on_exit(lambda: stop_server(process))
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return f"http://127.0.0.1:{port}/digest/index.txt", process
        except OSError:
            time.sleep(0.05)
    raise SystemExit("bench: lighttpd did not start")
EXTENSIONS = """[ca]
basicConstraints=critical,CA:TRUE
keyUsage=critical,keyCertSign
[server]
subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth
[client]
extendedKeyUsage=clientAuth
"""


def openssl(folder, *arguments):
    output(["openssl", *arguments], cwd=folder, stderr=subprocess.DEVNULL)


def make_pki(folder):
    """root CA → intermediate CA → server (localhost, 127.0.0.1) and client leaves, EC P-256."""
    folder.mkdir(parents=True)
    (folder / "ext.cnf").write_text(EXTENSIONS)
    p256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    openssl(folder, "req", "-x509", *p256, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=seckit-bench NIO root CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign")

    def issue(name, subject, issuer, section):
        openssl(folder, "req", *p256, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", subject)
        openssl(folder, "x509", "-req", "-in", f"{name}.csr", "-CA", f"{issuer}.pem", "-CAkey", f"{issuer}.key",
                "-days", "2", "-extfile", "ext.cnf", "-extensions", section, "-out", f"{name}.pem")

    issue("intermediate", "/CN=seckit-bench NIO intermediate CA", "ca", "ca")
    issue("server", "/CN=localhost", "intermediate", "server")
    issue("client", "/CN=seckit-bench client", "intermediate", "client")
    intermediate = (folder / "intermediate.pem").read_text()
    for leaf in ("server", "client"):
        (folder / f"{leaf}-chain.pem").write_text((folder / f"{leaf}.pem").read_text() + intermediate)


def measure(ctx):
    ctx.sample_load(NAME)
    folder = ctx.work / "nio"
    make_pki(folder)
    port = free_port()
    server = start_server(ctx, folder, port, chain=folder / "intermediate.pem")
    os.environ.update(
        SECKIT_BENCH_NIO_PORT=str(port),
        SECKIT_BENCH_NIO_CA=str(folder / "ca.pem"),
        SECKIT_BENCH_NIO_PIN=spki_pin(folder / "server.pem"),
        SECKIT_BENCH_NIO_SERVER_CHAIN=str(folder / "server-chain.pem"),
        SECKIT_BENCH_NIO_SERVER_KEY=str(folder / "server.key"),
        SECKIT_BENCH_NIO_CLIENT_CHAIN=str(folder / "client-chain.pem"),
        SECKIT_BENCH_NIO_CLIENT_KEY=str(folder / "client.key"),
    )
    digest_url, lighttpd = start_lighttpd(ctx, folder / "lighttpd")
    os.environ["SECKIT_BENCH_DIGEST_URL"] = digest_url
    rates = {name: [] for pair in PAIRS for name in pair[:2]}  # (per second of wall time, of user CPU time)

    def one_round(name, expected):
        result = f" result={expected}"
        rates[name].append(bench_round(ctx, name, ctx.nio_seconds, result, f"did not print result={expected}"))

    for i in range(1, ctx.rounds + 1):
        for plain, secure, expected in PAIRS:
            order = [(plain, expected[0]), (secure, expected[1])]
            for name, result in order if i % 2 else reversed(order):
                one_round(name, result)
        say(
            f"NIO, round {i}/{ctx.rounds}: "
            + ", ".join(f"{plain} {rates[plain][-1][0]}/s vs {secure} {rates[secure][-1][0]}/s" for plain, secure, _ in PAIRS)
        )
    stop_server(server)
    stop_server(lighttpd)

    m = SimpleNamespace(
        wall={name: f"{median([w for w, _ in rates[name]]):.0f}" for name in rates},
        cpu={name: f"{median([c for _, c in rates[name]]):.0f}" for name in rates},
        all={name: " ".join(fixed(w, 0) for w, _ in rates[name]) for name in rates},
        ratio={},
        cpu_ratio={},
    )
    for plain, secure, _ in PAIRS:
        m.ratio[secure] = fixed(float(m.wall[secure]) / float(m.wall[plain]), 3)
        m.cpu_ratio[secure] = fixed(float(m.cpu[secure]) / float(m.cpu[plain]), 3)
        say(f"NIO: {secure} {m.wall[secure]}/s, {plain} {m.wall[plain]}/s ({m.ratio[secure]} ×)")
    return m


LABELS = {
    "nio-handshake-seckit": "SwiftNIO client TLS 1.3 full handshakes with SecKitNIO's verification and a pin policy ≥ 0.95 ×"
    " the same handshakes verified by swift-nio-ssl (`NIOSSLClientHandler`), local `openssl s_server`",
    "ahc-get-seckit": "AsyncHTTPClient GETs, each on a new connection, with `HTTPClient.Configuration(secKit:)` and a leaf pin"
    " ≥ 0.95 × with swift-nio-ssl TLS alone (in-process Hummingbird TLS server)",
    "mtls-get-seckit": "Hummingbird mutual TLS with SecKit's client verification (`.mutualTLS`) ≥ 0.95 × with swift-nio-ssl's"
    " (`.tls`), AsyncHTTPClient GETs with a client certificate, each on a new connection",
    "vapor-mtls-get-seckit": "Vapor mutual TLS with SecKit's client verification (`useMutualTLS`, `req.secKitClient`)"
    " ≥ 0.95 × Vapor's own TLS with swift-nio-ssl's, AsyncHTTPClient GETs with a client certificate, each on a new connection",
    "grpc-unary-seckit": "gRPC unary calls, each on a new mutual TLS connection, with SecKitGRPC's verification and a leaf pin"
    " ≥ 0.95 × with grpc-swift-nio-transport's own TLS (`.mTLS` client and server, in-process)",
    "http-digest": "A Digest-authenticated request (`HTTPAuthenticator`, kept nonce) on a kept-alive connection costs ≤ 1.1 ×"
    " the same request with a preset `Authorization` header (lighttpd, Digest SHA-256; rate ≥ 0.909 ×)",
}


def report(ctx, m):
    oks = {secure: verdict(float(m.ratio[secure]) >= THRESHOLDS.get(secure, 0.95)) for _, secure, _ in PAIRS}
    rows = "\n".join(f"| {LABELS[secure]} | {m.ratio[secure]} × | {oks[secure]} |" for _, secure, _ in PAIRS)
    text = "NIO targets: " + ", ".join(f"{secure} {oks[secure]}" for _, secure, _ in PAIRS) + "."

    def row(label, name):
        return f"| {label} | {m.wall[name]} | {m.cpu[name]} | {m.all[name]} |"

    ratios = "; ".join(
        f"`{secure}` / `{plain}`: **{m.ratio[secure]}** (by user CPU {m.cpu_ratio[secure]})" for plain, secure, _ in PAIRS
    )
    results = f"""### SwiftNIO, AsyncHTTPClient, Hummingbird, Vapor and gRPC: new connections with and without SecKit's verification, and HTTP authentication

| case | per second (median) | per second of user CPU (median) | all rounds (per second, in run order) |
| --- | --- | --- | --- |
{row("NIO client handshake + close, `NIOSSLClientHandler`, BoringSSL verifies (`nio-handshake`)", "nio-handshake")}
{row("the same with SecKitNIO `ClientTLSContext`, `.caFile`, leaf pin (`nio-handshake-seckit`)", "nio-handshake-seckit")}
{row("AsyncHTTPClient GET on a new connection, swift-nio-ssl TLS (`ahc-get`)", "ahc-get")}
{row("the same with `HTTPClient.Configuration(secKit:)`, leaf pin (`ahc-get-seckit`)", "ahc-get-seckit")}
{row("GET with a client certificate to Hummingbird `.tls`, swift-nio-ssl verifies it (`mtls-get`)", "mtls-get")}
{row("the same to Hummingbird `.mutualTLS`, SecKit verifies it (`mtls-get-seckit`)", "mtls-get-seckit")}
{row("GET with a client certificate to Vapor `tlsConfiguration`, swift-nio-ssl verifies it (`vapor-mtls-get`)", "vapor-mtls-get")}
{row("the same to Vapor `useMutualTLS`, SecKit verifies it (`vapor-mtls-get-seckit`)", "vapor-mtls-get-seckit")}
{row("gRPC unary call on a new connection, grpc-swift-nio-transport `.mTLS` on both ends (`grpc-unary`)", "grpc-unary")}
{row("the same with `connectGRPC` (leaf pin) and `MutualTLSServerTransport`, SecKit verifies both ends (`grpc-unary-seckit`)", "grpc-unary-seckit")}
{row("GET with a preset Digest `Authorization` header, kept-alive connection, lighttpd, 16 awaited in a row (`http-preset`)", "http-preset")}
{row("the same through `HTTPAuthenticator`, a new Digest header each (`http-digest`)", "http-digest")}

{ratios}. Target ≥ 0.95 for each TLS pair and ≥ 1 / 1.1 for `http-digest`, judged by the wall clock."""
    return rows, text, results
