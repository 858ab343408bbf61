import Foundation
import SecCrypto
import SecIO
import TestSupport
import Testing

/// Files streamed through SecCrypto's digests and MACs give what the one-shot forms give.
struct FileInputTests {
    /// Sizes around the 256 KiB read chunk, plus empty and a multi-chunk file.
    @Test(arguments: [
        0, 1, 64, FileInput.chunkSize - 1, FileInput.chunkSize, FileInput.chunkSize + 1, 3 * 1024 * 1024 + 17,
    ])
    func fileDigestEqualsOneShotDigest(_ size: Int) throws {
        #expect(FileInput.chunkSize == 256 * 1024)
        let bytes = try SecureRandom.bytes(count: size)
        let key = SymmetricKey(size: .bits256)
        try withTemporaryFile(containing: bytes) { path throws in
            #expect(try SHA256.hash(contentsOf: .path(path)) == SHA256.hash(data: bytes))
            #expect(try SHA512.hash(contentsOf: .path(path)) == SHA512.hash(data: bytes))
            let code = HMAC<SHA256>.authenticationCode(for: bytes, using: key)
            #expect(try HMAC<SHA256>.authenticationCode(for: .path(path), using: key) == code)
            #expect(try HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: .path(path), using: key))
        }
    }

    @Test(arguments: [missingFilePath(), FileManager.default.temporaryDirectory.path])
    func unreadablePathThrowsIOErrorNamingIt(_ path: String) throws {
        let error = try #require(#expect(throws: FileError.self) { try SHA256.hash(contentsOf: .path(path)) })
        #expect(error.path == path)
        #expect(error.code == (FileManager.default.fileExists(atPath: path) ? EISDIR : ENOENT))
        #expect(error.description == "\(path): \(String(cString: strerror(error.code ?? 0)))")
    }
}
