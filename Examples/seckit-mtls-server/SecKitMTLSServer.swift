import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SecKitHummingbird
import SecKitNIO
import SecTLS
import ServiceLifecycle
import UnixSignals

/// `seckit-mtls-server`: a Hummingbird server on 127.0.0.1 that requires client certificates,
/// verified by SecTLS against a client CA (and an optional allow-list of client key pins), and
/// answers `GET /` with the verified client as JSON and `POST /echo` with the request's body.
/// SIGHUP reloads the certificate, key and client CA files; SIGTERM and SIGINT stop it after the
/// requests in flight.
@main
struct SecKitMTLSServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seckit-mtls-server",
        abstract: "Serve GET / on 127.0.0.1 to clients whose certificates SecKit verifies (mutual TLS).",
        discussion: """
            Prints "listening on 127.0.0.1:PORT" on standard output once it accepts connections (--port 0 \
            picks a free port). Logs go to standard error. SIGHUP reads the certificate, key and client CA \
            files again: new connections use them, established ones keep theirs, and files that do not \
            load leave the current ones in place (the log says why). SIGTERM or SIGINT stops accepting \
            connections and exits once the requests in flight are answered. Exit codes: 0 stopped, \
            2 unreadable certificate, key or CA file, 64 usage.
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
    @Option(help: "Seconds from accept to the end of the TLS handshake before a connection is closed.")
    var handshakeTimeout: Double = ServerConnectionLimits().handshakeTimeout.inSeconds
    @Option(help: "Seconds with nothing read or written before a connection is closed (0: never).")
    var idleTimeout: Double = ServerConnectionLimits().idleTimeout?.inSeconds ?? 0
    @Option(help: "Connections one IP address may hold at once (0: no cap).")
    var maxConnectionsPerPeer: Int = ServerConnectionLimits().maximumConnectionsPerPeer ?? 0
    @Option(help: "The least severe log level written: trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        if !(0...65_535).contains(port) { throw ValidationError("--port must be 0...65535") }
        if !(handshakeTimeout > 0 && handshakeTimeout <= 3_600) {
            throw ValidationError("--handshake-timeout must be 0 < SECONDS <= 3600")
        }
        if !(idleTimeout >= 0 && idleTimeout <= 86_400) {
            throw ValidationError("--idle-timeout must be 0 <= SECONDS <= 86400")
        }
        if maxConnectionsPerPeer < 0 { throw ValidationError("--max-connections-per-peer must be 0 or more") }
        if Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical")
        }
    }

    /// The limits of the command line.
    var limits: ServerConnectionLimits {
        ServerConnectionLimits(
            handshakeTimeout: .seconds(handshakeTimeout),
            idleTimeout: idleTimeout == 0 ? nil : .seconds(idleTimeout),
            maximumConnectionsPerPeer: maxConnectionsPerPeer == 0 ? nil : maxConnectionsPerPeer
        )
    }

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "seckit-mtls-server")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        // Every pin problem (malformed, or a sha1/ pin: unsupported) is a usage error, found before any file is read.
        let pins: [Pin]
        do { pins = try clientPins.map { pin throws(TLSError) in try Pin(parsing: pin) } } catch {
            throw fail(error, status: 64)
        }
        let context: ServerTLSContext
        do {
            let (identity, verifier) = try loadFiles(pins: pins)
            context = try ServerTLSContext(identity: identity, clientVerifier: verifier, limits: limits, logger: logger)
        } catch {
            throw fail(error, status: 2)
        }

        let router = Router()
        router.get("/") { _, _ -> Response in
            // The handshake verified the client before this request was read.
            guard let client = MutualTLS.verifiedClient else { return Response(status: .forbidden) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = try encoder.encode(ClientReport(client))
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body))
            )
        }
        router.post("/echo") { request, _ -> Response in
            guard MutualTLS.verifiedClient != nil else { return Response(status: .forbidden) }
            let body = try await request.body.collect(upTo: 1 << 20)
            return Response(status: .ok, body: .init(byteBuffer: body))
        }
        let app = Application(
            router: router,
            server: .mutualTLS(context: context),
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                FileHandle.standardOutput.write(Data("listening on 127.0.0.1:\(port)\n".utf8))
            },
            logger: logger
        )
        let reloader = ReloadOnHangup(logger: logger) { () throws(TLSError) in
            let (identity, verifier) = try loadFiles(pins: pins)
            try context.reload(identity: identity, clientVerifier: verifier)
        }
        let services = ServiceGroup(
            configuration: .init(
                services: [app, reloader],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await services.run()
    }

    /// The identity and client verifier the files on the command line hold now.
    private func loadFiles(pins: [Pin]) throws(TLSError) -> (ClientIdentity, ClientCertificateVerifier) {
        (
            try ClientIdentity(certificateFile: cert, keyFile: key),
            try ClientCertificateVerifier(clientCA: .caFile(clientCA), allowedPins: pins.isEmpty ? nil : pins)
        )
    }

    /// Reports `error` in one line on standard error; the exit code to throw.
    private func fail(_ error: TLSError, status: Int32) -> ExitCode {
        FileHandle.standardError.write(Data("seckit-mtls-server: \(error)\n".utf8))
        return ExitCode(status)
    }
}

/// Reloads the server's files on each SIGHUP until the service group shuts down. A reload that
/// fails leaves the running settings as they are, and the log says why.
struct ReloadOnHangup: Service {
    let logger: Logger
    let reload: @Sendable () throws(TLSError) -> Void

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                try reload()
            } catch {
                logger.error(
                    "reload failed; the current certificate, key and client CAs stay in use",
                    metadata: ["reason": "\(error)"]
                )
            }
        }
    }
}

/// The JSON answer: who the client is, as the handshake verified it.
struct ClientReport: Encodable {
    let subject: String
    let publicKeyPin: String
    let subjectAlternativeNames: [String]
    let issuer: String

    init(_ client: VerifiedClient) {
        subject = client.subject
        publicKeyPin = client.publicKeyPin.description
        subjectAlternativeNames = client.subjectAlternativeNames.map(\.description)
        issuer = client.certificate.issuer
    }
}

extension Duration {
    /// The duration in seconds, as the options take them (the defaults are ServerConnectionLimits').
    fileprivate var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
