#!/usr/bin/env python3
"""AES-GCM peer for SecKit's interop tests, over cryptography's AESGCM.

  batch    stdin: JSON {"open": [{"nonce", "aad", "ct", "tag"}...], "seal": [{"nonce", "aad", "msg"}...]}
           stdout: JSON {"opened": [plaintext or null when the tag does not verify...],
                         "sealed": [{"ct", "tag"}...]}

All byte strings are hex. The key comes from the environment: AESGCM_KEY_HEX (16, 24 or 32 bytes).
Bad arguments or a bad key exit 2.
"""
import json
import os
import sys

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def main():
    if sys.argv[1:] != ["batch"]:
        print("usage: aesgcm_peer.py batch", file=sys.stderr)
        sys.exit(2)
    try:
        aesgcm = AESGCM(bytes.fromhex(os.environ.get("AESGCM_KEY_HEX", "")))
    except ValueError as error:
        print(f"aesgcm_peer: AESGCM_KEY_HEX: {error}", file=sys.stderr)
        sys.exit(2)
    request = json.load(sys.stdin)
    opened = []
    for item in request.get("open", []):
        data = bytes.fromhex(item["ct"]) + bytes.fromhex(item["tag"])
        try:
            opened.append(aesgcm.decrypt(bytes.fromhex(item["nonce"]), data, bytes.fromhex(item["aad"])).hex())
        except InvalidTag:
            opened.append(None)
    sealed = []
    for item in request.get("seal", []):
        out = aesgcm.encrypt(bytes.fromhex(item["nonce"]), bytes.fromhex(item["msg"]), bytes.fromhex(item["aad"]))
        sealed.append({"ct": out[:-16].hex(), "tag": out[-16:].hex()})
    json.dump({"opened": opened, "sealed": sealed}, sys.stdout)


if __name__ == "__main__":
    main()
