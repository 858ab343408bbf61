import SecCrypto

@testable import SecKeychain

// Attribute values other tools write to the keyring: the identity (ports, accounts) and the expiry
// read from an item's pairs. Input: lines of name=value.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    var pairs: [String: String] = [:]
    for line in input.text.split(separator: "\n", omittingEmptySubsequences: false) {
        let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        pairs[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
    }
    _ = ItemAttributes.identity(from: pairs)
    _ = ItemAttributes.expiry(from: pairs)
    if let date = CredentialAttributes.expiryDate(parsing: input.text), ItemAttributes.storableDates.contains(date) {
        // Stored to the second: a fraction is dropped, so an item never outlives its --expires.
        let stored = CredentialAttributes.expiryDate(parsing: ItemAttributes.formatDate(date))
        require(
            stored.map { $0 <= date && date.timeIntervalSince($0) < 1 } == true,
            "a stored expiry reads back to the second, never later"
        )
    }
    return 0
}
