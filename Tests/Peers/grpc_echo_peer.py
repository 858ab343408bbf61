#!/usr/bin/env python3
"""grpcio (gRPC core) as the peer of SecKitGRPC's tests: the echo.Echo service's unary Get, its
messages (`string text = 1`) encoded by hand, so that no generated stubs are needed.

  grpc_echo_peer.py call --target HOST:PORT --ca FILE [--cert FILE --key FILE] --text T
      One Get over TLS (trusting --ca, with the client identity when given); prints the response's
      text and exits 0, or prints "status CODE: DETAILS" on standard error and exits 1.
  grpc_echo_peer.py serve --cert FILE --key FILE
      Serves Get over TLS on 127.0.0.1 (a free port), answering with the request's text; prints
      "listening on 127.0.0.1:PORT" once it accepts connections, and runs until killed.
"""

import argparse
import os
import sys
from concurrent import futures

import grpc

METHOD = "/echo.Echo/Get"


def encode(text):
    """An EchoRequest/EchoResponse: field 1, wire type 2 (length-delimited), the UTF-8 text."""
    data = text.encode("utf-8")
    if not data:
        return b""  # proto3 leaves a default field out
    length, varint = len(data), bytearray()
    while True:
        byte = length & 0x7F
        length >>= 7
        varint.append(byte | (0x80 if length else 0))
        if not length:
            break
    return b"\x0a" + bytes(varint) + data


def decode(message):
    """The text of an EchoRequest/EchoResponse; other fields are skipped as protobuf skips them."""
    text, i = "", 0

    def varint():
        nonlocal i
        value, shift = 0, 0
        while True:
            byte = message[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    while i < len(message):
        key = varint()
        field, wire = key >> 3, key & 7
        if wire == 0:
            varint()
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        elif wire == 2:
            length = varint()
            if field == 1:
                text = message[i : i + length].decode("utf-8")
            i += length
        else:
            raise ValueError(f"wire type {wire}")
    return text


def read(path):
    with open(path, "rb") as f:
        return f.read()


def call(args):
    identity = {}
    if args.cert:
        identity = {"private_key": read(args.key), "certificate_chain": read(args.cert)}
    credentials = grpc.ssl_channel_credentials(root_certificates=read(args.ca), **identity)
    with grpc.secure_channel(args.target, credentials) as channel:
        get = channel.unary_unary(METHOD, request_serializer=encode, response_deserializer=decode)
        try:
            # The tests' timeouts scale on a loaded machine (tools/test sets the scale).
            print(get(args.text, timeout=20 * int(os.environ.get("SECKIT_TEST_TIMEOUT_SCALE", "1"))))
        except grpc.RpcError as error:
            print(f"status {error.code().name}: {error.details()}", file=sys.stderr)
            return 1
    return 0


def serve(args):
    def get(text, context):
        return text

    handler = grpc.method_handlers_generic_handler(
        "echo.Echo",
        {"Get": grpc.unary_unary_rpc_method_handler(get, request_deserializer=decode, response_serializer=encode)},
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers((handler,))
    port = server.add_secure_port("127.0.0.1:0", grpc.ssl_server_credentials([(read(args.key), read(args.cert))]))
    server.start()
    print(f"listening on 127.0.0.1:{port}", flush=True)
    server.wait_for_termination()
    return 0


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser("call")
    c.add_argument("--target", required=True)
    c.add_argument("--ca", required=True)
    c.add_argument("--cert")
    c.add_argument("--key")
    c.add_argument("--text", required=True)
    s = commands.add_parser("serve")
    s.add_argument("--cert", required=True)
    s.add_argument("--key", required=True)
    args = parser.parse_args()
    return call(args) if args.command == "call" else serve(args)


if __name__ == "__main__":
    sys.exit(main())
