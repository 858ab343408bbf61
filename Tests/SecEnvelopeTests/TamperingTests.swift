import Foundation
import SecCrypto
import SecEnvelope
import TestSupport
import Testing

/// Every single-character change and every truncation of a valid JWE, Fernet token or legacy envelope
/// must be refused, never decrypted.
@Suite struct TamperingTests {
    private static let base64url = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let base64 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let hex = Array("0123456789abcdef".utf8)

    /// The changed copies of `text` at `position`: XOR 0x01, and the character replaced by others of
    /// `alphabet` (the next one, which often touches only the low bit, and the one 32 or 8 further,
    /// which changes the top bit of the sextet or nibble). A character outside the alphabet becomes
    /// the alphabet's first and second characters.
    static func variants(of text: [UInt8], at position: Int, alphabet: [UInt8]) -> [[UInt8]] {
        let original = text[position]
        var replacements: [UInt8] = [original ^ 0x01]
        if let index = alphabet.firstIndex(of: original) {
            replacements += [
                alphabet[(index + 1) % alphabet.count], alphabet[(index + alphabet.count / 2) % alphabet.count],
            ]
        } else {
            replacements += alphabet.prefix(2)
        }
        return replacements.filter { $0 != original }.map { replacement in
            var altered = text
            altered[position] = replacement
            return altered
        }
    }

    /// Tallies the kinds of error seen.
    struct Tally: CustomStringConvertible {
        var counts: [String: Int] = [:]
        mutating func add(_ error: CryptoError) { counts[error.caseName, default: 0] += 1 }
        var kinds: Set<String> { Set(counts.keys) }
        var total: Int { counts.values.reduce(0, +) }
        var description: String {
            counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
    }

    /// Runs `open` on `text`, expecting a `CryptoError` (of kind `expected` when given); returns it.
    @discardableResult
    static func expectRefused(
        _ text: [UInt8],
        _ comment: String,
        expected: String?,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ open: (String) throws -> Data
    ) -> CryptoError? {
        let string = String(decoding: text, as: UTF8.self)
        do {
            let opened = try open(string)
            Issue.record("decrypted to \(opened.count) bytes: \(comment)", sourceLocation: sourceLocation)
            return nil
        } catch let error as CryptoError {
            if let expected, error.caseName != expected {
                Issue.record(
                    "expected \(expected), got \(error.caseName) (\(error)): \(comment)",
                    sourceLocation: sourceLocation
                )
            }
            return error
        } catch {
            Issue.record("not a CryptoError: \(error): \(comment)", sourceLocation: sourceLocation)
            return nil
        }
    }

    // MARK: JWE

    struct JWECase: Sendable, CustomTestStringConvertible {
        let alg: JWE.KeyManagementAlgorithm
        let enc: JWE.ContentEncryptionAlgorithm
        var testDescription: String { "\(alg) + \(enc)" }
    }

    static let jweCases = [
        JWECase(alg: .direct, enc: .a256GCM), JWECase(alg: .direct, enc: .a128CBCHS256),
        JWECase(alg: .a128KW, enc: .a128CBCHS256), JWECase(alg: .a192KW, enc: .a192GCM),
        JWECase(alg: .a256KW, enc: .a256CBCHS512),
        JWECase(alg: .pbes2HS256A128KW, enc: .a128GCM), JWECase(alg: .pbes2HS512A256KW, enc: .a192CBCHS384),
    ]

    /// What any header change may give: a header that no longer parses or names something refused,
    /// or one that still parses and so fails authentication as part of the AAD.
    static let headerErrorKinds: Set<String> = [
        "malformedInput", "unsupported", "invalidParameter", "authenticationFailure", "incorrectSize",
    ]

    /// A token for `item` and the function that opens it with the right key or password.
    static func sealed(_ item: JWECase, plaintext: Data) throws -> (token: String, open: (String) throws -> Data) {
        if item.alg.usesPassword {
            let password = Data("Thus from my lips".utf8)
            let token = try JWE.encrypt(
                plaintext,
                password: password,
                keyManagement: item.alg,
                contentEncryption: item.enc,
                iterations: 1000
            )
            return (token, { try JWE.decrypt($0, password: password) })
        }
        let key = SymmetricKey(
            data: randomBytes(item.alg == .direct ? item.enc.keyByteCount : [.a128KW: 16, .a192KW: 24][item.alg] ?? 32)
        )
        let token = try JWE.encrypt(
            plaintext,
            using: key,
            keyManagement: item.alg,
            contentEncryption: item.enc,
            contentType: "text/plain"
        )
        return (token, { try JWE.decrypt($0, using: key) })
    }

    /// Any change in parts 2–5 (encrypted key, IV, ciphertext, tag) is `authenticationFailure`; a change
    /// in the header or a dot is refused with some `CryptoError` of the kinds listed above.
    @Test(arguments: jweCases)
    func jweEveryPosition(_ item: JWECase) throws {
        let plaintext = Data("Live long and prosper, every byte of it.".utf8)
        let (token, open) = try Self.sealed(item, plaintext: plaintext)
        #expect(try open(token) == plaintext)
        let bytes = Array(token.utf8)
        var headerTally = Tally()
        var bodyTally = Tally()
        var part = 0
        for position in bytes.indices {
            let isDot = bytes[position] == UInt8(ascii: ".")
            for altered in Self.variants(of: bytes, at: position, alphabet: Self.base64url) {
                let comment =
                    "\(item) position \(position) (part \(part + 1)\(isDot ? ", a dot" : "")) \(bytes[position]) → \(altered[position])"
                if part == 0 || isDot {
                    if let error = Self.expectRefused(altered, comment, expected: nil, open) { headerTally.add(error) }
                } else {
                    if let error = Self.expectRefused(altered, comment, expected: "authenticationFailure", open) {
                        bodyTally.add(error)
                    }
                }
            }
            if isDot { part += 1 }
        }
        #expect(part == 4)
        #expect(headerTally.kinds.isSubset(of: Self.headerErrorKinds), "header changes: \(headerTally)")
        #expect(headerTally.kinds.contains("malformedInput"), "header changes: \(headerTally)")
        #expect(bodyTally.kinds == ["authenticationFailure"], "\(bodyTally)")
        #expect(headerTally.total + bodyTally.total > 2 * bytes.count)
    }

    /// Every prefix is refused: with fewer than five parts as `malformedInput`, with five (the tag
    /// cut short) as `authenticationFailure`. Appending to the token is refused too.
    @Test(arguments: jweCases)
    func jweTruncation(_ item: JWECase) throws {
        let (token, open) = try Self.sealed(item, plaintext: Data("truncate me".utf8))
        let bytes = Array(token.utf8)
        let lastDot = try #require(bytes.lastIndex(of: UInt8(ascii: ".")))
        for length in 0..<bytes.count {
            Self.expectRefused(
                Array(bytes[..<length]),
                "\(item) cut to \(length)",
                expected: length > lastDot ? "authenticationFailure" : "malformedInput",
                open
            )
        }
        for suffix in ["A", "AA", "AAA", "AAAA", "g"] {
            Self.expectRefused(
                bytes + Array(suffix.utf8),
                "\(item) + \(suffix)",
                expected: "authenticationFailure",
                open
            )
        }
        Self.expectRefused(bytes + Array(".".utf8), "\(item) + .", expected: "malformedInput", open)
        Self.expectRefused(bytes + Array(".AAAA".utf8), "\(item) + .AAAA", expected: "malformedInput", open)
    }

    /// Swapping whole parts between two tokens made with the same key is refused too.
    @Test func jwePartsFromAnotherToken() throws {
        let key = SymmetricKey(data: randomBytes(32))
        let first = try JWE.encrypt(Data("first".utf8), using: key, keyManagement: .a256KW, contentEncryption: .a256GCM)
        let second = try JWE.encrypt(
            Data("other".utf8),
            using: key,
            keyManagement: .a256KW,
            contentEncryption: .a256GCM
        )
        let a = first.split(separator: ".").map(String.init)
        let b = second.split(separator: ".").map(String.init)
        for index in 1..<5 {
            var mixed = a
            mixed[index] = b[index]
            KAT.expectError("authenticationFailure", "part \(index + 1)") {
                try JWE.decrypt(mixed.joined(separator: "."), using: key)
            }
        }
    }

    // MARK: Fernet

    static let fernetKey = "cw_0x689RpI-jtRR7oE8h_eQsKImvJapLeSbXpwF4e4="

    /// Any change anywhere in a Fernet token, and any truncation, is `authenticationFailure`.
    @Test func fernetEveryPosition() throws {
        let fernet = try Fernet(key: Self.fernetKey)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        // 20 bytes: a 89-byte token, which base64url writes with one '='.
        let plaintext = Data("twenty bytes, please".utf8)
        let token = try fernet.encrypt(plaintext, timestamp: 1_800_000_000 - 5, iv: randomBytes(16))
        #expect(token.hasSuffix("=") && !token.hasSuffix("=="))
        let open = { (text: String) throws -> Data in try fernet.decrypt(text, timeToLive: 60, now: now) }
        #expect(try open(token) == plaintext)
        let bytes = Array(token.utf8)
        var tries = 0
        for position in bytes.indices {
            for altered in Self.variants(of: bytes, at: position, alphabet: Self.base64url) {
                Self.expectRefused(
                    altered,
                    "position \(position): \(bytes[position]) → \(altered[position])",
                    expected: "authenticationFailure",
                    open
                )
                tries += 1
            }
        }
        #expect(tries >= 2 * bytes.count)
        for length in 0..<bytes.count {
            Self.expectRefused(Array(bytes[..<length]), "cut to \(length)", expected: "authenticationFailure", open)
        }
        for suffix in ["=", "A", "AAAA", "AAA="] {
            Self.expectRefused(bytes + Array(suffix.utf8), "+ \(suffix)", expected: "authenticationFailure", open)
        }
    }

    // MARK: Legacy envelope

    /// The byte ranges of the three values inside the envelope's JSON text, with their alphabets.
    static func valueRanges(_ envelope: [UInt8]) throws -> [(name: String, range: Range<Int>, alphabet: [UInt8])] {
        try [("iv", Self.base64), ("mac", Self.hex), ("payload", Self.base64)].map { name, alphabet in
            let opening = Array("\"\(name)\":\"".utf8)
            let start = try #require(
                (0...(envelope.count - opening.count)).first { Array(envelope[$0..<$0 + opening.count]) == opening }
            )
            let valueStart = start + opening.count
            let valueEnd = try #require(envelope[valueStart...].firstIndex(of: UInt8(ascii: "\"")))
            return (name, valueStart..<valueEnd, alphabet)
        }
    }

    /// A change inside the `iv`, `mac` or `payload` value is `authenticationFailure`; a change in the
    /// JSON around them (names, quotes, braces) is refused as some `CryptoError`. Both MAC inputs.
    @Test(arguments: [false, true])
    func legacyEveryPosition(fields: Bool) throws {
        let envelope = try LegacyEnvelope(
            encryptionKey: SymmetricKey(data: Array("0123456789abcdef0123456789abcdef".utf8)),
            macKey: SymmetricKey(data: Array("mac key".utf8))
        )
        let plaintext = Data(
            #"{"toAccount":"1234","fromAccount":"5678","amount":"10.00","transferDate":"2026-11-22"}"#.utf8
        )
        let macInput: LegacyEnvelope.MACInput =
            fields ? .fields(["toAccount", "fromAccount", "amount", "transferDate"]) : .plaintext
        let sealed = Array(try envelope.seal(plaintext, macInput: macInput))
        let open = { (text: String) throws -> Data in try envelope.open(Data(text.utf8), macInput: macInput) }
        #expect(try open(String(decoding: sealed, as: UTF8.self)) == plaintext)
        let values = try Self.valueRanges(sealed)
        var syntaxTally = Tally()
        for position in sealed.indices {
            guard let value = values.first(where: { $0.range.contains(position) }) else {
                for altered in Self.variants(of: sealed, at: position, alphabet: Array("x{}\":,".utf8)) {
                    let comment = "JSON position \(position): \(sealed[position]) → \(altered[position])"
                    if let error = Self.expectRefused(altered, comment, expected: nil, open) { syntaxTally.add(error) }
                }
                continue
            }
            for altered in Self.variants(of: sealed, at: position, alphabet: value.alphabet) {
                let comment =
                    "\(value.name) position \(position - value.range.lowerBound): \(sealed[position]) → \(altered[position])"
                Self.expectRefused(altered, comment, expected: "authenticationFailure", open)
            }
        }
        #expect(syntaxTally.kinds == ["malformedInput"], "\(syntaxTally)")
        for length in 0..<sealed.count {
            Self.expectRefused(Array(sealed[..<length]), "cut to \(length)", expected: "malformedInput", open)
        }
    }
}
