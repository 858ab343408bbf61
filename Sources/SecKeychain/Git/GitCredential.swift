import SecCrypto

/// One credential of git's credential-helper protocol (gitcredentials(7), git-credential(1)), and
/// how it is kept as an internet password exactly as git's own libsecret helper
/// (`contrib/credential/libsecret`) keeps it, so that items stored by either helper are found by the other:
///
/// - attributes `server` (the host), `port`, `protocol`, `object` (the path, sent by git only with
///   `credential.useHttpPath`) and `user`, which are `CredentialIdentity.internetPassword`'s
///   Secret Service names (SecKit adds its own `account` and `seckit-id`); the
///   `org.gnome.keyring.NetworkPassword` schema, which git before 2.42 searches for (later versions
///   write `org.git.Password` and search regardless of the schema);
/// - the label `Git: PROTOCOL://HOST[:PORT]/PATH`;
/// - the secret: the password, followed by `\npassword_expiry_utc=…` and `\noauth_refresh_token=…`
///   lines when git gives those (git 2.42's encoding: the Secret Service replaces an item only when
///   its attributes stay the same, so values that change live in the secret). A plain password
///   stays a plain secret that `seccli cred get`, `secret-tool` and Python keyring read as it is.
///
/// The expiry is also kept as the item's `expiresAt`, so SecKit's own readers see it.
public struct GitCredential: Sendable {
    public var `protocol`: String?
    /// The host without its port.
    public var host: String?
    public var port: Int?
    public var path: String?
    public var username: String?
    public var password: SecureBytes?
    /// `password_expiry_utc`: Unix seconds, as git sends it.
    public var passwordExpiry: String?
    public var oauthRefreshToken: SecureBytes?

    /// An empty credential: every part nil.
    public init() {}

    /// Reads `key=value` lines up to the first empty line or the end of `input`. `host` may carry a
    /// `:PORT`; unknown keys (`capability[]`, `wwwauth[]`, `url`, …) are ignored, as git asks.
    /// A line without `=`, a port out of range or a NUL byte throws `invalidAttribute`.
    ///
    /// - Parameter input: the lines git writes to a credential helper's standard input.
    /// - Throws: ``KeychainError/invalidAttribute(_:)`` for a line without `=`, a line with a NUL byte,
    ///   or a `host` whose port is above 65535.
    public init(parsing input: UnsafeRawBufferPointer) throws(KeychainError) {
        for line in input.lines {
            if line.isEmpty { break }
            guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else {
                throw .invalidAttribute("a git credential line without '=': expected key=value")
            }
            guard !line.contains(0) else { throw .invalidAttribute("a git credential line with a NUL character") }
            let key = String(decoding: line[..<equals], as: UTF8.self)
            let value = UnsafeRawBufferPointer(rebasing: line[(equals + 1)...])
            // Text only for the parts that are no secret: a String copy would never be wiped.
            var text: String { String(decoding: value, as: UTF8.self) }
            switch key {
            case "protocol": self.protocol = text
            case "host": try setHost(text)
            case "path": path = text
            case "username": username = text
            case "password": password = SecureBytes(value)
            case "password_expiry_utc": passwordExpiry = text
            case "oauth_refresh_token": oauthRefreshToken = SecureBytes(value)
            default: continue
            }
        }
    }

    /// `HOST` or `HOST:PORT`, split as git's libsecret helper splits it: at the last colon, where
    /// an empty port or port 0 is none (`h:` and `h:0` are `h`). Only a colon followed by digits (or
    /// nothing) starts a port, so `[::1]` keeps its colons where git's helper would cut it.
    private mutating func setHost(_ text: String) throws(KeychainError) {
        port = nil
        host = text
        guard let colon = text.lastIndex(of: ":") else { return }
        let digits = text.utf8[text.utf8.index(after: colon)...]
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return }
        host = String(text[..<colon])
        let number = digits.reduce(0) { min($0 * 10 + Int($1 - UInt8(ascii: "0")), 65536) }
        guard number <= 65535 else {
            throw .invalidAttribute("port must be between 1 and 65535, got \(String(decoding: digits, as: UTF8.self))")
        }
        port = number == 0 ? nil : number
    }

    /// The stored items that may answer `get` or be removed by `erase`: every part git sent must
    /// match, the parts it did not send match anything (git's libsecret helper searches the same way).
    public var query: CredentialQuery {
        CredentialQuery(
            itemClass: .internetPassword,
            account: username,
            server: host,
            protocol: `protocol`,
            port: port,
            path: path
        )
    }

    /// True when the credential names something to match: git's helper refuses to erase on an
    /// empty description, which would match every item.
    public var hasPattern: Bool {
        `protocol` != nil || host != nil || path != nil || username != nil
    }

    /// The identity `store` keeps the credential under; nil when git did not send a protocol, host,
    /// user name and password (nothing complete to store).
    public var identity: CredentialIdentity? {
        guard let `protocol`, let host, let username, password != nil else { return nil }
        return .internetPassword(server: host, account: username, protocol: `protocol`, port: port, path: path)
    }

    /// The label git's libsecret helper gives its items.
    public var label: String {
        let portText = port.map { ":\($0)" } ?? ""
        return "Git: \(`protocol` ?? "")://\(host ?? "")\(portText)/\(path ?? "")"
    }

    /// The label and the expiry (when `passwordExpiry` is a number of seconds).
    public var attributes: CredentialAttributes {
        let expiry = passwordExpiry.flatMap { Int64($0) }.map { Date(timeIntervalSince1970: Double($0)) }
        return CredentialAttributes(label: label, expiresAt: expiry)
    }

    /// The secret as git's libsecret helper stores it: the password and the extra lines.
    public var storedSecret: SecureBytes? {
        guard let password else { return nil }
        var parts = [password]
        if let passwordExpiry { parts += [SecureBytes(utf8: "\npassword_expiry_utc=\(passwordExpiry)")] }
        if let oauthRefreshToken { parts += [SecureBytes(utf8: "\noauth_refresh_token="), oauthRefreshToken] }
        return SecureBytes(concatenating: parts)
    }

    /// The credential `get` answers with for a stored item: its user name, and the password,
    /// expiry and refresh token decoded from the secret (the expiry from `expiresAt` when the
    /// secret has none). Everything else is left as git sent it.
    ///
    /// - Parameter item: the stored item, loaded with its secret.
    /// - Returns: this credential with `username`, `password`, `passwordExpiry` and `oauthRefreshToken`
    ///   taken from `item`.
    public func filled(from item: CredentialItem) -> GitCredential {
        var answer = self
        answer.username = item.identity.account
        answer.passwordExpiry = item.expiresAt.map { String(Int64($0.timeIntervalSince1970)) }
        answer.password = nil
        answer.oauthRefreshToken = nil
        item.secret?.withUnsafeBytes { secret in
            // An empty secret is an empty password (git's `password=`), not none.
            answer.password = SecureBytes([UInt8]())
            for (index, line) in secret.lines.enumerated() {
                if index == 0 {
                    answer.password = SecureBytes(line)
                } else if let value = line.value(after: "password_expiry_utc=") {
                    answer.passwordExpiry = String(decoding: value, as: UTF8.self)
                } else if let value = line.value(after: "oauth_refresh_token=") {
                    answer.oauthRefreshToken = SecureBytes(value)
                }
            }
        }
        return answer
    }

    /// The password in a stored secret (its first line), to compare with the one git asks to erase.
    ///
    /// - Parameter secret: a secret as ``GitCredential/storedSecret`` writes it.
    /// - Returns: its first line: the password alone.
    public static func password(inStoredSecret secret: SecureBytes) -> SecureBytes {
        secret.withUnsafeBytes { SecureBytes($0.lines.first ?? $0) }
    }

    /// The answer to `get`: `username=`, `password=` and, when known, `password_expiry_utc=` and
    /// `oauth_refresh_token=` lines.
    public var reply: SecureBytes {
        var parts: [SecureBytes] = []
        func field(_ key: String, _ value: SecureBytes?) {
            if let value { parts += [SecureBytes(utf8: "\(key)="), value, SecureBytes(utf8: "\n")] }
        }
        field("username", username.map { SecureBytes(utf8: $0) })
        field("password", password)
        field("password_expiry_utc", passwordExpiry.map { SecureBytes(utf8: $0) })
        field("oauth_refresh_token", oauthRefreshToken)
        return SecureBytes(concatenating: parts)
    }
}

extension SecureBytes {
    /// `parts` one after the other, copied straight into wiped-on-release memory.
    fileprivate init(concatenating parts: [SecureBytes]) {
        self.init(count: parts.reduce(0) { $0 + $1.count }) { buffer in
            var offset = 0
            for part in parts {
                part.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyMemory(from: $0) }
                offset += part.count
            }
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The lines of the buffer, without their `\n`; a final `\n` ends the last line, it does not
    /// start an empty one.
    fileprivate var lines: [UnsafeRawBufferPointer] {
        var lines: [UnsafeRawBufferPointer] = []
        var start = 0
        while start < count {
            let end = self[start...].firstIndex(of: UInt8(ascii: "\n")) ?? count
            lines.append(UnsafeRawBufferPointer(rebasing: self[start..<end]))
            start = end + 1
        }
        return lines
    }

    /// The bytes after `prefix` when the buffer starts with it.
    fileprivate func value(after prefix: String) -> UnsafeRawBufferPointer? {
        let prefix = Array(prefix.utf8)
        guard starts(with: prefix) else { return nil }
        return UnsafeRawBufferPointer(rebasing: self[prefix.count...])
    }
}
