import SecCrypto

@testable import SecKeychain

// The encrypted-file keychain's format: the header as read from disk, and the item list as it is
// after decryption (a tampered file never gets there, but a wrong writer might).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    switch input.choose(among: 2) {
    case 0:
        _ = try? EncryptedFileHeader(parsing: input.array)
    default:
        if let items = try? EncryptedFilePayload.decode(UnsafeRawBufferPointer(input.bytes)) {
            let encoded = EncryptedFilePayload.encode(items)
            let again = encoded.withUnsafeBytes { try? EncryptedFilePayload.decode($0) }
            require(again?.map(\.pairs) == items.map(\.pairs), "items written back decode to the same pairs")
        }
    }
    return 0
}
