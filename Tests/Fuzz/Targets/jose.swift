import SecCrypto

@testable import SecEnvelope

// JSON, JWK and JWK sets, and compact JWE parsed and decrypted with the key and password the seeds
// were made with (Tests/Fuzz/seeds.py), so mutations of real tokens reach the decryption code.
private let key = SymmetricKey(data: Array(0..<32) as [UInt8])
private let password = Array("fuzz password".utf8)
private let policy: JWE.DecryptionPolicy = {
    var policy = JWE.DecryptionPolicy()
    policy.maximumPBES2Iterations = 2_000  // the default allows 10,000,000: minutes per input
    return policy
}()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    switch input.choose(among: 4) {
    case 0:
        if let value = try? JSONValue(parsing: input.bytes) {
            var writer = JSONWriter()
            writer.value(value)
            require((try? JSONValue(parsing: writer.bytes)) == value, "JSON written back parses to the same value")
        }
    case 1:
        if let jwk = try? JSONWebKey(json: input.text) {
            require((try? JSONWebKey(json: jwk.exportedJSON()))?.keyID == jwk.keyID, "JWK round trip")
        }
    case 2:
        _ = try? JSONWebKeySet(json: input.text)
    default:
        guard let token = try? JWE.Token(compact: input.text, policy: policy) else { break }
        if token.header.keyManagement.usesPassword {
            _ = try? token.decrypt(password: password)
        } else {
            _ = try? token.decrypt(using: key)
        }
    }
    return 0
}
