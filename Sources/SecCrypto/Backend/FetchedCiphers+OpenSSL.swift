internal import COpenSSL

/// The ciphers, fetched on first use.
private enum FetchedCiphers {
    static let aes128CBC = fetch(.aes128CBC)
    static let aes192CBC = fetch(.aes192CBC)
    static let aes256CBC = fetch(.aes256CBC)
    static let tripleDESCBC = fetch(.tripleDESCBC)
    static let tripleDES2KeyCBC = fetch(.tripleDES2KeyCBC)
    static let aes128GCM = fetch(.aes128GCM)
    static let aes192GCM = fetch(.aes192GCM)
    static let aes256GCM = fetch(.aes256GCM)

    /// OpenSSL's names are the `openssl enc` names (the raw values), in any case.
    private static func fetch(_ algorithm: CipherAlgorithm) -> FetchedObject {
        FetchedObject(algorithm.rawValue) { EVP_CIPHER_fetch(nil, $0, nil) }
    }
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
