internal import COpenSSL
import SecCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Owns one reference to an OpenSSL `X509` (freed on deinit). The object is never modified after
/// parsing, so sharing it between threads is safe.
final class X509Handle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes over one reference (from `d2i_X509` or an `X509_up_ref` done by the caller).
    private init(owning pointer: OpaquePointer) { self.pointer = pointer }

    /// Adds a reference to `pointer` (for example a certificate of a verified chain) and keeps it.
    convenience init(retaining pointer: OpaquePointer) {
        X509_up_ref(pointer)
        self.init(owning: pointer)
    }

    convenience init(der bytes: [UInt8]) throws(TLSError) {
        guard !bytes.isEmpty else { throw .malformedCertificate("empty input") }
        guard bytes.count <= Int(Int32.max) else { throw .malformedCertificate("input too large") }
        let result: (OpaquePointer?, Int) = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let certificate = d2i_X509(nil, &cursor, CLong(buffer.count))
            let consumed = cursor.map { $0 - buffer.baseAddress! } ?? 0
            return (certificate, consumed)
        }
        guard let certificate = result.0 else {
            let reasons = OpenSSLError.drainQueue()
            throw .malformedCertificate("not a DER X.509 certificate" + (reasons.first.map { " (\($0.reason))" } ?? ""))
        }
        guard result.1 == bytes.count else {
            X509_free(certificate)
            throw .malformedCertificate("\(bytes.count - result.1) bytes of trailing data after the certificate")
        }
        self.init(owning: certificate)
    }

    deinit { X509_free(pointer) }
}

extension X509Certificate {
    init(handle: X509Handle) throws(TLSError) {
        let x = handle.pointer
        self.handle = handle
        subject = try Self.name(X509_get_subject_name(x), "subject")
        issuer = try Self.name(X509_get_issuer_name(x), "issuer")
        serialNumber = Self.serial(X509_get0_serialNumber(x))
        notBefore = try Self.date(X509_get0_notBefore(x), "notBefore")
        notAfter = try Self.date(X509_get0_notAfter(x), "notAfter")
        subjectAlternativeNames = try Self.alternativeNames(x)
        guard let key = X509_get0_pubkey(x) else {
            throw .malformedCertificate(
                "unreadable public key" + (OpenSSLError.drainQueue().isEmpty ? "" : " (unsupported algorithm?)")
            )
        }
        publicKeyType = Self.keyType(key)
        publicKeyBits = Int(EVP_PKEY_get_bits(key))
        derRepresentation = try Self.encode("i2d_X509") { i2d_X509(x, $0) }
        guard let spki = X509_get_X509_PUBKEY(x) else { throw .openSSL("X509_get_X509_PUBKEY") }
        spkiDER = try Self.encode("i2d_X509_PUBKEY") { i2d_X509_PUBKEY(spki, $0) }
    }

    /// Runs an `i2d_*` function twice: once for the length, once to write.
    private static func encode(
        _ operation: String,
        _ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) throws(TLSError) -> [UInt8] {
        let length = i2d(nil)
        guard length > 0 else { throw .openSSL(operation) }
        var output = [UInt8](repeating: 0, count: Int(length))
        let written = output.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d(&cursor)
        }
        guard written == length else { throw .openSSL(operation) }
        return output
    }

    /// RFC 2253, with UTF-8 instead of `\XX` escapes for non-ASCII characters.
    static func name(_ name: OpaquePointer?, _ what: String) throws(TLSError) -> String {
        guard let name else { throw .malformedCertificate("no \(what) name") }
        guard let bio = BIO_new(BIO_s_mem()) else { throw .openSSL("BIO_new") }
        defer { BIO_free(bio) }
        // XN_FLAG_RFC2253 (a macro Swift does not import) without ASN1_STRFLGS_ESC_MSB.
        let flags =
            UInt(
                ASN1_STRFLGS_ESC_2253 | ASN1_STRFLGS_ESC_CTRL | ASN1_STRFLGS_UTF8_CONVERT
                    | ASN1_STRFLGS_DUMP_UNKNOWN | ASN1_STRFLGS_DUMP_DER
            )
            | UInt(XN_FLAG_SEP_COMMA_PLUS | XN_FLAG_DN_REV | XN_FLAG_FN_SN | XN_FLAG_DUMP_UNKNOWN_FIELDS)
        guard X509_NAME_print_ex(bio, name, 0, flags) >= 0 else { throw .openSSL("X509_NAME_print_ex") }
        return readAll(bio)
    }

    private static func readAll(_ bio: OpaquePointer) -> String {
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)  // BIO_get_mem_data
        guard length > 0, let data else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Upper-case hex of the magnitude, as `i2a_ASN1_INTEGER` (and so `openssl x509 -serial`) prints it.
    private static func serial(_ integer: UnsafePointer<ASN1_INTEGER>?) -> String {
        guard let integer else { return "00" }
        let length = Int(ASN1_STRING_length(integer))
        guard length > 0, let data = ASN1_STRING_get0_data(integer) else { return "00" }
        let digits = Hex.encode(Array(UnsafeBufferPointer(start: data, count: length)), uppercase: true)
        return (ASN1_STRING_type(integer) == V_ASN1_NEG_INTEGER ? "-" : "") + digits
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?, _ what: String) throws(TLSError) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else {
            OpenSSLError.clearQueue()
            throw .malformedCertificate("unreadable \(what) date")
        }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    private static func alternativeNames(_ x: OpaquePointer) throws(TLSError) -> [SubjectAlternativeName] {
        var critical: Int32 = 0
        guard let raw = X509_get_ext_d2i(x, NID_subject_alt_name, &critical, nil) else {
            // -1: no such extension; -2: more than one (invalid); otherwise it did not decode.
            if critical == -1 { return [] }
            OpenSSLError.clearQueue()
            throw .malformedCertificate(
                critical == -2 ? "more than one subjectAltName extension" : "unreadable subjectAltName extension"
            )
        }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var result: [SubjectAlternativeName] = []
        for index in 0..<OPENSSL_sk_num(names) {
            guard let entry = OPENSSL_sk_value(names, index)?.assumingMemoryBound(to: GENERAL_NAME.self) else {
                continue
            }
            let value = entry.pointee.d
            switch entry.pointee.type {
            case GEN_DNS: result.append(.dns(string(value.dNSName)))
            case GEN_EMAIL: result.append(.email(string(value.rfc822Name)))
            case GEN_URI: result.append(.uri(string(value.uniformResourceIdentifier)))
            case GEN_IPADD:
                let bytes = octets(value.iPAddress)
                guard let text = ipAddressText(bytes) else {
                    throw .malformedCertificate("subjectAltName IP address of \(bytes.count) bytes")
                }
                result.append(.ipAddress(text))
            default: continue
            }
        }
        return result
    }

    private static func octets(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    private static func string(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        String(decoding: octets(string), as: UTF8.self)
    }

    private static func ipAddressText(_ bytes: [UInt8]) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func keyType(_ key: OpaquePointer) -> PublicKeyType {
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA: return .rsa
        case EVP_PKEY_RSA_PSS: return .rsaPSS
        case EVP_PKEY_EC:
            var buffer = [CChar](repeating: 0, count: 80)
            var length = 0
            guard EVP_PKEY_get_group_name(key, &buffer, buffer.count, &length) == 1 else {
                return .ec(curve: "unknown")
            }
            return .ec(curve: String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        case EVP_PKEY_ED25519: return .ed25519
        case EVP_PKEY_ED448: return .ed448
        case EVP_PKEY_DSA: return .dsa
        default:
            guard let name = EVP_PKEY_get0_type_name(key) else { return .other("unknown") }
            return .other(String(cString: name))
        }
    }
}
