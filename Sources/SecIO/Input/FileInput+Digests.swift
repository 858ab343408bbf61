import SecCrypto

// Streaming a file through SecCrypto's digests, MACs and sinks: chunk by chunk, in constant memory.

extension DigestHasher {
    /// Digest of a file or descriptor.
    ///
    /// - Parameters:
    ///   - algorithm: The hash function.
    ///   - input: The file or descriptor, read to its end in chunks.
    /// - Returns: The digest of the input's bytes.
    /// - Throws: ``FileError`` when the input cannot be opened or read.
    public static func hash(_ algorithm: HashAlgorithm, contentsOf input: FileInput) throws(FileError) -> AnyDigest {
        var hasher = DigestHasher(algorithm)
        try input.forEachChunk { hasher.update(bufferPointer: $0) }
        return hasher.finalizeLast()
    }
}

extension HashFunction {
    /// Digest of a file or descriptor.
    ///
    /// - Parameter input: The file or descriptor, read to its end in chunks.
    /// - Returns: The digest of the input's bytes.
    /// - Throws: ``FileError`` when the input cannot be opened or read.
    public static func hash(contentsOf input: FileInput) throws(FileError) -> Digest {
        var hasher = Self()
        try input.forEachChunk { hasher.update(bufferPointer: $0) }
        return hasher.finalize()
    }
}

extension HMAC {
    /// HMAC of a file or descriptor.
    ///
    /// - Parameters:
    ///   - input: The file or descriptor, read to its end in chunks.
    ///   - key: The HMAC key.
    /// - Returns: The authentication code of the input's bytes.
    /// - Throws: ``FileError`` when the input cannot be opened or read.
    public static func authenticationCode(
        for input: FileInput,
        using key: SymmetricKey
    ) throws(FileError) -> MAC {
        var hmac = HMAC(key: key)
        try input.forEachChunk { hmac.update(bufferPointer: $0) }
        return hmac.finalizeLast()
    }

    /// Checks `code` against the HMAC of a file or descriptor, compared in constant time.
    ///
    /// - Parameters:
    ///   - code: The authentication code to check.
    ///   - input: The file or descriptor, read to its end in chunks.
    ///   - key: The HMAC key.
    /// - Returns: Whether `code` is the input's authentication code.
    /// - Throws: ``FileError`` when the input cannot be opened or read.
    public static func isValidAuthenticationCode(
        _ code: some ContiguousBytes,
        authenticating input: FileInput,
        using key: SymmetricKey
    ) throws(FileError) -> Bool {
        constantTimeEquals(try authenticationCode(for: input, using: key).bytes, code)
    }
}

extension ByteSink {
    /// Feeds the whole of `input` into this sink and finishes it.
    ///
    /// - Parameter input: The file or descriptor, read to its end in chunks.
    /// - Throws: ``FileError`` when the input cannot be opened or read, or what the sink throws.
    public func consume(_ input: FileInput) throws {
        try input.readChunks(into: { (chunk) throws in try write(chunk) }, readFailure: { $0 })
        try finish()
    }
}
