import SecCrypto

/// An X.509 certificate, parsed once by OpenSSL. A value type: copies share one immutable OpenSSL
/// object, and two certificates are equal when their DER encodings are.
///
/// ```swift
/// let chain = try X509Certificate.load(pem: String(contentsOfFile: "chain.pem", encoding: .utf8))
/// print(chain[0].subject)                           // CN=localhost,O=Example
/// print(chain[0].fingerprint(.sha256))              // sha256 Fingerprint=AB:CD:…
/// print(chain[0].publicKeyPin)                      // sha256/<base64>
/// ```
public struct X509Certificate: Hashable, Sendable, CustomStringConvertible {
    /// The OpenSSL object, which the TLS client hands to libssl (trust stores, client identities) as it is.
    let handle: X509Handle

    /// Subject distinguished name, one line in RFC 2253 form (most specific attribute first,
    /// `CN=localhost,O=Example,C=DE`), non-ASCII characters as UTF-8. Equal to what
    /// `openssl x509 -noout -subject -nameopt RFC2253,-esc_msb,utf8` prints after `subject=`.
    public let subject: String
    /// Issuer distinguished name, in the same form as `subject`.
    public let issuer: String
    /// Serial number in upper-case hex, two digits per byte, a leading `-` if negative
    /// (as `openssl x509 -serial` prints it after `serial=`).
    public let serialNumber: String
    /// Start of the validity period.
    public let notBefore: Date
    /// End of the validity period.
    public let notAfter: Date
    /// The DNS names, IP addresses, e-mail addresses and URIs of the subjectAltName extension, in order.
    public let subjectAlternativeNames: [SubjectAlternativeName]
    /// The subject public key's algorithm.
    public let publicKeyType: PublicKeyType
    /// The key size in bits as OpenSSL reports it (2048 for RSA-2048, 256 for P-256 and Ed25519).
    public let publicKeyBits: Int
    /// The certificate's DER encoding, exactly as read.
    public let derRepresentation: [UInt8]
    /// The DER SubjectPublicKeyInfo (`i2d_X509_PUBKEY`): what RFC 7469 pins hash.
    public let spkiDER: [UInt8]

    /// Parses exactly one DER-encoded certificate; trailing bytes are refused.
    ///
    /// - Parameter der: the certificate's DER bytes.
    /// - Throws: ``TLSError/malformedCertificate(_:)`` for empty input, bytes that are not one DER
    ///   X.509 certificate, trailing bytes after it, or a certificate whose names, dates or
    ///   subjectAltName cannot be read; ``TLSError/backendFailure(_:)`` when OpenSSL fails.
    public init(der: some DataProtocol) throws(TLSError) {
        let bytes = [UInt8](der)
        let handle = try X509Handle(der: bytes)
        self = try X509Certificate(handle: handle)
    }

    /// Every certificate of `pem`, in order. Text before a block (RFC 7468 explanatory text, as CA
    /// bundles and `openssl x509 -text` write) is ignored, and so are blocks of other labels (a private
    /// key in a combined file); an unterminated block, bad base64, or anything but white space after
    /// the last block throws, and so does text without any certificate.
    ///
    /// - Parameter pem: PEM text: one certificate, a chain or a CA bundle.
    /// - Returns: the certificates in the order of their blocks; at least one.
    /// - Throws: ``TLSError/malformedPEM(_:)`` for an unterminated block, mismatched labels, bad base64
    ///   or text after the last block; ``TLSError/malformedCertificate(_:)`` for a `CERTIFICATE` block
    ///   that is not a certificate (the message names the block); ``TLSError/unsupported(_:)`` for a
    ///   `TRUSTED CERTIFICATE` block; ``TLSError/noCertificates`` when there is no certificate block.
    public static func load(pem: String) throws(TLSError) -> [X509Certificate] {
        let blocks = try PEMBlock.parse(pem)
        var certificates: [X509Certificate] = []
        for (index, block) in blocks.enumerated() {
            switch block.label {
            case "CERTIFICATE", "X509 CERTIFICATE":
                do {
                    certificates.append(try X509Certificate(der: block.bytes))
                } catch .malformedCertificate(let reason) {
                    throw .malformedCertificate("PEM block \(index + 1): \(reason)")
                }
            case "TRUSTED CERTIFICATE":
                throw .unsupported(
                    "PEM block \(index + 1): TRUSTED CERTIFICATE (OpenSSL's trust-settings form) is not supported; convert with `openssl x509`"
                )
            default:
                continue
            }
        }
        guard !certificates.isEmpty else { throw .noCertificates }
        return certificates
    }

    /// `load(pem:)` of UTF-8 bytes (a file's contents).
    ///
    /// - Parameter bytes: PEM text as UTF-8 bytes.
    /// - Returns: the certificates in the order of their blocks; at least one.
    /// - Throws: what `load(pem:)` throws for the text.
    public static func load(pem bytes: some DataProtocol) throws(TLSError) -> [X509Certificate] {
        try load(pem: String(decoding: [UInt8](bytes), as: UTF8.self))
    }

    /// The certificate as one PEM block (`-----BEGIN CERTIFICATE-----`, 64 characters a line).
    public var pemRepresentation: String {
        "-----BEGIN CERTIFICATE-----\n" + Base64.encode(derRepresentation, lineLength: 64)
            + "\n-----END CERTIFICATE-----\n"
    }

    /// The fingerprint (digest of the DER certificate) with `algorithm`; prints like
    /// `openssl x509 -fingerprint -sha256`.
    ///
    /// - Parameter algorithm: the digest algorithm.
    /// - Returns: the digest of ``X509Certificate/derRepresentation`` with `algorithm`.
    public func fingerprint(_ algorithm: HashAlgorithm) -> CertificateFingerprint {
        CertificateFingerprint(
            uncheckedAlgorithm: algorithm,
            bytes: DigestHasher.hash(algorithm, data: derRepresentation).bytes
        )
    }

    /// The RFC 7469 pin of this certificate's public key: SHA-256 of `spkiDER`.
    public var publicKeyPin: PublicKeyPin {
        PublicKeyPin(uncheckedSHA256: SHA256.hash(data: spkiDER).bytes)
    }

    /// True when the subject and issuer names are equal (a root or another self-issued certificate).
    public var isSelfIssued: Bool { subject == issuer }

    /// `subject` and validity, one line.
    public var description: String {
        "X509Certificate(subject: \(subject), issuer: \(issuer), notAfter: \(notAfter))"
    }

    /// Compares the DER encodings.
    ///
    /// - Parameters:
    ///   - lhs: a certificate.
    ///   - rhs: another certificate.
    /// - Returns: true when both have the same DER encoding.
    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool {
        lhs.derRepresentation == rhs.derRepresentation
    }
    /// Feeds the DER encoding to `hasher`.
    ///
    /// - Parameter hasher: the hasher to feed.
    public func hash(into hasher: inout Hasher) {
        // In one call: `Array`'s own hashing feeds the hasher byte by byte, which showed in the
        // profiles of servers that look their clients' chains up per connection.
        derRepresentation.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

/// One entry of the subjectAltName extension.
public enum SubjectAlternativeName: Hashable, Sendable, CustomStringConvertible {
    case dns(String)
    /// An IPv4 (`127.0.0.1`) or IPv6 (`::1`, RFC 5952 form) address.
    case ipAddress(String)
    case email(String)
    case uri(String)

    /// As `openssl x509 -ext subjectAltName` labels them: `DNS:localhost`, `IP Address:127.0.0.1`.
    public var description: String {
        switch self {
        case .dns(let name): "DNS:\(name)"
        case .ipAddress(let address): "IP Address:\(address)"
        case .email(let address): "email:\(address)"
        case .uri(let uri): "URI:\(uri)"
        }
    }
}

/// The algorithm of a certificate's public key.
public enum PublicKeyType: Hashable, Sendable, CustomStringConvertible {
    case rsa
    case rsaPSS
    /// An elliptic-curve key on the named curve (OpenSSL's name: `prime256v1`, `secp384r1`).
    case ec(curve: String)
    case ed25519
    case ed448
    case dsa
    /// Anything else, by OpenSSL's short name.
    case other(String)

    public var description: String {
        switch self {
        case .rsa: "RSA"
        case .rsaPSS: "RSA-PSS"
        case .ec(let curve): "EC (\(curve))"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .dsa: "DSA"
        case .other(let name): name
        }
    }
}

/// One `-----BEGIN label----- … -----END label-----` block (RFC 7468).
struct PEMBlock {
    var label: String
    var bytes: [UInt8]

    static func parse(_ text: String) throws(TLSError) -> [PEMBlock] {
        var blocks: [PEMBlock] = []
        var current: (label: String, body: String, line: Int)?
        var contentAfterLastBlock: Int?  // line number of the first non-blank line after the last END
        var lineNumber = 0
        // \.isNewline splits CRLF too: it is one Character.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            lineNumber += 1
            let line = rawLine.trimmingWhitespace()
            if var open = current {
                if line.hasPrefix("-----END ") {
                    guard line.hasSuffix("-----"), line.dropFirst(9).dropLast(5) == open.label else {
                        throw .malformedPEM(
                            "line \(lineNumber): END line does not match BEGIN \(open.label) of line \(open.line)"
                        )
                    }
                    let bytes: [UInt8]
                    do { bytes = try Base64.decode(open.body) } catch {
                        throw .malformedPEM("\(open.label) block of line \(open.line): invalid base64")
                    }
                    guard !bytes.isEmpty else {
                        throw .malformedPEM("\(open.label) block of line \(open.line) is empty")
                    }
                    blocks.append(PEMBlock(label: open.label, bytes: bytes))
                    current = nil
                    contentAfterLastBlock = nil
                } else if line.hasPrefix("-----BEGIN ") {
                    throw .malformedPEM(
                        "line \(lineNumber): BEGIN inside the \(open.label) block of line \(open.line) (missing END line)"
                    )
                } else if line.contains(":") {
                    throw .malformedPEM(
                        "\(open.label) block of line \(open.line): headers (encrypted PEM) are not supported here"
                    )
                } else {
                    open.body += line
                    current = open
                }
            } else if line.hasPrefix("-----BEGIN ") {
                guard line.hasSuffix("-----"), line.count > 16 else {
                    throw .malformedPEM("line \(lineNumber): malformed BEGIN line")
                }
                current = (String(line.dropFirst(11).dropLast(5)), "", lineNumber)
            } else if line.hasPrefix("-----END ") {
                throw .malformedPEM("line \(lineNumber): END line without BEGIN")
            } else if !line.isEmpty, !blocks.isEmpty, contentAfterLastBlock == nil {
                contentAfterLastBlock = lineNumber
            }
        }
        if let open = current {
            throw .malformedPEM("the \(open.label) block of line \(open.line) has no END line (truncated?)")
        }
        if let line = contentAfterLastBlock {
            throw .malformedPEM("line \(line): unexpected text after the last block")
        }
        if blocks.isEmpty {
            throw .noCertificates
        }
        return blocks
    }
}
