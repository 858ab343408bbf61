/// A TLS protocol version SecTLS speaks (TLS 1.2 is the lowest it allows).
public enum TLSVersion: String, Hashable, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case tls12 = "TLSv1.2"
    case tls13 = "TLSv1.3"

    public var description: String { rawValue }

    /// Orders the versions by age: TLS 1.2 before TLS 1.3.
    ///
    /// - Parameters:
    ///   - lhs: a version.
    ///   - rhs: another version.
    /// - Returns: true when `lhs` is TLS 1.2 and `rhs` TLS 1.3.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .tls12 && rhs == .tls13 }
}

/// What a server certificate must chain to.
public enum TrustRoots: Hashable, Sendable {
    /// The system CA store (OpenSSL's default paths: `/etc/ssl/certs`, `SSL_CERT_FILE`, `SSL_CERT_DIR`).
    case system
    /// The CA certificates of a PEM file.
    case caFile(String)
    /// These CA certificates.
    case certificates([X509Certificate])
    /// No CA: trust rests on the pins alone (for the self-signed servers of a closed group). The
    /// server's chain must be linked by signatures from its certificate up to a pinned certificate,
    /// and no host name is verified. Only allowed with an enforced pin set for the host.
    case pinsOnly
}

/// Time limits of a connection. Each phase fails with `TLSError.timedOut(phase)` when its limit passes.
public struct TLSTimeouts: Hashable, Sendable {
    /// Name resolution and the TCP connection (for all addresses tried together).
    public var connect: Duration
    /// The TLS handshake, including the check that the server accepted our client certificate.
    public var handshake: Duration
    /// Each `read` that waits for data.
    public var read: Duration
    /// Each `write` that waits for the peer to take data.
    public var write: Duration
    /// Under TLS 1.3 a server that asked for a client certificate rejects it (or its absence) only
    /// after the handshake: the client waits this long, at most, for a rejection or the server's
    /// first message (session tickets, which OpenSSL servers send at once, end the wait early).
    public var clientCertificateConfirmation: Duration

    /// Time limits of these lengths.
    ///
    /// - Parameters:
    ///   - connect: name resolution and the TCP connection (10 s by default).
    ///   - handshake: the TLS handshake (10 s by default).
    ///   - read: each read that waits for data (30 s by default).
    ///   - write: each write that waits for the peer (30 s by default).
    ///   - clientCertificateConfirmation: the wait, under TLS 1.3, for the server's verdict on the
    ///     client certificate (1 s by default).
    public init(
        connect: Duration = .seconds(10),
        handshake: Duration = .seconds(10),
        read: Duration = .seconds(30),
        write: Duration = .seconds(30),
        clientCertificateConfirmation: Duration = .seconds(1)
    ) {
        self.connect = connect
        self.handshake = handshake
        self.read = read
        self.write = write
        self.clientCertificateConfirmation = clientCertificateConfirmation
    }

    /// The same limit for every phase.
    ///
    /// - Parameter limit: the limit of every phase.
    /// - Returns: limits of `limit` for every phase, except the client-certificate confirmation, which
    ///   waits at most 1 s.
    public static func all(_ limit: Duration) -> TLSTimeouts {
        TLSTimeouts(
            connect: limit,
            handshake: limit,
            read: limit,
            write: limit,
            clientCertificateConfirmation: min(limit, .seconds(1))
        )
    }
}

/// The whole policy of a TLS client, as one value (modelled on swift-nio-ssl's `TLSClientConfiguration`).
///
/// ```swift
/// var configuration = TLSClientConfiguration()                 // system CAs, TLS 1.2+, host name verified
/// configuration.pinPolicy = try PinPolicy(host: "api.example.com", pins: [pin, backupPin])
/// configuration.clientIdentity = try ClientIdentity(pkcs12: p12Bytes, passphrase: passphrase)
/// ```
public struct TLSClientConfiguration: Sendable {
    /// What the server certificate must chain to; `.system` by default.
    public var trustRoots: TrustRoots
    /// The lowest version offered; TLS 1.2 by default (lower is not possible). TLS 1.3 is preferred.
    public var minimumVersion: TLSVersion
    /// The highest version offered; nil: the highest OpenSSL supports (TLS 1.3).
    public var maximumVersion: TLSVersion?
    /// Pins checked after the certificate verification; nil: no pinning.
    public var pinPolicy: PinPolicy?
    /// The endpoints connections may go to; nil: any. Checked before resolving or connecting.
    public var allowedEndpoints: EndpointAllowList?
    /// The certificate and key sent when the server asks for one (mutual TLS).
    public var clientIdentity: ClientIdentity?
    /// The name sent in SNI, verified against the certificate and used to look up pins; nil: the host
    /// connected to (no SNI is sent for an IP address).
    public var serverName: String?
    public var timeouts: TLSTimeouts

    /// A configuration of these parts; every default is the safe choice.
    ///
    /// - Parameters:
    ///   - trustRoots: what the server certificate must chain to (the system CA store by default).
    ///   - minimumVersion: the lowest version offered (TLS 1.2 by default).
    ///   - maximumVersion: the highest version offered; nil (the default) for the highest OpenSSL
    ///     supports.
    ///   - pinPolicy: the pins checked after the certificate verification; nil (the default) for none.
    ///   - allowedEndpoints: the endpoints connections may go to; nil (the default) for any.
    ///   - clientIdentity: the certificate and key for mutual TLS; nil (the default) for none.
    ///   - serverName: the name sent in SNI, verified and used to look up pins; nil (the default) for
    ///     the host connected to.
    ///   - timeouts: the time limits of each phase
    ///     (``TLSTimeouts/init(connect:handshake:read:write:clientCertificateConfirmation:)``'s
    ///     defaults by default).
    public init(
        trustRoots: TrustRoots = .system,
        minimumVersion: TLSVersion = .tls12,
        maximumVersion: TLSVersion? = nil,
        pinPolicy: PinPolicy? = nil,
        allowedEndpoints: EndpointAllowList? = nil,
        clientIdentity: ClientIdentity? = nil,
        serverName: String? = nil,
        timeouts: TLSTimeouts = TLSTimeouts()
    ) {
        self.trustRoots = trustRoots
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.pinPolicy = pinPolicy
        self.allowedEndpoints = allowedEndpoints
        self.clientIdentity = clientIdentity
        self.serverName = serverName
        self.timeouts = timeouts
    }
}

extension TLSClientConfiguration {
    /// Throws `invalidConfiguration` when the maximum version is below the minimum: the check every
    /// client of a configuration (TLSClient, SecKitNIO's, AsyncHTTPClient's) makes first.
    package func checkVersionRange() throws(TLSError) {
        if let maximumVersion, maximumVersion < minimumVersion {
            throw .invalidConfiguration("the maximum version \(maximumVersion) is below the minimum \(minimumVersion)")
        }
    }
}
