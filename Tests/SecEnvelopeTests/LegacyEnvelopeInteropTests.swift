import Foundation
import SecCrypto
import SecEnvelope
import TestSupport
import Testing

/// SecKit's LegacyEnvelope against the PHP server of the book's chapter 6 (Tests/Peers/legacy_server.php):
/// the transfer request (MAC over toAccount.fromAccount.amount.transferDate) and the response (MAC
/// over the plaintext), with SecKit as the client and as the server.
@Suite struct LegacyEnvelopeInteropTests {
    /// As in the book: a 32-character string used as the raw AES-256 key, and a separate MAC key.
    static let encryptionKeyText = "bank-app shared AES key 32 chars"
    static let macKeyText = "bank-app HMAC key"
    static let fields = ["toAccount", "fromAccount", "amount", "transferDate"]

    static func envelope(
        encryptionKey: String = encryptionKeyText,
        macKey: String = macKeyText
    ) throws -> LegacyEnvelope {
        try LegacyEnvelope(
            encryptionKey: SymmetricKey(data: Array(encryptionKey.utf8)),
            macKey: SymmetricKey(data: Array(macKey.utf8))
        )
    }

    static func php(
        _ mode: String,
        _ input: Data,
        encryptionKey: String = encryptionKeyText,
        macKey: String = macKeyText
    ) throws -> PeerResult {
        try InteropPeer.legacy.callAllowingFailure(
            [mode],
            stdin: input,
            environment: ["LEGACY_KEY": encryptionKey, "LEGACY_MAC_KEY": macKey]
        )
    }

    /// Same length, other bytes: PHP insists on exactly 32.
    static let wrongEncryptionKey = "bank-app shared AES key 32 CHARS"
    static let wrongMACKey = "bank-app HMAC kez"

    struct Sample: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var testDescription: String { name }
        var data: Data { Data(json.utf8) }
    }

    static let transfers = [
        Sample(
            name: "ASCII, members in another order, an extra member",
            json: #"""
                {"amount":"125.00","memo":"rent","transferDate":"2026-11-18T09:30:00Z","fromAccount":"GB29NWBK60161331926819","toAccount":"DE44500105175407324931"}
                """#
        ),
        Sample(
            name: "non-ASCII as UTF-8 (é, ü, €)",
            json: #"""
                {"toAccount":"Café Zürich","fromAccount":"Müller & Söhne","amount":"1.000,00 €","transferDate":"18.11.2026"}
                """#
        ),
        Sample(
            name: "JSON escapes (\\u00e9, \\/, a surrogate pair)",
            json: #"""
                {"toAccount":"Caf\u00e9","fromAccount":"a\/b \"quoted\"","amount":"\ud83d\ude00 5","transferDate":"2026\/11\/18"}
                """#
        ),
    ]

    static let responses = [
        Sample(name: "ASCII", json: #"{"status":"ok","balance":"1234.56","reference":"TX/2026/0042"}"#),
        Sample(name: "non-ASCII", json: #"{"status":"ok","message":"Überweisung an Café Zürich ausgeführt"}"#),
    ]

    // MARK: The request: SecKit as the app, PHP as the server, and the other way round

    @Test("SecKit seals a transfer with .fields, PHP decrypt-request opens it", arguments: transfers)
    func secKitRequestToPHP(transfer: Sample) throws {
        let sealed = try Self.envelope().seal(transfer.data, macInput: .fields(Self.fields))
        let result = try Self.php("decrypt-request", sealed)
        #expect(result.status == 0, "legacy_server decrypt-request: \(result.stderr)")
        #expect(result.text == transfer.json)
    }

    @Test("PHP encrypt-request, SecKit opens it with .fields (not .plaintext, not wrong keys)", arguments: transfers)
    func phpRequestToSecKit(transfer: Sample) throws {
        let result = try Self.php("encrypt-request", transfer.data)
        try #require(result.status == 0, "legacy_server encrypt-request: \(result.stderr)")
        #expect(try Self.envelope().open(result.stdout, macInput: .fields(Self.fields)) == transfer.data)
        #expect(throws: CryptoError.authenticationFailure) {
            try Self.envelope().open(result.stdout, macInput: .plaintext)
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try Self.envelope(macKey: Self.wrongMACKey).open(result.stdout, macInput: .fields(Self.fields))
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try Self.envelope(encryptionKey: Self.wrongEncryptionKey).open(
                result.stdout,
                macInput: .fields(Self.fields)
            )
        }
    }

    // MARK: The response: PHP as the server, SecKit as the app, and the other way round

    @Test("PHP encrypt-response, SecKit opens it with .plaintext (not wrong keys)", arguments: responses)
    func phpResponseToSecKit(response: Sample) throws {
        let result = try Self.php("encrypt-response", response.data)
        try #require(result.status == 0, "legacy_server encrypt-response: \(result.stderr)")
        #expect(try Self.envelope().open(result.stdout, macInput: .plaintext) == response.data)
        #expect(throws: CryptoError.authenticationFailure) {
            try Self.envelope(macKey: Self.wrongMACKey).open(result.stdout)
        }
        #expect(throws: CryptoError.authenticationFailure) {
            try Self.envelope(encryptionKey: Self.wrongEncryptionKey).open(result.stdout)
        }
    }

    @Test("SecKit seals with .plaintext, PHP decrypt-response opens it", arguments: responses)
    func secKitResponseToPHP(response: Sample) throws {
        let sealed = try Self.envelope().seal(response.data, macInput: .plaintext)
        let result = try Self.php("decrypt-response", sealed)
        #expect(result.status == 0, "legacy_server decrypt-response: \(result.stderr)")
        #expect(result.stdout == response.data)
    }

    // MARK: Wrong keys on the PHP side

    enum WrongKey: String, CaseIterable, Sendable { case encryption, mac }

    @Test("PHP refuses a SecKit envelope under a wrong key", arguments: WrongKey.allCases, ["request", "response"])
    func phpRefusesWrongKey(wrong: WrongKey, path: String) throws {
        let sealed =
            path == "request"
            ? try Self.envelope().seal(Self.transfers[1].data, macInput: .fields(Self.fields))
            : try Self.envelope().seal(Self.responses[1].data, macInput: .plaintext)
        let result =
            switch wrong {
            case .encryption: try Self.php("decrypt-\(path)", sealed, encryptionKey: Self.wrongEncryptionKey)
            case .mac: try Self.php("decrypt-\(path)", sealed, macKey: Self.wrongMACKey)
            }
        #expect(result.status == 1, "exit \(result.status): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("legacy_server decrypt-\(path): "), "\(result.stderr)")
        if wrong == .mac { #expect(result.stderr.contains("mac mismatch"), "\(result.stderr)") }
    }
}
