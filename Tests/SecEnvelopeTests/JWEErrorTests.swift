import Foundation
import SecCrypto
import SecEnvelope
import TestSupport
import Testing

/// How JWE decryption refuses what it must not open, and with which error.
@Suite struct JWEErrorTests {
    /// Parts 2–5 of a token whose header is hand-made: valid base64url, never reached.
    private static let rest =
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"

    /// A compact JWE whose protected header is `json`.
    static func token(header json: String) -> String { KAT.base64url(json) + "." + rest }

    /// A p2s of 16 bytes.
    private static let p2s = KAT.base64url([UInt8](repeating: 0x5c, count: 16))

    private static func key(_ count: Int) -> SymmetricKey { SymmetricKey(data: randomBytes(count)) }

    // MARK: Header contents

    /// `alg: none` in any case is refused as not encryption at all.
    @Test(arguments: ["none", "None", "NONE", "nOnE"])
    func algNone(_ alg: String) {
        let error = KAT.expectError("unsupported") {
            try JWE.Token(compact: Self.token(header: #"{"alg":"\#(alg)","enc":"A256GCM"}"#))
        }
        #expect(error?.description.contains("none") == true)
    }

    /// Algorithms SecKit does not offer (asymmetric, GCMKW, misspelt) are refused, named in the message.
    @Test(arguments: [
        #"{"alg":"RSA-OAEP","enc":"A256GCM"}"#, #"{"alg":"ECDH-ES","enc":"A256GCM"}"#,
        #"{"alg":"A128GCMKW","enc":"A256GCM"}"#,
        #"{"alg":"dir ","enc":"A256GCM"}"#, #"{"alg":"DIR","enc":"A256GCM"}"#, #"{"alg":"a128kw","enc":"A256GCM"}"#,
        #"{"alg":"","enc":"A256GCM"}"#, #"{"alg":"dir","enc":"A128CBC-HS512"}"#, #"{"alg":"dir","enc":"a256gcm"}"#,
        #"{"alg":"dir","enc":"A256CBC"}"#, #"{"alg":"dir","enc":""}"#, #"{"alg":"PBES2-HS256+A256KW","enc":"A256GCM"}"#,
    ])
    func unknownAlgorithms(_ header: String) {
        KAT.expectError("unsupported", "\(header)") { try JWE.Token(compact: Self.token(header: header)) }
    }

    /// SecKit understands no `crit` extension, so any well-formed `crit` refuses the token (RFC 7516
    /// §4.1.13); a malformed one is malformed.
    @Test func critical() {
        for header in [
            #"{"alg":"dir","enc":"A256GCM","crit":["exp"],"exp":1363284000}"#,
            #"{"alg":"dir","enc":"A256GCM","crit":["b64"],"b64":false}"#,
            #"{"alg":"dir","enc":"A256GCM","crit":["x","y"]}"#,
        ] {
            KAT.expectError("unsupported", "\(header)") { try JWE.Token(compact: Self.token(header: header)) }
        }
        for header in [
            #"{"alg":"dir","enc":"A256GCM","crit":[]}"#, #"{"alg":"dir","enc":"A256GCM","crit":"exp"}"#,
            #"{"alg":"dir","enc":"A256GCM","crit":[1]}"#, #"{"alg":"dir","enc":"A256GCM","crit":null}"#,
        ] {
            KAT.expectError("malformedInput", "\(header)") { try JWE.Token(compact: Self.token(header: header)) }
        }
    }

    /// Compression is not supported, whatever its value.
    @Test(arguments: [#""DEF""#, #""""#, "null", "1"])
    func zip(_ value: String) {
        KAT.expectError("unsupported") {
            try JWE.Token(compact: Self.token(header: #"{"alg":"dir","enc":"A256GCM","zip":\#(value)}"#))
        }
    }

    /// A header member given twice is refused rather than one of the two believed.
    @Test(arguments: [
        #"{"alg":"dir","alg":"none","enc":"A256GCM"}"#, #"{"alg":"dir","enc":"A256GCM","enc":"A128GCM"}"#,
        #"{"alg":"dir","enc":"A256GCM","kid":"a","kid":"b"}"#, #"{"alg":"dir","enc":"A256GCM","\u0061lg":"dir"}"#,
    ])
    func duplicateMember(_ header: String) {
        KAT.expectError("malformedInput", "\(header)") { try JWE.Token(compact: Self.token(header: header)) }
    }

    /// `alg` and `enc` are required strings; `kid`, `cty` and `p2s`, if present, are strings too.
    @Test(arguments: [
        #"{"enc":"A256GCM"}"#, #"{"alg":"dir"}"#, "{}", #"{"alg":null,"enc":"A256GCM"}"#, #"{"alg":"dir","enc":1}"#,
        #"{"alg":["dir"],"enc":"A256GCM"}"#, #"{"alg":"dir","enc":"A256GCM","kid":7}"#,
        #"{"alg":"dir","enc":"A256GCM","cty":{}}"#,
    ])
    func missingOrMistypedMembers(_ header: String) {
        KAT.expectError("malformedInput", "\(header)") { try JWE.Token(compact: Self.token(header: header)) }
    }

    /// The header part must be canonical base64url of a JSON object.
    @Test func headerEncoding() {
        let good = KAT.base64url(#"{"alg":"dir","enc":"A256GCM"}"#)
        for header in [
            good + "=", good + "==", good.replacingOccurrences(of: "J", with: "+"),
            good.replacingOccurrences(of: "e", with: "/"),
            "eyJ hbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0", good + "A", "e",
        ] {
            KAT.expectError("malformedInput", "\(header)") { try JWE.Token(compact: header + "." + Self.rest) }
        }
        for json in [
            "not json", "", "[]", #"["alg","dir"]"#, #""{\"alg\":\"dir\"}""#, "null", "42", "true",
            #"{"alg":"dir","enc":"A256GCM"} {}"#, #"{"alg":"dir","enc":"A256GCM""#,
            "{\"alg\":\"dir\",\"enc\":\"A256GCM\u{0}\"}",
        ] {
            KAT.expectError("malformedInput", "\(json)") { try JWE.Token(compact: Self.token(header: json)) }
        }
        #expect(throws: Never.self) { try JWE.Token(compact: good + "." + Self.rest) }
    }

    /// Five parts, no more, no fewer; white space around the token is ignored but not inside it.
    @Test func partCount() throws {
        let token = try JWE.encrypt(Data("x".utf8), using: Self.key(32))
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for count in [1, 2, 3, 4] {
            KAT.expectError("malformedInput", "\(count) parts") {
                try JWE.Token(compact: parts.prefix(count).joined(separator: "."))
            }
        }
        for extra in [
            token + ".", token + ".AAAA", "." + token, token + "..", token.replacingOccurrences(of: ".", with: ".."),
        ] {
            KAT.expectError("malformedInput", "\(extra)") { try JWE.Token(compact: extra) }
        }
        for empty in ["", ".", "....", "  \n", "....."] {
            KAT.expectError("malformedInput", "\(empty.debugDescription)") { try JWE.Token(compact: empty) }
        }
        // The JSON serialization is not the compact one.
        KAT.expectError("malformedInput") {
            try JWE.Token(compact: #"{"protected":"\#(parts[0])","iv":"","ciphertext":"","tag":""}"#)
        }
        let key = SymmetricKey(data: [UInt8](repeating: 1, count: 32))
        let sealed = try JWE.encrypt(Data("x".utf8), using: key)
        #expect(try JWE.decrypt(" \t\(sealed)\r\n", using: key) == Data("x".utf8))
        let middle = sealed.index(sealed.startIndex, offsetBy: 10)
        #expect(throws: CryptoError.self) {
            try JWE.decrypt(String(sealed[..<middle]) + " " + String(sealed[middle...]), using: key)
        }
    }

    // MARK: Keys and passwords

    /// `dir` needs a key of the content encryption's size; the error names it.
    @Test(arguments: JWE.ContentEncryptionAlgorithm.allCases)
    func directKeySize(_ enc: JWE.ContentEncryptionAlgorithm) throws {
        let token = try JWE.encrypt(Data("x".utf8), using: Self.key(enc.keyByteCount), contentEncryption: enc)
        for size in [0, 16, 24, 32, 48, 64, 65] where size != enc.keyByteCount {
            expectIncorrectSize(actual: size, expected: "\(enc.keyByteCount) bytes", "encrypt, \(size)") {
                try JWE.encrypt(Data("x".utf8), using: Self.key(size), contentEncryption: enc)
            }
            expectIncorrectSize(actual: size, expected: "\(enc.keyByteCount) bytes", "decrypt, \(size)") {
                try JWE.decrypt(token, using: Self.key(size))
            }
        }
    }

    /// AES key wrap needs a key of the KW size (16/24/32), whatever the content encryption.
    @Test(arguments: [(JWE.KeyManagementAlgorithm.a128KW, 16), (.a192KW, 24), (.a256KW, 32)])
    func keyWrapKeySize(_ alg: JWE.KeyManagementAlgorithm, _ size: Int) throws {
        let token = try JWE.encrypt(
            Data("x".utf8),
            using: Self.key(size),
            keyManagement: alg,
            contentEncryption: .a256CBCHS512
        )
        for wrong in [0, 15, 16, 17, 24, 32, 64] where wrong != size {
            expectIncorrectSize(actual: wrong, expected: "\(size) bytes", "encrypt, \(wrong)") {
                try JWE.encrypt(
                    Data("x".utf8),
                    using: Self.key(wrong),
                    keyManagement: alg,
                    contentEncryption: .a256CBCHS512
                )
            }
            expectIncorrectSize(actual: wrong, expected: "\(size) bytes", "decrypt, \(wrong)") {
                try JWE.decrypt(token, using: Self.key(wrong))
            }
        }
    }

    /// A key where a password is wanted, or the other way round, is a parameter error, before any work.
    @Test func keyVersusPassword() throws {
        let password = Data("correct horse".utf8)
        for alg in JWE.KeyManagementAlgorithm.allCases where alg.usesPassword {
            KAT.expectError("invalidParameter", "\(alg) with a key") {
                try JWE.encrypt(Data("x".utf8), using: Self.key(32), keyManagement: alg)
            }
        }
        for alg in JWE.KeyManagementAlgorithm.allCases where !alg.usesPassword {
            KAT.expectError("invalidParameter", "\(alg) with a password") {
                try JWE.encrypt(Data("x".utf8), password: password, keyManagement: alg)
            }
        }
        let sealedWithPassword = try JWE.encrypt(
            Data("x".utf8),
            password: password,
            contentEncryption: .a128GCM,
            iterations: 1000
        )
        KAT.expectError("invalidParameter") { try JWE.decrypt(sealedWithPassword, using: Self.key(32)) }
        KAT.expectError("invalidParameter") {
            try JWE.decrypt(sealedWithPassword, using: JSONWebKeySet([JSONWebKey(key: Self.key(32))]))
        }
        let sealedWithKey = try JWE.encrypt(Data("x".utf8), using: Self.key(32))
        KAT.expectError("invalidParameter") { try JWE.decrypt(sealedWithKey, password: password) }
    }

    /// PBES2 iteration counts outside 1,000…10,000,000 are refused when encrypting, and when a token
    /// asks for them, before PBKDF2 runs (10,000,001 iterations would take seconds).
    @Test func pbes2IterationLimits() throws {
        let password = Data("pw".utf8)
        for iterations in [0, 1, 999, 10_000_001, Int.max] {
            KAT.expectError("invalidParameter", "encrypt, \(iterations)") {
                try JWE.encrypt(Data("x".utf8), password: password, iterations: iterations)
            }
        }
        let clock = ContinuousClock()
        for p2c in ["10000001", "2147483648", "9223372036854775807", "999", "1"] {
            let token = Self.token(
                header: #"{"alg":"PBES2-HS256+A128KW","enc":"A128GCM","p2s":"\#(Self.p2s)","p2c":\#(p2c)}"#
            )
            let elapsed = clock.measure {
                KAT.expectError("invalidParameter", "p2c \(p2c)") { try JWE.Token(compact: token) }
                KAT.expectError("invalidParameter", "p2c \(p2c)") { try JWE.decrypt(token, password: password) }
            }
            #expect(elapsed < .milliseconds(500), "p2c \(p2c) took \(elapsed)")
        }
        // The limits come from the policy.
        var policy = JWE.DecryptionPolicy()
        policy.minimumPBES2Iterations = 5000
        let token = try JWE.encrypt(Data("x".utf8), password: password, contentEncryption: .a128GCM, iterations: 1000)
        KAT.expectError("invalidParameter") { try JWE.decrypt(token, password: password, policy: policy) }
        #expect(try JWE.decrypt(token, password: password) == Data("x".utf8))
        // p2c and p2s must be well formed.
        for members in [
            #""p2s":"\#(Self.p2s)""#, #""p2c":1000"#, #""p2s":"\#(Self.p2s)","p2c":"1000""#,
            #""p2s":"\#(Self.p2s)","p2c":1000.0"#,
            #""p2s":"\#(Self.p2s)","p2c":1e4"#, #""p2s":"\#(Self.p2s)","p2c":-1000"#, #""p2s":"\#(Self.p2s)","p2c":0"#,
            #""p2s":"\#(Self.p2s)","p2c":99999999999999999999"#, #""p2s":"AAAA","p2c":1000"#,
            #""p2s":"\#(Self.p2s)=","p2c":1000"#,
            #""p2s":7,"p2c":1000"#,
        ] {
            let header = #"{"alg":"PBES2-HS256+A128KW","enc":"A128GCM",\#(members)}"#
            KAT.expectError("malformedInput", "\(header)") { try JWE.Token(compact: Self.token(header: header)) }
        }
    }

    /// Tokens longer than `maximumTokenByteCount` are refused before anything else; white space
    /// around the token does not count.
    @Test func oversizedToken() throws {
        let key = Self.key(32)
        let token = try JWE.encrypt(Data(randomBytes(1000)), using: key)
        var policy = JWE.DecryptionPolicy()
        policy.maximumTokenByteCount = token.utf8.count
        #expect(try JWE.decrypt(token, using: key, policy: policy).count == 1000)
        #expect(try JWE.decrypt("\n \(token) \n", using: key, policy: policy).count == 1000)
        policy.maximumTokenByteCount = token.utf8.count - 1
        let error = KAT.expectError("malformedInput") { try JWE.decrypt(token, using: key, policy: policy) }
        #expect(error?.description.contains("\(token.utf8.count - 1)") == true)
        policy.maximumTokenByteCount = 10
        KAT.expectError("malformedInput") {
            try JWE.Token(compact: Self.token(header: #"{"alg":"none","enc":"A256GCM"}"#), policy: policy)
        }
        #expect(JWE.DecryptionPolicy.default.maximumTokenByteCount == 96 << 20)
    }

    /// A policy can exclude algorithms; the token is then refused as unsupported.
    @Test func policyDisallows() throws {
        let key = Self.key(32)
        let direct = try JWE.encrypt(Data("x".utf8), using: key, contentEncryption: .a256GCM)
        let wrapped = try JWE.encrypt(Data("x".utf8), using: key, keyManagement: .a256KW, contentEncryption: .a128GCM)
        var policy = JWE.DecryptionPolicy()
        policy.keyManagementAlgorithms = [.a256KW]
        KAT.expectError("unsupported") { try JWE.decrypt(direct, using: key, policy: policy) }
        #expect(try JWE.decrypt(wrapped, using: key, policy: policy) == Data("x".utf8))
        policy = JWE.DecryptionPolicy()
        policy.contentEncryptionAlgorithms = [.a256GCM]
        KAT.expectError("unsupported") { try JWE.decrypt(wrapped, using: key, policy: policy) }
        #expect(try JWE.decrypt(direct, using: key, policy: policy) == Data("x".utf8))
        policy.contentEncryptionAlgorithms = []
        KAT.expectError("unsupported") {
            try JWE.decrypt(direct, using: JSONWebKeySet([JSONWebKey(key: key)]), policy: policy)
        }
    }

    // MARK: Key sets

    /// With a `kid`, the named key is used and only it; without, each key of the right size is tried.
    @Test func keySets() throws {
        let a = JSONWebKey(key: Self.key(32), keyID: "a")
        let b = JSONWebKey(key: Self.key(32), keyID: "b")
        let c = JSONWebKey(key: Self.key(16), keyID: "c")
        let set = JSONWebKeySet([a, c, b])
        let plaintext = Data("rotation".utf8)

        let named = try JWE.encrypt(plaintext, using: b)
        #expect(try JWE.Token(compact: named).header.keyID == "b")
        #expect(try JWE.decrypt(named, using: set) == plaintext)
        KAT.expectError("keyNotFound") { try JWE.decrypt(named, using: JSONWebKeySet([a, c])) }
        KAT.expectError("keyNotFound") { try JWE.decrypt(named, using: JSONWebKeySet([])) }
        // The kid picks the key: a different key under that kid fails, even when another key would open it.
        let impostor = JSONWebKey(key: Self.key(32), keyID: "b")
        KAT.expectError("authenticationFailure") {
            try JWE.decrypt(named, using: JSONWebKeySet([impostor, JSONWebKey(key: b.key, keyID: "z")]))
        }
        expectIncorrectSize(actual: 16, expected: "32 bytes") {
            try JWE.decrypt(named, using: JSONWebKeySet([JSONWebKey(key: c.key, keyID: "b")]))
        }

        let anonymous = try JWE.encrypt(
            plaintext,
            using: b.key,
            keyManagement: .a256KW,
            contentEncryption: .a128CBCHS256
        )
        #expect(try JWE.Token(compact: anonymous).header.keyID == nil)
        #expect(try JWE.decrypt(anonymous, using: set) == plaintext)
        KAT.expectError("authenticationFailure") { try JWE.decrypt(anonymous, using: JSONWebKeySet([a, c, impostor])) }
        KAT.expectError("keyNotFound") { try JWE.decrypt(anonymous, using: JSONWebKeySet([c])) }
        KAT.expectError("keyNotFound") { try JWE.decrypt(anonymous, using: JSONWebKeySet([])) }

        let small = try JWE.encrypt(plaintext, using: c.key, keyManagement: .a128KW)
        #expect(try JWE.decrypt(small, using: set) == plaintext)
    }

    /// Symmetric JWKs only; `k` must be canonical base64url of at least one byte.
    @Test func jsonWebKeyParsing() throws {
        let key = try JSONWebKey(
            json: #"{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg","kid":"7","use":"enc","alg":"A128KW"}"#
        )
        #expect(key.key.bitCount == 128)
        #expect(key.keyID == "7")
        #expect(try JSONWebKey(json: key.exportedJSON()) == key)
        #expect(key.exportedJSON() == #"{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg","kid":"7"}"#)
        #expect(!key.description.contains("GawgguFyGrWKav7AX4VKUg"))
        #expect(try JSONWebKey(json: " {\"k\":\"AA\",\"kty\":\"oct\"}\n").key.bitCount == 8)

        for (json, kind) in [
            (#"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#, "unsupported"), (#"{"kty":"EC","crv":"P-256"}"#, "unsupported"),
            (#"{"kty":"OCT","k":"AAAA"}"#, "unsupported"), (#"{"k":"AAAA"}"#, "malformedInput"),
            (#"{"kty":"oct"}"#, "malformedInput"),
            (#"{"kty":1,"k":"AAAA"}"#, "malformedInput"), (#"{"kty":"oct","k":1}"#, "malformedInput"),
            (#"{"kty":"oct","k":""}"#, "malformedInput"), (#"{"kty":"oct","k":"AAAA","kid":1}"#, "malformedInput"),
            (#"{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg=="}"#, "invalidEncoding"),
            (#"{"kty":"oct","k":"Gawg+uFyGrWKav7AX4VKUg"}"#, "invalidEncoding"),
            (#"{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUh"}"#, "invalidEncoding"),
            (#"{"kty":"oct","k":"GawgguFyGrWKav7AX4VKU"}"#, "invalidEncoding"),
            (#"{"kty":"oct","k":"Gawg guFyGrWKav7AX4VKUg"}"#, "invalidEncoding"), ("", "malformedInput"),
            ("[]", "malformedInput"),
            (#"{"kty":"oct","k":"AAAA","kty":"oct"}"#, "malformedInput"),
            (#"{"kty":"oct","k":"AAAA"} x"#, "malformedInput"),
        ] {
            KAT.expectError(kind, "\(json)") { try JSONWebKey(json: json) }
        }
    }

    @Test func jsonWebKeySetParsing() throws {
        let set = try JSONWebKeySet(
            json:
                #"{"keys":[{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAA","kid":"1"},{"kty":"oct","k":"_____________________w"}]}"#
        )
        #expect(set.keys.map(\.keyID) == ["1", nil])
        #expect(set.keys.map(\.key.bitCount) == [128, 128])
        #expect(try JSONWebKeySet(json: #"{"kty":"oct","k":"AAAA"}"#).keys.count == 1)
        for (json, kind) in [
            (#"{"keys":[]}"#, "malformedInput"), (#"{"keys":"x"}"#, "malformedInput"),
            (#"{"keys":[1]}"#, "malformedInput"),
            (#"{"keys":{}}"#, "malformedInput"), (#"{"keys":[{"kty":"oct","k":"AAAA"},{"kty":"RSA"}]}"#, "unsupported"),
            (#"{"keys":[{"kty":"oct","k":"AA=="}]}"#, "invalidEncoding"),
            (#"[{"kty":"oct","k":"AAAA"}]"#, "malformedInput"),
            (#"{"keys":[{"kty":"oct","k":"AAAA"}],"keys":[]}"#, "malformedInput"), ("{}", "malformedInput"),
        ] {
            KAT.expectError(kind, "\(json)") { try JSONWebKeySet(json: json) }
        }
    }
}
