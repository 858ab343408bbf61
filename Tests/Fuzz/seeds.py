#!/usr/bin/env python3
"""Writes the seed corpus of one fuzz target (tools/fuzz calls it): inputs taken from TestVectors/
and made by the real peers (openssl, Python cryptography/joserfc), in the shape the target reads.
The keys and passwords here are the ones the targets in Targets/ use, so that seeds reach past the
authentication checks' parsers.

usage: seeds.py TARGET DIRECTORY
"""
import base64
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
VECTORS = os.path.join(ROOT, "TestVectors")


def vectors(*path):
    with open(os.path.join(VECTORS, *path)) as file:
        return json.load(file)


# What the targets decrypt with (Targets/*.swift).
KEY = bytes(range(32))
MAC_KEY = bytes(range(32, 64))
PASSWORD = b"fuzz password"


def run(*command, input=None):
    return subprocess.run(command, input=input, capture_output=True, check=True).stdout


def encodings():
    for case in vectors("wycheproof", "hmac_sha256_test.json")["testGroups"][0]["tests"][:8]:
        yield b"\x00" + case["key"].encode()
        raw = bytes.fromhex(case["tag"])
        yield b"\x01" + base64.b64encode(raw)
        yield b"\x02" + base64.urlsafe_b64encode(raw).rstrip(b"=")
        yield b"\x03" + base64.urlsafe_b64encode(raw)
    yield b"\x00" + b"0xAB:CD:ef 01"
    yield b"\x01" + b"QUJD\nREVG\r\n=="


def jose():
    import warnings
    from joserfc import jwe
    from joserfc.errors import SecurityWarning
    from joserfc.jwk import OctKey

    warnings.simplefilter("ignore", SecurityWarning)
    examples = vectors("jose", "rfc-examples.json")
    yield b"\x00" + json.dumps(examples).encode()
    yield b"\x00" + b'{"a":[1,-2.5e+3,true,false,null,"\\u00e9\\ud83d\\ude00\\n"],"b":{}}'
    jwk = {"kty": "oct", "k": base64.urlsafe_b64encode(KEY).rstrip(b"=").decode(), "kid": "fuzz"}
    yield b"\x01" + json.dumps(jwk).encode()
    yield b"\x01" + examples["rfc7516_appendix_a3"]["jwk"].encode()
    yield b"\x02" + json.dumps({"keys": [jwk, json.loads(examples["rfc7516_appendix_a3"]["jwk"])]}).encode()
    yield b"\x03" + examples["rfc7516_appendix_a3"]["compact"].encode()
    registry = jwe.JWERegistry(algorithms=["dir", "A256KW", "PBES2-HS256+A128KW", "A256GCM", "A128CBC-HS256"])
    for alg, enc, key in [
        ("dir", "A256GCM", KEY),
        ("dir", "A128CBC-HS256", KEY),
        ("A256KW", "A256GCM", KEY),
        ("A256KW", "A128CBC-HS256", KEY),
        ("PBES2-HS256+A128KW", "A256GCM", PASSWORD),
    ]:
        header = {"alg": alg, "enc": enc, "kid": "fuzz"}
        if alg.startswith("PBES2"):
            header["p2c"] = 1000
        token = jwe.encrypt_compact(header, b"fuzz payload", OctKey.import_key(key), registry=registry)
        yield b"\x03" + token.encode()


def fernet():
    from cryptography.fernet import Fernet

    key = base64.urlsafe_b64encode(KEY)
    for text in [b"", b"fuzz payload", bytes(100)]:
        yield b"\x00" + Fernet(key).encrypt(text)
    for case in vectors("fernet", "verify.json") + vectors("fernet", "invalid.json"):
        yield b"\x00" + case["token"].encode()
        yield b"\x01" + case["secret"].encode()


def legacy_envelope():
    from cryptography.hazmat.primitives import hashes, hmac, padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    transfer = {"toAccount": "1", "fromAccount": "2", "amount": "3.00", "transferDate": "2026-11-25"}
    for selector, plaintext, mac_input in [
        (b"\x00", b"fuzz payload", b"fuzz payload"),
        (b"\x01", json.dumps(transfer).encode(), "".join(transfer.values()).encode()),
    ]:
        iv = bytes(range(100, 116))
        padder = padding.PKCS7(128).padder()
        encryptor = Cipher(algorithms.AES(KEY), modes.CBC(iv)).encryptor()
        ciphertext = encryptor.update(padder.update(plaintext) + padder.finalize()) + encryptor.finalize()
        mac = hmac.HMAC(MAC_KEY, hashes.SHA256())
        mac.update(mac_input)
        envelope = {
            "iv": base64.b64encode(iv).decode(),
            "mac": mac.finalize().hex(),
            "payload": base64.b64encode(ciphertext).decode(),
        }
        yield selector + json.dumps(envelope).encode()


def openssl_enc():
    for size in [0, 1, 16, 100]:
        encrypted = run(
            "openssl", "enc", "-aes-256-cbc", "-pbkdf2", "-iter", "1", "-md", "sha256",
            "-pass", "pass:" + PASSWORD.decode(), input=bytes(range(size)),
        )
        yield bytes([size % 32]) + encrypted


class PKI:
    """A throwaway CA, a server certificate with every kind of SAN, and client keys, made by openssl."""

    def __init__(self, directory):
        self.directory = directory
        config = os.path.join(directory, "san.cnf")
        with open(config, "w") as file:
            file.write("[ext]\nsubjectAltName=DNS:example.com,DNS:*.example.org,IP:127.0.0.1,IP:::1,"
                       "email:a@example.com,URI:https://example.com/\nbasicConstraints=CA:FALSE\n")
        self.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                     "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=Fuzz CA/O=SecKit", "-days", "30")
        for name, algorithm in [("rsa", ["rsa:2048"]), ("ec", ["ec", "-pkeyopt", "ec_paramgen_curve:P-384"]),
                                ("ed25519", ["ed25519"])]:
            self.openssl("req", "-newkey", *algorithm, "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
                         "-subj", f"/CN={name}.example.com/O=Fuzz \\, Inc./C=DE")
            self.openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                         "-out", f"{name}.pem", "-days", "30", "-extfile", config, "-extensions", "ext")
            self.openssl("pkcs8", "-topk8", "-in", f"{name}.key", "-out", f"{name}.enc.key",
                         "-passout", "pass:" + PASSWORD.decode(), "-iter", "1")
            self.openssl("pkcs12", "-export", "-in", f"{name}.pem", "-inkey", f"{name}.key", "-certfile", "ca.pem",
                         "-out", f"{name}.p12", "-passout", "pass:" + PASSWORD.decode(), "-iter", "1")

    def openssl(self, *arguments):
        subprocess.run(["openssl", *arguments], cwd=self.directory, capture_output=True, check=True)

    def read(self, name):
        with open(os.path.join(self.directory, name), "rb") as file:
            return file.read()


def certificates():
    with tempfile.TemporaryDirectory() as directory:
        pki = PKI(directory)
        for name in ["ca", "rsa", "ec", "ed25519"]:
            pem = pki.read(f"{name}.pem")
            yield b"\x00" + pem
            yield b"\x01" + run("openssl", "x509", "-outform", "DER", input=pem)
        yield b"\x00" + pki.read("ec.pem") + pki.read("ca.pem")


def client_identity():
    with tempfile.TemporaryDirectory() as directory:
        pki = PKI(directory)
        for name in ["rsa", "ec", "ed25519"]:
            yield b"\x00" + pki.read(f"{name}.pem") + pki.read(f"{name}.enc.key") + pki.read("ca.pem")
            yield b"\x01" + pki.read(f"{name}.key") + pki.read(f"{name}.pem")
            yield b"\x02" + pki.read(f"{name}.p12")


def pins():
    digest = hashlib.sha256(b"fuzz").digest()
    pin = base64.b64encode(digest).decode()
    for text in [f"sha256/{pin}", f"sha256//{pin}", f'pin-sha256="{pin}"', pin, digest.hex(),
                 ":".join(f"{byte:02X}" for byte in digest), "SHA256 Fingerprint=" + digest.hex(),
                 "sha1 Fingerprint=" + hashlib.sha1(b"fuzz").hexdigest()]:
        yield b"\x00" + text.encode()
    yield b"\x01" + f'pin-sha256="{pin}"; pin-sha256="{pin}"; max-age=5184000; includeSubDomains'.encode()
    yield b"\x01" + f"sha256//{pin};sha256//{pin}".encode()
    for pattern in ["example.com", "*.example.com", "**.example.com", "xn--bcher-kva.example", "Example.COM."]:
        yield b"\x02" + pattern.encode()


def file_store():
    header = b"SECKITKC" + bytes([1, 1]) + (10000).to_bytes(4, "big") + bytes(16) + bytes(32)
    yield b"\x00" + header + bytes(12) + bytes(16)

    def field(data):
        return len(data).to_bytes(4, "big") + data

    pairs = {"service": "fuzz", "account": "alice", "expires": "2026-12-31T23:59:00Z", "xdg:schema": "seckit"}
    item = len(pairs).to_bytes(4, "big") + b"".join(field(k.encode()) + field(v.encode()) for k, v in pairs.items())
    item += field(b"label") + (1764000000000).to_bytes(8, "big") * 2 + field(b"secret")
    yield b"\x01" + (2).to_bytes(4, "big") + item + item
    yield b"\x01" + bytes(4)


def attributes():
    yield b"service=fuzz\naccount=alice\nexpires=2026-12-31T23:59:00Z"
    yield b"server=example.com\nuser=alice\nport=8443\nprotocol=https\npath=/x"
    for text in ["2026-12-31", "2026-12-31T23:59:59.5+01:00", "2026-02-29T00:00Z"]:
        yield text.encode()


def checksum_list():
    with tempfile.TemporaryDirectory() as directory:
        names = ["plain.txt", "with space", "back\\slash", "new\nline", "cr\rname", "*star", " lead", "caf\u00e9"]
        paths = []
        for name in names:
            path = os.path.join(directory, name)
            with open(path, "wb") as file:
                file.write(name.encode())
            paths.append(name)
        paths.append(os.fsdecode(b"latin1-\xe9"))
        with open(os.path.join(directory, paths[-1]), "wb") as file:
            file.write(b"x")
        for algorithm, selector in [("sha256sum", b"\x00"), ("sha512sum", b"\x01")]:
            for flags in [[], ["--tag"], ["--binary"]]:
                listing = subprocess.run([algorithm, *flags, "--", *paths], cwd=directory, capture_output=True, check=True)
                yield selector + listing.stdout
            yield selector + listing.stdout.replace(b"\n", b"\r\n") + b"# comment\n\n"


def challenges():
    yield (b'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, '
           b'nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"')
    yield b'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"'
    yield b'Negotiate YIIBhwYGKwYBBQUCoIIBezCCAX+gMDAuBg==, Basic realm=x\nDigest realm="r", nonce="n", stale=true'
    yield b' , Digest realm =\t"r" ,, nonce= abc, userhash=true, algorithm=SHA-512-256-sess ,'


def auth_exchange():
    """Options byte (Targets/auth-exchange.swift), then responses: the hostile loops of issue #27,
    the challenges that cannot be answered, and the flows a real server has."""
    def digest(realm="r", nonce="n1", extra=""):
        return f'Digest realm="{realm}", nonce="{nonce}", qop="auth", algorithm=SHA-256{extra}'

    def responses(*items):
        return "\n\n".join("\n".join(item) for item in items).encode()

    https, new_each_time = 0x01, 0x10
    stale = [("401", digest(nonce=f"n{i}", extra=", stale=true")) for i in range(8)]
    realms = [("401", digest(realm=f"realm {i}", nonce=f"n{i}")) for i in range(8)]
    alternating = [("401", digest(realm="AB"[i % 2], nonce=f"n{i}")) for i in range(8)]
    downgrade = [("401", digest(nonce=f"n{i}") if i % 2 == 0 else 'Basic realm="r"') for i in range(8)]
    for hostile in [stale, realms, alternating, downgrade]:
        yield bytes([https]) + responses(*hostile)
        yield bytes([https | new_each_time]) + responses(*hostile)
    for unusable in [digest(extra=", algorithm=SHA-1024").replace("algorithm=SHA-256, ", ""),
                     'Digest nonce="n", qop="auth"', 'Digest realm="r", nonce="n", qop="auth-int"',
                     'Bearer realm="r"', 'Digest realm="r", nonce="n", qop="auth-conf"']:
        yield bytes([https]) + responses(("401", unusable))
    yield bytes([https | 0x02]) + responses(("401", 'Digest realm="r", nonce="n", qop="auth-int"'), ("200",))
    # Two requests: a challenge, the answer accepted, then the kept nonce (stale once on the second).
    yield bytes([https]) + responses(("401", digest()), ("200",), ("401", digest(nonce="n2", extra=", stale=true")),
                                     ("200",))
    yield bytes([0x00]) + responses(("401", 'Basic realm="r"'), ("200",))
    yield bytes([0x0C]) + responses(("401", 'Basic realm="r"'), ("200",), ("200",))
    yield bytes([https]) + responses(("401", 'Basic realm="r"'), ("401 b.example /login", digest(realm="login")),
                                     ("200 b.example /login",))
    yield bytes([https]) + responses(("407", 'Basic realm="proxy"'))


TARGETS = {
    "checksum-list": checksum_list,
    "encodings": encodings,
    "jose": jose,
    "fernet": fernet,
    "legacy-envelope": legacy_envelope,
    "openssl-enc": openssl_enc,
    "certificates": certificates,
    "client-identity": client_identity,
    "pins": pins,
    "file-store": file_store,
    "attributes": attributes,
    "challenges": challenges,
    "auth-exchange": auth_exchange,
}


def main():
    target, directory = sys.argv[1], sys.argv[2]
    os.makedirs(directory, exist_ok=True)
    for number, seed in enumerate(TARGETS[target]()):
        with open(os.path.join(directory, f"seed-{number:03}"), "wb") as file:
            file.write(seed)


if __name__ == "__main__":
    main()
