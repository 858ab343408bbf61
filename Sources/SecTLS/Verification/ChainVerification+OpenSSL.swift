internal import COpenSSL
import SecCrypto

/// Which end of a connection a certificate must be good for (OpenSSL's `ssl_server` and
/// `ssl_client` verification defaults: purpose and trust).
enum CertificatePurpose {
    case serverAuthentication, clientAuthentication

    fileprivate var openSSLName: String {
        switch self {
        case .serverAuthentication: "ssl_server"
        case .clientAuthentication: "ssl_client"
        }
    }
}

/// OpenSSL's chain verification of certificates a peer presented (depth 0 first), outside a
/// handshake: what `SSL_connect` does with `SSL_VERIFY_PEER`, for TLS stacks that hand the chain to
/// the application (swift-nio-ssl's custom verification callback).
enum ChainVerification {
    /// The verified chain, from `presented[0]` to a trust anchor of `store`, at `now`. `host` (a name,
    /// or an IPv4/IPv6 address checked against IP SANs) is verified when given, partial wildcards refused.
    static func verify(
        _ presented: [X509Certificate],
        store: TrustStore,
        purpose: CertificatePurpose,
        host: String?,
        at now: Date
    ) throws(TLSError) -> [X509Certificate] {
        try withStoreContext(presented, store: store.pointer, purpose: purpose) { (context) throws(TLSError) in
            X509_STORE_CTX_set_time(context, 0, time_t(now.timeIntervalSince1970.rounded(.down)))
            if let host {
                let parameters = X509_STORE_CTX_get0_param(context)
                let ok =
                    TCPSocket.isIPAddress(host)
                    ? X509_VERIFY_PARAM_set1_ip_asc(parameters, host)
                    : {
                        X509_VERIFY_PARAM_set_hostflags(parameters, hostFlags)
                        return X509_VERIFY_PARAM_set1_host(parameters, host, 0)
                    }()
                guard ok == 1 else { throw .openSSL("X509_VERIFY_PARAM_set1_host") }
            }
            let verified = X509_verify_cert(context) == 1
            OpenSSLError.clearQueue()
            guard verified else {
                throw .certificateVerificationFailed(
                    verificationFailure(
                        code: X509_STORE_CTX_get_error(context),
                        depth: Int(X509_STORE_CTX_get_error_depth(context)),
                        peerChain: presented
                    )
                )
            }
            return certificates(X509_STORE_CTX_get0_chain(context), reusing: presented)
        }
    }

    /// Pin-only trust: the part of `presented` that is linked by signatures from its first
    /// certificate, built by OpenSSL's verifier with the pinned certificates of `presented` as the
    /// only anchors. `anchored` is false when no pinned certificate is reached that way (a pinned
    /// certificate elsewhere in what the peer sent proves nothing).
    static func pinAnchoredChain(
        _ presented: [X509Certificate],
        pinSet: PinSet
    ) throws(TLSError) -> (chain: [X509Certificate], anchored: Bool) {
        guard let leaf = presented.first else { throw .handshakeFailed("the server sent no certificate") }
        guard let store = X509_STORE_new() else { throw .openSSL("X509_STORE_new") }
        defer { X509_STORE_free(store) }
        for (certificate, digests) in zip(presented, PinDigests.of(presented, for: pinSet.pins))
        where pinSet.pins.contains(where: digests.matches) {
            if X509_STORE_add_cert(store, certificate.handle.pointer) != 1 { OpenSSLError.clearQueue() }
        }
        X509_STORE_set_flags(store, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        return try withStoreContext(presented, store: store, purpose: .serverAuthentication) {
            (context) throws(TLSError) in
            let verified = X509_verify_cert(context) == 1
            let built = certificates(X509_STORE_CTX_get0_chain(context), reusing: presented)
            let chain = built.isEmpty ? [leaf] : built
            OpenSSLError.clearQueue()
            if verified { return (chain, true) }
            let code = X509_STORE_CTX_get_error(context)
            switch code {
            case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
                X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE,
                X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
                return (chain, false)
            default:
                throw .certificateVerificationFailed(
                    verificationFailure(
                        code: code,
                        depth: Int(X509_STORE_CTX_get_error_depth(context)),
                        peerChain: presented
                    )
                )
            }
        }
    }

    /// Runs `body` with an `X509_STORE_CTX` for `presented[0]`, the rest of `presented` as the
    /// untrusted certificates, and the verification defaults of `purpose`.
    private static func withStoreContext<Result>(
        _ presented: [X509Certificate],
        store: OpaquePointer,
        purpose: CertificatePurpose,
        _ body: (OpaquePointer) throws(TLSError) -> Result
    ) throws(TLSError) -> Result {
        guard let leaf = presented.first else { throw .certificateVerificationFailed(noCertificate) }
        guard let untrusted = OPENSSL_sk_new_null() else { throw .openSSL("OPENSSL_sk_new_null") }
        // The stack borrows the certificates: `presented` keeps them alive until it is freed.
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in presented.dropFirst() {
            guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.handle.pointer)) > 0 else {
                throw .openSSL("OPENSSL_sk_push")
            }
        }
        guard let context = X509_STORE_CTX_new() else { throw .openSSL("X509_STORE_CTX_new") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.handle.pointer, untrusted) == 1,
            X509_STORE_CTX_set_default(context, purpose.openSSLName) == 1
        else { throw .openSSL("X509_STORE_CTX_init") }
        return try body(context)
    }

    /// How a host name is matched: whole labels only (no `f*.example.com`), and against DNS
    /// subjectAltNames only. OpenSSL's default falls back to the subject's CN when a certificate
    /// has no DNS name; RFC 6125 §6.4.4 deprecates that and the browsers dropped it, so a
    /// certificate that names its host only in the CN is refused, on every client path alike.
    static let hostFlags = UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT)

    /// The refusal of a server certificate whose host name could only have matched its subject's
    /// CN (it has no DNS or IP subjectAltName), for stacks that fell back to the CN themselves.
    static func commonNameOnly(_ leaf: X509Certificate) -> CertificateVerificationFailure {
        CertificateVerificationFailure(
            reason: .hostnameMismatch,
            code: Int(X509_V_ERR_HOSTNAME_MISMATCH),
            message: "the certificate names no host in a subjectAltName, and a subject CN is no host name here",
            depth: 0,
            peerChain: [leaf]
        )
    }

    private static let noCertificate = CertificateVerificationFailure(
        reason: .other,
        code: Int(X509_V_ERR_UNSPECIFIED),
        message: "the peer sent no certificate",
        depth: nil
    )

    /// The typed failure for OpenSSL's verification error `code` at `depth`.
    static func verificationFailure(
        code: Int32,
        depth: Int?,
        peerChain: [X509Certificate]
    ) -> CertificateVerificationFailure {
        let reason: CertificateVerificationFailure.Reason
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED: reason = .expired
        case X509_V_ERR_CERT_NOT_YET_VALID: reason = .notYetValid
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
            reason = .unknownIssuer
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT: reason = .selfSigned
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: reason = .hostnameMismatch
        default: reason = .other
        }
        let message =
            X509_verify_cert_error_string(CLong(code)).map { String(cString: $0) } ?? "verification error \(code)"
        return CertificateVerificationFailure(
            reason: reason,
            code: Int(code),
            message: message,
            depth: depth,
            peerChain: peerChain
        )
    }
}
