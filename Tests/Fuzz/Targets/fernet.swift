import SecCrypto
import SecEnvelope

// Fernet tokens checked and decrypted with the seeds' key, and Fernet keys parsed.
private let fernet = try! Fernet(key: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    switch input.choose(among: 2) {
    case 0:
        _ = try? fernet.decrypt(input.text)
        _ = try? fernet.timestamp(of: input.text)
    default:
        _ = try? Fernet(key: input.text)
    }
    return 0
}
