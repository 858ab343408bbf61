import SecCrypto
import Testing

@Suite struct RandomAndKeyTests {
    @Test(arguments: [0, 1, 16, 32, 1000, 100_000])
    func secureRandomReturnsTheRequestedLength(_ count: Int) throws {
        #expect(try SecureRandom.bytes(count: count).count == count)
    }

    @Test func secureRandomCallsDiffer() throws {
        #expect(try SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
    }

    @Test func secureRandomFillsABuffer() throws {
        var buffer = [UInt8](repeating: 0, count: 64)
        try buffer.withUnsafeMutableBytes { try SecureRandom.fill($0) }
        #expect(buffer != [UInt8](repeating: 0, count: 64))
    }

    @Test(arguments: [
        (SymmetricKeySize.bits128, 128), (.bits192, 192), (.bits256, 256), (SymmetricKeySize(bitCount: 520), 520),
    ])
    func generatedKeyHasTheRequestedSize(_ size: SymmetricKeySize, _ bits: Int) {
        let key = SymmetricKey(size: size)
        #expect(size.bitCount == bits)
        #expect(key.bitCount == bits)
        #expect(key.withUnsafeBytes { $0.count } * 8 == bits)
        #expect(key != SymmetricKey(size: size))
        #expect(key.description == "SymmetricKey(\(bits) bits)")
    }

    @Test func keysFromBytesCompareByContent() {
        let key = SymmetricKey(data: [0xde, 0xad, 0xbe, 0xef])
        #expect(key.bitCount == 32)
        #expect(key == SymmetricKey(data: [0xde, 0xad, 0xbe, 0xef]))
        #expect(key == SymmetricKey(SecureBytes([0xde, 0xad, 0xbe, 0xef])))
        #expect(key != SymmetricKey(data: [0xde, 0xad, 0xbe, 0xee]))
        #expect(key != SymmetricKey(data: [0xde, 0xad, 0xbe]))
    }

    @Test func secureBytesDescriptionHidesTheBytes() {
        let secret = SecureBytes(Array("hunter2".utf8))
        #expect(secret.count == 7 && !secret.isEmpty)
        #expect(secret.withUnsafeBytes { Array($0) } == Array("hunter2".utf8))
        for text in ["\(secret)", String(reflecting: secret), String(describing: [secret])] {
            #expect(text.contains("SecureBytes(7 bytes)"))
            #expect(!text.contains("hunter2") && !text.contains("68756e746572"))
        }
        #expect(SecureBytes([UInt8]()).isEmpty)
    }
}
