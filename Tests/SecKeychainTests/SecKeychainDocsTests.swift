import SecCrypto
import TestSupport
import Testing

@testable import SecKeychain

/// What docs/SecKeychain.md says of SecKeychain's limits, defaults and file format, held to the code.
@Suite("docs/SecKeychain.md states SecKeychain's limits, defaults and file format")
struct SecKeychainDocsTests {
    let page: DocsPage

    init() throws {
        page = try DocsPage("docs/SecKeychain.md")
    }

    @Test("the largest secret, in the calls table and the errors table")
    func secretSize() throws {
        #expect(SecretServiceStore.maximumSecretByteCount == EncryptedFileStore.maximumSecretByteCount)
        let size = DocsPage.byteSize(SecretServiceStore.maximumSecretByteCount)
        let upsert = try page.row("`upsert(_:secret:attributes:timeout:)` / `upsert(_:string:…)`")[1]
        #expect(upsert.contains("up to `maximumSecretByteCount` = \(size) (more throws `secretTooLarge(limit:)`"))
        #expect(try page.row("`secretTooLarge(limit:)`, `invalidAttribute(reason)`")[1].hasPrefix("over \(size);"))
    }

    @Test("the default timeout of store calls")
    func defaultTimeout() throws {
        #expect(SecretServiceStore.defaultTimeout == EncryptedFileStore.defaultTimeout)
        let timeout = DocsPage.seconds(SecretServiceStore.defaultTimeout)
        #expect(try page.passage(containing: "`defaultTimeout` is").hasPrefix("`defaultTimeout` is \(timeout)."))
    }

    @Test("SingleSignOn's default service")
    func singleSignOnService() throws {
        let service = SingleSignOn(group: "docs").service
        #expect(
            try page.passage(containing: "`SingleSignOn(group:store:service:timeout:)` keeps")
                .contains("(service `\(service)` by default)")
        )
    }

    @Test("the encrypted file: its layout and the iterations of a new file")
    func encryptedFile() throws {
        let layout = try page.passage(containing: "Layout (integers big-endian)")
        let magic = String(decoding: EncryptedFileHeader.magic, as: UTF8.self)
        let fields =
            "`\(magic)`, version \(EncryptedFileHeader.version), KDF \(EncryptedFileHeader.pbkdf2SHA256) "
            + "(PBKDF2-HMAC-SHA256), iterations (4 bytes), salt (\(EncryptedFileHeader.saltByteCount) random bytes)"
        #expect(layout.contains(fields))
        let sealed =
            "AES-256-GCM nonce (\(AES.GCM.Nonce.defaultByteCount)) ‖ ciphertext ‖ tag (\(AES.GCM.tagByteCount)) "
            + "with the \(EncryptedFileHeader.byteCount) header bytes as associated data"
        #expect(layout.contains(sealed))
        let iterations = DocsPage.count(EncryptedFileStore.defaultIterations)
        #expect(
            try page.passage(containing: "The key is PBKDF2-HMAC-SHA256 with")
                .contains("with \(iterations) iterations for new files")
        )
    }
}
