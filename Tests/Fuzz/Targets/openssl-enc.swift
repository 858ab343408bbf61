import SecCrypto
import SecEnvelope

// The `openssl enc -pbkdf2` format: header, then CBC decryption and padding, as one buffer and
// split in two writes (the header reader keeps state across writes).
private let password = SecureBytes(Array("fuzz password".utf8))
private let parameters = OpenSSLEncFormat.Parameters(cipher: .aes256CBC, iterations: 1, digest: .sha256)

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let split = input.choose(among: 32)
    _ = try? OpenSSLEncFormat.decrypt(input.bytes, password: password, parameters: parameters)
    let output = DataSink()
    guard let sink = try? OpenSSLEncFormat.decryptingSink(password: password, parameters: parameters, next: output)
    else { return 0 }
    let bytes = UnsafeRawBufferPointer(input.bytes)
    let cut = min(split, bytes.count)
    do {
        try sink.write(UnsafeRawBufferPointer(rebasing: bytes[..<cut]))
        try sink.write(UnsafeRawBufferPointer(rebasing: bytes[cut...]))
        try sink.finish()
    } catch {}
    return 0
}
