import SecCrypto

// MARK: Ciphers

/// The key and IV every cipher benchmark uses: patternBytes(keyByteCount, seed: 3) and
/// patternBytes(ivByteCount, seed: 5); the input is patternBytes(chunk, seed: 1).
enum CipherBench {
    static let keySeed: UInt8 = 3
    static let ivSeed: UInt8 = 5
    static let inputSeed: UInt8 = 1
    /// A fresh stream after this many chunks (1 GiB of 16 KiB chunks), far below GCM's limit of
    /// 2^36 - 32 bytes per nonce, so long runs never hit it; the cost is one set-up per GiB.
    static let chunksPerStream = 65_536
}

/// Encrypts one chunk after another through one `CipherStream`, into one reused output buffer —
/// what `openssl speed -evp CIPHER -bytes N` does with one EVP_CIPHER_CTX (which it updates in place).
final class StreamingEncryption {
    private let algorithm: CipherAlgorithm
    private let key: SymmetricKey
    private let iv: [UInt8]
    private var stream: CipherStream
    private let input: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer
    private var chunksOnStream = 0

    init(_ algorithm: CipherAlgorithm, chunkBytes: Int) {
        self.algorithm = algorithm
        key = SymmetricKey(data: patternBytes(algorithm.keyByteCount, seed: CipherBench.keySeed))
        iv = patternBytes(algorithm.ivByteCount, seed: CipherBench.ivSeed)
        stream = Self.makeStream(algorithm, key: key, iv: iv)
        input = .allocate(byteCount: chunkBytes, alignment: 64)
        input.copyBytes(from: patternBytes(chunkBytes, seed: CipherBench.inputSeed))
        output = .allocate(byteCount: stream.outputCapacity(forInputCount: chunkBytes), alignment: 64)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    private static func makeStream(_ algorithm: CipherAlgorithm, key: SymmetricKey, iv: [UInt8]) -> CipherStream {
        do {
            // No padding, as openssl speed (EVP_CIPHER_CTX_set_padding(ctx, 0)); whole blocks only.
            return try CipherStream(algorithm, .encrypt, key: key, iv: iv, padding: .none)
        } catch {
            fail("CipherStream(\(algorithm)): \(error)")
        }
    }

    /// Encrypts the next chunk; returns the number of bytes written.
    @inline(__always)
    func step() -> Int {
        if chunksOnStream == CipherBench.chunksPerStream {
            stream = Self.makeStream(algorithm, key: key, iv: iv)
            chunksOnStream = 0
        }
        chunksOnStream &+= 1
        return stream.update(UnsafeRawBufferPointer(input), into: output)
    }

    /// SHA-256 of the first chunk's ciphertext on a fresh stream. Also checks that the stream wrote
    /// the whole chunk and agrees with the one-shot API where there is one (CBC ciphers).
    func firstChunkDigest() -> String {
        let fresh = Self.makeStream(algorithm, key: key, iv: iv)
        let written = fresh.update(UnsafeRawBufferPointer(input), into: output)
        guard written == input.count else { fail("\(algorithm): update wrote \(written) of \(input.count) bytes") }
        let ciphertext = [UInt8](output[0..<written])
        guard ciphertext != [UInt8](input) else { fail("\(algorithm): the ciphertext equals the plaintext") }
        let plaintext = [UInt8](input)
        let oneShot: [UInt8]?
        do {
            switch algorithm {
            case .aes128CBC, .aes192CBC, .aes256CBC:
                oneShot = [UInt8](try AES.CBC.encrypt(plaintext, using: key, iv: iv, padding: .none))
            case .tripleDESCBC:
                oneShot = [UInt8](
                    try Insecure.TripleDES.CBC.encrypt(plaintext, using: key, iv: iv, keying: .threeKey, padding: .none)
                )
            case .aes128GCM, .aes192GCM, .aes256GCM:
                oneShot = [UInt8](try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: iv)).ciphertext)
            case .tripleDES2KeyCBC:
                oneShot = nil
            }
        } catch {
            fail("\(algorithm) one-shot: \(error)")
        }
        if let oneShot, oneShot != ciphertext { fail("\(algorithm): streaming and one-shot ciphertexts differ") }
        return hex(SHA256.hash(data: ciphertext).bytes)
    }
}

func streamingEncryption(_ algorithm: CipherAlgorithm, chunkBytes: Int) -> Benchmark {
    Benchmark(
        name: "\(algorithm.rawValue)-\(chunkBytes)",
        summary:
            "CipherStream(.\(algorithm), .encrypt, padding: .none).update(_:into:) of \(chunkBytes)-byte chunks, one stream,"
            + " one reused output buffer (as openssl speed -evp \(algorithm.rawValue)); result = SHA-256 of the first chunk's ciphertext",
        bytesPerOp: chunkBytes
    ) {
        let state = StreamingEncryption(algorithm, chunkBytes: chunkBytes)
        let result = state.firstChunkDigest()
        return Prepared(operation: { UInt8(truncatingIfNeeded: state.step()) }, result: result)
    }
}

/// One `AES.GCM.seal` per chunk with a 13-byte AAD — the sequence `openssl speed -aead -evp aes-256-gcm`
/// times (re-init with the IV, AAD, update, final). The nonce is fixed: a benchmark only, never do this
/// with real data. The result is the hex of the first seal's tag.
func aesGCMSeal(chunkBytes: Int) -> Benchmark {
    Benchmark(
        name: "aes-256-gcm-seal-\(chunkBytes)",
        summary:
            "AES.GCM.seal(_:using:nonce:authenticating:) of one \(chunkBytes)-byte message with a 13-byte AAD per operation"
            + " (as openssl speed -aead); result = the tag",
        bytesPerOp: chunkBytes
    ) {
        let (key, nonce, aad, message) = gcmSealInputs(chunkBytes: chunkBytes)
        func seal() -> AES.GCM.SealedBox {
            do { return try AES.GCM.seal(message, using: key, nonce: nonce, authenticating: aad) } catch {
                fail("AES.GCM.seal: \(error)")
            }
        }
        return Prepared(operation: { seal().tag.first! }, result: hex(seal().tag))
    }
}

/// The buffer form of the same seal: `AES.GCM.seal(_:using:nonce:authenticating:into:tag:)` writes
/// the ciphertext and tag into buffers the caller keeps (as a service with its own framing would),
/// so nothing is allocated per message. The result is the hex of the tag.
func aesGCMSealInto(chunkBytes: Int) -> Benchmark {
    Benchmark(
        name: "aes-256-gcm-seal-into-\(chunkBytes)",
        summary:
            "AES.GCM.seal(_:using:nonce:authenticating:into:tag:) of one \(chunkBytes)-byte message with a 13-byte AAD"
            + " into reused buffers per operation (as openssl speed -aead); result = the tag",
        bytesPerOp: chunkBytes
    ) {
        let (key, nonce, aad, message) = gcmSealInputs(chunkBytes: chunkBytes)
        let ciphertext = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 16)
        let tag = UnsafeMutableRawBufferPointer.allocate(byteCount: AES.GCM.tagByteCount, alignment: 16)
        func seal() -> UInt8 {
            do {
                try message.withUnsafeBytes { message in
                    try aad.withUnsafeBytes { aad in
                        try AES.GCM.seal(
                            message,
                            using: key,
                            nonce: nonce,
                            authenticating: aad,
                            into: ciphertext,
                            tag: tag
                        )
                    }
                }
            } catch {
                fail("AES.GCM.seal(into:): \(error)")
            }
            return tag[0]
        }
        _ = seal()
        return Prepared(operation: seal, result: hex(Array(tag)))
    }
}

/// One `ChaChaPoly.seal` per chunk with a 13-byte AAD — the per-message loop `openssl speed -aead` runs
/// for GCM (for ChaCha20-Poly1305 OpenSSL 3.0's speed streams instead: tools/bench/parts/throughput.py).
/// The nonce is fixed: a benchmark only. The result is the hex of the first seal's tag.
func chaChaPolySeal(chunkBytes: Int) -> Benchmark {
    Benchmark(
        name: "chacha20-poly1305-seal-\(chunkBytes)",
        summary:
            "ChaChaPoly.seal(_:using:nonce:authenticating:) of one \(chunkBytes)-byte message with a 13-byte AAD per"
            + " operation (as openssl speed -aead does for GCM); result = the tag",
        bytesPerOp: chunkBytes
    ) {
        let (key, gcmNonce, aad, message) = gcmSealInputs(chunkBytes: chunkBytes)
        let nonce: ChaChaPoly.Nonce
        do { nonce = try ChaChaPoly.Nonce(data: Array(gcmNonce)) } catch { fail("nonce: \(error)") }
        func seal() -> ChaChaPoly.SealedBox {
            do { return try ChaChaPoly.seal(message, using: key, nonce: nonce, authenticating: aad) } catch {
                fail("ChaChaPoly.seal: \(error)")
            }
        }
        return Prepared(operation: { seal().tag.first! }, result: hex(seal().tag))
    }
}

/// What the seal benchmarks seal: the pattern key, a fixed nonce (for benchmarking only), a 13-byte
/// AAD of 0xcc (as openssl speed -aead) and a `chunkBytes` message.
private func gcmSealInputs(chunkBytes: Int) -> (SymmetricKey, AES.GCM.Nonce, [UInt8], [UInt8]) {
    let nonce: AES.GCM.Nonce
    do { nonce = try AES.GCM.Nonce(data: patternBytes(12, seed: CipherBench.ivSeed)) } catch {
        fail("nonce: \(error)")
    }
    return (
        SymmetricKey(data: patternBytes(32, seed: CipherBench.keySeed)), nonce, [UInt8](repeating: 0xcc, count: 13),
        patternBytes(chunkBytes, seed: CipherBench.inputSeed)
    )
}
