#!/usr/bin/env python3
"""A hostile HTTPS server for the deadline tests: it stalls at one point of an exchange, for ever.

  stalling_server.py MODE CERT KEY

  handshake  reads the ClientHello and never answers it
  head       completes the handshake, reads the request and never answers it
  body       answers 200 with Content-Length: 1000 and one byte of body, then nothing more
  challenge  answers 401 with a Digest challenge, Content-Length: 1000 and one byte of body, then nothing

It listens on 127.0.0.1 on a free port and prints "listening on PORT" once it accepts. Connections are
held open until the process is killed; each is served on a thread of its own.
"""
import socket
import ssl
import sys
import threading

MODE, CERT, KEY = sys.argv[1], sys.argv[2], sys.argv[3]
held = []


def serve(connection):
    held.append(connection)
    if MODE == "handshake":
        connection.recv(65536)
        return
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(CERT, KEY)
    try:
        tls = context.wrap_socket(connection, server_side=True)
    except (ssl.SSLError, OSError):
        return
    held.append(tls)
    request = b""
    while b"\r\n\r\n" not in request:
        chunk = tls.recv(65536)
        if not chunk:
            return
        request += chunk
    if MODE == "body":
        tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nx")
    elif MODE == "challenge":
        tls.sendall(
            b'HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Digest realm="stall", nonce="n1", qop="auth"\r\n'
            b"Content-Length: 1000\r\n\r\nx"
        )


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print("listening on %d" % listener.getsockname()[1], flush=True)
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    main()
