internal import COpenSSL
import SecCrypto

#if canImport(Glibc)
import Glibc
#endif

/// One OpenSSL `SSL` over a non-blocking socket it owns: the handshake with every check, then I/O
/// with deadlines.
final class SSLSession {
    let ssl: OpaquePointer
    /// libssl's functions (its context's).
    let libssl: SecKitLibSSL
    private let descriptor: Int32
    let state = HandshakeState()
    /// The chain the server sent, once built (see `peerChain(reusing:)`).
    private var sentChain: [X509Certificate]?
    private var established = false
    private var closed = false

    init(socket: TCPSocket, context: SSLContextHandle) throws(TLSError) {
        let libssl = context.libssl
        guard let ssl = libssl.SSL_new(context.pointer) else {
            Glibc.close(socket.descriptor)
            throw .openSSL("SSL_new")
        }
        self.ssl = ssl
        self.libssl = libssl
        self.descriptor = socket.descriptor
        guard libssl.SSL_set_fd(ssl, socket.descriptor) == 1 else { throw .openSSL("SSL_set_fd") }
        _ = libssl.SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(state).toOpaque())
    }

    deinit {
        close()
        libssl.SSL_free(ssl)
    }

    // MARK: - Handshake

    func handshake(
        serverName: String,
        port: Int,
        configuration: TLSClientConfiguration,
        verifier: ServerCertificateVerifier,
        deadline: ContinuousClock.Instant
    ) throws(TLSError) -> EstablishedSession {
        let pinsOnly = configuration.trustRoots == .pinsOnly
        let isIPAddress = TCPSocket.isIPAddress(serverName)
        if !pinsOnly {
            if isIPAddress {
                guard X509_VERIFY_PARAM_set1_ip_asc(libssl.SSL_get0_param(ssl), serverName) == 1 else {
                    throw .openSSL("X509_VERIFY_PARAM_set1_ip_asc")
                }
            } else {
                libssl.SSL_set_hostflags(ssl, ChainVerification.hostFlags)
                guard libssl.SSL_set1_host(ssl, serverName) == 1 else { throw .openSSL("SSL_set1_host") }
            }
        }
        if !isIPAddress { try sendServerName(serverName) }
        libssl.SSL_set_verify(ssl, pinsOnly ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, verifyCallback)

        try perform(.handshake, deadline: deadline) { libssl.SSL_connect(ssl) }

        let verified: VerifiedServerChain
        if pinsOnly {
            // The handshake checked nothing: the verifier links the sent chain to a pinned certificate.
            verified = try verifier.verify(peerChain(reusing: []), serverName: serverName, port: port)
        } else {
            let chain = certificates(libssl.SSL_get0_verified_chain(ssl))
            verified = VerifiedServerChain(
                chain: chain,
                pinEvaluation: try verifier.checkPins(
                    chain,
                    serverName: serverName,
                    port: port,
                    servedChain: { self.peerChain(reusing: chain) },
                    at: Date()
                )
            )
        }

        let version = TLSVersion(openSSLVersion: libssl.SSL_version(ssl)) ?? .tls12
        if version == .tls13 && state.certificateRequested {
            try confirmClientCertificate(
                deadline: min(deadline, .now + configuration.timeouts.clientCertificateConfirmation)
            )
        }
        established = true
        return EstablishedSession(
            protocolVersion: version,
            cipher: libssl.SSL_CIPHER_get_name(libssl.SSL_get_current_cipher(ssl)).map { String(cString: $0) } ?? "",
            verifiedChain: verified.chain,
            pinEvaluation: verified.pinEvaluation,
            clientCertificateRequested: state.certificateRequested
        )
    }

    /// Sends `serverName` in SNI (not for an IP address: RFC 6066 section 3).
    func sendServerName(_ serverName: String) throws(TLSError) {
        // SSL_set_tlsext_host_name is a macro over SSL_ctrl.
        let ok = serverName.withCString { name in
            libssl.SSL_ctrl(
                ssl,
                SSL_CTRL_SET_TLSEXT_HOSTNAME,
                CLong(TLSEXT_NAMETYPE_host_name),
                UnsafeMutableRawPointer(mutating: name)
            )
        }
        guard ok == 1 else { throw .openSSL("SSL_set_tlsext_host_name") }
    }

    /// Under TLS 1.3 the server judges our certificate (or its absence) after the handshake: waits for
    /// its verdict — an alert, or its first record (session tickets, data) — until `deadline`.
    private func confirmClientCertificate(deadline: ContinuousClock.Instant) throws(TLSError) {
        var byte: UInt8 = 0
        while true {
            let result = try TCPSocket.withSIGPIPEBlocked { () throws(TLSError) in libssl.SSL_peek(ssl, &byte, 1) }
            if result > 0 { return }
            let error = libssl.SSL_get_error(ssl, result)
            switch error {
            case SSL_ERROR_WANT_READ:
                // A ticket came: accepted.
                if libssl.SSL_SESSION_is_resumable(libssl.SSL_get_session(ssl)) == 1 { return }
                if try !TCPSocket.wait(descriptor, for: Int16(POLLIN), until: deadline) { return }
            case SSL_ERROR_WANT_WRITE:
                if try !TCPSocket.wait(descriptor, for: Int16(POLLOUT), until: deadline) { return }
            case SSL_ERROR_ZERO_RETURN:
                return
            default:
                throw failure(error, phase: .handshake)
            }
        }
    }

    /// The chain the server sent, built on first use (most callers never look at it); certificates
    /// that are also in `known` (the same OpenSSL objects, as in the verified chain) are shared.
    func peerChain(reusing known: [X509Certificate]) -> [X509Certificate] {
        if let sentChain { return sentChain }
        let chain = certificates(libssl.SSL_get_peer_cert_chain(ssl), reusing: known)
        sentChain = chain
        return chain
    }

    // MARK: - I/O

    func read(maxLength: Int, deadline: ContinuousClock.Instant) throws(TLSError) -> [UInt8] {
        guard !closed else { throw .connectionBroken("the connection is closed") }
        guard maxLength > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: maxLength)
        var count = 0
        try perform(.read, deadline: deadline) { libssl.SSL_read_ex(ssl, &buffer, maxLength, &count) }
        return Array(buffer.prefix(count))
    }

    func write(_ bytes: [UInt8], timeout: Duration) throws(TLSError) {
        guard !closed else { throw .connectionBroken("the connection is closed") }
        var offset = 0
        while offset < bytes.count {
            var written = 0
            try perform(.write, deadline: .now + timeout) {
                bytes[offset...].withUnsafeBytes { libssl.SSL_write_ex(ssl, $0.baseAddress, $0.count, &written) }
            }
            offset += written
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        if established { _ = try? TCPSocket.withSIGPIPEBlocked { () throws(TLSError) in libssl.SSL_shutdown(ssl) } }
        Glibc.close(descriptor)
    }

    /// Calls `operation` (an `SSL_*` call returning 1 on success, or ≤ 0) until it succeeds, waiting
    /// for the socket as OpenSSL asks, until `deadline`. A clean end of stream (close_notify) is a
    /// success for a read that then returned nothing.
    func perform(
        _ phase: TLSPhase,
        deadline: ContinuousClock.Instant,
        _ operation: () -> Int32
    ) throws(TLSError) {
        OpenSSLError.clearQueue()
        while true {
            let result = try TCPSocket.withSIGPIPEBlocked { () throws(TLSError) in operation() }
            if result > 0 { return }
            let error = libssl.SSL_get_error(ssl, result)
            switch error {
            case SSL_ERROR_WANT_READ:
                guard try TCPSocket.wait(descriptor, for: Int16(POLLIN), until: deadline) else {
                    throw .timedOut(phase)
                }
            case SSL_ERROR_WANT_WRITE:
                guard try TCPSocket.wait(descriptor, for: Int16(POLLOUT), until: deadline) else {
                    throw .timedOut(phase)
                }
            case SSL_ERROR_ZERO_RETURN where phase == .read:
                return
            default:
                throw failure(error, phase: phase)
            }
        }
    }

    // MARK: - Errors

    /// The typed error for a failed `SSL_*` call (`error` from `SSL_get_error`); empties OpenSSL's queue.
    private func failure(_ error: Int32, phase: TLSPhase) -> TLSError {
        let savedErrno = errno
        let entries = OpenSSLError.drainQueue()
        // Reason codes are per library: only libssl's say what happened to the connection.
        let reasons = entries.filter { $0.library == ERR_LIB_SSL }.map(\.reasonCode)
        // (In pin-only mode OpenSSL records a verification result too, but does not fail on it.)
        let verifyResult = libssl.SSL_get_verify_result(ssl)
        if reasons.contains(SSL_R_CERTIFICATE_VERIFY_FAILED), verifyResult != CLong(X509_V_OK) {
            return .certificateVerificationFailed(
                ChainVerification.verificationFailure(
                    code: Int32(verifyResult),
                    depth: state.failedDepth,
                    peerChain: certificates(libssl.SSL_get_peer_cert_chain(ssl))
                )
            )
        }
        if let alert = reasons.first(where: { (SSL_AD_REASON_OFFSET..<SSL_AD_REASON_OFFSET + 256).contains($0) }).map({
            $0 - SSL_AD_REASON_OFFSET
        }) {
            let name = libssl.SSL_alert_desc_string_long(alert).map { String(cString: $0) } ?? "alert \(alert)"
            if alert == SSL_AD_CERTIFICATE_REQUIRED { return .clientCertificateRequired }
            if state.certificateRequested {
                let hadIdentity = libssl.SSL_get_certificate(ssl) != nil
                if !hadIdentity && alert == SSL_AD_HANDSHAKE_FAILURE { return .clientCertificateRequired }
                if hadIdentity && Self.certificateAlerts.contains(alert) { return .clientCertificateRejected(name) }
            }
            return phase == .handshake
                ? .handshakeFailed("the server sent the alert \(name)")
                : .connectionBroken("the server sent the alert \(name)")
        }
        let reason: String
        if !entries.isEmpty {
            reason = entries.map(\.reason).joined(separator: "; ")
        } else if error == SSL_ERROR_SYSCALL && savedErrno != 0 {
            reason = String(cString: strerror(savedErrno))
        } else {
            reason = "the server closed the connection"
        }
        return phase == .handshake ? .handshakeFailed(reason) : .connectionBroken(reason)
    }

    /// Alerts a server sends about a client certificate it refuses.
    private static let certificateAlerts: Set<Int32> = [
        SSL_AD_BAD_CERTIFICATE, SSL_AD_UNSUPPORTED_CERTIFICATE, SSL_AD_CERTIFICATE_REVOKED, SSL_AD_CERTIFICATE_EXPIRED,
        SSL_AD_CERTIFICATE_UNKNOWN, SSL_AD_UNKNOWN_CA, SSL_AD_ACCESS_DENIED, SSL_AD_DECRYPT_ERROR,
    ]
}

/// Records the depth of the first certificate the verifier refused, then lets OpenSSL decide.
private let verifyCallback: @convention(c) (Int32, OpaquePointer?) -> Int32 = { preverifyOK, storeContext in
    if preverifyOK == 0, let storeContext,
        case let libssl = SSLLibrary.loaded,
        let ssl = X509_STORE_CTX_get_ex_data(storeContext, libssl.SSL_get_ex_data_X509_STORE_CTX_idx()),
        let state = libssl.SSL_get_ex_data(OpaquePointer(ssl), 0)
    {
        let handshake = Unmanaged<HandshakeState>.fromOpaque(state).takeUnretainedValue()
        if handshake.failedDepth == nil { handshake.failedDepth = Int(X509_STORE_CTX_get_error_depth(storeContext)) }
    }
    return preverifyOK
}

/// The certificates of a `STACK_OF(X509)`, each keeping its own reference; an object that one of
/// `known` already wraps is not parsed again.
func certificates(_ stack: OpaquePointer?, reusing known: [X509Certificate] = []) -> [X509Certificate] {
    guard let stack else { return [] }
    var result: [X509Certificate] = []
    for index in 0..<OPENSSL_sk_num(stack) {
        guard let x509 = OPENSSL_sk_value(stack, index).map(OpaquePointer.init) else { continue }
        if let shared = known.first(where: { $0.handle.pointer == x509 }) {
            result.append(shared)
        } else if let certificate = try? X509Certificate(handle: X509Handle(retaining: x509)) {
            result.append(certificate)
        }
    }
    return result
}
