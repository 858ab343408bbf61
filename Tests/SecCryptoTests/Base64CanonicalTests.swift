import SecCrypto
import TestSupport
import Testing

/// `Base64.decodeCanonical`: the one encoding token formats (JWE, Fernet) accept, so that no altered text
/// decodes to the bytes of the original.
@Suite struct Base64CanonicalTests {
    private static let url = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    /// Known bug (see the report): `decodeCanonical(padded: true)` refuses text that needs no padding
    /// (a multiple of 3 bytes, the empty text included), which is the canonical padded form of those lengths.
    /// Expects `text` to be refused as `invalidEncoding`.
    private func expectRefused(
        _ text: String,
        alphabet: Base64.Alphabet = .url,
        padded: Bool?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(
            throws: CryptoError.self,
            "\(text.debugDescription) padded: \(String(describing: padded))",
            sourceLocation: sourceLocation
        ) {
            try Base64.decodeCanonical(text, alphabet: alphabet, padded: padded)
        }
        if let error, case .invalidEncoding = error {
        } else if let error {
            Issue.record("expected invalidEncoding, got \(error)", sourceLocation: sourceLocation)
        }
    }

    /// RFC 4648 §10, in both alphabets, with padding required, forbidden or optional as written.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648(_ plain: String, _ encoded: String) throws {
        let unpadded = String(encoded.filter { $0 != "=" })
        for alphabet in [Base64.Alphabet.standard, .url] {
            for (text, padded) in [(encoded, true), (encoded, nil), (unpadded, false), (unpadded, nil)]
                as [(String, Bool?)]
            {
                #expect(try Base64.decodeCanonical(text, alphabet: alphabet, padded: padded) == Array(plain.utf8))
            }
        }
    }

    /// White space is never skipped, wherever it is.
    @Test(arguments: [
        " QUJD", "QUJD ", "QU JD", "QUJD\n", "\nQUJD", "QU\nJD", "QUJD\r\n", "\tQUJD", "QUJD\u{0C}", "QQ ", "Q Q",
        "QQ= =", "QQ=\n=", " ", "\n",
    ])
    func refusesWhiteSpace(_ text: String) {
        for padded in [true, false, nil] as [Bool?] { expectRefused(text, padded: padded) }
    }

    /// One byte leaves 4 unused bits in the second character, two bytes leave 2 in the third: every
    /// character whose unused bits are not zero is refused ("QR" is not another spelling of "QQ").
    @Test func refusesNonZeroTrailingBits() throws {
        var accepted1 = 0
        var accepted2 = 0
        for (value, character) in Self.url.enumerated() {
            let oneByte = "Q\(character)"
            if value & 0x0f == 0 {
                #expect(
                    try Base64.decodeCanonical(oneByte, alphabet: .url, padded: false) == [0x40 | UInt8(value >> 4)]
                )
                #expect(try Base64.decodeCanonical(oneByte + "==", alphabet: .url, padded: true).count == 1)
                accepted1 += 1
            } else {
                expectRefused(oneByte, padded: false)
                expectRefused(oneByte + "==", padded: true)
                expectRefused(oneByte, padded: nil)
            }
            let twoBytes = "UJ\(character)"
            if value & 0x03 == 0 {
                #expect(
                    try Base64.decodeCanonical(twoBytes, alphabet: .url, padded: false) == [
                        0x50, 0x90 | UInt8(value >> 2),
                    ]
                )
                #expect(try Base64.decodeCanonical(twoBytes + "=", alphabet: .url, padded: true).count == 2)
                accepted2 += 1
            } else {
                expectRefused(twoBytes, padded: false)
                expectRefused(twoBytes + "=", padded: true)
                expectRefused(twoBytes, padded: nil)
            }
        }
        #expect(accepted1 == 4 && accepted2 == 16)
        #expect(try Base64.decodeCanonical("QQ", alphabet: .url, padded: false) == [0x41])
        expectRefused("QR", padded: false)
        expectRefused("QR==", padded: true)
    }

    /// `padded: false` forbids `=`, `padded: true` requires exactly the padding the length calls for,
    /// `nil` accepts either form but nothing in between. `=` anywhere but at the end is refused.
    @Test(arguments: [
        // text, accepted with padded: false, true, nil
        ("QQ", true, false, true),
        ("QQ=", false, false, false),
        ("QQ==", false, true, true),
        ("QQ===", false, false, false),
        ("QUI", true, false, true),
        ("QUI=", false, true, true),
        ("QUI==", false, false, false),
        ("QUJD", true, true, true),
        ("QUJD=", false, false, false),
        ("QUJD==", false, false, false),
        ("QUJD====", false, false, false),
        ("QUJDQQ", true, false, true),
        ("QUJDQQ==", false, true, true),
        ("", true, true, true),
        ("=", false, false, false),
        ("==", false, false, false),
        ("====", false, false, false),
        ("Q===", false, false, false),
        ("Q=Q=", false, false, false),
        ("=QQ=", false, false, false),
        ("Q=", false, false, false),
        ("QQ==QQ==", false, false, false),
        ("QUI=QUJD", false, false, false),
        ("QQ==QUJD", false, false, false),
        ("QUJD=QQ", false, false, false),
        ("Q", false, false, false),
        ("QUJDQ", false, false, false),
        ("QUJDQ===", false, false, false),
    ])
    func padding(_ text: String, unpadded: Bool, padded: Bool, either: Bool) {
        for (setting, accepted) in [(false, unpadded), (true, padded), (nil, either)] as [(Bool?, Bool)] {
            if accepted {
                #expect(throws: Never.self, "\(text) padded: \(String(describing: setting))") {
                    try Base64.decodeCanonical(text, alphabet: .url, padded: setting)
                }
            } else {
                expectRefused(text, padded: setting)
            }
        }
    }

    /// Characters outside the alphabet: the other alphabet's two, punctuation, NUL, DEL, non-ASCII.
    @Test func refusesInvalidCharacters() throws {
        for text in [
            "QU+D", "QU/D", "QUJ+", "+A", "QUJD/w", "QU.D", "QU*D", "QU\u{0}D", "QU\u{7f}D", "QUé", "QUJD€", "Q🙂",
            "QUJD\"", "%41",
        ] {
            for padded in [true, false, nil] as [Bool?] { expectRefused(text, alphabet: .url, padded: padded) }
        }
        for text in ["QU-D", "QU_D", "QUJ-", "_w", "QU.D"] {
            for padded in [true, false, nil] as [Bool?] { expectRefused(text, alphabet: .standard, padded: padded) }
        }
        #expect(try Base64.decodeCanonical("+/+/", alphabet: .standard, padded: false) == [0xfb, 0xff, 0xbf])
        #expect(try Base64.decodeCanonical("-_-_", alphabet: .url, padded: false) == [0xfb, 0xff, 0xbf])
    }

    /// Every length 0…40 of random bytes survives `encode` then `decodeCanonical` in the matching mode,
    /// in both alphabets; `nil` accepts both forms.
    @Test(arguments: [true, false])
    func roundTrip(padding: Bool) throws {
        for count in 0...40 {
            let bytes = randomBytes(count)
            for alphabet in [Base64.Alphabet.url, .standard] {
                let text = Base64.encode(bytes, alphabet: alphabet, padding: padding)
                // Without padding characters (a multiple of 3 bytes) the two forms are the same text.
                for setting in [padding, nil, !padding] as [Bool?] where setting != !padding || count % 3 == 0 {
                    #expect(
                        try Base64.decodeCanonical(text, alphabet: alphabet, padded: setting) == bytes,
                        "\(count) bytes: \(text)"
                    )
                }
                if count % 3 != 0 { expectRefused(text, alphabet: alphabet, padded: !padding) }
                let fromBuffer = try Array(text.utf8).withUnsafeBytes { buffer in
                    try Base64.decodeCanonical(buffer, alphabet: alphabet, padded: padding)
                }
                #expect(fromBuffer == bytes)
            }
        }
    }

    /// Canonical means injective: replacing any one character of a valid encoding by any other
    /// character of the alphabet either fails or decodes to different bytes.
    @Test(arguments: [1, 2, 3, 7, 8])
    func noOtherSpellingDecodesToTheSameBytes(count: Int) throws {
        let bytes = try SecureRandom.bytes(count: count)
        for padding in [false, true] {
            let text = Array(Base64.encode(bytes, alphabet: .url, padding: padding))
            for position in text.indices where text[position] != "=" {
                for character in Self.url where character != text[position] {
                    var altered = text
                    altered[position] = character
                    let decoded = try? Base64.decodeCanonical(String(altered), alphabet: .url, padded: padding)
                    #expect(decoded != bytes, "\(String(altered)) decodes like \(String(text))")
                }
            }
        }
    }
}
