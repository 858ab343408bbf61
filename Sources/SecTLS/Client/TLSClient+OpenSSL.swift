internal import COpenSSL
import SecCrypto

/// Owns an OpenSSL `SSL_CTX` configured from a `TLSClientConfiguration`. Not modified after `init`, so
/// connections may be made from it on several threads at once.
final class SSLContextHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    /// libssl's functions, for this context and its connections.
    let libssl: SecKitLibSSL

    init(_ configuration: TLSClientConfiguration, trustStore: TrustStore?) throws(TLSError) {
        libssl = try SSLLibrary.load().functions
        guard let context = libssl.SSL_CTX_new(libssl.TLS_client_method()) else { throw .openSSL("SSL_CTX_new") }
        pointer = context
        try setVersions(minimum: configuration.minimumVersion, maximum: configuration.maximumVersion)
        // Non-blocking I/O: SSL_write may return after part of the data, from a buffer that may move.
        _ = libssl.SSL_CTX_ctrl(
            context,
            SSL_CTRL_MODE,
            CLong(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER),
            nil
        )
        if let trustStore { libssl.SSL_CTX_set1_cert_store(context, trustStore.pointer) }
        // Pin-only trust is verified after the handshake, against the pins (ServerCertificateVerifier).
        libssl.SSL_CTX_set_verify(context, trustStore == nil ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nil)
        if let identity = configuration.clientIdentity { try Self.use(identity, on: context, libssl) }
        libssl.SSL_CTX_set_cert_cb(context, certificateRequestCallback, nil)
    }

    /// A context for one probe of a server (`TLSDiagnosis`): exactly `version` (an OpenSSL
    /// `TLS1_*_VERSION`, older ones at security level 0 so that they can be offered at all), no
    /// verification, `identity` sent when asked for, and `certificateRequest` called on a request.
    init(
        probing version: Int32,
        identity: ClientIdentity?,
        certificateRequest: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    ) throws(TLSError) {
        libssl = try SSLLibrary.load().functions
        guard let context = libssl.SSL_CTX_new(libssl.TLS_client_method()) else { throw .openSSL("SSL_CTX_new") }
        pointer = context
        if version < TLS1_2_VERSION {
            libssl.SSL_CTX_set_security_level(context, 0)
            _ = libssl.SSL_CTX_set_cipher_list(context, "DEFAULT:@SECLEVEL=0")
        }
        guard libssl.SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, CLong(version), nil) == 1,
            libssl.SSL_CTX_ctrl(context, SSL_CTRL_SET_MAX_PROTO_VERSION, CLong(version), nil) == 1
        else { throw .openSSL("SSL_CTX_set_min_proto_version") }
        libssl.SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
        if let identity { try Self.use(identity, on: context, libssl) }
        libssl.SSL_CTX_set_cert_cb(context, certificateRequest, nil)
    }

    deinit { libssl.SSL_CTX_free(pointer) }

    private func setVersions(minimum: TLSVersion, maximum: TLSVersion?) throws(TLSError) {
        // SSL_CTX_set_min_proto_version / SSL_CTX_set_max_proto_version are macros over SSL_CTX_ctrl.
        guard libssl.SSL_CTX_ctrl(pointer, SSL_CTRL_SET_MIN_PROTO_VERSION, CLong(minimum.openSSLVersion), nil) == 1
        else {
            throw .openSSL("SSL_CTX_set_min_proto_version")
        }
        if let maximum,
            libssl.SSL_CTX_ctrl(pointer, SSL_CTRL_SET_MAX_PROTO_VERSION, CLong(maximum.openSSLVersion), nil) != 1
        {
            throw .openSSL("SSL_CTX_set_max_proto_version")
        }
    }

    /// Puts `identity`'s certificate, chain and key on `pointer` (an `SSL_CTX`): the key stays in OpenSSL.
    static func use(_ identity: ClientIdentity, on pointer: OpaquePointer, _ libssl: SecKitLibSSL) throws(TLSError) {
        guard libssl.SSL_CTX_use_certificate(pointer, identity.certificate.handle.pointer) == 1 else {
            throw .openSSL("SSL_CTX_use_certificate")
        }
        for certificate in identity.chain {
            // SSL_CTX_add1_chain_cert is a macro over SSL_CTX_ctrl.
            guard
                libssl.SSL_CTX_ctrl(
                    pointer,
                    SSL_CTRL_CHAIN_CERT,
                    1,
                    UnsafeMutableRawPointer(certificate.handle.pointer)
                ) == 1
            else {
                throw .openSSL("SSL_CTX_add1_chain_cert")
            }
        }
        guard libssl.SSL_CTX_use_PrivateKey(pointer, identity.key.pointer) == 1 else {
            throw .openSSL("SSL_CTX_use_PrivateKey")
        }
        guard libssl.SSL_CTX_check_private_key(pointer) == 1 else {
            OpenSSLError.clearQueue()
            throw .keyMismatch
        }
    }
}

/// Called by OpenSSL when the server sends a CertificateRequest: marks the connection's state.
private let certificateRequestCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, _ in
    if let ssl, let state = SSLLibrary.loaded.SSL_get_ex_data(ssl, 0) {
        Unmanaged<HandshakeState>.fromOpaque(state).takeUnretainedValue().certificateRequested = true
    }
    return 1
}

/// What the callbacks learn during one handshake.
final class HandshakeState {
    var certificateRequested = false
    /// The CA names of the server's CertificateRequest (TLS 1.2) or its certificate_authorities
    /// extension (TLS 1.3), kept only by a diagnosis probe.
    var requestedCANames: [String] = []
    /// Depth of the first certificate the verifier refused.
    var failedDepth: Int?
}

extension TLSVersion {
    var openSSLVersion: Int32 {
        switch self {
        case .tls12: TLS1_2_VERSION
        case .tls13: TLS1_3_VERSION
        }
    }

    init?(openSSLVersion: Int32) {
        switch openSSLVersion {
        case TLS1_2_VERSION: self = .tls12
        case TLS1_3_VERSION: self = .tls13
        default: return nil
        }
    }
}
