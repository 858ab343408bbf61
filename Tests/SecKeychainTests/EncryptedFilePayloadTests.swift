import Foundation
import Testing

@testable import SecKeychain

/// The item list inside an encrypted keychain file, read directly: what tools/fuzz file-store found.
@Suite struct EncryptedFilePayloadTests {
    /// An item whose creation date is 0x7FFF_FFFF_FFFF_FFFA ms decoded, then trapped when written
    /// back (Int64 of a Double past Int64.max): dates outside the years 1–9999 are a corrupt store.
    @Test func datesOutOfRangeAreACorruptStore() throws {
        let found = try #require(
            Data(
                base64Encoded:
                    "AAAAAgAAAAQAAAAHc2VydmljZQAAAARmdXp6AAAAB2FjY291bnQAAAAFYWxpY2UAAAAHZXhwaXJlcwAAAAAAAAAAAAAAAAAAAAB/////////+gAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlQAAAJfoAAAAAAZzZWNyZXQ="
            )
        )
        #expect(throws: KeychainError.corruptStore("a date is out of range")) {
            try found.withUnsafeBytes { try EncryptedFilePayload.decode($0) }
        }
    }

    @Test func datesAtTheEdgesOfTheRangeRoundTrip() throws {
        for milliseconds: Int64 in [-62_135_596_800_000, 0, 1_764_000_000_123, 253_402_300_799_999] {
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let item = FileItem(pairs: ["service": "s"], label: "l", created: date, modified: date, secret: .init([1]))
            let decoded = try EncryptedFilePayload.encode([item]).withUnsafeBytes {
                try EncryptedFilePayload.decode($0)
            }
            #expect(decoded.map(\.created) == [date], "\(milliseconds)")
        }
    }
}
