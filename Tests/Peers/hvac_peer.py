#!/usr/bin/env python3
"""hvac, the Python client of Vault and OpenBao, as the second client of SecKit's OpenBao store.

Usage: hvac_peer.py put PATH    (stdin: {"data": {...}, "custom_metadata": {...}})
       hvac_peer.py get PATH    (stdout: {"data": {...}, "custom_metadata": {...}, "version": N})
       hvac_peer.py list PATH   (stdout: the keys, one a line)
The server, CA and token come from BAO_ADDR, BAO_CACERT and BAO_TOKEN; the KV v2 mount from KV_MOUNT
(default "secret"). A missing path exits 3.
"""
import json
import os
import sys

import hvac
import hvac.exceptions


def main():
    command, path = sys.argv[1], sys.argv[2]
    mount = os.environ.get("KV_MOUNT", "secret")
    client = hvac.Client(url=os.environ["BAO_ADDR"], token=os.environ["BAO_TOKEN"], verify=os.environ["BAO_CACERT"])
    kv = client.secrets.kv.v2
    try:
        if command == "put":
            request = json.load(sys.stdin)
            kv.create_or_update_secret(path=path, secret=request["data"], mount_point=mount)
            if request.get("custom_metadata"):
                kv.update_metadata(path=path, custom_metadata=request["custom_metadata"], mount_point=mount)
        elif command == "get":
            answer = kv.read_secret_version(path=path, mount_point=mount, raise_on_deleted_version=True)
            metadata = answer["data"]["metadata"]
            json.dump(
                {
                    "data": answer["data"]["data"],
                    "custom_metadata": metadata.get("custom_metadata") or {},
                    "version": metadata["version"],
                },
                sys.stdout,
            )
        elif command == "list":
            for key in kv.list_secrets(path=path, mount_point=mount)["data"]["keys"]:
                print(key)
        else:
            sys.exit(f"unknown command {command}")
    except hvac.exceptions.InvalidPath:
        sys.exit(3)


if __name__ == "__main__":
    main()
