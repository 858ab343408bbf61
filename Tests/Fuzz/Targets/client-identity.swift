import SecCrypto
import SecTLS

// Client identities: a certificate and private key in one PEM (keys plain or encrypted), and PKCS#12.
private let passphrase = SecureBytes(Array("fuzz password".utf8))

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    switch input.choose(among: 3) {
    case 0: _ = try? ClientIdentity(combinedPEM: input.bytes, passphrase: passphrase)
    case 1: _ = try? ClientIdentity(combinedPEM: input.bytes)
    default: _ = try? ClientIdentity(pkcs12: input.bytes, passphrase: passphrase)
    }
    return 0
}
