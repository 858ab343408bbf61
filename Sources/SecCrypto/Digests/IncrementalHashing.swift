/// A digest or MAC computed over bytes given in pieces: `DigestHasher`, `HMAC`, `SHA256`, ...
public protocol IncrementalHashing: Sendable {
    /// What `finalize()` returns: a `Digest` or an `AuthenticationCode`.
    associatedtype Output
    /// Adds raw bytes.
    ///
    /// - Parameter bufferPointer: The next bytes of the input; they are read before the call returns.
    mutating func update(bufferPointer: UnsafeRawBufferPointer)
    /// The output for everything added so far; the value can still be updated afterwards.
    ///
    /// - Returns: The digest or code of all the bytes added since the value was created.
    func finalize() -> Output
}

extension IncrementalHashing {
    /// Adds bytes from `Data`, `[UInt8]`, slices or any other `DataProtocol`.
    ///
    /// - Parameter data: The next bytes of the input, contiguous or in several regions.
    public mutating func update(data: some DataProtocol) {
        if data.withContiguousStorageIfAvailable({ update(bufferPointer: UnsafeRawBufferPointer($0)) }) != nil {
            return
        }
        for region in data.regions {
            region.withUnsafeBytes { update(bufferPointer: $0) }
        }
    }

    /// Adds the UTF-8 bytes of `string`.
    ///
    /// - Parameter string: The text whose UTF-8 encoding is the next input (no terminating zero).
    public mutating func update(string: String) {
        var string = string
        string.withUTF8 { update(bufferPointer: UnsafeRawBufferPointer($0)) }
    }
}

/// An OpenSSL context object that can be duplicated in its current state (`DigestContext`, `MACContext`).
protocol DuplicableContext: AnyObject {
    func copy() -> Self
}

/// Value semantics for a context object: values share one context until one of them changes it,
/// which first takes a duplicate of its own.
struct CopyOnWrite<Context: DuplicableContext>: @unchecked Sendable {
    // A shared context is only read (duplicated); only a uniquely referenced one is changed.
    private var shared: Context

    init(_ context: Context) { shared = context }

    /// The context, for reading or duplicating.
    var value: Context { shared }

    /// The context, this value's own, for changing.
    var unique: Context {
        mutating get {
            if !isKnownUniquelyReferenced(&shared) { shared = shared.copy() }
            return shared
        }
    }
}
