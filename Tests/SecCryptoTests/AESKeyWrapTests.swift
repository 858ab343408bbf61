import Foundation
import SecCrypto
import TestSupport
import Testing

/// AES Key Wrap (RFC 3394), the JWE `A128KW`/`A192KW`/`A256KW` primitive.
@Suite struct AESKeyWrapTests {
    /// One RFC 3394 §4 test: a KEK, the key data and the wrapped result (hex).
    struct Vector: Sendable, CustomTestStringConvertible {
        let section: String
        let kek: String
        let keyData: String
        let wrapped: String

        var testDescription: String { "RFC 3394 §\(section)" }
    }

    private static let kek128 = "000102030405060708090A0B0C0D0E0F"
    private static let kek192 = "000102030405060708090A0B0C0D0E0F1011121314151617"
    private static let kek256 = "000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F"
    private static let data128 = "00112233445566778899AABBCCDDEEFF"
    private static let data192 = "00112233445566778899AABBCCDDEEFF0001020304050607"
    private static let data256 = "00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F"

    /// RFC 3394 §4.1–4.6: every KEK size with every key-data size it can wrap.
    static let vectors = [
        Vector(
            section: "4.1",
            kek: kek128,
            keyData: data128,
            wrapped: "1FA68B0A8112B447AEF34BD8FB5A7B829D3E862371D2CFE5"
        ),
        Vector(
            section: "4.2",
            kek: kek192,
            keyData: data128,
            wrapped: "96778B25AE6CA435F92B5B97C050AED2468AB8A17AD84E5D"
        ),
        Vector(
            section: "4.3",
            kek: kek256,
            keyData: data128,
            wrapped: "64E8C3F9CE0F5BA263E9777905818A2A93C8191E7D6E8AE7"
        ),
        Vector(
            section: "4.4",
            kek: kek192,
            keyData: data192,
            wrapped: "031D33264E15D33268F24EC260743EDCE1C6C7DDEE725A936BA814915C6762D2"
        ),
        Vector(
            section: "4.5",
            kek: kek256,
            keyData: data192,
            wrapped: "A8F9BC1612C68B3FF6E6F4FBE30E71E4769C8B80A32CB8958CD5D17D6B254DA1"
        ),
        Vector(
            section: "4.6",
            kek: kek256,
            keyData: data256,
            wrapped: "28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"
        ),
    ]

    private static func key(_ hex: String) throws -> SymmetricKey { SymmetricKey(data: try Hex.decode(hex)) }

    @Test(arguments: vectors)
    func wrap(_ vector: Vector) throws {
        let wrapped = try AES.KeyWrap.wrap(try Self.key(vector.keyData), using: try Self.key(vector.kek))
        #expect(Hex.encode(wrapped) == vector.wrapped.lowercased())
    }

    @Test(arguments: vectors)
    func unwrap(_ vector: Vector) throws {
        let unwrapped = try AES.KeyWrap.unwrap(try Hex.decode(vector.wrapped), using: try Self.key(vector.kek))
        #expect(unwrapped == (try Self.key(vector.keyData)))
    }

    /// Another KEK of the same size, or a KEK of another valid size, fails the integrity check.
    @Test(arguments: vectors)
    func unwrapWithWrongKEK(_ vector: Vector) throws {
        let wrapped = try Hex.decode(vector.wrapped)
        let kek = try Hex.decode(vector.kek)
        var wrongKEKs: [[UInt8]] = []
        for index in [0, kek.count / 2, kek.count - 1] {
            var other = kek
            other[index] ^= 0x01
            wrongKEKs.append(other)
        }
        for size in [16, 24, 32] where size != kek.count {
            wrongKEKs.append(Array(try Hex.decode(Self.kek256).prefix(size)))
        }
        wrongKEKs.append([UInt8](repeating: 0, count: kek.count))
        for wrong in wrongKEKs {
            #expect(throws: CryptoError.authenticationFailure, "KEK \(Hex.encode(wrong))") {
                try AES.KeyWrap.unwrap(wrapped, using: SymmetricKey(data: wrong))
            }
        }
    }

    /// Every single-bit and whole-byte change of the wrapped key is detected.
    @Test(arguments: vectors)
    func unwrapEveryFlippedByte(_ vector: Vector) throws {
        let wrapped = try Hex.decode(vector.wrapped)
        let kek = try Self.key(vector.kek)
        var tries = 0
        for index in wrapped.indices {
            for mask: UInt8 in [0x01, 0x80, 0xff] {
                var altered = wrapped
                altered[index] ^= mask
                #expect(throws: CryptoError.authenticationFailure, "byte \(index) ^ \(mask)") {
                    try AES.KeyWrap.unwrap(altered, using: kek)
                }
                tries += 1
            }
        }
        #expect(tries == wrapped.count * 3)
    }

    /// Swapping the 64-bit blocks of the wrapped key (integrity block included) is detected too.
    @Test func unwrapReorderedBlocks() throws {
        let vector = Self.vectors[5]
        let wrapped = try Hex.decode(vector.wrapped)
        let blocks = stride(from: 0, to: wrapped.count, by: 8).map { Array(wrapped[$0..<$0 + 8]) }
        for (a, b) in [(0, 1), (1, 2), (3, 4), (0, 4)] {
            var swapped = blocks
            swapped.swapAt(a, b)
            #expect(throws: CryptoError.authenticationFailure, "blocks \(a) and \(b) swapped") {
                try AES.KeyWrap.unwrap(Array(swapped.joined()), using: try Self.key(vector.kek))
            }
        }
    }

    /// Keys of 16 to 64 bytes (every multiple of 8) round-trip under each KEK size; the JWE CEKs are 16–64 bytes.
    @Test func roundTrip() throws {
        for kekSize in [16, 24, 32] {
            let kek = SymmetricKey(data: try SecureRandom.bytes(count: kekSize))
            for size in stride(from: 16, through: 64, by: 8) {
                let key = SymmetricKey(data: try SecureRandom.bytes(count: size))
                let wrapped = try AES.KeyWrap.wrap(key, using: kek)
                #expect(wrapped.count == size + 8)
                #expect(try AES.KeyWrap.unwrap(wrapped, using: kek) == key)
            }
        }
    }

    /// The key to wrap must be a multiple of 8 bytes and at least 16.
    @Test(arguments: [0, 1, 8, 15, 17, 20, 31, 33])
    func wrapKeyOfWrongSize(_ size: Int) throws {
        let kek = try Self.key(Self.kek128)
        expectIncorrectSize(actual: size, expected: "a multiple of 8 bytes, at least 16") {
            try AES.KeyWrap.wrap(SymmetricKey(data: [UInt8](repeating: 0x5a, count: size)), using: kek)
        }
    }

    /// The wrapped key must be a multiple of 8 bytes and at least 24 (checked before the KEK is used).
    @Test(arguments: [0, 8, 16, 23, 25, 31, 39])
    func unwrapOfWrongSize(_ size: Int) throws {
        let kek = try Self.key(Self.kek128)
        expectIncorrectSize(actual: size, expected: "a multiple of 8 bytes, at least 24") {
            try AES.KeyWrap.unwrap([UInt8](repeating: 0xa6, count: size), using: kek)
        }
    }

    /// The KEK must be an AES key: 16, 24 or 32 bytes, for wrapping and unwrapping alike.
    @Test(arguments: [0, 1, 8, 15, 17, 23, 25, 31, 33, 64])
    func kekOfWrongSize(_ size: Int) throws {
        let kek = SymmetricKey(data: [UInt8](repeating: 0x11, count: size))
        expectIncorrectSize(actual: size, expected: "16, 24 or 32 bytes") {
            try AES.KeyWrap.wrap(try Self.key(Self.data128), using: kek)
        }
        expectIncorrectSize(actual: size, expected: "16, 24 or 32 bytes") {
            try AES.KeyWrap.unwrap(try Hex.decode(Self.vectors[0].wrapped), using: kek)
        }
    }
}
