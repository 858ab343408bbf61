import SecCrypto

// Streaming a file through SecCrypto's digests, MACs and sinks: chunk by chunk, in constant memory.

extension DigestHasher {
    /// Digest of a file or descriptor.
    public static func hash(_ algorithm: HashAlgorithm, contentsOf input: FileInput) throws(CryptoError) -> AnyDigest {
        var hasher = DigestHasher(algorithm)
        try input.forEachChunk { hasher.update(bufferPointer: $0) }
        return hasher.finalizeLast()
    }
}

extension HashFunction {
    /// Digest of a file or descriptor.
    public static func hash(contentsOf input: FileInput) throws(CryptoError) -> Digest {
        var hasher = Self()
        try input.forEachChunk { hasher.update(bufferPointer: $0) }
        return hasher.finalize()
    }
}

extension HMAC {
    /// HMAC of a file or descriptor.
    public static func authenticationCode(
        for input: FileInput,
        using key: SymmetricKey
    ) throws(CryptoError) -> MAC {
        var hmac = HMAC(key: key)
        try input.forEachChunk { hmac.update(bufferPointer: $0) }
        return hmac.finalizeLast()
    }

    /// Checks `code` against the HMAC of a file or descriptor, compared in constant time.
    public static func isValidAuthenticationCode(
        _ code: some ContiguousBytes,
        authenticating input: FileInput,
        using key: SymmetricKey
    ) throws(CryptoError) -> Bool {
        constantTimeEquals(try authenticationCode(for: input, using: key).bytes, code)
    }
}

extension ByteSink {
    /// Feeds the whole of `input` into this sink and finishes it.
    public func consume(_ input: FileInput) throws(CryptoError) {
        try input.forEachChunk { (chunk) throws(CryptoError) in try write(chunk) }
        try finish()
    }
}
