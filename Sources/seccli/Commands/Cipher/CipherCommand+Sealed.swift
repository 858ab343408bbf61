import ArgumentParser
import SecKit

/// The sealed formats are held in memory whole: payloads up to 64 MiB, and the tokens they make
/// (a third larger) up to the JWE default.
let maximumPayloadByteCount = 64 << 20
let maximumTokenByteCount = JWE.DecryptionPolicy.default.maximumTokenByteCount

extension CipherCommand {
    /// jwe, fernet and legacy-json: seals or opens the whole payload. Nothing is written unless it succeeded.
    func runSealed() throws {
        let direction = Self.direction
        let limit = direction == .encrypt ? maximumPayloadByteCount : maximumTokenByteCount
        let payload = try readWhole(options.input, limit: limit)
        let envelope = options.envelope
        var output: Data
        switch (options.resolvedFormat, direction) {
        case (.jwe, .encrypt): output = Data(try sealJWE(payload).utf8)
        case (.jwe, .decrypt): output = try openJWE(payload)
        case (.fernet, .encrypt): output = Data(try MultiFernet(fernets()).encrypt(payload).utf8)
        case (.fernet, .decrypt):
            output = try MultiFernet(fernets()).decrypt(
                String(decoding: payload, as: UTF8.self),
                timeToLive: envelope.ttl
            )
        case (.legacyJSON, .encrypt): output = try legacyEnvelope().seal(payload, macInput: envelope.macInput)
        case (.legacyJSON, .decrypt): output = try legacyEnvelope().open(payload, macInput: envelope.macInput)
        case (.openssl, _), (.raw, _): preconditionFailure("streaming formats do not come here")
        }
        if direction == .encrypt { output.append(UInt8(ascii: "\n")) }  // tokens and JSON are text lines
        let (destination, _) = try self.destination()
        try destination.write(data: output)
        try destination.finish()
        warnAboutIterations()
    }

    private func sealJWE(_ payload: Data) throws -> String {
        let envelope = options.envelope
        let enc = envelope.enc ?? .a256GCM
        if let password = options.password {
            let alg = envelope.alg ?? .pbes2HS512A256KW
            return try JWE.encrypt(
                payload,
                password: try secretSource(password, option: "--password").read(keyring: secretKeyring),
                keyManagement: alg,
                contentEncryption: enc,
                iterations: options.iter,
                keyID: envelope.kid
            )
        }
        let keys = try jsonWebKeys()
        guard keys.count == 1 else {
            throw Failure(
                message: "--key: the JWK set holds \(keys.count) keys; encrypt needs one",
                exitCode: .dataError
            )
        }
        return try JWE.encrypt(
            payload,
            using: keys[0].key,
            keyManagement: envelope.alg ?? .direct,
            contentEncryption: enc,
            keyID: envelope.kid ?? keys[0].keyID
        )
    }

    private func openJWE(_ payload: Data) throws -> Data {
        // --alg and --enc, when given, are the only algorithms accepted.
        let envelope = options.envelope
        var policy = JWE.DecryptionPolicy()
        if let alg = envelope.alg { policy.keyManagementAlgorithms = [alg] }
        if let enc = envelope.enc { policy.contentEncryptionAlgorithms = [enc] }
        let token = try JWE.Token(compact: String(decoding: payload, as: UTF8.self), policy: policy)
        if let password = options.password {
            return try token.decrypt(
                password: try secretSource(password, option: "--password").read(keyring: secretKeyring)
            )
        }
        let keys = try jsonWebKeys()
        // One key is used whatever the token's kid says; several are chosen by kid, or tried in turn.
        return keys.count == 1 ? try token.decrypt(using: keys[0].key) : try token.decrypt(using: JSONWebKeySet(keys))
    }

    /// Every key of every --key: JWKs or JWK Sets with --key-format jwk, else bare keys.
    private func jsonWebKeys() throws -> [JSONWebKey] {
        try options.key.flatMap { text throws -> [JSONWebKey] in
            let source = try secretSource(text, option: "--key")
            guard options.resolvedKeyFormat == .jwk else {
                return [JSONWebKey(key: try readKey(source, format: options.resolvedKeyFormat.encoding!))]
            }
            // A JWK Set is often pretty-printed: read the whole source, not the first line.
            let json = try source.readAll(keyring: secretKeyring).withUnsafeBytes {
                String(decoding: $0, as: UTF8.self)
            }
            do {
                return try JSONWebKeySet(json: json).keys
            } catch {
                throw Failure(
                    message: "--key: \(error) (a JWK is expected; use --key-format for other key forms)",
                    exitCode: .dataError
                )
            }
        }
    }

    private func fernets() throws -> [Fernet] {
        try options.key.map { text in
            let bytes = try readKey(
                try secretSource(text, option: "--key"),
                format: options.resolvedKeyFormat.encoding!
            )
            do {
                return try Fernet(key: bytes)
            } catch {
                throw Failure(message: "--key: \(error)", exitCode: .dataError)
            }
        }
    }

    private func legacyEnvelope() throws -> LegacyEnvelope {
        let format = options.resolvedKeyFormat.encoding!
        let encryptionKey = try readKey(try secretSource(options.key[0], option: "--key"), format: format)
        let macSource = try secretSource(options.envelope.macKey!, option: "--mac-key")
        let macKey = try readKey(macSource, format: format, option: "--mac-key")
        do {
            return try LegacyEnvelope(encryptionKey: encryptionKey, macKey: macKey)
        } catch {
            throw Failure(message: "--key: \(error)", exitCode: .dataError)
        }
    }

    private func readWhole(_ input: FileInput, limit: Int) throws -> Data {
        var data = Data()
        try input.forEachChunk { (chunk) throws(FileError) in
            guard data.count + chunk.count <= limit else {
                throw FileError(
                    path: input.name,
                    reason: "more than \(limit >> 20) MiB: --format \(options.resolvedFormat.rawValue) holds the whole "
                        + "payload in memory (use --format raw or openssl for large files)"
                )
            }
            data.append(contentsOf: chunk)
        }
        return data
    }

    private func warnAboutIterations() {
        guard Self.direction == .encrypt, options.resolvedFormat == .jwe, options.password != nil,
            let iter = options.iter
        else { return }
        let alg = options.envelope.alg ?? .pbes2HS512A256KW
        if let recommended = alg.recommendedIterations, iter < recommended {
            Diagnostics.warning("\(iter) PBKDF2 iterations is below the \(recommended) recommended for \(alg)")
        }
    }
}
