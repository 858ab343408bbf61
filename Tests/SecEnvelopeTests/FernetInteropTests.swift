import Foundation
import SecCrypto
import SecEnvelope
import TestSupport
import Testing

/// SecKit's Fernet and MultiFernet against Python's cryptography.fernet (Tests/Peers/fernet_peer.py).
@Suite struct FernetInteropTests {
    /// `keys` in the peer's FERNET_KEYS, the first primary.
    static func python(_ arguments: [String], _ input: Data = Data(), keys: [String]) throws -> PeerResult {
        try InteropPeer.fernet.callAllowingFailure(
            arguments,
            stdin: input,
            environment: ["FERNET_KEYS": keys.joined(separator: ",")]
        )
    }

    static func newKey() throws -> String { try Fernet.generateKey() }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }

    static func isExpired(_ error: CryptoError) -> Bool {
        if case .expired = error { true } else { false }
    }

    /// Python refused the token as cryptography does: exit 1, "invalid token".
    static func expectInvalidToken(_ result: PeerResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("invalid token"), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    static let sizes = [0, 1, 15, 16, 17, 1000]

    @Test("SecKit encrypts, Python decrypts", arguments: sizes)
    func secKitToPython(size: Int) throws {
        let key = try Self.newKey()
        let plaintext = Data(randomBytes(size))
        let token = try Fernet(key: key).encrypt(plaintext)
        let result = try Self.python(["decrypt"], Data(token.utf8), keys: [key])
        #expect(result.status == 0, "fernet_peer decrypt: \(result.stderr)")
        #expect(result.stdout == plaintext)
    }

    @Test("Python encrypts, SecKit decrypts; a wrong key fails", arguments: sizes)
    func pythonToSecKit(size: Int) throws {
        let key = try Self.newKey()
        let plaintext = Data(randomBytes(size))
        let result = try Self.python(["encrypt"], plaintext, keys: [key])
        try #require(result.status == 0, "fernet_peer encrypt: \(result.stderr)")
        #expect(try Fernet(key: key).decrypt(result.text, timeToLive: 60) == plaintext)
        #expect(throws: CryptoError.authenticationFailure) { try Fernet(key: try Self.newKey()).decrypt(result.text) }
    }

    @Test("Python refuses a SecKit token under a wrong key")
    func pythonRefusesWrongKey() throws {
        let token = try Fernet(key: try Self.newKey()).encrypt(Data("secret".utf8))
        Self.expectInvalidToken(try Self.python(["decrypt"], Data(token.utf8), keys: [try Self.newKey()]))
    }

    // MARK: Time to live

    @Test("a Python token two minutes old is expired for SecKit with ttl 60, fine without a ttl")
    func pythonTokenExpires() throws {
        let key = try Self.newKey()
        let created = Self.now() - 120
        let plaintext = Data("old news".utf8)
        let result = try Self.python(["encrypt", "--time", String(created)], plaintext, keys: [key])
        try #require(result.status == 0, "fernet_peer encrypt: \(result.stderr)")
        let fernet = try Fernet(key: key)
        let error = #expect(throws: CryptoError.self) { try fernet.decrypt(result.text, timeToLive: 60) }
        #expect(error.map(Self.isExpired) == true, "expected .expired, got \(String(describing: error))")
        #expect(try fernet.decrypt(result.text) == plaintext)
        #expect(try fernet.decrypt(result.text, timeToLive: 300) == plaintext)
        #expect(try fernet.timestamp(of: result.text) == Date(timeIntervalSince1970: TimeInterval(created)))
    }

    @Test("a SecKit token made two minutes ago is expired for Python with --ttl 60")
    func secKitTokenExpires() throws {
        let key = try Self.newKey()
        let created = Self.now() - 120
        let plaintext = Data("old news".utf8)
        let token = try Fernet(key: key).encrypt(plaintext, at: Date(timeIntervalSince1970: TimeInterval(created)))
        Self.expectInvalidToken(try Self.python(["decrypt", "--ttl", "60"], Data(token.utf8), keys: [key]))
        // The same token is fine while young enough: the timestamp is the one SecKit was given.
        let young = try Self.python(
            ["decrypt", "--ttl", "60", "--time", String(created + 60)],
            Data(token.utf8),
            keys: [key]
        )
        #expect(young.status == 0, "fernet_peer decrypt: \(young.stderr)")
        #expect(young.stdout == plaintext)
        Self.expectInvalidToken(
            try Self.python(["decrypt", "--ttl", "60", "--time", String(created + 61)], Data(token.utf8), keys: [key])
        )
    }

    // MARK: Rotation

    @Test("MultiFernet([new, old]).rotate of a Python token opens in Python with only the new key")
    func secKitRotates() throws {
        let old = try Self.newKey()
        let new = try Self.newKey()
        let created = Self.now() - 1000
        let plaintext = Data("rotate me".utf8)
        let made = try Self.python(["encrypt", "--time", String(created)], plaintext, keys: [old])
        try #require(made.status == 0, "fernet_peer encrypt: \(made.stderr)")
        let rotated = try MultiFernet([Fernet(key: new), Fernet(key: old)]).rotate(made.text)
        // --time just after `created`: rotation kept the original timestamp.
        let opened = try Self.python(
            ["decrypt", "--ttl", "10", "--time", String(created + 5)],
            Data(rotated.utf8),
            keys: [new]
        )
        #expect(opened.status == 0, "fernet_peer decrypt: \(opened.stderr)")
        #expect(opened.stdout == plaintext)
        Self.expectInvalidToken(try Self.python(["decrypt"], Data(rotated.utf8), keys: [old]))
    }

    @Test("Python's rotate of a SecKit token opens in SecKit with only the new key")
    func pythonRotates() throws {
        let old = try Self.newKey()
        let new = try Self.newKey()
        let created = Self.now() - 1000
        let plaintext = Data("rotate me".utf8)
        let token = try Fernet(key: old).encrypt(plaintext, at: Date(timeIntervalSince1970: TimeInterval(created)))
        let rotated = try Self.python(["rotate"], Data(token.utf8), keys: [new, old])
        try #require(rotated.status == 0, "fernet_peer rotate: \(rotated.stderr)")
        #expect(try Fernet(key: new).decrypt(rotated.text) == plaintext)
        #expect(try Fernet(key: new).timestamp(of: rotated.text) == Date(timeIntervalSince1970: TimeInterval(created)))
        #expect(throws: CryptoError.authenticationFailure) { try Fernet(key: old).decrypt(rotated.text) }
        #expect(try MultiFernet([Fernet(key: old), Fernet(key: new)]).decrypt(rotated.text) == plaintext)
    }

    // MARK: Keys

    @Test("keys from Python's generate-key work in SecKit, and SecKit's in Python")
    func generatedKeys() throws {
        let generated = try Self.python(["generate-key"], keys: [])
        try #require(generated.status == 0, "fernet_peer generate-key: \(generated.stderr)")
        let pythonKey = generated.text
        let plaintext = Data("key exchange".utf8)
        let token = try Fernet(key: pythonKey).encrypt(plaintext)
        let opened = try Self.python(["decrypt"], Data(token.utf8), keys: [pythonKey])
        #expect(opened.status == 0, "fernet_peer decrypt: \(opened.stderr)")
        #expect(opened.stdout == plaintext)

        let secKitKey = try Self.newKey()
        let made = try Self.python(["encrypt"], plaintext, keys: [secKitKey])
        try #require(made.status == 0, "fernet_peer encrypt with SecKit's key: \(made.stderr)")
        #expect(try Fernet(key: secKitKey).decrypt(made.text) == plaintext)
    }
}
