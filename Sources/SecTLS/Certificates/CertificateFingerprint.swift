import SecCrypto

/// A digest of a whole DER certificate, as `openssl x509 -fingerprint` prints it.
///
/// Printed in OpenSSL 3's form, `sha256 Fingerprint=AB:CD:…` (lower-case algorithm label, upper-case
/// hex, colons). Parsed from that form (any case, the OpenSSL 1.x `SHA256 Fingerprint=` label too),
/// or from bare hex with or without colons; without a label the algorithm follows from the length
/// (20 bytes SHA-1, 28 SHA-224, 32 SHA-256, 48 SHA-384, 64 SHA-512). MD5 fingerprints are refused.
public struct CertificateFingerprint: Hashable, Sendable, CustomStringConvertible {
    public let algorithm: HashAlgorithm
    public let bytes: [UInt8]

    init(uncheckedAlgorithm algorithm: HashAlgorithm, bytes: [UInt8]) {
        self.algorithm = algorithm
        self.bytes = bytes
    }

    /// A fingerprint from its digest bytes, which must have `algorithm`'s length.
    ///
    /// - Parameters:
    ///   - algorithm: the digest algorithm; not MD5.
    ///   - bytes: the digest.
    /// - Throws: ``TLSError/unsupported(_:)`` for MD5; ``TLSError/invalidFingerprint(_:)`` when `bytes`
    ///   is not `algorithm`'s digest length.
    public init(algorithm: HashAlgorithm, bytes: [UInt8]) throws(TLSError) {
        guard algorithm != .md5 else { throw .unsupported("MD5 certificate fingerprints are not supported") }
        guard bytes.count == algorithm.byteCount else {
            throw .invalidFingerprint("a \(algorithm) fingerprint has \(algorithm.byteCount) bytes, got \(bytes.count)")
        }
        self.init(uncheckedAlgorithm: algorithm, bytes: bytes)
    }

    /// Parses `sha256 Fingerprint=AB:CD:…`, `AB:CD:…`, `abcd…` (any case, surrounding white space ignored).
    ///
    /// - Parameter text: the fingerprint's text.
    /// - Throws: ``TLSError/invalidFingerprint(_:)`` for a label that is not `<algorithm> Fingerprint`,
    ///   no hex digits, white space or `0x` among them, text that is not hex, or (without a label) a
    ///   length that is no SHA-1 or SHA-2 digest's; ``TLSError/unsupported(_:)`` for an MD5 label.
    public init(parsing text: String) throws(TLSError) {
        let trimmed = text.trimmingWhitespace()
        var labelled: HashAlgorithm?
        var hexPart = Substring(trimmed)
        if let equals = trimmed.firstIndex(of: "=") {
            let label = trimmed[..<equals].lowercased()
            guard label.hasSuffix(" fingerprint"), label.count <= 24,
                let algorithm = HashAlgorithm(name: label.dropLast(12).trimmingWhitespace(keepingNewlines: true))
            else {
                throw .invalidFingerprint("expected `sha256 Fingerprint=AB:CD:…` or hex digits")
            }
            labelled = algorithm
            hexPart = trimmed[trimmed.index(after: equals)...]
        }
        guard !hexPart.isEmpty else { throw .invalidFingerprint("no hex digits") }
        guard !hexPart.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }),
            !hexPart.hasPrefix("0x"), !hexPart.hasPrefix("0X")
        else {
            throw .invalidFingerprint("expected hex digits, optionally with `:` between bytes")
        }
        let bytes: [UInt8]
        do { bytes = try Hex.decode(String(hexPart)) } catch {
            throw .invalidFingerprint("\(error) (input of \(trimmed.count) characters)")
        }
        if let labelled {
            try self.init(algorithm: labelled, bytes: bytes)
        } else {
            guard let algorithm = HashAlgorithm.allCases.first(where: { $0 != .md5 && $0.byteCount == bytes.count })
            else {
                throw .invalidFingerprint("\(bytes.count) bytes is not the length of a SHA-1 or SHA-2 fingerprint")
            }
            self.init(uncheckedAlgorithm: algorithm, bytes: bytes)
        }
    }

    /// Upper-case hex with colons: `AB:CD:…`.
    public var colonHexString: String { Hex.encode(bytes, uppercase: true, separator: ":") }

    /// Lower-case hex without separators, as `sha256sum` would print the DER file's digest.
    public var hexString: String { Hex.encode(bytes) }

    /// `sha256 Fingerprint=AB:CD:…`, exactly as OpenSSL 3's `openssl x509 -noout -fingerprint -sha256` prints it.
    public var description: String { "\(algorithm) Fingerprint=\(colonHexString)" }

    /// True when `certificate`'s fingerprint with the same algorithm is this one (constant time).
    ///
    /// - Parameter certificate: the certificate to compare with.
    /// - Returns: true when `certificate`'s fingerprint with ``CertificateFingerprint/algorithm``
    ///   equals ``CertificateFingerprint/bytes``.
    public func matches(_ certificate: X509Certificate) -> Bool {
        constantTimeEquals(certificate.fingerprint(algorithm).bytes, bytes)
    }

    /// Compares the algorithms, and the digests in constant time.
    ///
    /// - Parameters:
    ///   - lhs: a fingerprint.
    ///   - rhs: another fingerprint.
    /// - Returns: true when both have the same algorithm and digest.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.algorithm == rhs.algorithm && constantTimeEquals(lhs.bytes, rhs.bytes)
    }
    /// Feeds the algorithm and the digest to `hasher`.
    ///
    /// - Parameter hasher: the hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(algorithm)
        hasher.combine(bytes)
    }
}
