import SecCrypto
import Synchronization

/// The decrypted contents of one version of a store file.
struct FileSnapshot: Sendable {
    /// Nil when there is no file yet.
    let header: EncryptedFileHeader?
    let items: [FileItem]
    /// The position in `items` of each identity's item.
    let positions: [CredentialIdentity: Int]
    /// The file's bytes (ciphertext): any change to the file is a new version.
    let version: [UInt8]

    init(header: EncryptedFileHeader?, items: [FileItem], version: [UInt8]) {
        self.header = header
        self.items = items
        self.version = version
        var positions: [CredentialIdentity: Int] = [:]
        for (position, item) in items.enumerated() {
            if let identity = item.identity { positions[identity] = position }
        }
        self.positions = positions
    }
}

/// What one `EncryptedFileStore` value (and its copies) remembers: the master password, the key
/// last derived from it, and the last version of the file it decrypted.
final class EncryptedFileState: Sendable {
    private let password: SecureBytes
    private let derived = Mutex<(salt: [UInt8], iterations: Int, key: SymmetricKey)?>(nil)
    private let cached = Mutex<FileSnapshot?>(nil)

    init(password: SecureBytes) { self.password = password }

    /// The items of the file at `path` now (none when it does not exist), decrypted again only
    /// when the file changed.
    func snapshot(of path: String) throws(KeychainError) -> FileSnapshot {
        guard let file = try StoreFile.read(path) else { return FileSnapshot(header: nil, items: [], version: []) }
        if let snapshot = cached.withLock({ $0 }), snapshot.version == file { return snapshot }
        let header = try EncryptedFileHeader(parsing: file)
        let key = try key(salt: header.salt, iterations: header.iterations)
        guard constantTimeEquals(EncryptedFileHeader.check(for: key), header.check) else { throw .wrongStorePassword }
        var plaintext: Data
        do {
            plaintext = try AES.GCM.open(
                AES.GCM.SealedBox(combined: file.dropFirst(EncryptedFileHeader.byteCount)),
                using: key,
                authenticating: header.bytes
            )
        } catch {
            throw .corruptStore("it does not authenticate under the master password")
        }
        defer { plaintext.withUnsafeMutableBytes { secureZero($0) } }
        let items = try plaintext.withBytes { (buffer) throws(KeychainError) in
            try EncryptedFilePayload.decode(buffer)
        }
        let snapshot = FileSnapshot(header: header, items: items, version: file)
        cached.withLock { $0 = snapshot }
        return snapshot
    }

    /// Seals `items` under `header` and replaces the file with them.
    func write(_ items: [FileItem], to path: String, header: EncryptedFileHeader) throws(KeychainError) {
        let key = try key(salt: header.salt, iterations: header.iterations)
        var plaintext = EncryptedFilePayload.encode(items)
        defer { plaintext.withUnsafeMutableBytes { secureZero($0) } }
        let sealed: Data?
        do {
            sealed = try AES.GCM.seal(plaintext, using: key, authenticating: header.bytes).combined
        } catch {
            throw .backendFailure("\(error)")
        }
        guard let sealed else { throw .backendFailure("AES-GCM produced no combined box") }
        let file = header.bytes + sealed
        try StoreFile.replace(path, with: file)
        cached.withLock { $0 = FileSnapshot(header: header, items: items, version: file) }
    }

    /// The header of a new file: a random salt and the key derived for it.
    func newHeader(iterations: Int) throws(KeychainError) -> EncryptedFileHeader {
        let salt: [UInt8]
        do { salt = try SecureRandom.bytes(count: EncryptedFileHeader.saltByteCount) } catch {
            throw .backendFailure("\(error)")
        }
        return EncryptedFileHeader(iterations: iterations, salt: salt, key: try key(salt: salt, iterations: iterations))
    }

    /// The key for this salt and iteration count, derived once.
    private func key(salt: [UInt8], iterations: Int) throws(KeychainError) -> SymmetricKey {
        if let derived = derived.withLock({ $0 }), derived.salt == salt, derived.iterations == iterations {
            return derived.key
        }
        let key: SymmetricKey
        do {
            key = try KDF.PBKDF2.deriveKey(
                from: password,
                salt: salt,
                using: .sha256,
                iterations: iterations,
                outputByteCount: 32
            )
        } catch {
            throw .backendFailure("\(error)")
        }
        derived.withLock { $0 = (salt, iterations, key) }
        return key
    }
}
