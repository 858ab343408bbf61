import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a secret (key, password, token) is read from, in the conventions of `openssl`'s
/// passphrase options: `env:VAR`, `file:PATH`, `fd:N`, `stdin`; `keyring:SERVICE/ACCOUNT`, a
/// generic password in a keychain; and `credential:NAME`, a systemd credential
/// (`$CREDENTIALS_DIRECTORY/NAME`, from a unit's `LoadCredential=` or `LoadCredentialEncrypted=`).
///
/// For `file:`, `fd:`, `stdin`, `keyring:` and `credential:` the secret is the first line, without
/// its line break.
/// A secret written literally on the command line is refused: every local user can read argv.
///
/// SecIO does not know keychains: a `keyring:` source is read with `read(keyring:)`, given a
/// `SecretKeyring` (SecKeychain's credential stores are ones); `read()` refuses it.
public enum SecretSource: Sendable, Equatable, CustomStringConvertible {
    /// `env:VAR`: the whole value of an environment variable.
    case environment(String)
    /// `file:PATH`: the first line of a file.
    case file(String)
    /// `fd:N`: the first line read from an open descriptor.
    case fileDescriptor(Int32)
    /// `stdin`: the first line of standard input.
    case standardInput
    /// `keyring:SERVICE/ACCOUNT`: the first line of a generic password's secret, read by a `SecretKeyring`.
    case keyring(service: String, account: String)
    /// `credential:NAME`: the first line of the file `NAME` in `$CREDENTIALS_DIRECTORY`, where
    /// systemd puts a service's credentials (readable by the service only, never on disk unencrypted
    /// with `LoadCredentialEncrypted=`).
    case credential(String)

    /// The longest secret accepted from one source.
    public static let maximumLength = 64 * 1024

    /// Parses `env:VAR`, `file:PATH`, `fd:N`, `stdin`, `keyring:SERVICE/ACCOUNT` (split at the last
    /// `/`, so a service may contain one) or `credential:NAME` (a file name: no `/`, not `.` or
    /// `..`). Anything else is refused without being echoed.
    ///
    /// - Parameter argument: the source as a user writes it (`-` also stands for `stdin`).
    /// - Throws: ``SecretSourceError/invalidSource(_:)`` for `env:` without a variable name, `file:`
    ///   without a path, `fd:` without a number of 0 or more, `keyring:` without both a service and
    ///   an account, or `credential:` without a file name; ``SecretSourceError/literalRefused(passPrefix:)``
    ///   for anything else (a literal secret; `passPrefix` tells `pass:…` from the rest).
    public init(parsing argument: String) throws(SecretSourceError) {
        if argument == "stdin" || argument == "-" {
            self = .standardInput
        } else if argument.hasPrefix("env:") {
            let name = String(argument.dropFirst(4))
            guard !name.isEmpty else { throw .invalidSource("env: needs a variable name, as in env:API_KEY") }
            self = .environment(name)
        } else if argument.hasPrefix("file:") {
            let path = String(argument.dropFirst(5))
            guard !path.isEmpty else { throw .invalidSource("file: needs a path, as in file:/run/secrets/key") }
            self = .file(path)
        } else if argument.hasPrefix("fd:") {
            guard let fd = Int32(argument.dropFirst(3)), fd >= 0 else {
                throw .invalidSource("fd: needs a descriptor number, as in fd:3")
            }
            self = .fileDescriptor(fd)
        } else if argument.hasPrefix("keyring:") {
            let name = argument.dropFirst(8)
            guard let slash = name.lastIndex(of: "/"), slash != name.startIndex,
                name.index(after: slash) != name.endIndex
            else {
                throw .invalidSource("keyring: needs a service and an account, as in keyring:api.example.com/deploy")
            }
            self = .keyring(service: String(name[..<slash]), account: String(name[name.index(after: slash)...]))
        } else if argument.hasPrefix("credential:") {
            let name = String(argument.dropFirst(11))
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.utf8.contains(0) else {
                throw .invalidSource(
                    "credential: needs the name of a systemd credential (a file name), as in credential:db-password"
                )
            }
            self = .credential(name)
        } else {
            throw .literalRefused(passPrefix: argument.hasPrefix("pass:"))
        }
    }

    public var description: String {
        switch self {
        case .environment(let name): "env:\(name)"
        case .file(let path): "file:\(path)"
        case .fileDescriptor(let fd): "fd:\(fd)"
        case .standardInput: "stdin"
        case .keyring(let service, let account): "keyring:\(service)/\(account)"
        case .credential(let name): "credential:\(name)"
        }
    }

    /// True when reading this source consumes standard input.
    public var readsStandardInput: Bool {
        switch self {
        case .standardInput: true
        case .fileDescriptor(let fd): fd == STDIN_FILENO
        default: false
        }
    }

    /// Reads the secret into wiped-on-release memory. An empty secret (an empty variable, file or
    /// line) throws `empty`, as openssl refuses an empty password, unless `allowingEmpty` says that
    /// empty means something (a PKCS#12 file written with `-passout pass:`).
    ///
    /// A `file:`, `fd:` or `stdin` source is read one byte at a time up to its first line feed, so
    /// nothing after the line is consumed from a descriptor.
    ///
    /// - Parameter allowingEmpty: whether an empty secret is returned rather than refused.
    /// - Returns: the variable's whole value for `env:`; the first line, without its line feed, for
    ///   the others; at most ``SecretSource/maximumLength`` bytes.
    /// - Throws: ``SecretSourceError/environmentVariableNotSet(_:)`` for an unset variable;
    ///   ``SecretSourceError/unreadable(source:reason:)`` when the file cannot be opened or the
    ///   file, descriptor or standard input cannot be read (the system's reason);
    ///   ``SecretSourceError/tooLong(source:limit:)`` for a value or line over
    ///   ``SecretSource/maximumLength`` bytes; ``SecretSourceError/empty(source:)`` for an empty
    ///   secret unless `allowingEmpty`; ``SecretSourceError/keyringNotGiven(source:)`` for a
    ///   `keyring:` source.
    public func read(allowingEmpty: Bool = false) throws(SecretSourceError) -> SecureBytes {
        try checked(try read(wholeContent: false, limit: Self.maximumLength), allowingEmpty: allowingEmpty)
    }

    /// Reads everything the source holds, not just the first line: for secrets written on several
    /// lines, such as a pretty-printed JWK Set, a PEM key or a binary token (newlines and NUL bytes
    /// are kept). `env:` gives the same as `read()`. More than `limit` bytes throws `tooLong`, never a
    /// cut; nothing throws `empty` unless `allowingEmpty`.
    ///
    /// - Parameters:
    ///   - limit: the most bytes accepted (``SecretSource/maximumLength`` by default); a buffer of
    ///     `limit + 1` bytes is held, and wiped, while a file or descriptor is read.
    ///   - allowingEmpty: whether an empty secret is returned rather than refused.
    /// - Returns: the variable's whole value for `env:`; everything up to the end of the file,
    ///   descriptor or standard input for the others.
    /// - Throws: ``SecretSourceError/environmentVariableNotSet(_:)`` for an unset variable;
    ///   ``SecretSourceError/unreadable(source:reason:)`` when the file cannot be opened or the
    ///   file, descriptor or standard input cannot be read (the system's reason);
    ///   ``SecretSourceError/tooLong(source:limit:)`` for more than `limit` bytes;
    ///   ``SecretSourceError/empty(source:)`` for an empty secret unless `allowingEmpty`;
    ///   ``SecretSourceError/keyringNotGiven(source:)`` for a `keyring:` source.
    public func readAll(
        limit: Int = maximumLength,
        allowingEmpty: Bool = false
    ) throws(SecretSourceError) -> SecureBytes {
        try checked(try read(wholeContent: true, limit: limit), allowingEmpty: allowingEmpty)
    }

    /// `read(allowingEmpty:)`, with a `keyring:` source read from `keyring`. The keyring's errors
    /// (a missing item, a locked keyring) come as `SecretKeyringError`; the others as from `read()`.
    ///
    /// - Parameters:
    ///   - allowingEmpty: whether an empty secret is returned rather than refused.
    ///   - keyring: the keyring a `keyring:` source is read from; unused for the other sources.
    /// - Returns: for a `keyring:` source, the stored secret's first line, without its line feed;
    ///   for the others, what ``read(allowingEmpty:)`` returns.
    /// - Throws: ``SecretKeyringError`` wrapping the keyring's error when it cannot give the secret;
    ///   ``SecretSourceError/tooLong(source:limit:)`` for a first line over
    ///   ``SecretSource/maximumLength`` bytes; ``SecretSourceError/empty(source:)`` for an empty
    ///   line unless `allowingEmpty`; for the other sources, the ``SecretSourceError`` that
    ///   ``read(allowingEmpty:)`` throws.
    public func read(allowingEmpty: Bool = false, keyring: some SecretKeyring) throws -> SecureBytes {
        try read(wholeContent: false, limit: Self.maximumLength, allowingEmpty: allowingEmpty, keyring: keyring)
    }

    /// `readAll(limit:allowingEmpty:)`, with a `keyring:` source's whole secret read from `keyring`.
    ///
    /// - Parameters:
    ///   - limit: the most bytes accepted (``SecretSource/maximumLength`` by default).
    ///   - allowingEmpty: whether an empty secret is returned rather than refused.
    ///   - keyring: the keyring a `keyring:` source is read from; unused for the other sources.
    /// - Returns: for a `keyring:` source, the stored secret whole; for the others, what
    ///   ``readAll(limit:allowingEmpty:)`` returns.
    /// - Throws: ``SecretKeyringError`` wrapping the keyring's error when it cannot give the secret;
    ///   ``SecretSourceError/tooLong(source:limit:)`` for a secret over `limit` bytes;
    ///   ``SecretSourceError/empty(source:)`` for an empty one unless `allowingEmpty`; for the
    ///   other sources, the ``SecretSourceError`` that ``readAll(limit:allowingEmpty:)`` throws.
    public func readAll(
        limit: Int = maximumLength,
        allowingEmpty: Bool = false,
        keyring: some SecretKeyring
    ) throws -> SecureBytes {
        try read(wholeContent: true, limit: limit, allowingEmpty: allowingEmpty, keyring: keyring)
    }

    private func read(
        wholeContent: Bool,
        limit: Int,
        allowingEmpty: Bool,
        keyring: some SecretKeyring
    ) throws -> SecureBytes {
        guard case .keyring(let service, let account) = self else {
            return try checked(try read(wholeContent: wholeContent, limit: limit), allowingEmpty: allowingEmpty)
        }
        let stored: SecureBytes
        do {
            stored = try keyring.genericPasswordSecret(service: service, account: account)
        } catch {
            throw SecretKeyringError(source: self, error: error)
        }
        let secret = wholeContent ? stored : Self.firstLine(of: stored)
        guard secret.count <= limit else { throw SecretSourceError.tooLong(source: description, limit: limit) }
        return try checked(secret, allowingEmpty: allowingEmpty)
    }

    /// The bytes before the first `\n`, as `file:` reads a file.
    private static func firstLine(of secret: SecureBytes) -> SecureBytes {
        secret.withUnsafeBytes { bytes in
            let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            return SecureBytes(UnsafeRawBufferPointer(rebasing: bytes[0..<end]))
        }
    }

    private func checked(_ secret: SecureBytes, allowingEmpty: Bool) throws(SecretSourceError) -> SecureBytes {
        guard allowingEmpty || secret.count > 0 else { throw .empty(source: description) }
        return secret
    }

    private func read(wholeContent: Bool, limit: Int) throws(SecretSourceError) -> SecureBytes {
        switch self {
        case .environment(let name):
            guard let value = getenv(name) else { throw .environmentVariableNotSet(name) }
            let length = strlen(value)
            guard length <= limit else { throw .tooLong(source: description, limit: limit) }
            return SecureBytes(UnsafeRawBufferPointer(start: value, count: length))
        case .file(let path):
            return try read(path: path, wholeContent: wholeContent, limit: limit)
        case .credential(let name):
            // systemd sets the variable only for a unit with credentials: without it there is none to read.
            guard let directory = getenv("CREDENTIALS_DIRECTORY").map({ String(cString: $0) }), !directory.isEmpty
            else { throw .noCredentialsDirectory(source: description) }
            return try read(path: directory + "/" + name, wholeContent: wholeContent, limit: limit)
        case .fileDescriptor(let fd):
            return try read(from: fd, wholeContent: wholeContent, limit: limit)
        case .standardInput:
            return try read(from: STDIN_FILENO, wholeContent: wholeContent, limit: limit)
        case .keyring:
            throw .keyringNotGiven(source: description)
        }
    }

    private func read(path: String, wholeContent: Bool, limit: Int) throws(SecretSourceError) -> SecureBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(source: description, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try read(from: fd, wholeContent: wholeContent, limit: limit)
    }

    /// Reads byte by byte up to the first `\n` (so nothing after the line is consumed) or, for the
    /// whole content, in chunks to the end.
    private func read(from fd: Int32, wholeContent: Bool, limit: Int) throws(SecretSourceError) -> SecureBytes {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: limit + 1, alignment: 16)
        defer {
            secureZero(scratch)
            scratch.deallocate()
        }
        var length = 0
        while length <= limit {
            let count = Glibc.read(fd, scratch.baseAddress! + length, wholeContent ? limit + 1 - length : 1)
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(source: description, reason: String(cString: strerror(errno)))
            }
            if count == 0 || (!wholeContent && scratch[length] == UInt8(ascii: "\n")) { break }
            length += count
        }
        guard length <= limit else { throw .tooLong(source: description, limit: limit) }
        return SecureBytes(UnsafeRawBufferPointer(rebasing: scratch[0..<length]))
    }
}

/// How the bytes of a secret encode a binary key.
public enum SecretEncoding: String, CaseIterable, Sendable {
    /// The bytes are the key (`openssl dgst -hmac KEY` does this).
    case raw
    /// Hex digits (`-macopt hexkey:`, `openssl enc -K`).
    case hex
    /// Standard base64 (padding optional).
    case base64
    /// URL-safe base64 (padding optional): Fernet keys, as Python prints them.
    case base64url

    /// Decodes `secret` into key bytes, keeping every intermediate copy in wiped memory.
    ///
    /// - Parameter secret: the secret as read, in this encoding.
    /// - Returns: the key bytes: `secret` itself for ``SecretEncoding/raw``, the decoded bytes for
    ///   the others (empty for an empty secret).
    /// - Throws: `CryptoError.invalidEncoding` for a hex secret with a character that is not a hex
    ///   digit, white space or `:` (after an optional leading `0x`), a separator inside a byte or an
    ///   odd number of digits; for a base64 or base64url secret with a character outside its
    ///   alphabet (white space aside), misplaced or incomplete padding, data after padding or a
    ///   length no base64 has. The message may give a position, never the secret.
    public func decode(_ secret: SecureBytes) throws(CryptoError) -> SecureBytes {
        var decoded: [UInt8]
        switch self {
        case .raw: return secret
        case .hex: decoded = try secret.withBytes { (bytes) throws(CryptoError) in try Hex.decode(utf8: bytes) }
        case .base64: decoded = try secret.withBytes { (bytes) throws(CryptoError) in try Base64.decode(utf8: bytes) }
        case .base64url:
            decoded = try secret.withBytes { (bytes) throws(CryptoError) in
                try Base64.decode(utf8: bytes, alphabet: .url)
            }
        }
        defer { decoded.withUnsafeMutableBytes { secureZero($0) } }
        return SecureBytes(decoded)
    }
}

/// Why a secret could not be obtained. Messages name the source, never the secret.
public enum SecretSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A secret written literally where a source was expected; `passPrefix` when it was `pass:…`.
    case literalRefused(passPrefix: Bool)
    /// A source prefix without what it needs (`env:` without a name, say); the message says what.
    case invalidSource(String)
    /// `env:VAR` names a variable that is not set.
    case environmentVariableNotSet(String)
    /// The file could not be opened or the source could not be read; `reason` is the system's.
    case unreadable(source: String, reason: String)
    /// The secret is longer than `limit` bytes.
    case tooLong(source: String, limit: Int)
    /// The source holds nothing: an empty key or password would be a key anyone can guess.
    case empty(source: String)
    /// A `keyring:` source read without a keyring (`read()` instead of `read(keyring:)`).
    case keyringNotGiven(source: String)
    /// A `credential:` source read where systemd set no `$CREDENTIALS_DIRECTORY` (outside a unit
    /// with `LoadCredential=` or `LoadCredentialEncrypted=`).
    case noCredentialsDirectory(source: String)

    public var description: String {
        switch self {
        case .literalRefused(let passPrefix):
            (passPrefix ? "pass: secrets are not accepted" : "secrets are not accepted on the command line")
                + ": argv is visible to every local user (ps, /proc); use env:VAR, file:PATH, fd:N, stdin, "
                + "keyring:SERVICE/ACCOUNT or credential:NAME"
        case .invalidSource(let reason): reason
        case .environmentVariableNotSet(let name): "environment variable \(name) is not set"
        case .unreadable(let source, let reason): "cannot read secret from \(source): \(reason)"
        case .tooLong(let source, let limit): "secret from \(source) is longer than \(limit) bytes"
        case .empty(let source): "the secret from \(source) is empty"
        case .keyringNotGiven(let source): "cannot read secret from \(source): no keychain to read it from"
        case .noCredentialsDirectory(let source):
            "cannot read secret from \(source): $CREDENTIALS_DIRECTORY is not set (systemd sets it for a unit with LoadCredential= or LoadCredentialEncrypted=)"
        }
    }
}

/// Where `keyring:SERVICE/ACCOUNT` secret sources are read. SecKeychain's credential stores are
/// keyrings, so SecIO reads the keychain without depending on it.
public protocol SecretKeyring {
    /// The whole secret of the generic password named by `service` and `account`; throws the
    /// keyring's own error when there is none or it cannot be read.
    ///
    /// - Parameters:
    ///   - service: the password's service (`api.example.com` in `keyring:api.example.com/deploy`).
    ///   - account: the password's account (`deploy`).
    /// - Returns: the stored secret, every byte of it.
    /// - Throws: the keyring's own error when no such password is stored or it cannot be read (a
    ///   locked keyring, no keyring service); ``SecretSource`` wraps it in ``SecretKeyringError``.
    func genericPasswordSecret(service: String, account: String) throws -> SecureBytes
}

/// A `keyring:` source that its keyring could not read: `error` is the keyring's error (for
/// SecKeychain's stores a `KeychainError`, such as `notFound` or `locked`).
public struct SecretKeyringError: Error, CustomStringConvertible {
    /// The `keyring:` source that could not be read.
    public var source: SecretSource
    /// The keyring's own error.
    public var error: any Error

    /// The error for `source`, wrapping the keyring's `error`.
    ///
    /// - Parameters:
    ///   - source: the `keyring:` source that could not be read.
    ///   - error: what the keyring threw.
    public init(source: SecretSource, error: any Error) {
        self.source = source
        self.error = error
    }

    public var description: String { "cannot read secret from \(source): \(error)" }
}
