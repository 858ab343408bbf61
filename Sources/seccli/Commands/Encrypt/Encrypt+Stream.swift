import SecKit

extension CipherOptions {
    /// Builds input → [base64] → cipher → [base64] → output and runs the input through it.
    /// Decrypted output reaches its destination only after padding or the GCM tag has verified:
    /// a file is renamed into place at the end, standard output is fed from a spool file.
    func run(_ direction: CipherStream.Direction) throws {
        if resolvedFormat.isEnvelope { return try runEnvelope(direction) }
        let keying = try keying()
        let cipher = resolvedCipher(for: keying)
        let (destination, atomic) = try self.destination()

        var sink: ByteSink
        switch direction {
        case .encrypt:
            let armoured: ByteSink = base64 ? Base64EncodingSink(lineLength: singleLine ? nil : 64, next: destination) : destination
            sink = try cipherSink(.encrypt, keying: keying, cipher: cipher, next: armoured)
        case .decrypt:
            let held: ByteSink = atomic ? destination : try SpooledOutput(next: destination)
            let decrypting = try cipherSink(.decrypt, keying: keying, cipher: cipher, next: held)
            sink = base64 ? Base64DecodingSink(next: decrypting) : decrypting
        }
        if let progress = ProgressSink(input: input, next: sink) { sink = progress }
        try sink.consume(input)

        // Warn only once the work succeeded, so a failure stays a single line.
        let minimum = KDF.PBKDF2.minimumIterations(for: md.algorithm)
        if case .password = keying, direction == .encrypt, iterations < minimum {
            Diagnostics.warning("\(iterations) PBKDF2 iterations is below the \(minimum) recommended for new secrets (raise --iter; the reader needs the same count)")
        }
    }

    /// Where the output goes. A regular (or new) --out file is replaced atomically (`atomic`);
    /// anything else (standard output, a device such as /dev/null, a FIFO) is written in place.
    func destination() throws -> (sink: ByteSink, atomic: Bool) {
        if let outputPath, AtomicFileOutput.canReplace(outputPath) {
            return (try AtomicFileOutput(path: outputPath), true)
        }
        return (try outputPath.map { try DescriptorOutput(openingForWriting: $0) } ?? DescriptorOutput.standardOutput(), false)
    }

    /// The openssl enc iteration count.
    private var iterations: Int { iter ?? OpenSSLEncFormat.defaultIterations }

    private func cipherSink(_ direction: CipherStream.Direction, keying: Keying, cipher: CipherAlgorithm, next: ByteSink) throws -> ByteSink {
        switch keying {
        case .password(let source):
            let parameters = OpenSSLEncFormat.Parameters(cipher: cipher, iterations: iterations, digest: md.algorithm)
            let password = try source.read()
            return direction == .encrypt
                ? try OpenSSLEncFormat.encryptingSink(password: password, parameters: parameters, next: next)
                : try OpenSSLEncFormat.decryptingSink(password: password, parameters: parameters, next: next)
        case .key(let source, let ivText):
            let iv: [UInt8]
            do {
                iv = try Hex.decode(ivText)
            } catch {
                throw Failure(message: "--iv: \(error)", exitCode: .dataError)
            }
            let stream = try CipherStream(cipher, direction, key: try readKey(source, format: resolvedKeyFormat.encoding!), iv: iv)
            return cipher.isGCM && direction == .decrypt ? TagSplittingSink(stream, next: next) : CipherSink(stream, next: next)
        }
    }
}
