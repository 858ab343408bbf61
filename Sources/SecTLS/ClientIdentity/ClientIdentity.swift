import SecCrypto
import SecIO

/// A client certificate with its private key, sent when a server asks for one (mutual TLS).
///
/// Loaded and checked when created: the key must belong to the certificate (`TLSError.keyMismatch`),
/// an encrypted key without a passphrase is `TLSError.passphraseRequired`, a wrong one
/// `TLSError.wrongPassphrase`. Passphrases are `SecureBytes` (read them with `SecretSource.read()`);
/// a nil passphrase means "none given", which is not the same as an empty one. Key bytes are
/// handed to OpenSSL in place; the copies SecTLS makes (files it reads, non-contiguous input) are
/// `SecureBytes`, wiped when released.
///
/// ```swift
/// let identity = try ClientIdentity(pkcs12: Data(contentsOf: p12URL), passphrase: SecretSource.environment("P12_PASS").read())
/// ```
public struct ClientIdentity: Sendable {
    /// The client certificate.
    public let certificate: X509Certificate
    /// The intermediate certificates sent after it (possibly none).
    public let chain: [X509Certificate]
    let key: PrivateKeyHandle

    /// A PEM certificate chain (client certificate first, then intermediates) and a PEM private key:
    /// PKCS#8 (`PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`), PKCS#1 (`RSA PRIVATE KEY`) or SEC1
    /// (`EC PRIVATE KEY`), the traditional forms also encrypted (`Proc-Type: 4,ENCRYPTED`).
    ///
    /// - Parameters:
    ///   - certificateChainPEM: the PEM certificates, client certificate first.
    ///   - privateKeyPEM: the PEM private key.
    ///   - passphrase: the key's passphrase; nil (the default) when it has none.
    /// - Throws: ``TLSError/invalidClientIdentity(_:)`` when there is no certificate or no private key,
    ///   or the key cannot be read; ``TLSError/malformedCertificate(_:)`` for a certificate that cannot
    ///   be read; ``TLSError/passphraseRequired(_:)`` for an encrypted key without `passphrase`;
    ///   ``TLSError/wrongPassphrase(_:)`` when `passphrase` does not open it; ``TLSError/keyMismatch``
    ///   when the key does not belong to the first certificate.
    public init(
        certificateChainPEM: some DataProtocol,
        privateKeyPEM: some DataProtocol,
        passphrase: SecureBytes? = nil
    ) throws(TLSError) {
        let certificates = try certificateChainPEM.withContiguousBytes { (pem) throws(TLSError) in
            try Self.loadCertificates(pem: pem)
        }
        let key = try privateKeyPEM.withContiguousBytes { (pem) throws(TLSError) in
            try PrivateKeyHandle(pem: pem, passphrase: passphrase)
        }
        try self.init(certificates: certificates, key: key)
    }

    /// One PEM file holding the certificate chain and the private key, in any order.
    ///
    /// - Parameters:
    ///   - combinedPEM: the PEM text with the certificates (client certificate first) and the private
    ///     key.
    ///   - passphrase: the key's passphrase; nil (the default) when it has none.
    /// - Throws: ``TLSError/invalidClientIdentity(_:)`` when there is no certificate or no private key,
    ///   or the key cannot be read; ``TLSError/malformedCertificate(_:)`` for a certificate that cannot
    ///   be read; ``TLSError/passphraseRequired(_:)`` for an encrypted key without `passphrase`;
    ///   ``TLSError/wrongPassphrase(_:)`` when `passphrase` does not open it; ``TLSError/keyMismatch``
    ///   when the key does not belong to the first certificate.
    public init(combinedPEM: some DataProtocol, passphrase: SecureBytes? = nil) throws(TLSError) {
        try self.init(certificateChainPEM: combinedPEM, privateKeyPEM: combinedPEM, passphrase: passphrase)
    }

    /// A PKCS#12 (`.p12`, `.pfx`) file with its certificate, key and optional CA certificates. Nil
    /// passphrase: the file must have none (or an empty one, as `openssl pkcs12 -passout pass:` writes).
    ///
    /// - Parameters:
    ///   - pkcs12: the DER bytes of the PKCS#12 file.
    ///   - passphrase: the file's passphrase; nil when it has none or an empty one.
    /// - Throws: ``TLSError/invalidClientIdentity(_:)`` when the bytes are not a PKCS#12 file, its
    ///   contents cannot be read, or it holds no private key or no certificate;
    ///   ``TLSError/passphraseRequired(_:)`` for a file that needs a passphrase and got none;
    ///   ``TLSError/wrongPassphrase(_:)`` when `passphrase` does not open it; ``TLSError/keyMismatch``
    ///   when the key does not belong to the certificate.
    public init(pkcs12: some DataProtocol, passphrase: SecureBytes?) throws(TLSError) {
        let contents = try pkcs12.withContiguousBytes { (der) throws(TLSError) in
            try Self.loadPKCS12(der, passphrase: passphrase)
        }
        try self.init(certificates: contents.certificates, key: contents.key)
    }

    /// Files on disk, of at most `maximumFileSize` bytes each; the key file may be the certificate
    /// file (a combined PEM). Both are read into `SecureBytes`.
    ///
    /// - Parameters:
    ///   - certificateFile: the path of the PEM certificate chain (client certificate first).
    ///   - keyFile: the path of the PEM private key; nil (the default) when `certificateFile` holds it
    ///     too.
    ///   - passphrase: the key's passphrase; nil (the default) when it has none.
    /// - Throws: ``TLSError/invalidClientIdentity(_:)`` when a file cannot be read or is larger than
    ///   ``ClientIdentity/maximumFileSize``, or holds no certificate or no private key; then what
    ///   ``ClientIdentity/init(certificateChainPEM:privateKeyPEM:passphrase:)`` throws for their
    ///   contents.
    public init(certificateFile: String, keyFile: String? = nil, passphrase: SecureBytes? = nil) throws(TLSError) {
        let certificatePEM = try Self.readFile(certificateFile, "certificate file")
        let keyPEM = try keyFile.map { path throws(TLSError) in try Self.readFile(path, "key file") } ?? certificatePEM
        try self.init(certificatePEM: certificatePEM, keyPEM: keyPEM, passphrase: passphrase)
    }

    /// `init(combinedPEM:passphrase:)` of a secret held in `SecureBytes` (a keychain item's secret),
    /// read in place.
    ///
    /// - Parameters:
    ///   - combinedPEM: the PEM text with the certificates (client certificate first) and the private
    ///     key.
    ///   - passphrase: the key's passphrase; nil (the default) when it has none.
    /// - Throws: what ``ClientIdentity/init(certificateChainPEM:privateKeyPEM:passphrase:)`` throws:
    ///   ``TLSError/invalidClientIdentity(_:)``, ``TLSError/malformedCertificate(_:)``,
    ///   ``TLSError/passphraseRequired(_:)``, ``TLSError/wrongPassphrase(_:)`` or
    ///   ``TLSError/keyMismatch``.
    public init(combinedPEM: SecureBytes, passphrase: SecureBytes? = nil) throws(TLSError) {
        try self.init(certificatePEM: combinedPEM, keyPEM: combinedPEM, passphrase: passphrase)
    }

    private init(certificatePEM: SecureBytes, keyPEM: SecureBytes, passphrase: SecureBytes?) throws(TLSError) {
        let certificates = try certificatePEM.withBytes { (pem) throws(TLSError) in
            try Self.loadCertificates(pem: pem)
        }
        let key = try keyPEM.withBytes { (pem) throws(TLSError) in
            try PrivateKeyHandle(pem: pem, passphrase: passphrase)
        }
        try self.init(certificates: certificates, key: key)
    }

    /// The identity as one PEM text that `init(combinedPEM:)` reads back: the certificate, the chain,
    /// then the private key as unencrypted PKCS#8. For a store that protects it as a whole (the
    /// Secret Service secret of a stored identity); never write it where others can read it.
    ///
    /// - Returns: the PEM text, in memory that is wiped on release.
    /// - Throws: ``TLSError/backendFailure(_:)`` when OpenSSL cannot write the key.
    public func combinedPEM() throws(TLSError) -> SecureBytes {
        let certificates = ([certificate] + chain).map(\.pemRepresentation).joined()
        let key = try key.unencryptedPKCS8PEM()
        return SecureBytes(count: certificates.utf8.count + key.count) { destination in
            destination.copyBytes(from: certificates.utf8)
            key.withUnsafeBytes {
                UnsafeMutableRawBufferPointer(rebasing: destination[certificates.utf8.count...]).copyMemory(from: $0)
            }
        }
    }

    /// The largest certificate or key file `init(certificateFile:keyFile:passphrase:)` reads (1 MiB).
    public static let maximumFileSize = 1 << 20

    private static func readFile(_ path: String, _ what: String) throws(TLSError) -> SecureBytes {
        do {
            return try SecretSource.file(path).readAll(limit: maximumFileSize)
        } catch .tooLong {
            throw .invalidClientIdentity("the \(what) \(path) is larger than \(maximumFileSize) bytes")
        } catch {
            throw .invalidClientIdentity("cannot read the \(what) \(path)")
        }
    }
}
