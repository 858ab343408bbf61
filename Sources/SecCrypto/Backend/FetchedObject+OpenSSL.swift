/// An OpenSSL algorithm object (`EVP_MD`, `EVP_CIPHER`) fetched once per process. OpenSSL 3
/// re-fetches on every init when given the legacy `EVP_sha256()`-style objects; explicit fetching
/// keeps the hot paths free of name look-ups.
struct FetchedObject: @unchecked Sendable {
    // Fetched algorithm objects are immutable and reference-counted by OpenSSL; sharing is safe.
    let pointer: OpaquePointer

    init(_ name: String, fetch: (String) -> OpaquePointer?) {
        guard let object = fetch(name) else {
            fatalError(CryptoError.openSSL("fetching \(name)").description)
        }
        pointer = object
    }
}
