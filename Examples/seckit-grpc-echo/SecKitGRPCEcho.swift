import ArgumentParser
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import SecIO
import SecKitGRPC
import SecKitNIO
import SecTLS

/// `seckit-grpc-echo`: grpc-swift's `echo.Echo` service (unary `Get`) over SecKit's TLS. `serve`
/// requires client certificates and answers with the request's text and the verified client's key
/// pin; `call` makes one `Get` with SecKit's trust, pins and client identity.
@main
struct SecKitGRPCEcho: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seckit-grpc-echo",
        abstract: "The echo.Echo gRPC service with SecKit's mutual TLS, pins and client identities.",
        discussion: """
            Exit codes (seckit-fetch's): 0 ok, 2 unreadable certificate, key or CA file, 3 pin mismatch, \
            4 certificate verification failure, 5 client certificate required or refused, 6 connection \
            failure or timeout, 22 the RPC ended with a status other than OK, 64 usage.
            """,
        subcommands: [Serve.self, Call.self]
    )
}

/// `serve`: echo.Echo on 127.0.0.1 behind mutual TLS.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve echo.Echo/Get on 127.0.0.1 to clients whose certificates SecKit verifies.",
        discussion: """
            Answers each Get with the request's text, " from " and the client's key pin (sha256/…). \
            Prints "listening on 127.0.0.1:PORT" on standard output once it accepts connections \
            (--port 0 picks a free port).
            """
    )

    @Option(help: "TCP port on 127.0.0.1 (0: any free port).") var port: Int
    @Option(help: "The server's certificate (PEM, with its chain).") var cert: String
    @Option(help: "The server's private key (PEM, unencrypted).") var key: String
    @Option(help: "The CA certificates (PEM) client certificates must chain to.") var clientCA: String
    @Option(
        name: .customLong("client-pin"),
        help: "Allow only client keys with these pins (sha256/BASE64); repeatable."
    )
    var clientPins: [String] = []

    func validate() throws {
        if !(0...65_535).contains(port) { throw ValidationError("--port must be 0...65535") }
    }

    func run() async throws {
        // Every pin problem (malformed, or a sha1/ pin) is a usage error, found before any file is read.
        let pins: [Pin]
        do { pins = try clientPins.map { pin throws(TLSError) in try Pin(parsing: pin) } } catch {
            throw EchoFailure(.usage, "\(error)").reported()
        }
        let transport: MutualTLSServerTransport
        do {
            let context = try ServerTLSContext(
                grpcIdentity: try ClientIdentity(certificateFile: cert, keyFile: key),
                clientVerifier: try ClientCertificateVerifier(
                    clientCA: .caFile(clientCA),
                    allowedPins: pins.isEmpty ? nil : pins
                )
            )
            transport = try MutualTLSServerTransport(host: "127.0.0.1", port: port, context: context)
        } catch {
            throw EchoFailure(.dataError, "\(error)").reported()
        }
        let echo = EchoService { request, context in
            // The transport verified the client before this RPC's first frame was read.
            guard let client = context.verifiedClient else {
                throw RPCError(code: .unauthenticated, message: "no verified client")
            }
            var response = Echo_EchoResponse()
            response.text = "\(request.text) from \(client.publicKeyPin)"
            return response
        }
        let server = GRPCServer(transport: transport, services: [echo])
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await server.serve() }
                let address = try await transport.listeningAddress
                FileHandle.standardOutput.write(Data("listening on 127.0.0.1:\(address.ipv4?.port ?? port)\n".utf8))
            }
        } catch {
            // The port is taken, or the listener failed.
            throw EchoFailure(.connectionFailed, "\(error)").reported()
        }
    }
}

/// `call`: one echo.Echo/Get.
struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call echo.Echo/Get and print the response's text.",
        discussion: "Trusts the system's CAs unless --ca is given; --pin adds pins of the server's key."
    )

    @Option(help: "The server, HOST:PORT ([IPv6]:PORT).") var target: String
    @Option(help: "The request's text.") var text: String
    @Option(help: "Trust the CA certificates of this PEM file instead of the system's.") var ca: String?
    @Option(name: .customLong("pin"), help: "A pin of the server (sha256/BASE64 of its key); repeatable.")
    var pins: [String] = []
    @Option(help: "Client certificate (PEM, with its chain).") var cert: String?
    @Option(help: "Client private key (PEM, unencrypted).") var key: String?
    @Option(help: "Seconds for the connection and the call.") var timeout: Double = 30

    func validate() throws {
        if (cert == nil) != (key == nil) { throw ValidationError("--cert and --key go together") }
        if !(timeout > 0 && timeout <= 86_400) { throw ValidationError("--timeout must be 0 < SECONDS <= 86400") }
        _ = try endpoint()
    }

    /// The host and port of `--target`.
    private func endpoint() throws(ValidationError) -> (host: String, port: Int) {
        var host = target
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]),
            (1...65_535).contains(port)
        else { throw ValidationError("--target must be HOST:PORT") }
        host = String(target[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--target must be HOST:PORT") }
        return (host, port)
    }

    func run() async throws {
        let (host, port) = try endpoint()
        var configuration = TLSClientConfiguration()
        if let ca { configuration.trustRoots = .caFile(ca) }
        configuration.timeouts.connect = .seconds(timeout)
        configuration.timeouts.handshake = .seconds(timeout)
        do {
            if !pins.isEmpty {
                configuration.pinPolicy = try PinPolicy(host: host, pins: try pins.map { try Pin(parsing: $0) })
            }
        } catch {
            throw EchoFailure(.usage, "\(error)").reported()
        }
        do {
            if let cert, let key {
                configuration.clientIdentity = try ClientIdentity(certificateFile: cert, keyFile: key)
            }
        } catch {
            throw EchoFailure(.dataError, "\(error)").reported()
        }
        do {
            let tls = try ClientTLSContext(grpc: configuration)
            let connection = try await tls.connectGRPC(host: host, port: port)
            let reply = try await withGRPCClient(transport: connection) { client in
                var options = CallOptions.defaults
                options.timeout = .seconds(timeout)
                return try await client.echo(text, options: options)
            }
            print(UntrustedText.escaped(reply))
        } catch {
            throw EchoFailure(call: error, identityConfigured: configuration.clientIdentity != nil).reported()
        }
    }
}

/// seckit-fetch's exit codes, those that apply to a gRPC call.
enum EchoExit: Int32 {
    case dataError = 2
    case pinMismatch = 3
    case verificationFailed = 4
    case clientCertificateRefused = 5
    case connectionFailed = 6
    case rpcStatus = 22
    case usage = 64
}

struct EchoFailure: Error {
    let exit: EchoExit
    let message: String

    init(_ exit: EchoExit, _ message: String) {
        self.exit = exit
        self.message = message
    }

    /// A failed call: SecKit's refusals by their reason, a status the server sent, the rest (a
    /// refused connection, a timeout) a connection failure.
    init(call error: any Error, identityConfigured: Bool) {
        if let error = (error as? TLSError) ?? (error as? RPCError)?.tlsError {
            switch error {
            case .pinMismatch, .noBackupPin: self.init(.pinMismatch, "\(error)")
            case .certificateVerificationFailed: self.init(.verificationFailed, "\(error)")
            case .clientCertificateRequired, .clientCertificateRejected:
                self.init(.clientCertificateRefused, "\(error)")
            case .invalidConfiguration: self.init(.dataError, "\(error)")
            default: self.init(.connectionFailed, "\(error)")
            }
        } else if let error = error as? RPCError, ![.unavailable, .deadlineExceeded].contains(error.code) {
            self.init(.rpcStatus, "\(error.code): \(error.message)")
        } else {
            self.init(.connectionFailed, "\(error)")
        }
    }

    /// Writes the message in one line on standard error; the exit code to throw.
    func reported() -> ExitCode {
        FileHandle.standardError.write(Data("seckit-grpc-echo: \(UntrustedText.escaped(message))\n".utf8))
        return ExitCode(exit.rawValue)
    }
}
