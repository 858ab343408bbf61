import SecCrypto

func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in generator.next() }
}

func randomKey(_ byteCount: Int) -> SymmetricKey {
    SymmetricKey(data: randomBytes(byteCount))
}
