import SecCrypto
import SecIO
import SecKeychain
import SecTLS

/// Where an OpenBao or Vault server is, how to reach it and how to log in, and where in it the
/// credentials are kept: the settings of a `VaultStore`.
///
/// ```swift
/// var configuration = try VaultConfiguration.fromEnvironment()   // BAO_ADDR, BAO_TOKEN, BAO_CACERT, …
/// configuration.mount = "secret"
/// configuration.pathPrefix = "seckit"
/// let store = try VaultStore(configuration: configuration)
/// ```
public struct VaultConfiguration: Sendable {
    /// The server's URL, `https://host:port` (the scheme, host and port of `BAO_ADDR`).
    public var address: VaultAddress
    /// The namespace (`X-Vault-Namespace`), nil for the root namespace.
    public var namespace: String?
    /// Trust roots, pins, the client identity (certificate login), the TLS server name.
    public var tls: TLSClientConfiguration
    /// How the store gets its token.
    public var login: VaultLogin
    /// The path of the KV version 2 secrets engine; `secret` (the dev server's) by default.
    public var mount: String
    /// The folder of SecKit's items inside the mount; `seckit` by default. Empty: the mount's top.
    public var pathPrefix: String
    /// Called with each login, renewal and refused token (never the token itself), on the thread
    /// of the call that caused it; nil (the default) for none.
    public var tokenEvents: (@Sendable (VaultTokenEvent) -> Void)?

    /// A configuration of these settings; nothing is read or checked until the first request.
    ///
    /// - Parameters:
    ///   - address: the server's URL.
    ///   - login: how the store gets its token.
    ///   - tls: trust roots, pins, the client identity and the TLS server name; the system's trust
    ///     roots and no client identity by default.
    ///   - namespace: the namespace (`X-Vault-Namespace`); nil (the default) for the root namespace.
    ///   - mount: the path of the KV version 2 secrets engine; ``defaultMount`` (`secret`) by default.
    ///   - pathPrefix: the folder of SecKit's items inside the mount; ``defaultPathPrefix``
    ///     (`seckit`) by default, empty for the mount's top.
    public init(
        address: VaultAddress,
        login: VaultLogin,
        tls: TLSClientConfiguration = TLSClientConfiguration(),
        namespace: String? = nil,
        mount: String = Self.defaultMount,
        pathPrefix: String = Self.defaultPathPrefix
    ) {
        self.address = address
        self.login = login
        self.tls = tls
        self.namespace = namespace
        self.mount = mount
        self.pathPrefix = pathPrefix
    }

    /// `secret`, where `bao server -dev` mounts KV version 2.
    public static let defaultMount = "secret"
    /// `seckit`.
    public static let defaultPathPrefix = "seckit"

    /// The settings the `bao` and `vault` CLIs read, each from `BAO_*` first, then `VAULT_*`:
    /// `ADDR` (required), `CACERT` (else the system roots), `CLIENT_CERT` and `CLIENT_KEY` (the
    /// client identity), `NAMESPACE`, `TLS_SERVER_NAME`, and a token login with `TOKEN`, else the
    /// token file `~/.vault-token` (which `bao login` writes).
    ///
    /// - Parameter environment: the variables; the process's by default.
    /// - Returns: a token login to the `ADDR` server with these TLS settings and namespace, the
    ///   default mount (``defaultMount``) and path prefix (``defaultPathPrefix``). The CA file is
    ///   read by the store's transport, not here.
    /// - Throws: `KeychainError.invalidAttribute` when `ADDR` is unset or not
    ///   `https://HOST[:PORT]` (or `http://`), or when the client certificate or key cannot be read;
    ///   `KeychainError.permissionDenied` when there is no token (`TOKEN` unset and no readable
    ///   `~/.vault-token`).
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(KeychainError) -> VaultConfiguration {
        let settings = VaultEnvironment(environment)
        guard let addressText = settings["ADDR"] else {
            throw .invalidAttribute("no server address: set BAO_ADDR (or VAULT_ADDR), e.g. https://127.0.0.1:8200")
        }
        var tls = TLSClientConfiguration()
        if let caFile = settings["CACERT"] { tls.trustRoots = .caFile(caFile) }
        tls.serverName = settings["TLS_SERVER_NAME"]
        if let certificate = settings["CLIENT_CERT"] {
            do {
                tls.clientIdentity = try ClientIdentity(certificateFile: certificate, keyFile: settings["CLIENT_KEY"])
            } catch {
                throw .invalidAttribute("the client certificate or key of BAO_CLIENT_CERT/BAO_CLIENT_KEY: \(error)")
            }
        }
        return VaultConfiguration(
            address: try VaultAddress(parsing: addressText),
            login: .token(try VaultLogin.environmentToken(environment)),
            tls: tls,
            namespace: settings["NAMESPACE"]
        )
    }
}

/// The `BAO_*` then `VAULT_*` variables, as the CLIs read them (an empty value counts as unset).
package struct VaultEnvironment {
    private let environment: [String: String]

    package init(_ environment: [String: String]) { self.environment = environment }

    /// `BAO_<name>`, else `VAULT_<name>`.
    package subscript(name: String) -> String? {
        for prefix in ["BAO_", "VAULT_"] {
            if let value = environment[prefix + name], !value.isEmpty { return value }
        }
        return nil
    }
}

/// An OpenBao or Vault server's URL: `https` (or `http`, for a dev server on loopback), a host and
/// a port (8200 when none is given).
public struct VaultAddress: Hashable, Sendable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    /// An address of these parts, taken as they are (``init(parsing:)`` checks a user's text).
    ///
    /// - Parameters:
    ///   - scheme: `https` (the default), or `http` for a dev server on loopback.
    ///   - host: a host name or an IP address, an IPv6 address without brackets.
    ///   - port: the server's port; 8200 by default.
    public init(scheme: String = "https", host: String, port: Int = 8200) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Reads `https://host[:port]` (an IPv6 host in brackets); a trailing `/` is allowed.
    ///
    /// - Parameter text: the address, as `BAO_ADDR` holds it; `http://` is read too, and a missing
    ///   port is 8200.
    /// - Throws: `KeychainError.invalidAttribute` for text that is not a URL, a scheme other than
    ///   `https` or `http`, no host, a path other than `/`, a query or user information, or a port
    ///   outside 1 to 65535.
    public init(parsing text: String) throws(KeychainError) {
        guard let parsed = URLComponents(string: text), let scheme = parsed.scheme?.lowercased(),
            scheme == "https" || scheme == "http", let host = parsed.host, !host.isEmpty,
            parsed.path.isEmpty || parsed.path == "/", parsed.query == nil, parsed.user == nil
        else {
            throw .invalidAttribute(
                "the server address must be https://HOST[:PORT], got \(UntrustedText.quoted(text, maximumLength: 80))"
            )
        }
        let port = parsed.port ?? 8200
        guard (1...65535).contains(port) else {
            throw .invalidAttribute("the server address's port must be 1 to 65535")
        }
        self.init(scheme: scheme, host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: port)
    }

    /// `https://host:port`, an IPv6 host in brackets.
    public var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}

/// How a store logs in. A service prefers certificate login, then AppRole; a person's shell
/// usually has a token.
public enum VaultLogin: Sendable {
    /// A token as it is (`BAO_TOKEN`): never renewed or replaced by the store.
    case token(SecureBytes)
    /// AppRole (`auth/<mount>/login`): a role ID and a secret ID, both from secret sources. The
    /// token it returns is renewed, and the login made again at its maximum TTL.
    case appRole(roleID: SecureBytes, secretID: SecureBytes, mount: String = "approle")
    /// TLS certificate login (`auth/<mount>/login`) with the configuration's client identity
    /// (`tls.clientIdentity`), whose key stays in OpenSSL; `role` names the cert role (nil: any that
    /// matches).
    case certificate(role: String? = nil, mount: String = "cert")

    /// The token the `bao` CLI would use: `BAO_TOKEN`, then `VAULT_TOKEN`, then the token file
    /// `$HOME/.vault-token` (white space around it dropped).
    ///
    /// - Parameter environment: the variables; the process's by default.
    /// - Returns: the token, in memory that is wiped on release.
    /// - Throws: `KeychainError.permissionDenied` when there is none: neither variable holds a
    ///   value and the token file is missing or cannot be read.
    public static func environmentToken(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(KeychainError) -> SecureBytes {
        if let token = VaultEnvironment(environment)["TOKEN"] { return SecureBytes(Array(token.utf8)) }
        if let home = environment["HOME"], !home.isEmpty,
            let token = try? SecretSource.file(home + "/.vault-token").read()
        {
            return token
        }
        throw .permissionDenied(
            "no token: set BAO_TOKEN (or VAULT_TOKEN), log in with `bao login`, or use AppRole or certificate login"
        )
    }

    /// The login's kind, as `VaultTokenEvent` names it: `token`, `approle` or `cert`.
    var methodName: String {
        switch self {
        case .token: "token"
        case .appRole: "approle"
        case .certificate: "cert"
        }
    }

    /// Whether the store can log in again by itself (AppRole, certificate): then an expired or
    /// revoked token is replaced.
    var canLogInAgain: Bool {
        if case .token = self { return false }
        return true
    }
}
