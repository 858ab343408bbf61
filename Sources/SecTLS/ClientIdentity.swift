import Foundation
import SecCrypto

/// A client certificate with its private key, sent when a server asks for one (mutual TLS).
///
/// Loaded and checked when created: the key must belong to the certificate (`TLSError.keyMismatch`),
/// an encrypted key without a passphrase is `TLSError.passphraseRequired`, a wrong one
/// `TLSError.wrongPassphrase`. Passphrases are `SecureBytes` (read them with `SecretSource.read()`);
/// a nil passphrase means "none given", which is not the same as an empty one.
///
/// ```swift
/// let identity = try ClientIdentity(pkcs12: Data(contentsOf: p12URL), passphrase: SecretSource.environment("P12_PASS").read())
/// ```
public struct ClientIdentity: Sendable {
    /// The client certificate.
    public let certificate: Certificate
    /// The intermediate certificates sent after it (possibly none).
    public let chain: [Certificate]
    let key: PrivateKeyHandle

    /// A PEM certificate chain (client certificate first, then intermediates) and a PEM private key:
    /// PKCS#8 (`PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`), PKCS#1 (`RSA PRIVATE KEY`) or SEC1
    /// (`EC PRIVATE KEY`), the traditional forms also encrypted (`Proc-Type: 4,ENCRYPTED`).
    public init(certificateChainPEM: some DataProtocol, privateKeyPEM: some DataProtocol, passphrase: SecureBytes? = nil) throws(TLSError) {
        let certificates = try Self.loadCertificates(pem: [UInt8](certificateChainPEM))
        let key = try PrivateKeyHandle(pem: [UInt8](privateKeyPEM), passphrase: passphrase)
        try self.init(certificates: certificates, key: key)
    }

    /// One PEM file holding the certificate chain and the private key, in any order.
    public init(combinedPEM: some DataProtocol, passphrase: SecureBytes? = nil) throws(TLSError) {
        let bytes = [UInt8](combinedPEM)
        try self.init(certificateChainPEM: bytes, privateKeyPEM: bytes, passphrase: passphrase)
    }

    /// A PKCS#12 (`.p12`, `.pfx`) file with its certificate, key and optional CA certificates. Nil
    /// passphrase: the file must have none (or an empty one, as `openssl pkcs12 -passout pass:` writes).
    public init(pkcs12: some DataProtocol, passphrase: SecureBytes?) throws(TLSError) {
        let contents = try Self.loadPKCS12([UInt8](pkcs12), passphrase: passphrase)
        try self.init(certificates: contents.certificates, key: contents.key)
    }

    /// Files on disk; the key file may be the certificate file (a combined PEM).
    public init(certificateFile: String, keyFile: String? = nil, passphrase: SecureBytes? = nil) throws(TLSError) {
        let certificates = try Self.readFile(certificateFile, "certificate file")
        let key = try keyFile.map { path throws(TLSError) in try Self.readFile(path, "key file") } ?? certificates
        try self.init(certificateChainPEM: certificates, privateKeyPEM: key, passphrase: passphrase)
    }

    private static func readFile(_ path: String, _ what: String) throws(TLSError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidClientIdentity("cannot read the \(what) \(path)")
        }
        return [UInt8](data)
    }
}
