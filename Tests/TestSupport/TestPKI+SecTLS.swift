import Foundation
import SecCrypto
import SecTLS

extension TestPKI {
    /// The first certificate of `<name>.pem`.
    public func certificate(_ name: String) throws -> X509Certificate {
        try X509Certificate.load(pem: try bytes("\(name).pem"))[0]
    }

    /// The SPKI pin of `<name>.pem`.
    public func pin(_ name: String) throws -> Pin { .publicKey(try certificate(name).publicKeyPin) }

    /// Every form of the RSA client identity, by name.
    public func clientIdentities() throws -> [(String, ClientIdentity)] {
        let certificate = try bytes("client.pem")
        return [
            (
                "PEM (PKCS#8 key)",
                try ClientIdentity(certificateChainPEM: certificate, privateKeyPEM: try bytes("client.key"))
            ),
            (
                "PEM (PKCS#1 key)",
                try ClientIdentity(
                    certificateChainPEM: certificate,
                    privateKeyPEM: try bytes("client-pkcs1.key")
                )
            ),
            (
                "encrypted PKCS#8",
                try ClientIdentity(
                    certificateChainPEM: certificate,
                    privateKeyPEM: try bytes("client-encrypted.key"),
                    passphrase: SecureBytes(Array(Self.keyPassphrase.utf8))
                )
            ),
            (
                "encrypted PKCS#1",
                try ClientIdentity(
                    certificateChainPEM: certificate,
                    privateKeyPEM: try bytes("client-pkcs1-encrypted.key"),
                    passphrase: SecureBytes(Array(Self.keyPassphrase.utf8))
                )
            ),
            ("combined PEM", try ClientIdentity(combinedPEM: try bytes("client-combined.pem"))),
            (
                "files",
                try ClientIdentity(certificateFile: path("client.pem"), keyFile: path("client.key"))
            ),
            (
                "PKCS#12",
                try ClientIdentity(
                    pkcs12: try bytes("client.p12"),
                    passphrase: SecureBytes(Array(Self.p12Passphrase.utf8))
                )
            ),
            (
                "PKCS#12, empty passphrase",
                try ClientIdentity(pkcs12: try bytes("client-empty.p12"), passphrase: SecureBytes([UInt8]()))
            ),
            (
                "EC, SEC1 key",
                try ClientIdentity(
                    certificateFile: path("client-ec.pem"),
                    keyFile: path("client-ec.key")
                )
            ),
        ]
    }

    /// The server identity of the mutual TLS tests: `leaf-rsa` with its chain (`chain.pem`).
    public func serverIdentity() throws -> ClientIdentity {
        try ClientIdentity(certificateFile: path("chain.pem"), keyFile: path("leaf-rsa.key"))
    }

    /// A verifier of clients under `ca.pem`, with `allowedPins` as its allow-list when given.
    public func clientVerifier(allowedPins: [Pin]? = nil) throws -> ClientCertificateVerifier {
        try ClientCertificateVerifier(clientCA: .caFile(path("ca.pem")), allowedPins: allowedPins)
    }

    /// The key pin of `<name>.pem` as the openssl CLI computes it (`opensslPublicKeyPin`).
    public func opensslKeyPin(_ name: String) throws -> PublicKeyPin {
        try PublicKeyPin(parsing: try opensslPublicKeyPin("\(name).pem"))
    }

    /// A client configuration trusting the fixture's CA (or `trust`), with `pins` enforced for
    /// 127.0.0.1 when given, `identity` as client identity and 30-second timeouts, times
    /// `ProcessRunner.timeoutScale` (a loaded machine with tests in parallel can be slow; the tests of
    /// timeouts set their own).
    public func clientConfiguration(
        pins: [Pin]? = nil,
        trust: TrustRoots? = nil,
        identity: ClientIdentity? = nil
    ) throws -> TLSClientConfiguration {
        var configuration = TLSClientConfiguration(
            trustRoots: trust ?? .caFile(path("ca.pem")),
            clientIdentity: identity
        )
        configuration.timeouts = .all(.seconds(30 * ProcessRunner.timeoutScale))
        if let pins { configuration.pinPolicy = try PinPolicy(host: "127.0.0.1", pins: pins) }
        return configuration
    }

    /// A server that a client trusting the fixture's CA must refuse, and the reason it must give.
    public struct RefusedServer: Sendable, CustomStringConvertible {
        public let cert: String
        public let chain: String?
        public let options: [String]
        /// The name the client verifies (nil: the address, 127.0.0.1).
        public let serverName: String?
        /// A CA file the client trusts instead of the fixture's CA.
        public let caFile: String?
        public let reason: CertificateVerificationFailure.Reason

        public var description: String { "\(cert) as \(serverName ?? "127.0.0.1") trusting \(caFile ?? "ca.pem")" }
    }

    /// Every certificate verification failure a TLS client must report with its reason.
    public static let refusedServers: [RefusedServer] = [
        .init(cert: "expired", chain: "intermediate.pem", options: [], serverName: nil, caFile: nil, reason: .expired),
        .init(
            cert: "leaf-rsa",
            chain: "intermediate.pem",
            options: ["-tls1_2"],
            serverName: "wrong.example",
            caFile: nil,
            reason: .hostnameMismatch
        ),
        .init(
            cert: "leaf-rsa",
            chain: "intermediate.pem",
            options: [],
            serverName: nil,
            caFile: "rogue-ca.pem",
            reason: .unknownIssuer
        ),
        .init(
            cert: "rogue-server",
            chain: nil,
            options: ["-tls1_3"],
            serverName: nil,
            caFile: nil,
            reason: .unknownIssuer
        ),
        .init(cert: "selfsigned", chain: nil, options: [], serverName: nil, caFile: nil, reason: .selfSigned),
        // The right name, but only in the subject's CN: RFC 6125 and the browsers never fall back to it.
        .init(
            cert: "cn-only",
            chain: "intermediate.pem",
            options: [],
            serverName: "localhost",
            caFile: nil,
            reason: .hostnameMismatch
        ),
    ]

    /// The s_server of `refused` and the client configuration that must refuse it.
    public func start(_ refused: RefusedServer) throws -> (TLSTestServer, TLSClientConfiguration) {
        var configuration = try clientConfiguration(trust: refused.caFile.map { .caFile(path($0)) })
        configuration.serverName = refused.serverName
        return (try server(cert: refused.cert, chain: refused.chain, refused.options), configuration)
    }
}

/// True when `error` is `TLSError.pinMismatch` (for `#expect { … } throws:`).
public func isPinMismatch(_ error: any Error) -> Bool {
    if case TLSError.pinMismatch = error { return true }
    return false
}

/// True when `error` is `TLSError.certificateVerificationFailed` with `reason`.
public func isVerificationFailure(_ error: any Error, _ reason: CertificateVerificationFailure.Reason) -> Bool {
    if case TLSError.certificateVerificationFailed(let failure) = error { return failure.reason == reason }
    return false
}
