import Foundation
import SecCrypto
import SecEnvelope
import TestSupport
import Testing

/// SecKit's JWE against joserfc (Tests/Peers/jose_peer.py), every alg × enc, both directions.
@Suite struct JWEInteropTests {
    typealias Alg = JWE.KeyManagementAlgorithm
    typealias Enc = JWE.ContentEncryptionAlgorithm

    /// A shared key (dir, AxxxKW) or a password (PBES2).
    enum Secret {
        case key(SymmetricKey)
        case password(String)

        /// A fresh random secret of the right kind and size for `alg` with `enc`.
        static func random(for alg: Alg, _ enc: Enc) -> Secret {
            switch alg {
            case .direct: .key(randomKey(enc.keyByteCount))
            case .a128KW: .key(randomKey(16))
            case .a192KW: .key(randomKey(24))
            case .a256KW: .key(randomKey(32))
            // Not ASCII: both sides must take the password as its UTF-8 bytes.
            case .pbes2HS256A128KW, .pbes2HS384A192KW, .pbes2HS512A256KW:
                .password("pässwörd-\(Hex.encode(randomBytes(6)))")
            }
        }

        var environment: [String: String] {
            switch self {
            case .key(let key): ["JOSE_KEY_HEX": Hex.encode(key)]
            case .password(let password): ["JOSE_PASSWORD": password]
            }
        }
    }

    /// PBES2 count for the combination tests: SecKit's minimum, cheap enough to keep the suite fast.
    static let iterations = 1000

    static func seal(_ plaintext: Data, _ alg: Alg, _ enc: Enc, _ secret: Secret, keyID: String? = nil) throws -> String
    {
        switch secret {
        case .key(let key):
            try JWE.encrypt(plaintext, using: key, keyManagement: alg, contentEncryption: enc, keyID: keyID)
        case .password(let password):
            try JWE.encrypt(
                plaintext,
                password: Data(password.utf8),
                keyManagement: alg,
                contentEncryption: enc,
                iterations: iterations,
                keyID: keyID
            )
        }
    }

    static func open(_ token: String, _ secret: Secret) throws -> Data {
        switch secret {
        case .key(let key): try JWE.decrypt(token, using: key)
        case .password(let password): try JWE.decrypt(token, password: Data(password.utf8))
        }
    }

    static func jose(_ arguments: [String], _ input: Data, _ environment: [String: String]) throws -> PeerResult {
        try InteropPeer.jose.callAllowingFailure(arguments, stdin: input, environment: environment)
    }

    /// joserfc's view of a token's protected header.
    static func peerHeader(_ token: String) throws -> [String: Any] {
        let result = try jose(["header"], Data(token.utf8), [:])
        try #require(result.status == 0, "jose_peer header: \(result.stderr)")
        return try #require(
            try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
            "header: \(result.text)"
        )
    }

    /// Empty, one random byte, or 1000 bytes in random order holding every byte value, spread over the combinations
    /// so that each alg and each enc meets all three.
    static func plaintext(_ alg: Alg, _ enc: Enc) -> Data {
        switch (Alg.allCases.firstIndex(of: alg)! + Enc.allCases.firstIndex(of: enc)!) % 3 {
        case 0: Data()
        case 1: Data(randomBytes(1))
        default: Data(((0..<1000).map { UInt8(truncatingIfNeeded: $0) }).shuffled())
        }
    }

    // MARK: Every combination, both directions

    @Test("SecKit encrypts, joserfc decrypts", .tags(.slow), arguments: Alg.allCases, Enc.allCases)
    func secKitToJoserfc(alg: Alg, enc: Enc) throws {
        let secret = Secret.random(for: alg, enc)
        let plaintext = Self.plaintext(alg, enc)
        let token = try Self.seal(plaintext, alg, enc, secret)
        let result = try Self.jose(["decrypt"], Data(token.utf8), secret.environment)
        #expect(result.status == 0, "jose_peer decrypt: \(result.stderr)")
        #expect(result.stdout == plaintext, "\(plaintext.count) bytes sealed, \(result.stdout.count) opened")
    }

    @Test(
        "joserfc encrypts, SecKit decrypts; a wrong key or password fails",
        .tags(.slow),
        arguments: Alg.allCases,
        Enc.allCases
    )
    func joserfcToSecKit(alg: Alg, enc: Enc) throws {
        let secret = Secret.random(for: alg, enc)
        let plaintext = Self.plaintext(alg, enc)
        var arguments = ["encrypt", "--alg", alg.rawValue, "--enc", enc.rawValue]
        if alg.usesPassword { arguments += ["--p2c", String(Self.iterations)] }
        let result = try Self.jose(arguments, plaintext, secret.environment)
        try #require(result.status == 0, "jose_peer encrypt: \(result.stderr)")
        let token = result.text
        #expect(try Self.open(token, secret) == plaintext)
        #expect(throws: CryptoError.authenticationFailure) { try Self.open(token, Secret.random(for: alg, enc)) }
    }

    @Test("joserfc refuses a SecKit token under a wrong key or password", arguments: Alg.allCases)
    func joserfcRefusesWrongKey(alg: Alg) throws {
        // One enc per alg, a different one each time.
        let enc = Enc.allCases[Alg.allCases.firstIndex(of: alg)! % Enc.allCases.count]
        let token = try Self.seal(Data("attack at dawn".utf8), alg, enc, Secret.random(for: alg, enc))
        let result = try Self.jose(["decrypt"], Data(token.utf8), Secret.random(for: alg, enc).environment)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("jose_peer decrypt: "), "\(result.stderr)")
    }

    // MARK: Headers

    @Test("joserfc reads the header SecKit writes", arguments: Alg.allCases)
    func header(alg: Alg) throws {
        let enc = Enc.allCases[(Alg.allCases.firstIndex(of: alg)! + 3) % Enc.allCases.count]
        let keyID: String? = alg == .direct ? nil : "key-\(alg.rawValue)"
        let header = try Self.peerHeader(
            try Self.seal(Data("x".utf8), alg, enc, Secret.random(for: alg, enc), keyID: keyID)
        )
        var expected: Set = ["alg", "enc"]
        if keyID != nil { expected.insert("kid") }
        if alg.usesPassword { expected.formUnion(["p2s", "p2c"]) }
        #expect(Set(header.keys) == expected)
        #expect(header["alg"] as? String == alg.rawValue)
        #expect(header["enc"] as? String == enc.rawValue)
        #expect(header["kid"] as? String == keyID)
        if alg.usesPassword {
            #expect(header["p2c"] as? Int == Self.iterations)
            let salt = try #require(header["p2s"] as? String)
            #expect(try Base64.decodeCanonical(salt, alphabet: .url, padded: false).count == 16)
        }
    }

    @Test("the default PBES2-HS512+A256KW count (210,000) is within joserfc's limit")
    func defaultPBES2Iterations() throws {
        let password = "correct horse battery staple"
        let plaintext = Data("sealed with the defaults".utf8)
        let token = try JWE.encrypt(plaintext, password: Data(password.utf8))
        let header = try Self.peerHeader(token)
        #expect(header["alg"] as? String == "PBES2-HS512+A256KW")
        #expect(header["enc"] as? String == "A256GCM")
        #expect(header["p2c"] as? Int == 210_000)
        let salt = try Base64.decodeCanonical(try #require(header["p2s"] as? String), alphabet: .url, padded: false)
        #expect(salt.count >= 16)
        let result = try Self.jose(["decrypt"], Data(token.utf8), ["JOSE_PASSWORD": password])
        #expect(result.status == 0, "jose_peer decrypt: \(result.stderr)")
        #expect(result.stdout == plaintext)
    }

    // MARK: kid and key sets

    /// Two keys of the same size, so that only the kid can tell them apart.
    static func twoKeys() -> JSONWebKeySet {
        JSONWebKeySet([JSONWebKey(key: randomKey(32), keyID: "k1"), JSONWebKey(key: randomKey(32), keyID: "k2")])
    }

    static func setJSON(_ set: JSONWebKeySet) -> String {
        #"{"keys":["# + set.keys.map { $0.exportedJSON() }.joined(separator: ",") + "]}"
    }

    @Test("a SecKit token with kid k2 opens in joserfc with a two-key JWK Set; an unknown kid does not")
    func kidToJoserfc() throws {
        let keys = Self.twoKeys()
        let plaintext = Data("for k2".utf8)
        let token = try JWE.encrypt(
            plaintext,
            using: keys.keys[1],
            keyManagement: .a256KW,
            contentEncryption: .a128CBCHS256
        )
        let header = try Self.peerHeader(token)
        #expect(header.count == 3)
        #expect(header["alg"] as? String == "A256KW")
        #expect(header["enc"] as? String == "A128CBC-HS256")
        #expect(header["kid"] as? String == "k2")
        let result = try Self.jose(["decrypt"], Data(token.utf8), ["JOSE_KEYSET_JSON": Self.setJSON(keys)])
        #expect(result.status == 0, "jose_peer decrypt: \(result.stderr)")
        #expect(result.stdout == plaintext)

        // The same key under a kid the set does not hold.
        let stray = try JWE.encrypt(
            plaintext,
            using: JSONWebKey(key: keys.keys[1].key, keyID: "k3"),
            keyManagement: .a256KW
        )
        let refused = try Self.jose(["decrypt"], Data(stray.utf8), ["JOSE_KEYSET_JSON": Self.setJSON(keys)])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
    }

    @Test("a joserfc token with a kid opens in SecKit with the JSONWebKeySet; an unknown kid is keyNotFound")
    func kidFromJoserfc() throws {
        let keys = Self.twoKeys()
        let plaintext = Data("for k1".utf8)
        let set = try JSONWebKeySet(json: Self.setJSON(keys))
        #expect(set == keys)
        let result = try Self.jose(
            ["encrypt", "--alg", "dir", "--enc", "A256GCM", "--kid", "k1"],
            plaintext,
            ["JOSE_KEY_HEX": Hex.encode(keys.keys[0].key)]
        )
        try #require(result.status == 0, "jose_peer encrypt: \(result.stderr)")
        #expect(try JWE.Token(compact: result.text).header.keyID == "k1")
        #expect(try JWE.decrypt(result.text, using: set) == plaintext)
        // k1's token under k2's key: the kid, not trial decryption, chose the key.
        let swapped = JSONWebKeySet([
            JSONWebKey(key: keys.keys[1].key, keyID: "k1"), JSONWebKey(key: keys.keys[0].key, keyID: "k2"),
        ])
        #expect(throws: CryptoError.authenticationFailure) { try JWE.decrypt(result.text, using: swapped) }

        let other = try Self.jose(
            ["encrypt", "--alg", "A256KW", "--enc", "A128GCM", "--kid", "k9"],
            plaintext,
            ["JOSE_KEY_HEX": Hex.encode(keys.keys[0].key)]
        )
        try #require(other.status == 0, "jose_peer encrypt: \(other.stderr)")
        let error = #expect(throws: CryptoError.self) { try JWE.decrypt(other.text, using: set) }
        #expect(
            { if case .keyNotFound? = error { true } else { false } }(),
            "expected .keyNotFound, got \(String(describing: error))"
        )
    }
}
