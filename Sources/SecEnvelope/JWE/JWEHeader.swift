import SecCrypto

extension JWE {
    /// The JWE protected header: what the token says about itself. It is authenticated with the
    /// content, so it can be trusted only after decryption succeeds.
    public struct Header: Sendable, Equatable {
        /// `alg`: how the content-encryption key is agreed.
        public var keyManagement: KeyManagementAlgorithm
        /// `enc`: how the content is encrypted.
        public var contentEncryption: ContentEncryptionAlgorithm
        /// `kid`: which key the sender used, for key rotation.
        public var keyID: String?
        /// `cty`: the media type of the plaintext, if the sender said.
        public var contentType: String?
        /// `p2c`: the PBKDF2 iteration count (PBES2 only).
        public var pbes2Iterations: Int?
        /// `p2s`: the PBES2 salt input (PBES2 only).
        var pbes2SaltInput: [UInt8]?

        /// A header of these algorithms, without PBES2 parameters (encryption adds them).
        ///
        /// - Parameters:
        ///   - keyManagement: `alg`.
        ///   - contentEncryption: `enc`.
        ///   - keyID: `kid`; nil (the default) for none.
        ///   - contentType: `cty`; nil (the default) for none.
        public init(
            keyManagement: KeyManagementAlgorithm,
            contentEncryption: ContentEncryptionAlgorithm,
            keyID: String? = nil,
            contentType: String? = nil
        ) {
            self.keyManagement = keyManagement
            self.contentEncryption = contentEncryption
            self.keyID = keyID
            self.contentType = contentType
        }

        /// The header's JSON, members in a fixed order: `alg`, `enc`, then `kid`, `cty`, `p2s`, `p2c`.
        var json: [UInt8] {
            var writer = JSONWriter()
            writer.object { header in
                header.member("alg", .string(keyManagement.rawValue))
                header.member("enc", .string(contentEncryption.rawValue))
                if let keyID { header.member("kid", .string(keyID)) }
                if let contentType { header.member("cty", .string(contentType)) }
                if let pbes2SaltInput {
                    header.member("p2s", .string(Base64.encode(pbes2SaltInput, alphabet: .url, padding: false)))
                }
                if let pbes2Iterations { header.member("p2c", .number(String(pbes2Iterations))) }
            }
            return writer.bytes
        }

        /// Parses and checks a decoded protected header. Refuses `alg: none`, unknown algorithms,
        /// compression, and any `crit` extension (SecKit understands none, so RFC 7516 §4.1.13
        /// requires refusing the token).
        init(json: [UInt8]) throws(CryptoError) {
            let parsed: JSONValue
            do {
                parsed = try JSONValue(parsing: json)
            } catch {
                throw .malformedInput("JWE protected header: \(error)")
            }
            guard let members = parsed.object else {
                throw .malformedInput("JWE protected header is not a JSON object")
            }
            func text(_ name: String) throws(CryptoError) -> String? {
                guard let value = members[name] else { return nil }
                guard let string = value.string else {
                    throw .malformedInput("JWE header \"\(name)\" must be a string")
                }
                return string
            }
            guard let alg = try text("alg") else { throw .malformedInput("JWE header has no \"alg\"") }
            guard let enc = try text("enc") else { throw .malformedInput("JWE header has no \"enc\"") }
            if alg.lowercased() == "none" { throw .unsupported("JWE alg \"none\" is refused: it is not encryption") }
            guard let keyManagement = KeyManagementAlgorithm(rawValue: alg) else {
                throw .unsupported(
                    "JWE alg \"\(alg)\" is not supported (\(Self.list(KeyManagementAlgorithm.allCases)))"
                )
            }
            guard let contentEncryption = ContentEncryptionAlgorithm(rawValue: enc) else {
                throw .unsupported(
                    "JWE enc \"\(enc)\" is not supported (\(Self.list(ContentEncryptionAlgorithm.allCases)))"
                )
            }
            if members["zip"] != nil { throw .unsupported("JWE compression (\"zip\") is not supported") }
            if let crit = members["crit"] {
                guard let names = crit.array, !names.isEmpty, names.allSatisfy({ $0.string != nil }) else {
                    throw .malformedInput("JWE header \"crit\" must be a non-empty array of names")
                }
                throw .unsupported("JWE critical header \"\(names[0].string!)\" is not understood")
            }
            self.init(
                keyManagement: keyManagement,
                contentEncryption: contentEncryption,
                keyID: try text("kid"),
                contentType: try text("cty")
            )
            if keyManagement.usesPassword {
                guard let p2s = try text("p2s") else { throw .malformedInput("JWE PBES2 header has no \"p2s\" salt") }
                guard let salt = try? Base64.decodeCanonical(p2s, alphabet: .url, padded: false) else {
                    throw .malformedInput("JWE header \"p2s\" is not base64url")
                }
                guard salt.count >= 8 else {
                    throw .malformedInput("JWE header \"p2s\" must hold at least 8 bytes, got \(salt.count)")
                }
                guard let p2c = members["p2c"] else {
                    throw .malformedInput("JWE PBES2 header has no \"p2c\" iteration count")
                }
                guard let iterations = p2c.integer, iterations > 0 else {
                    throw .malformedInput("JWE header \"p2c\" must be a positive integer")
                }
                pbes2SaltInput = salt
                pbes2Iterations = iterations
            }
        }

        private static func list<T: RawRepresentable<String>>(_ cases: [T]) -> String {
            "supported: " + cases.map(\.rawValue).joined(separator: ", ")
        }
    }
}
