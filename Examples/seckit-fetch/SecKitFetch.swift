import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import SecCrypto
import SecHTTPAuth
import SecHTTPAuthKeychain
import SecIO
import SecKeychain
import SecKitHTTPClient
import SecKitNIO
import SecTLS

/// `seckit-fetch URL`: one GET through AsyncHTTPClient with SecKit's TLS (trust, pins, client
/// identity) and HTTP authentication (Basic, Digest; a credential given or found in the keychain by
/// the challenge's protection space), the body on standard output. Exit codes as `seccli pin`, see
/// `discussion`.
@main
struct SecKitFetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seckit-fetch",
        abstract: "GET a URL through AsyncHTTPClient with SecKit's pins, client identities and HTTP authentication.",
        discussion: """
            Secrets (key, PKCS#12 and HTTP passwords) come only from env:VAR, file:PATH, fd:N or stdin.
            Exit codes: 0 ok, 2 unreadable identity or secret, 3 pin mismatch, 4 certificate verification \
            failure, 5 client certificate required or refused, 6 connection failure or timeout, \
            7 HTTP authentication failed (no credential for the realm, a refused one, or a challenge that \
            cannot be answered), \
            22 HTTP error status (400 and above; the body is still written), 64 usage.
            """
    )

    @Argument(help: "The https:// (or http://) URL to GET.") var url: String
    @Option(help: "Trust the CA certificates of this PEM file instead of the system's.") var ca: String?
    @Flag(help: "Trust the pins alone (no CA): needs --pin.") var pinOnly = false
    @Option(name: .customLong("pin"), help: "A pin of the server (sha256/BASE64 of its key); repeatable.")
    var pins: [String] = []
    @Option(help: "Client certificate (PEM, with its chain).") var cert: String?
    @Option(help: "Client private key (PEM; encrypted or not).") var key: String?
    @Option(help: "Where the key's passphrase comes from.") var keyPassword: String?
    @Option(help: "Client identity as PKCS#12.") var p12: String?
    @Option(help: "Where the PKCS#12 passphrase comes from (absent: the file has none).") var p12Password: String?
    @Option(help: "Seconds for the whole request.") var timeout: Double = 30
    @Option(help: "User name for HTTP authentication (Basic or Digest), for the URL's origin only.") var user: String?
    @Option(help: "Where the HTTP password comes from (with --user).") var password: String?
    @Flag(help: "Look the credential up in the keychain by the challenge's protection space (realm included).")
    var keychain = false
    @Flag(help: "Answer a Basic challenge over cleartext http:// (the password crosses the network readable).")
    var allowBasicOverHttp = false

    func validate() throws {
        if ca != nil && pinOnly { throw ValidationError("--ca and --pin-only exclude each other") }
        if pinOnly && pins.isEmpty { throw ValidationError("--pin-only needs at least one --pin") }
        if (cert == nil) != (key == nil) { throw ValidationError("--cert and --key go together") }
        if p12 != nil && cert != nil { throw ValidationError("--p12 and --cert exclude each other") }
        if keyPassword != nil && key == nil { throw ValidationError("--key-password needs --key") }
        if p12Password != nil && p12 == nil { throw ValidationError("--p12-password needs --p12") }
        if !(timeout > 0 && timeout <= 86_400) { throw ValidationError("--timeout must be 0 < SECONDS <= 86400") }
        if (user == nil) != (password == nil) { throw ValidationError("--user and --password go together") }
    }

    func run() async throws {
        let exit: FetchExit
        do {
            exit = try await fetch()
        } catch {
            FileHandle.standardError.write(Data("seckit-fetch: \(UntrustedText.escaped(error.message))\n".utf8))
            exit = error.exit
        }
        if exit != .success { throw ExitCode(exit.rawValue) }
    }

    private func fetch() async throws(FetchFailure) -> FetchExit {
        if let components = URLComponents(string: url), components.user != nil || components.password != nil {
            throw FetchFailure(.usage, "the URL holds a user name or password: give --user NAME --password SOURCE")
        }
        guard let target = URL(string: url), ["https", "http"].contains(target.scheme?.lowercased()),
            let host = target.host, !host.isEmpty
        else { throw FetchFailure(.usage, "not an https:// or http:// URL: \(url)") }
        let authenticator = try authenticator(for: target)
        let configuration = try tlsConfiguration(host: host)
        let limit = Duration.seconds(timeout)
        var clientConfiguration: HTTPClient.Configuration
        do {
            clientConfiguration = try HTTPClient.Configuration(secKit: configuration)
        } catch { throw FetchFailure(tls: error) }
        // The TCP connect and the TLS handshake of each connection: AsyncHTTPClient's own deadline
        // for them, which the request's deadline does not cut short.
        clientConfiguration.timeout.connect = TimeAmount(limit)
        // A command that ends after its request does not wait for a stalled server's close_notify
        // (swift-nio-ssl waits 5 s by default before it closes the socket).
        clientConfiguration.tlsConfiguration?.shutdownTimeout = .milliseconds(100)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        let outcome: Result<FetchExit, FetchFailure>
        do {
            outcome = .success(
                try await Self.within(limit) {
                    try await get(with: client, authenticator: authenticator, limit: TimeAmount(limit))
                }
            )
        } catch is FetchTimeout {
            outcome = .failure(FetchFailure(.connectionFailed, "the request timed out"))
        } catch {
            outcome = .failure(FetchFailure(request: error, identityConfigured: configuration.clientIdentity != nil))
        }
        try? await client.shutdown()
        return try outcome.get()
    }

    /// `operation`, cancelled when it has not ended within `limit`, which then throws `FetchTimeout`
    /// at once: AsyncHTTPClient's deadline ends with the response head, and the body (or a 401's,
    /// read by the authenticator) could stall for ever after its first byte.
    private static func within<Result: Sendable>(
        _ limit: Duration,
        _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw FetchTimeout()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else { throw FetchTimeout() }
            return result
        }
    }

    /// The GET: the body to standard output as it arrives.
    private func get(
        with client: HTTPClient,
        authenticator: HTTPAuthenticator?,
        limit: TimeAmount
    ) async throws -> FetchExit {
        let request = HTTPClientRequest(url: url)
        let response: HTTPClientResponse
        if let authenticator {
            response = try await authenticator.execute(request, on: client, timeout: limit)
        } else {
            response = try await client.execute(request, timeout: limit)
        }
        for try await chunk in response.body {
            FileHandle.standardOutput.write(Data(chunk.readableBytesView))
        }
        // A body cut short by the deadline can end like a complete one.
        try Task.checkCancellation()
        // The authenticator returns a 401 only when none of its challenges is Basic or Digest.
        if authenticator != nil && response.status == .unauthorized {
            let message = "HTTP authentication failed: the 401 offers no Basic or Digest challenge"
            FileHandle.standardError.write(Data("seckit-fetch: \(message)\n".utf8))
            return .authenticationFailed
        }
        guard response.status.code < 400 else {
            FileHandle.standardError.write(Data("seckit-fetch: HTTP status \(response.status.code)\n".utf8))
            return .httpStatus
        }
        return .success
    }

    /// The authenticator of --user/--password (for the URL's origin) and --keychain, nil without them.
    private func authenticator(for target: URL) throws(FetchFailure) -> HTTPAuthenticator? {
        var providers: [any HTTPCredentialProvider] = []
        if let user, let password = try secret(password) {
            providers.append(OriginCredential(HTTPCredential(user: user, password: password), for: target))
        }
        if keychain { providers.append(KeychainCredentialProvider(store: SecretServiceStore())) }
        guard !providers.isEmpty else { return nil }
        return HTTPAuthenticator(
            credentials: FirstCredential(providers),
            persistence: .none,
            allowsBasicOverCleartext: allowBasicOverHttp
        )
    }

    private func tlsConfiguration(host: String) throws(FetchFailure) -> TLSClientConfiguration {
        var configuration = TLSClientConfiguration()
        if let ca { configuration.trustRoots = .caFile(ca) }
        if pinOnly { configuration.trustRoots = .pinsOnly }
        do {
            if !pins.isEmpty {
                var parsed: [Pin] = []
                for pin in pins { parsed.append(try Pin(parsing: pin)) }
                configuration.pinPolicy = try PinPolicy(host: host, pins: parsed)
            }
            if let cert, let key {
                configuration.clientIdentity = try ClientIdentity(
                    certificateFile: cert,
                    keyFile: key,
                    passphrase: try secret(keyPassword)
                )
            } else if let p12 {
                guard let bytes = FileManager.default.contents(atPath: p12) else {
                    throw FetchFailure(.dataError, "cannot read the PKCS#12 file \(p12)")
                }
                configuration.clientIdentity = try ClientIdentity(pkcs12: bytes, passphrase: try secret(p12Password))
            }
        } catch let error as TLSError {
            if case .invalidPin = error { throw FetchFailure(.usage, "\(error)") }
            throw FetchFailure(.dataError, "\(error)")
        } catch let failure as FetchFailure {
            throw failure
        } catch {
            throw FetchFailure(.dataError, "\(error)")
        }
        return configuration
    }

    /// The secret of `source`: env:, file:, fd: or stdin (a passphrase may be empty).
    private func secret(_ source: String?) throws(FetchFailure) -> SecureBytes? {
        guard let source else { return nil }
        let parsed: SecretSource
        do { parsed = try SecretSource(parsing: source) } catch { throw FetchFailure(.usage, "\(error)") }
        if case .keyring = parsed {
            throw FetchFailure(.usage, "seckit-fetch reads no keyring source: use env:, file:, fd: or stdin")
        }
        do { return try parsed.read(allowingEmpty: true) } catch { throw FetchFailure(.dataError, "\(error)") }
    }
}

/// The credential given on the command line, for the URL's origin (any realm) only: a redirect to
/// another origin, or a proxy, never gets it.
struct OriginCredential: HTTPCredentialProvider {
    let credential: HTTPCredential
    let origin: HTTPOrigin

    init(_ credential: HTTPCredential, for url: URL) {
        self.credential = credential
        origin = HTTPOrigin(scheme: url.scheme ?? "https", host: url.host ?? "", port: url.port)
    }

    func credential(for space: ProtectionSpace) -> HTTPCredential? {
        space.origin == origin && !space.isProxy ? credential : nil
    }
    func save(_: HTTPCredential, for _: ProtectionSpace, persistence _: CredentialPersistence) {}
    func remove(space _: ProtectionSpace) -> Int { 0 }
    func removeAll(host _: String) -> Int { 0 }
}

/// The first provider's credential that has one for the space.
struct FirstCredential: HTTPCredentialProvider {
    let providers: [any HTTPCredentialProvider]

    init(_ providers: [any HTTPCredentialProvider]) { self.providers = providers }

    func credential(for space: ProtectionSpace) async throws -> HTTPCredential? {
        for provider in providers {
            if let credential = try await provider.credential(for: space) { return credential }
        }
        return nil
    }
    func save(_: HTTPCredential, for _: ProtectionSpace, persistence _: CredentialPersistence) {}
    func remove(space _: ProtectionSpace) -> Int { 0 }
    func removeAll(host _: String) -> Int { 0 }
}

/// The whole request did not end within `--timeout`.
struct FetchTimeout: Error {}

/// seckit-fetch's exit codes (those of `seccli pin` where they mean the same).
enum FetchExit: Int32 {
    case success = 0
    case dataError = 2
    case pinMismatch = 3
    case verificationFailed = 4
    case clientCertificateRefused = 5
    case connectionFailed = 6
    case authenticationFailed = 7
    case httpStatus = 22
    case usage = 64
}

struct FetchFailure: Error {
    let exit: FetchExit
    let message: String

    init(_ exit: FetchExit, _ message: String) {
        self.exit = exit
        self.message = message
    }

    init(tls error: TLSError) {
        switch error {
        case .pinMismatch, .noBackupPin: self.init(.pinMismatch, "\(error)")
        case .certificateVerificationFailed: self.init(.verificationFailed, "\(error)")
        case .clientCertificateRequired, .clientCertificateRejected: self.init(.clientCertificateRefused, "\(error)")
        case .invalidConfiguration, .invalidPin: self.init(.usage, "\(error)")
        case .invalidClientIdentity, .passphraseRequired, .wrongPassphrase, .keyMismatch:
            self.init(.dataError, "\(error)")
        default: self.init(.connectionFailed, "\(error)")
        }
    }

    /// AsyncHTTPClient's ways of saying that a deadline passed.
    private static let timeouts: [HTTPClientError] = [
        .deadlineExceeded, .connectTimeout, .readTimeout, .tlsHandshakeTimeout,
    ]

    /// A failed request: SecKit's refusals, swift-nio-ssl's errors in SecKit's terms, the rest
    /// (refused connections, timeouts, resets) a connection failure.
    init(request error: any Error, identityConfigured: Bool) {
        if let error = error as? HTTPAuthError {
            switch error {
            case .invalidCredentials: self.init(.usage, "\(error)")
            default: self.init(.authenticationFailed, "\(error)")
            }
        } else if let error = error as? KeychainError {
            // --keychain: no Secret Service, a locked keyring, a timeout.
            self.init(.dataError, "keychain: \(error)")
        } else if let error = error as? HTTPClientError, Self.timeouts.contains(error) {
            self.init(.connectionFailed, "the request timed out")
        } else if let error = error as? TLSError {
            self.init(tls: error)
        } else if let error = TLSError(translating: error, clientIdentityConfigured: identityConfigured) {
            self.init(tls: error)
        } else {
            self.init(.connectionFailed, "\(error)")
        }
    }
}
