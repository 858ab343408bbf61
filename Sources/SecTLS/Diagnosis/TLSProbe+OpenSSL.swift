internal import COpenSSL
import SecCrypto

/// What one handshake at one protocol version, without any verification, showed of a server.
struct TLSProbe {
    /// The protocol versions probed, newest first, by their OpenSSL names.
    static let versions: [(name: String, code: Int32)] = [
        ("TLSv1.3", TLS1_3_VERSION), ("TLSv1.2", TLS1_2_VERSION), ("TLSv1.1", TLS1_1_VERSION), ("TLSv1", TLS1_VERSION),
    ]

    /// The version's name.
    var version: String
    /// True when the server answered with this version (it sent its certificate).
    var accepted: Bool
    /// The certificates the server sent, in its order.
    var sentChain: [X509Certificate]
    var certificateRequested: Bool
    /// The CA names of the certificate request, in the server's order.
    var requestedCANames: [String]
    /// Why the handshake failed, when it did (it may fail after the server sent its certificate).
    var failure: TLSError?

    /// Connects to `host`:`port` and shakes hands at `version` only, sending `serverName` in SNI
    /// (unless it is an IP address) and `identity` when asked. Throws only when no TCP connection
    /// can be made; a refused handshake is a probe with `accepted` false.
    static func run(
        host: String,
        port: Int,
        serverName: String,
        version: (name: String, code: Int32),
        identity: ClientIdentity?,
        timeouts: TLSTimeouts
    ) throws(TLSError) -> TLSProbe {
        let context = try SSLContextHandle(
            probing: version.code,
            identity: identity,
            certificateRequest: recordingCertificateRequest
        )
        let socket = try TCPSocket.connect(host: host, port: port, deadline: .now + timeouts.connect)
        let session = try SSLSession(socket: socket, context: context)
        let ssl = session.ssl
        let libssl = session.libssl
        if !TCPSocket.isIPAddress(serverName) { try session.sendServerName(serverName) }
        var failure: TLSError?
        do {
            try session.perform(.handshake, deadline: .now + timeouts.handshake) { libssl.SSL_connect(ssl) }
        } catch {
            failure = error
        }
        let sent = session.peerChain(reusing: [])
        let negotiated = libssl.SSL_version(ssl)
        defer { session.close() }
        return TLSProbe(
            version: version.name,
            accepted: !sent.isEmpty && negotiated == version.code,
            sentChain: sent,
            certificateRequested: session.state.certificateRequested,
            requestedCANames: session.state.requestedCANames,
            failure: failure
        )
    }
}

/// The probe's certificate callback: notes the request and the CA names it carries
/// (`SSL_get0_peer_CA_list`: TLS 1.2's CertificateRequest list, TLS 1.3's certificate_authorities).
private let recordingCertificateRequest: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = {
    ssl,
    _ in
    guard let ssl else { return 1 }
    let libssl = SSLLibrary.loaded
    guard let pointer = libssl.SSL_get_ex_data(ssl, 0) else { return 1 }
    let state = Unmanaged<HandshakeState>.fromOpaque(pointer).takeUnretainedValue()
    state.certificateRequested = true
    if let names = libssl.SSL_get0_peer_CA_list(ssl) {
        state.requestedCANames = (0..<OPENSSL_sk_num(names)).compactMap { index in
            let name = OPENSSL_sk_value(names, index).map(OpaquePointer.init)
            return try? X509Certificate.name(name, "CA")
        }
    }
    return 1
}
