import SecCrypto

/// Verifies the certificate chain a TLS server presents as `TLSClient` does in its handshake:
/// OpenSSL's verifier with the trust roots, the host name (an IP address against IP SANs), purpose
/// server authentication, then the pin policy on the verified chain (enforce or report-only, pin set
/// expiry, the backup-pin rule). With `.pinsOnly` trust the chain must lead by signatures from the
/// server's certificate to a pinned certificate, and no host name is verified.
///
/// For TLS stacks that hand the presented chain to the application, such as swift-nio-ssl's custom
/// verification callback. The trust store is read once, by `init`; `verify` reads no file.
///
/// ```swift
/// let verifier = try ServerCertificateVerifier(trustRoots: .caFile("ca.pem"), pinPolicy: policy)
/// let verified = try verifier.verify(presentedChain, serverName: "api.example.com")
/// print(verified.pinEvaluation)
/// ```
public final class ServerCertificateVerifier: Sendable {
    public let trustRoots: TrustRoots
    /// The pins checked after verification (empty: no pinning).
    public let pinPolicy: PinPolicy
    /// The trust anchors; nil for `.pinsOnly`.
    let trustStore: TrustStore?
    private let verified = VerificationCache()

    /// Reads the trust roots. Throws `invalidConfiguration` for an unreadable CA file, an empty CA
    /// list, or `.pinsOnly` without an enforced pin set.
    ///
    /// - Parameters:
    ///   - trustRoots: what the server's chain must lead to (the system CA store by default).
    ///   - pinPolicy: the pins checked after verification; nil (the default) for none.
    /// - Throws: ``TLSError/invalidConfiguration(_:)`` for `.pinsOnly` without an enforced pin set, an
    ///   unreadable CA file or one without a CA certificate, or an empty certificate list;
    ///   ``TLSError/backendFailure(_:)`` when OpenSSL fails.
    public init(trustRoots: TrustRoots = .system, pinPolicy: PinPolicy? = nil) throws(TLSError) {
        let pinPolicy = pinPolicy ?? PinPolicy([])
        if trustRoots == .pinsOnly && !pinPolicy.pinSets.contains(where: { $0.mode == .enforce }) {
            throw .invalidConfiguration("pin-only trust needs an enforced pin set")
        }
        self.trustRoots = trustRoots
        self.pinPolicy = pinPolicy
        self.trustStore = trustRoots == .pinsOnly ? nil : try TrustStore(trustRoots)
    }

    /// The verifier of `configuration`'s trust roots and pin policy.
    ///
    /// - Parameter configuration: the configuration whose ``TLSClientConfiguration/trustRoots`` and
    ///   ``TLSClientConfiguration/pinPolicy`` to use.
    /// - Throws: what ``ServerCertificateVerifier/init(trustRoots:pinPolicy:)`` throws.
    public convenience init(configuration: TLSClientConfiguration) throws(TLSError) {
        try self.init(trustRoots: configuration.trustRoots, pinPolicy: configuration.pinPolicy)
    }

    /// Verifies `presented` (depth 0 first, as the server sent it) for `serverName` at `now`, and
    /// returns the verified chain with its pin evaluation. Throws `certificateVerificationFailed`
    /// (with OpenSSL's reason: expired, unknown issuer, host name mismatch, …), `pinMismatch`
    /// (listing the chain's pins and the expected ones) or `noBackupPin` (strict backup-pin rule).
    ///
    /// - Parameters:
    ///   - presented: the chain the server sent, depth 0 first.
    ///   - serverName: the name the certificate must be for (an IP address is checked against IP SANs),
    ///     and pins are looked up by.
    ///   - port: the TCP port connected to, for the pin policy's failure reports (`reportURI`); nil
    ///     (the default) sends none.
    ///   - now: the time validity and pin set expiry are judged at (now by default).
    /// - Returns: the verified chain and its pin evaluation.
    /// - Throws: ``TLSError/certificateVerificationFailed(_:)`` when the chain does not verify;
    ///   ``TLSError/pinMismatch(_:)`` when the pin policy refuses it (no pin of an enforced, unexpired
    ///   set matched, or no pin set covers the host and the policy refuses such hosts);
    ///   ``TLSError/noBackupPin(host:)`` under the strict backup-pin rule; with `.pinsOnly` trust,
    ///   ``TLSError/invalidConfiguration(_:)`` when no enforced, unexpired pin set covers `serverName`
    ///   and ``TLSError/handshakeFailed(_:)`` for an empty chain; ``TLSError/backendFailure(_:)`` when
    ///   OpenSSL fails.
    public func verify(
        _ presented: [X509Certificate],
        serverName: String,
        port: Int? = nil,
        at now: Date = Date()
    ) throws(TLSError) -> VerifiedServerChain {
        let host = HostPattern.normalize(serverName)
        guard let trustStore else {
            let pinSet = try enforcedPinSet(forPinOnlyTrust: host, at: now)
            let linked = try ChainVerification.pinAnchoredChain(presented, pinSet: pinSet)
            return VerifiedServerChain(
                chain: linked.chain,
                pinEvaluation: try checkPins(
                    linked.chain,
                    serverName: host,
                    port: port,
                    servedChain: { presented },
                    anchored: linked.anchored,
                    at: now
                )
            )
        }
        let chain = try verified.chain(presented, host: host, at: now) { () throws(TLSError) in
            try ChainVerification.verify(
                presented,
                store: trustStore,
                purpose: .serverAuthentication,
                host: host,
                at: now
            )
        }
        return VerifiedServerChain(
            chain: chain,
            pinEvaluation: try checkPins(chain, serverName: host, port: port, servedChain: { presented }, at: now)
        )
    }

    /// Pin-only trust rests on an enforced, unexpired pin set for the host: checked before connecting.
    package func enforcedPinSet(forPinOnlyTrust serverName: String, at now: Date) throws(TLSError) -> PinSet {
        guard let pinSet = pinPolicy.pinSet(for: serverName), pinSet.mode == .enforce else {
            throw .invalidConfiguration("pin-only trust needs an enforced pin set for \(serverName)")
        }
        if let expires = pinSet.expires, pinSet.isExpired(at: now) {
            throw .invalidConfiguration("pin-only trust: the pin set for \(serverName) expired on \(expires)")
        }
        return pinSet
    }

    /// The pin policy's verdict on a verified `chain` (`PinPolicy.judge`, which reports a failure);
    /// `anchored` false (pin-only trust, no pinned certificate reached by signatures) counts as a
    /// mismatch whatever the chain holds.
    func checkPins(
        _ chain: [X509Certificate],
        serverName: String,
        port: Int?,
        servedChain: () -> [X509Certificate],
        anchored: Bool = true,
        at now: Date
    ) throws(TLSError) -> PinEvaluation {
        var evaluation = PinEvaluation.evaluate(chain, host: serverName, policy: pinPolicy, now: now)
        if !anchored {
            evaluation = PinEvaluation(
                host: serverName,
                pinSet: evaluation.pinSet,
                chain: chain,
                outcome: .mismatched,
                warnings: evaluation.warnings
            )
        }
        try pinPolicy.judge(evaluation, port: port, servedChain: servedChain, at: now)
        return evaluation
    }
}

/// A server's chain that verified, and what its pins said.
public struct VerifiedServerChain: Hashable, Sendable {
    /// The verified chain, from the server's certificate to the trust anchor (or the pinned
    /// certificate, with pin-only trust).
    public let chain: [X509Certificate]
    public let pinEvaluation: PinEvaluation
}
