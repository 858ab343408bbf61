import ArgumentParser
import SecKit

extension SecCLI {
    struct KDFCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "kdf",
            abstract: "Derive a key with PBKDF2-HMAC, or calibrate the iteration count.",
            discussion: """
                seccli kdf --password SOURCE --salt HEX --iter N prints the derived key in hex. \
                seccli kdf --calibrate 250ms prints the iteration count that takes about that long here. \
                Counts below the OWASP 2023 minimum (600000 for sha256, 210000 for sha512, 1300000 for \
                sha1) are allowed for interoperability, with a warning.
                """
        )

        @Option(
            help: ArgumentHelp(
                "Password source: env:VAR, file:PATH, fd:N, stdin or keyring:SERVICE/ACCOUNT.",
                valueName: "source"
            )
        )
        var password: String?

        @Option(help: ArgumentHelp("Salt in hex.", valueName: "hex"))
        var salt: String?

        @Option(help: "Iteration count.")
        var iter: Int?

        @Option(help: "HMAC hash: sha1, sha224, sha256, sha384 or sha512.")
        var prf: PBKDF2Hash = .sha256

        @Option(help: "Derived key length in bytes (1 to 65536).")
        var length: Int = 32

        static let maximumLength = 65_536

        @Option(
            help: ArgumentHelp("Print the iteration count taking this long, e.g. 250ms or 1s.", valueName: "duration")
        )
        var calibrate: String?

        func validate() throws {
            guard (1...Self.maximumLength).contains(length) else {
                throw ValidationError("--length must be between 1 and \(Self.maximumLength) bytes")
            }
            try Self.applicability.validate(self)
            if let calibrate {
                _ = try Self.duration(calibrate)
                return
            }
            guard let password, salt != nil, let iter else {
                throw ValidationError("give --password SOURCE --salt HEX --iter N, or --calibrate DURATION")
            }
            guard iter >= 1 else { throw ValidationError("--iter must be at least 1") }
            _ = try secretSource(password, option: "--password")
        }

        func run() throws {
            if let calibrate {
                print(
                    try KDF.PBKDF2.calibrate(
                        using: prf.algorithm,
                        duration: Self.duration(calibrate),
                        outputByteCount: length
                    )
                )
                return
            }
            guard let password, let salt, let iter else { return }
            let saltBytes: [UInt8]
            do {
                saltBytes = try Hex.decode(salt)
            } catch {
                throw ValidationError("--salt: \(error)")
            }
            let secret = try secretSource(password, option: "--password").read(keyring: secretKeyring)
            let key = try KDF.PBKDF2.deriveKey(
                from: secret,
                salt: saltBytes,
                using: prf.algorithm,
                unsafeUncheckedIterations: iter,
                outputByteCount: length
            )
            // As keygen: the hex lives in wiped memory and goes out through write(2).
            let output = DescriptorOutput.standardOutput()
            try Hex.encodeSecret(key).withUnsafeBytes { try output.write($0) }
            try output.write(data: [UInt8(ascii: "\n")])
            let minimum = KDF.PBKDF2.minimumIterations(for: prf.algorithm)
            if iter < minimum {
                Diagnostics.warning("\(iter) iterations is below the \(minimum) recommended for new secrets")
            }
        }

        /// The options of a derivation, refused with --calibrate.
        static let applicability = OptionApplicability<Self>(
            rules: [
                .init("--password", given: { $0.password != nil }, appliesTo: { $0.calibrate == nil }, "a derivation"),
                .init("--salt", given: { $0.salt != nil }, appliesTo: { $0.calibrate == nil }, "a derivation"),
                .init("--iter", given: { $0.iter != nil }, appliesTo: { $0.calibrate == nil }, "a derivation"),
            ],
            describe: { _ in "kdf --calibrate" }
        )

        /// Parses `250ms`, `1s`, `1.5s`.
        static func duration(_ text: String) throws -> Duration {
            let (number, scale): (Substring, Double) =
                text.hasSuffix("ms")
                ? (text.dropLast(2), 1e-3) : text.hasSuffix("s") ? (text.dropLast(1), 1) : (text[...], 1)
            guard let value = Double(number), value > 0, value <= 3600 else {
                throw ValidationError("--calibrate expects a duration such as 250ms or 1s")
            }
            return .milliseconds(Int64((value * scale * 1000).rounded()))
        }
    }
}
