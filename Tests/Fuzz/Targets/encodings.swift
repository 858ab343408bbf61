import SecCrypto

// Hex and base64 decoders: any input decodes or throws; what decodes re-encodes to text that
// decodes to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    switch input.choose(among: 4) {
    case 0:
        if let bytes = try? Hex.decode(utf8: input.bytes) {
            require((try? Hex.decode(Hex.encode(bytes))) == bytes, "hex round trip")
        }
    case 1, 2:
        let alphabet: Base64.Alphabet = input.bytes.count % 2 == 0 ? .standard : .url
        if let bytes = try? Base64.decode(utf8: input.bytes, alphabet: alphabet) {
            let again = try? Base64.decode(Base64.encode(bytes, alphabet: alphabet), alphabet: alphabet)
            require(again == bytes, "base64 round trip")
        }
    default:
        let padded = input.bytes.count % 2 == 0
        if let bytes = try? Base64.decodeCanonical(UnsafeRawBufferPointer(input.bytes), alphabet: .url, padded: padded)
        {
            let encoded = Base64.encode(bytes, alphabet: .url, padding: padded)
            require(Array(encoded.utf8) == input.array, "canonical base64 is the only encoding of its bytes")
        }
    }
    return 0
}
