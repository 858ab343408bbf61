internal import COpenSSL

/// `EVP_CIPHER` objects fetched once per process (see `FetchedDigests` for why).
private struct FetchedCipher: @unchecked Sendable {
    // EVP_CIPHER objects are immutable and reference-counted by OpenSSL; sharing is safe.
    let pointer: OpaquePointer

    init(_ name: String) {
        guard let cipher = EVP_CIPHER_fetch(nil, name, nil) else {
            fatalError(CryptoError.openSSL("EVP_CIPHER_fetch(\(name))").description)
        }
        pointer = cipher
    }
}

private enum FetchedCiphers {
    static let aes128CBC = FetchedCipher("AES-128-CBC")
    static let aes192CBC = FetchedCipher("AES-192-CBC")
    static let aes256CBC = FetchedCipher("AES-256-CBC")
    static let tripleDESCBC = FetchedCipher("DES-EDE3-CBC")
    static let tripleDES2KeyCBC = FetchedCipher("DES-EDE-CBC")
    static let aes128GCM = FetchedCipher("AES-128-GCM")
    static let aes192GCM = FetchedCipher("AES-192-GCM")
    static let aes256GCM = FetchedCipher("AES-256-GCM")
}

extension CipherAlgorithm {
    /// The fetched `EVP_CIPHER` for this algorithm.
    var evpCipher: OpaquePointer {
        switch self {
        case .aes128CBC: FetchedCiphers.aes128CBC.pointer
        case .aes192CBC: FetchedCiphers.aes192CBC.pointer
        case .aes256CBC: FetchedCiphers.aes256CBC.pointer
        case .tripleDESCBC: FetchedCiphers.tripleDESCBC.pointer
        case .tripleDES2KeyCBC: FetchedCiphers.tripleDES2KeyCBC.pointer
        case .aes128GCM: FetchedCiphers.aes128GCM.pointer
        case .aes192GCM: FetchedCiphers.aes192GCM.pointer
        case .aes256GCM: FetchedCiphers.aes256GCM.pointer
        }
    }
}
