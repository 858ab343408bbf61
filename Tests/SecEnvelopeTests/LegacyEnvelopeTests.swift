import Foundation
import SecCrypto
import SecEnvelope
import TestSupport
import Testing

/// The book's `{"iv", "mac", "payload"}` envelope: round trips, and one `authenticationFailure` for
/// every way an envelope can fail to open.
@Suite struct LegacyEnvelopeTests {
    static let encryptionKey = SymmetricKey(data: Array("0123456789abcdef0123456789abcdef".utf8))
    static let macKey = SymmetricKey(data: Array("the mac key".utf8))
    static let transferFields = ["toAccount", "fromAccount", "amount", "transferDate"]
    static let transfer = Data(
        #"{"toAccount":"987654","fromAccount":"123456","amount":"250.00","transferDate":"2026-11-22"}"#.utf8
    )

    static func envelope() throws -> LegacyEnvelope { try LegacyEnvelope(encryptionKey: encryptionKey, macKey: macKey) }

    /// The members of a sealed envelope.
    static func members(_ sealed: Data) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: sealed) as? [String: String])
        #expect(Set(object.keys) == ["iv", "mac", "payload"])
        return object
    }

    /// An envelope with the given values, as the book's server would write it.
    static func envelopeJSON(iv: some ContiguousBytes, mac: String, payload: some ContiguousBytes) -> Data {
        Data(#"{"iv":"\#(Base64.encode(iv))","mac":"\#(mac)","payload":"\#(Base64.encode(payload))"}"#.utf8)
    }

    // MARK: Round trips

    /// `.plaintext`: the MAC is HMAC-SHA256 over the plaintext, the payload AES-CBC-PKCS#7 of it
    /// under the envelope's IV; key sizes 16, 24 and 32.
    @Test(arguments: [16, 24, 32])
    func roundTripPlaintext(keySize: Int) throws {
        let key = SymmetricKey(data: randomBytes(keySize))
        let envelope = try LegacyEnvelope(encryptionKey: key, macKey: Self.macKey)
        for count in [0, 1, 15, 16, 17, 100] {
            let plaintext = Data(randomBytes(count))
            let sealed = try envelope.seal(plaintext)
            #expect(try envelope.open(sealed) == plaintext)
            let members = try Self.members(sealed)
            let iv = try Base64.decode(try #require(members["iv"]))
            let payload = try Base64.decode(try #require(members["payload"]))
            #expect(iv.count == 16)
            #expect(payload.count == (count / 16 + 1) * 16)
            #expect(members["mac"] == HMAC<SHA256>.authenticationCode(for: plaintext, using: Self.macKey).hexString)
            #expect(try AES.CBC.decrypt(payload, using: key, iv: iv) == plaintext)
            #expect(String(decoding: sealed, as: UTF8.self).hasPrefix(#"{"iv":""#))
        }
    }

    /// `.fields`: the MAC covers the named string members, concatenated in the order given.
    @Test func roundTripFields() throws {
        let envelope = try Self.envelope()
        let sealed = try envelope.seal(Self.transfer, macInput: .fields(Self.transferFields))
        #expect(try envelope.open(sealed, macInput: .fields(Self.transferFields)) == Self.transfer)
        let expected = HMAC<SHA256>.authenticationCode(
            for: Data("987654123456250.002026-11-22".utf8),
            using: Self.macKey
        )
        #expect(try Self.members(sealed)["mac"] == expected.hexString)
        // Another order, or the plaintext MAC, is another MAC.
        KAT.expectError("authenticationFailure") {
            try envelope.open(sealed, macInput: .fields(Self.transferFields.reversed()))
        }
        KAT.expectError("authenticationFailure") {
            try envelope.open(sealed, macInput: .fields(Array(Self.transferFields.prefix(3))))
        }
        KAT.expectError("authenticationFailure") { try envelope.open(sealed) }
        KAT.expectError("authenticationFailure") {
            try envelope.open(try envelope.seal(Self.transfer), macInput: .fields(Self.transferFields))
        }
        // Sealing needs those fields, as strings, in a JSON object.
        for plaintext in [
            #"{"toAccount":"1","fromAccount":"2","amount":"3"}"#,
            #"{"toAccount":"1","fromAccount":"2","amount":3,"transferDate":"4"}"#,
            "not json", #"["toAccount"]"#, "",
        ] {
            KAT.expectError("invalidParameter", "\(plaintext)") {
                try envelope.seal(Data(plaintext.utf8), macInput: .fields(Self.transferFields))
            }
        }
    }

    // MARK: One failure for everything

    /// Wrong encryption key, wrong MAC key: the same `authenticationFailure`.
    @Test func wrongKeys() throws {
        let sealed = try Self.envelope().seal(Self.transfer, macInput: .fields(Self.transferFields))
        for macInput in [LegacyEnvelope.MACInput.fields(Self.transferFields), .plaintext] {
            let wrongEncryption = try LegacyEnvelope(
                encryptionKey: SymmetricKey(data: randomBytes(32)),
                macKey: Self.macKey
            )
            KAT.expectError("authenticationFailure") { try wrongEncryption.open(sealed, macInput: macInput) }
            let wrongMAC = try LegacyEnvelope(
                encryptionKey: Self.encryptionKey,
                macKey: SymmetricKey(data: Array("the mac kez".utf8))
            )
            KAT.expectError("authenticationFailure") { try wrongMAC.open(sealed, macInput: macInput) }
            let shorterKey = try LegacyEnvelope(
                encryptionKey: SymmetricKey(data: Array("0123456789abcdef".utf8)),
                macKey: Self.macKey
            )
            KAT.expectError("authenticationFailure") { try shorterKey.open(sealed, macInput: macInput) }
        }
    }

    /// A payload whose MAC is right but whose padding is not: the MAC over the whole decrypted text
    /// (what a receiver that ignores the padding would check) and over the text without the claimed
    /// padding. Neither opens, and neither says "padding".
    @Test(
        arguments: [
            [0x00], [0x11], [0xff], [0x01, 0x02], [0x03, 0x03, 0x04, 0x03], [0x02, 0x03, 0x03],
            Array(repeating: 0x10, count: 15) + [0x11], [0x0f] + Array(repeating: 0x10, count: 15),
        ] as [[UInt8]]
    )
    func badPaddingUnderAValidMAC(_ tail: [UInt8]) throws {
        let envelope = try Self.envelope()
        let padded = Array(Data("{\"amount\":\"1\"}  ".utf8)) + randomBytes(32 - 16 - tail.count) + tail
        try #require(padded.count == 32)
        let claimed = Int(tail.last!)
        var macInputs: [[UInt8]] = [padded]
        if (1...32).contains(claimed) { macInputs.append(Array(padded.dropLast(claimed))) }
        for iv in [randomBytes(16), [UInt8](repeating: 0, count: 16)] {
            let payload = try AES.CBC.encrypt(padded, using: Self.encryptionKey, iv: iv, padding: .none)
            for authenticated in macInputs {
                let mac = HMAC<SHA256>.authenticationCode(for: authenticated, using: Self.macKey).hexString
                let sealed = Self.envelopeJSON(iv: iv, mac: mac, payload: payload)
                let error = KAT.expectError(
                    "authenticationFailure",
                    "tail \(tail), MAC over \(authenticated.count) bytes"
                ) {
                    try envelope.open(sealed)
                }
                #expect(error?.description.contains("padding") == false)
            }
        }
        // The same payload with a correct padding opens: the construction above is right.
        let good = Array(padded.prefix(16)) + Array(repeating: 0x10, count: 16)
        let iv = randomBytes(16)
        let payload = try AES.CBC.encrypt(good, using: Self.encryptionKey, iv: iv, padding: .none)
        let mac = HMAC<SHA256>.authenticationCode(for: good.prefix(16), using: Self.macKey).hexString
        #expect(try envelope.open(Self.envelopeJSON(iv: iv, mac: mac, payload: payload)) == Data(good.prefix(16)))
    }

    /// `.fields` with a field missing from the plaintext fails even when the MAC is the one a
    /// careless receiver would fall back to (over the plaintext), or over the fields that are there.
    @Test func missingFieldUnderAValidMAC() throws {
        let envelope = try Self.envelope()
        let plaintexts = [
            #"{"toAccount":"987654","fromAccount":"123456","amount":"250.00"}"#,
            #"{"toAccount":"987654","fromAccount":"123456","amount":"250.00","transferDate":20261122}"#,
            #"{"toAccount":"987654","fromAccount":"123456","amount":"250.00","transferDate":null}"#,
            #"["987654","123456","250.00","2026-11-22"]"#, "987654123456250.002026-11-22", "",
        ]
        for plaintext in plaintexts {
            let bytes = Array(plaintext.utf8)
            let iv = randomBytes(16)
            let payload = try AES.CBC.encrypt(bytes, using: Self.encryptionKey, iv: iv)
            for authenticated in [bytes, Array("987654123456250.00".utf8), Array("987654123456250.002026-11-22".utf8)] {
                let mac = HMAC<SHA256>.authenticationCode(for: authenticated, using: Self.macKey).hexString
                KAT.expectError("authenticationFailure", "\(plaintext), MAC over \(authenticated.count) bytes") {
                    try envelope.open(
                        Self.envelopeJSON(iv: iv, mac: mac, payload: payload),
                        macInput: .fields(Self.transferFields)
                    )
                }
            }
            // With `.plaintext` the same envelope, MAC over the plaintext, opens: the construction is right.
            let mac = HMAC<SHA256>.authenticationCode(for: bytes, using: Self.macKey).hexString
            #expect(try envelope.open(Self.envelopeJSON(iv: iv, mac: mac, payload: payload)) == Data(bytes))
        }
    }

    /// Values of the wrong length or encoding: the same `authenticationFailure`.
    @Test func badValues() throws {
        let envelope = try Self.envelope()
        let sealed = try Self.members(try envelope.seal(Self.transfer))
        let (iv, mac, payload) = (sealed["iv"]!, sealed["mac"]!, sealed["payload"]!)
        let payloadBytes = try Base64.decode(payload)
        for (i, m, p) in [
            (Base64.encode(randomBytes(8)), mac, payload), (Base64.encode(randomBytes(17)), mac, payload),
            ("", mac, payload),
            ("not base64!", mac, payload), (iv, String(mac.dropLast()), payload), (iv, mac + "0", payload),
            (iv, "", payload),
            (iv, String(repeating: "z", count: 64), payload), (iv, "0x" + String(mac.dropFirst(2)), payload),
            (iv, mac, ""), (iv, mac, Base64.encode(payloadBytes.dropLast())),
            (iv, mac, Base64.encode(payloadBytes.dropLast(16))),
            (iv, mac, Base64.encode(payloadBytes + randomBytes(16))), (iv, mac, "%%%%"),
        ] {
            let text = Data(#"{"iv":"\#(i)","mac":"\#(m)","payload":"\#(p)"}"#.utf8)
            KAT.expectError("authenticationFailure", "iv \(i) mac \(m) payload \(p)") { try envelope.open(text) }
        }
        #expect(
            try envelope.open(Data(#"{"payload":"\#(payload)","mac":"\#(mac)","iv":"\#(iv)"}"#.utf8)) == Self.transfer,
            "member order does not matter"
        )
    }

    /// An envelope that is not a JSON object with three string members is `malformedInput`.
    @Test(arguments: [
        "", "hello", "[1]", "{", "null", #""iv""#, "{}", #"{"iv":"AAAA","mac":"00"}"#,
        #"{"iv":"AAAA","payload":"AAAA"}"#,
        #"{"mac":"00","payload":"AAAA"}"#, #"{"iv":1,"mac":"00","payload":"AAAA"}"#,
        #"{"iv":"AAAA","mac":null,"payload":"AAAA"}"#,
        #"{"iv":"AAAA","mac":"00","payload":["AAAA"]}"#, #"{"iv":"AAAA","mac":"00","payload":"AAAA"} trailing"#,
        #"{"iv":"AAAA","iv":"AAAA","mac":"00","payload":"AAAA"}"#, #"{"IV":"AAAA","mac":"00","payload":"AAAA"}"#,
    ])
    func malformedEnvelope(_ text: String) throws {
        KAT.expectError("malformedInput", "\(text)") { try Self.envelope().open(Data(text.utf8)) }
    }

    /// The encryption key is an AES key (16, 24 or 32 bytes); the MAC key any non-empty length.
    @Test func keySizes() throws {
        for size in [0, 1, 15, 17, 31, 33, 64] {
            expectIncorrectSize(actual: size, expected: "16, 24 or 32 bytes") {
                try LegacyEnvelope(encryptionKey: SymmetricKey(data: randomBytes(size)), macKey: Self.macKey)
            }
        }
        KAT.expectError("invalidParameter") {
            try LegacyEnvelope(encryptionKey: Self.encryptionKey, macKey: SymmetricKey(data: [UInt8]()))
        }
        for size in [1, 32, 200] {
            let envelope = try LegacyEnvelope(
                encryptionKey: Self.encryptionKey,
                macKey: SymmetricKey(data: randomBytes(size))
            )
            #expect(try envelope.open(try envelope.seal(Self.transfer)) == Self.transfer)
        }
    }
}
