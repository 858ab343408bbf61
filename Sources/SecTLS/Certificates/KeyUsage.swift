/// The key usage extension of a certificate (RFC 5280 §4.2.1.3): what its key may do.
public struct KeyUsage: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    /// The usages whose bits `rawValue` sets (SecTLS's own bit order, not the DER bit string's).
    ///
    /// - Parameter rawValue: the bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)

    private static let names: [(KeyUsage, String)] = [
        (.digitalSignature, "digitalSignature"), (.nonRepudiation, "nonRepudiation"),
        (.keyEncipherment, "keyEncipherment"), (.dataEncipherment, "dataEncipherment"),
        (.keyAgreement, "keyAgreement"), (.keyCertSign, "keyCertSign"), (.cRLSign, "cRLSign"),
    ]

    /// The names as `openssl x509 -ext keyUsage` prints them, comma separated.
    public var description: String { Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") }
}

/// The extended key usage extension of a certificate (RFC 5280 §4.2.1.12): the purposes it is for.
public struct ExtendedKeyUsage: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    /// The purposes whose bits `rawValue` sets (SecTLS's own bit order).
    ///
    /// - Parameter rawValue: the bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// TLS server authentication (`serverAuth`).
    public static let serverAuth = ExtendedKeyUsage(rawValue: 1 << 0)
    /// TLS client authentication (`clientAuth`).
    public static let clientAuth = ExtendedKeyUsage(rawValue: 1 << 1)
    public static let emailProtection = ExtendedKeyUsage(rawValue: 1 << 2)
    public static let codeSigning = ExtendedKeyUsage(rawValue: 1 << 3)
    public static let ocspSigning = ExtendedKeyUsage(rawValue: 1 << 4)
    public static let timeStamping = ExtendedKeyUsage(rawValue: 1 << 5)
    /// `anyExtendedKeyUsage`.
    public static let any = ExtendedKeyUsage(rawValue: 1 << 6)

    private static let names: [(ExtendedKeyUsage, String)] = [
        (.serverAuth, "serverAuth"), (.clientAuth, "clientAuth"), (.emailProtection, "emailProtection"),
        (.codeSigning, "codeSigning"), (.ocspSigning, "OCSPSigning"), (.timeStamping, "timeStamping"),
        (.any, "anyExtendedKeyUsage"),
    ]

    /// The names, comma separated.
    public var description: String { Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") }
}
