import SecCrypto

/// Verifies the certificate chain a TLS client presents to a server (mutual TLS): OpenSSL's verifier
/// with the client CAs as trust anchors and purpose client authentication, then, when an allow-list
/// is given, the client certificate's key (or fingerprint) must be on it.
///
/// The CA certificates are read once, by `init`; `verify` reads no file.
///
/// ```swift
/// let verifier = try ClientCertificateVerifier(clientCA: .caFile("clients-ca.pem"), allowedPins: [alicePin])
/// let client = try verifier.verify(presentedChain)
/// print(client.subject, client.publicKeyPin)
/// ```
public final class ClientCertificateVerifier: Sendable {
    /// The pins a client certificate must match (its public key, or the whole certificate); nil:
    /// every certificate the client CAs vouch for.
    public let allowedPins: [Pin]?
    let trustStore: TrustStore
    private let verified = VerificationCache()

    /// The client CA certificates (a server names them in its CertificateRequest).
    public var clientCAs: [X509Certificate] { trustStore.anchors }

    /// Reads the client CAs. Throws `invalidConfiguration` for an unreadable CA file, an empty CA
    /// list, `.pinsOnly` or `.system` (a public CA vouches for anyone's client certificate), or an
    /// empty allow-list.
    ///
    /// - Parameters:
    ///   - clientCA: the CAs that issue client certificates: a PEM file or certificates, not `.system`
    ///     or `.pinsOnly`.
    ///   - allowedPins: the pins a client certificate must match; nil (the default) for every
    ///     certificate the CAs vouch for; not empty.
    /// - Throws: ``TLSError/invalidConfiguration(_:)`` for `.system` or `.pinsOnly`, an empty
    ///   `allowedPins`, an unreadable CA file or one without a CA certificate, or an empty certificate
    ///   list; ``TLSError/backendFailure(_:)`` when OpenSSL fails.
    public init(clientCA: TrustRoots, allowedPins: [Pin]? = nil) throws(TLSError) {
        switch clientCA {
        case .system:
            throw .invalidConfiguration("client certificates need a client CA of their own, not the system CAs")
        case .pinsOnly: throw .invalidConfiguration("client certificates need a client CA")
        case .caFile, .certificates: break
        }
        if let allowedPins, allowedPins.isEmpty {
            throw .invalidConfiguration("the allow-list of client pins is empty")
        }
        self.allowedPins = allowedPins
        self.trustStore = try TrustStore(clientCA)
    }

    /// Verifies `presented` (depth 0 first, as the client sent it) at `now` and returns the verified client.
    /// Throws `certificateVerificationFailed` (with OpenSSL's reason) or `clientNotAllowed`.
    ///
    /// - Parameters:
    ///   - presented: the chain the client sent, depth 0 first.
    ///   - now: the time validity is judged at (now by default).
    /// - Returns: the verified client, with its chain up to the client CA.
    /// - Throws: ``TLSError/certificateVerificationFailed(_:)`` when the chain does not verify for
    ///   client authentication (expired, not yet valid, unknown issuer, self-signed, wrong purpose…);
    ///   ``TLSError/clientNotAllowed(_:)`` when it verifies but matches no pin of `allowedPins`;
    ///   ``TLSError/backendFailure(_:)`` when OpenSSL fails.
    public func verify(_ presented: [X509Certificate], at now: Date = Date()) throws(TLSError) -> VerifiedClient {
        let chain = try verified.chain(presented, host: nil, at: now) { () throws(TLSError) in
            try ChainVerification.verify(
                presented,
                store: trustStore,
                purpose: .clientAuthentication,
                host: nil,
                at: now
            )
        }
        let client = VerifiedClient(chain: chain)
        if let allowedPins, !allowedPins.contains(where: { $0.matches(client.certificate) }) {
            throw .clientNotAllowed(client.publicKeyPin)
        }
        return client
    }
}

/// A client whose certificate verified: what a request handler needs to know about it.
public struct VerifiedClient: Hashable, Sendable, CustomStringConvertible {
    /// The verified chain, from the client's certificate to the client CA.
    public let chain: [X509Certificate]

    /// A client of a chain that verified.
    ///
    /// - Parameter chain: the verified chain, client certificate first; a precondition failure when
    ///   empty.
    public init(chain: [X509Certificate]) {
        precondition(!chain.isEmpty, "a verified chain holds at least the client's certificate")
        self.chain = chain
    }

    /// The client's own certificate.
    public var certificate: X509Certificate { chain[0] }
    /// The client certificate's subject, in OpenSSL's one-line RFC 2253 form.
    public var subject: String { certificate.subject }
    public var subjectAlternativeNames: [SubjectAlternativeName] { certificate.subjectAlternativeNames }
    /// The RFC 7469 pin of the client's public key (`sha256/…`).
    public var publicKeyPin: PublicKeyPin { certificate.publicKeyPin }

    public var description: String { "\(subject) (\(publicKeyPin))" }
}
