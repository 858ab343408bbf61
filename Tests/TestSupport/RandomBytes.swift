/// `count` bytes from the system random generator: the tests' one source of random data.
public func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            withUnsafeBytes(of: generator.next() as UInt64) { word in
                let n = min(word.count, buffer.count - offset)
                buffer.baseAddress!.advanced(by: offset).copyMemory(from: word.baseAddress!, byteCount: n)
                offset += n
            }
        }
    }
    return bytes
}

/// `count` random printable ASCII characters, without space (usable in argv and environment).
public func randomPrintable(_ count: Int) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#%+,-./:=@^_~")
    return String((0..<count).map { _ in alphabet.randomElement()! })
}
