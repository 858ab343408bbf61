internal import COpenSSL
import SecCrypto
import Synchronization

/// SecTLS's policy on an OpenSSL `SSL_CTX` that another TLS stack owns and drives: libcurl's, which
/// it hands to `CURLOPT_SSL_CTX_FUNCTION` before each new connection's handshake. The chain is
/// verified by `ServerCertificateVerifier` (trust roots, host name, pins) inside OpenSSL's
/// certificate verification callback, so a refused server fails the handshake before the stack can
/// send a byte of its request; the client identity's key is handed to OpenSSL as it is, never
/// exported. The other stack's own verification must be off (it would check with its own roots).
///
/// One value serves one connection at a time (the stack's handle): `serverName` is the name of the
/// connection being made, and `takeFailure()` what refused it.
package final class ForeignTLSContext: Sendable {
    private let configuration: TLSClientConfiguration
    private let verifier: ServerCertificateVerifier
    private let state = Mutex<(serverName: String, failure: TLSError?)>(("", nil))

    /// Reads the trust roots (as `TLSClient.init` does). Throws `invalidConfiguration` for an
    /// unreadable CA file or pin-only trust without pins.
    package init(configuration: TLSClientConfiguration) throws(TLSError) {
        try configuration.checkVersionRange()
        self.configuration = configuration
        verifier = try ServerCertificateVerifier(configuration: configuration)
    }

    /// The name the next handshake's certificate must carry (and its pins are looked up by):
    /// `configuration.serverName` when set, else `host`. Clears the last failure.
    package func prepare(host: String) {
        let name = HostPattern.normalize(configuration.serverName ?? host)
        state.withLock { $0 = (name, nil) }
    }

    /// What refused the last handshake (certificate, pins), once; nil when nothing did.
    package func takeFailure() -> TLSError? {
        state.withLock { state in
            defer { state.failure = nil }
            return state.failure
        }
    }

    /// Sets the versions, the verification callback and the client identity on `context` (an
    /// `SSL_CTX *`). The context must not outlive this value. Returns a failure to set them up.
    package func install(on context: UnsafeMutableRawPointer) -> TLSError? {
        let context = OpaquePointer(context)
        let libssl: SecKitLibSSL
        do throws(TLSError) {
            libssl = try SSLLibrary.load().functions  // the stack has loaded it: this finds it
        } catch {
            return error
        }
        guard
            libssl.SSL_CTX_ctrl(
                context,
                SSL_CTRL_SET_MIN_PROTO_VERSION,
                CLong(configuration.minimumVersion.openSSLVersion),
                nil
            ) == 1
        else { return .openSSL("SSL_CTX_set_min_proto_version") }
        if let maximum = configuration.maximumVersion,
            libssl.SSL_CTX_ctrl(context, SSL_CTRL_SET_MAX_PROTO_VERSION, CLong(maximum.openSSLVersion), nil) != 1
        {
            return .openSSL("SSL_CTX_set_max_proto_version")
        }
        // The callback replaces OpenSSL's chain verification: it runs ServerCertificateVerifier.
        libssl.SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        libssl.SSL_CTX_set_cert_verify_callback(
            context,
            foreignVerifyCallback,
            Unmanaged.passUnretained(self).toOpaque()
        )
        if let identity = configuration.clientIdentity {
            do throws(TLSError) {
                try SSLContextHandle.use(identity, on: context, libssl)
            } catch {
                return error
            }
        }
        return nil
    }

    /// Verifies the chain the server presented; records the refusal.
    fileprivate func verify(_ storeContext: OpaquePointer) -> Bool {
        let presented = certificates(X509_STORE_CTX_get0_untrusted(storeContext))
        let serverName = state.withLock { $0.serverName }
        do throws(TLSError) {
            _ = try verifier.verify(presented, serverName: serverName)
            return true
        } catch {
            state.withLock { $0.failure = error }
            X509_STORE_CTX_set_error(storeContext, X509_V_ERR_APPLICATION_VERIFICATION)
            return false
        }
    }
}

/// OpenSSL's whole-chain verification callback, pointing at a `ForeignTLSContext`.
private let foreignVerifyCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = {
    storeContext,
    argument in
    guard let storeContext, let argument else { return 0 }
    return Unmanaged<ForeignTLSContext>.fromOpaque(argument).takeUnretainedValue().verify(storeContext) ? 1 : 0
}
