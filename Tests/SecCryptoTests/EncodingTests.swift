import SecCrypto
import Testing

@Suite struct HexTests {
    private static let bytes: [UInt8] = [0x00, 0x01, 0x7f, 0xab, 0xff]

    @Test(arguments: [
        (false, "", "00017fabff"),
        (true, "", "00017FABFF"),
        (false, ":", "00:01:7f:ab:ff"),
        (true, ":", "00:01:7F:AB:FF"),
        (false, " ", "00 01 7f ab ff"),
    ])
    func encode(uppercase: Bool, separator: String, expected: String) {
        #expect(Hex.encode(Self.bytes, uppercase: uppercase, separator: separator) == expected)
        #expect(Hex.encode([UInt8](), uppercase: uppercase, separator: separator) == "")
    }

    @Test(arguments: [
        "00017fabff", "00017FABFF", "00017FaBfF", "0x00017fabff", "0X00017FABFF",
        "00:01:7f:ab:ff", "00:01:7F:AB:FF", "00 01 7f ab ff", " 0001\t7fab\r\nff\n", "0x00:01:7f:ab:ff",
    ])
    func decodeTolerates(_ text: String) throws {
        #expect(try Hex.decode(text) == Self.bytes)
        #expect(try Hex.decode(utf8: Array(text.utf8)) == Self.bytes)
    }

    @Test(arguments: ["", "0x", " \n"])
    func decodeEmpty(_ text: String) throws {
        #expect(try Hex.decode(text) == [])
    }

    /// The inputs look like key material; the messages must name the problem and position only.
    @Test(arguments: [
        ("c0ffee5ec7e7b", "hex: odd number of digits"),
        ("c0ffee5ec7e7bz", "hex: invalid character at position 14"),
        ("c0ffee5e-c7e7", "hex: invalid character at position 9"),
        ("c0ffee5ec:7e7", "hex: separator inside a byte at position 10"),
        ("c0ffee5ec 7e7", "hex: separator inside a byte at position 10"),
    ])
    func decodeErrorsDoNotEchoTheInput(_ text: String, _ message: String) {
        let error = #expect(throws: CryptoError.self) { try Hex.decode(text) }
        #expect(error == .invalidEncoding(message))
        #expect(error?.description.contains("c0ffee") == false)
    }
}

@Suite struct Base64Tests {
    /// RFC 4648 §10.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648(_ plain: String, _ encoded: String) throws {
        let bytes = Array(plain.utf8)
        let unpadded = String(encoded.filter { $0 != "=" })
        for alphabet in [Base64.Alphabet.standard, .url] {
            #expect(Base64.encode(bytes, alphabet: alphabet) == encoded)
            #expect(Base64.encode(bytes, alphabet: alphabet, padding: false) == unpadded)
            #expect(try Base64.decode(encoded, alphabet: alphabet) == bytes)
            #expect(try Base64.decode(unpadded, alphabet: alphabet) == bytes)
        }
    }

    @Test(arguments: [
        ([UInt8]([0xfb, 0xff, 0xbf]), "+/+/", "-_-_"),
        ([0xfb, 0xff], "+/8=", "-_8="),
        ([0xfb], "+w==", "-w=="),
    ])
    func alphabetsDifferOnlyInTheLastTwoCharacters(_ bytes: [UInt8], _ standard: String, _ url: String) throws {
        #expect(Base64.encode(bytes) == standard)
        #expect(Base64.encode(bytes, alphabet: .url) == url)
        #expect(try Base64.decode(standard) == bytes)
        #expect(try Base64.decode(url, alphabet: .url) == bytes)
        #expect(throws: CryptoError.self) { try Base64.decode(url) }
        #expect(throws: CryptoError.self) { try Base64.decode(standard, alphabet: .url) }
    }

    private static let hundredBytes = (0..<100).map { UInt8($0) }

    /// Known outputs: `openssl base64` (64 columns) and Python's `base64.encodebytes` (76, MIME).
    @Test(arguments: [
        (
            64,
            """
            AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4v
            MDEyMzQ1Njc4OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5f
            YGFiYw==
            """
        ),
        (
            76,
            """
            AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4
            OTo7PD0+P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiYw==
            """
        ),
    ])
    func lineWrapping(_ lineLength: Int, _ expected: String) throws {
        #expect(Base64.encode(Self.hundredBytes, lineLength: lineLength) == expected)
        let crlf = Base64.encode(Self.hundredBytes, lineLength: lineLength, lineSeparator: "\r\n")
        #expect(crlf == expected.split(separator: "\n").joined(separator: "\r\n"))
        #expect(try Base64.decode(expected) == Self.hundredBytes)
        #expect(try Base64.decode(crlf) == Self.hundredBytes)
        // Output that exactly fills whole lines gets no trailing separator.
        let wholeLines = Base64.encode([UInt8](repeating: 0x5a, count: lineLength / 4 * 3 * 2), lineLength: lineLength)
        #expect(wholeLines.split(separator: "\n").map(\.count) == [lineLength, lineLength])
        #expect(!wholeLines.hasSuffix("\n"))
    }

    @Test(arguments: [
        ("Zm9v!mFy", "base64: invalid character at position 5"),
        ("Zm9v YmF\u{e9}", "base64: invalid character at position 9"),
        ("=Zm9v", "base64: misplaced padding at position 1"),
        ("Zm9v=", "base64: misplaced padding at position 5"),
        ("Zg===", "base64: misplaced padding at position 5"),
        ("Zm8==", "base64: misplaced padding at position 5"),
        ("Zg==Zg==", "base64: data after padding at position 5"),
        ("Zg=", "base64: incomplete padding"),
        ("Zm9vY", "base64: truncated input (length is not valid for base64)"),
    ])
    func decodeErrors(_ text: String, _ message: String) {
        let error = #expect(throws: CryptoError.self) { try Base64.decode(text) }
        #expect(error == .invalidEncoding(message))
        #expect(error?.description.contains(text) == false)
    }
}
