import Foundation
import SecCrypto
import TestSupport
import Testing

@testable import SecEnvelope

/// The Fernet specification's vectors (`TestVectors/fernet/`, github.com/fernet/spec).
@Suite struct FernetSpecTests {
    struct GenerateCase: Decodable {
        let token, now, src, secret: String
        let iv: [UInt8]
    }

    struct VerifyCase: Decodable {
        let token, now, src, secret: String
        let ttlSec: Int64
    }

    struct InvalidCase: Decodable {
        let desc, token, now, secret: String
        let ttlSec: Int64
    }

    static func load<T: Decodable>(_ name: String, as type: [T].Type) throws -> [T] {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(type, from: TestVectors.data("fernet/\(name).json"))
    }

    /// `now` of a case ("1985-10-26T01:20:00-07:00").
    static func date(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text), "unparsable date \(text)")
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970) }

    /// Encrypting `src` at `now` with the case's IV gives the token byte for byte.
    @Test func generate() throws {
        let cases = try Self.load("generate", as: [GenerateCase].self)
        for item in cases {
            let fernet = try Fernet(key: item.secret)
            let date = try Self.date(item.now)
            #expect(Self.seconds(date) == 499_162_800)
            let token = try fernet.encrypt(Data(item.src.utf8), timestamp: Self.seconds(date), iv: item.iv)
            #expect(token == item.token)
            #expect(try fernet.decrypt(token, timeToLive: 60, now: date) == Data(item.src.utf8))
            #expect(try fernet.timestamp(of: token) == date)
        }
        #expect(cases.count == 1)
    }

    /// Each token opens at `now` with `ttl_sec`, and its age limits hold to the second.
    @Test func verify() throws {
        let cases = try Self.load("verify", as: [VerifyCase].self)
        for item in cases {
            let fernet = try Fernet(key: item.secret)
            let now = try Self.date(item.now)
            #expect(try fernet.decrypt(item.token, timeToLive: item.ttlSec, now: now) == Data(item.src.utf8))
            #expect(try fernet.decrypt(item.token) == Data(item.src.utf8), "no time-to-live: any age")
            let created = Date(timeIntervalSince1970: TimeInterval(Self.seconds(try fernet.timestamp(of: item.token))))
            let lastSecond = created.addingTimeInterval(TimeInterval(item.ttlSec))
            #expect(try fernet.decrypt(item.token, timeToLive: item.ttlSec, now: lastSecond) == Data(item.src.utf8))
            KAT.expectError("expired") {
                try fernet.decrypt(item.token, timeToLive: item.ttlSec, now: lastSecond.addingTimeInterval(1))
            }
            let skew = TimeInterval(Fernet.maximumClockSkew)
            #expect(
                try fernet.decrypt(item.token, timeToLive: item.ttlSec, now: created.addingTimeInterval(-skew))
                    == Data(item.src.utf8)
            )
            KAT.expectError("expired") { try fernet.decrypt(item.token, now: created.addingTimeInterval(-skew - 1)) }
        }
        #expect(cases.count == 1)
    }

    /// The spec's invalid tokens, with the error each must give: only an authentic token can be `expired`.
    static let invalidExpectations = [
        "incorrect mac": "authenticationFailure",
        "too short": "authenticationFailure",
        "invalid base64": "authenticationFailure",
        "payload size not multiple of block size": "authenticationFailure",
        "payload padding error": "authenticationFailure",
        "far-future TS (unacceptable clock skew)": "expired",
        "expired TTL": "expired",
        "incorrect IV (causes padding error)": "authenticationFailure",
    ]

    /// Known bug (see the report): a token with a valid MAC whose decrypted padding is bad throws
    /// `decryptionFailed` (from `CipherContext.finish`), not `authenticationFailure`.
    @Test func invalid() throws {
        let cases = try Self.load("invalid", as: [InvalidCase].self)
        #expect(cases.count == 8)
        #expect(Set(cases.map(\.desc)) == Set(Self.invalidExpectations.keys))
        for item in cases {
            let fernet = try Fernet(key: item.secret)
            let now = try Self.date(item.now)
            let expected = try #require(Self.invalidExpectations[item.desc])
            let multi = MultiFernet([try Fernet(key: SymmetricKey(size: .bits256)), fernet])
            KAT.expectError(expected, "\(item.desc)") {
                try fernet.decrypt(item.token, timeToLive: item.ttlSec, now: now)
            }
            // The same with MultiFernet, the spec key second.
            KAT.expectError(expected, "MultiFernet: \(item.desc)") {
                try multi.decrypt(item.token, timeToLive: item.ttlSec, now: now)
            }
        }
    }

    /// Tokens for every plaintext length 0…64 open again: the decoded token is 57 + 16·n bytes, so a
    /// third of the lengths give a token whose base64url has no `=` at all.
    @Test func everyPlaintextLength() throws {
        let fernet = try Fernet(key: "cw_0x689RpI-jtRR7oE8h_eQsKImvJapLeSbXpwF4e4=")
        for count in 0...64 {
            let plaintext = Data(randomBytes(count))
            let token = try fernet.encrypt(plaintext, timestamp: 499_162_800, iv: randomBytes(16))
            let blocks = count / 16 + 1
            #expect(token.utf8.count == (57 + 16 * blocks + 2) / 3 * 4)
            #expect(try fernet.decrypt(token) == plaintext, "\(count) bytes, token of \(57 + 16 * blocks) bytes")
        }
    }

    /// Keys: base64url text of exactly 32 bytes.
    @Test func keySizes() throws {
        for size in [0, 16, 31, 33, 64] {
            expectIncorrectSize(actual: size, expected: "32 bytes") {
                try Fernet(key: SymmetricKey(data: randomBytes(size)))
            }
            expectIncorrectSize(actual: size, expected: "32 bytes") {
                try Fernet(key: Base64.encode(randomBytes(size), alphabet: .url))
            }
        }
        KAT.expectError("invalidEncoding") { try Fernet(key: "cw_0x689RpI-jtRR7oE8h_eQsKImvJapLeSbXpwF4e4*") }
        KAT.expectError("invalidEncoding") { try Fernet(key: "cw/0x689RpI+jtRR7oE8h/eQsKImvJapLeSbXpwF4e4=") }
        #expect(throws: Never.self) { try Fernet(key: try Fernet.generateKey()) }
    }
}
