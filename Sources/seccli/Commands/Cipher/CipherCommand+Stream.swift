import SecKit

extension CipherCommand {
    /// openssl and raw: input → [base64] → cipher → [base64] → output, in constant memory.
    /// Decrypted output reaches its destination only after padding or the GCM tag has verified:
    /// a file is renamed into place at the end, standard output is fed from a spool file.
    func runStream() throws {
        let keying = try options.keying()
        let cipher = options.resolvedCipher(for: keying)
        let (destination, atomic) = try self.destination()

        var sink: ByteSink
        switch Self.direction {
        case .encrypt:
            let armoured: ByteSink =
                options.base64
                ? Base64EncodingSink(lineLength: options.singleLine ? nil : 64, next: destination) : destination
            sink = try cipherSink(keying: keying, cipher: cipher, next: armoured)
        case .decrypt:
            let held: ByteSink = atomic ? destination : try SpooledOutput(next: destination)
            let decrypting = try cipherSink(keying: keying, cipher: cipher, next: held)
            sink = options.base64 ? Base64DecodingSink(next: decrypting) : decrypting
        }
        if let progress = ProgressSink(input: options.input, next: sink) { sink = progress }
        try sink.consume(options.input)

        // Warn only once the work succeeded, so a failure stays a single line.
        let minimum = KDF.PBKDF2.minimumIterations(for: options.digest)
        if case .password = keying, Self.direction == .encrypt, iterations < minimum {
            Diagnostics.warning(
                "\(iterations) PBKDF2 iterations is below the \(minimum) recommended for new secrets "
                    + "(raise --iter; the reader needs the same count)"
            )
        }
    }

    /// The openssl enc iteration count.
    private var iterations: Int { options.iter ?? OpenSSLEncFormat.defaultIterations }

    private func cipherSink(keying: CipherOptions.Keying, cipher: CipherAlgorithm, next: ByteSink) throws -> ByteSink {
        let direction = Self.direction
        switch keying {
        case .password(let source):
            let parameters = OpenSSLEncFormat.Parameters(
                cipher: cipher,
                iterations: iterations,
                digest: options.digest
            )
            let password = try source.read(keyring: secretKeyring)
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
            let key = try readKey(source, format: options.resolvedKeyFormat.encoding!)
            let stream = try CipherStream(cipher, direction, key: key, iv: iv)
            return cipher.isGCM && direction == .decrypt
                ? TagSplittingSink(stream, next: next) : CipherSink(stream, next: next)
        }
    }
}
