import SecCrypto
import SecIO

/// Errors thrown by SecKeychain's stores. Messages are one readable line that says what to do;
/// they never contain a secret.
public enum KeychainError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No D-Bus session bus: `DBUS_SESSION_BUS_ADDRESS` is unset and `$XDG_RUNTIME_DIR/bus` does
    /// not exist, or the bus cannot be reached (libsecret's "Cannot autolaunch D-Bus without X11
    /// $DISPLAY"). The string is the detail.
    case noSessionBus(String)
    /// The session bus has no Secret Service provider (gnome-keyring, KeePassXC, KWallet) and none
    /// can be started. The string is the detail.
    case noSecretService(String)
    /// The Secret Service has no default collection (keyring) to create items in: its `default`
    /// alias names none (gnome-keyring without a login keyring).
    case noDefaultCollection
    /// The Secret Service has no session collection (its `session` alias names none) to keep a
    /// session-only item in.
    case noSessionCollection
    /// The collection (keyring) is locked, so its items can be neither read nor written.
    case locked
    /// No item matches.
    case notFound
    /// A lookup that needs one item matched items of `count` different identities.
    case ambiguous(count: Int)
    /// The operation did not finish within its timeout.
    case timeout(Duration)
    /// The task that awaited the operation was cancelled, and the operation stopped (the async
    /// variants of `CredentialStore`'s calls).
    case cancelled
    /// The secret is larger than the store accepts.
    case secretTooLarge(limit: Int)
    /// An attribute value is not acceptable (empty, or not representable); the string says which.
    case invalidAttribute(String)
    /// The encrypted-file store's master password is not the one the file was written with.
    case wrongStorePassword
    /// The encrypted-file store is damaged or was altered; the string says what is wrong.
    case corruptStore(String)
    /// A file of the encrypted-file store could not be read or written.
    case io(path: String, reason: String)
    /// The Secret Service or libsecret reported an unexpected failure; the string is its message.
    case backendFailure(String)
    /// A remote store's server (OpenBao, Vault) is sealed: nothing can be read or written until it
    /// is unsealed.
    case serverSealed
    /// A remote store's server has not been initialized (`bao operator init`).
    case serverUninitialized
    /// A remote store's server could not be reached: refused, unreachable, unknown host, a broken
    /// connection or handshake. The string says why.
    case serverUnreachable(String)
    /// A remote store refused the request (HTTP 403): the token lacks a policy for the path, or a
    /// login was refused. The string is the server's reason.
    case permissionDenied(String)
    /// A remote store has no KV version 2 secrets engine at the mount; the string names it.
    case missingMount(String)
    /// A remote store's server was not trusted, or refused our client certificate, before any
    /// request was sent; the string is SecTLS's reason.
    case untrustedServer(ServerTrustFailure, String)
    /// A remote store answered with what its protocol never sends (an HTML page, truncated JSON, an
    /// unexpected status, oversized headers); the string says what.
    case invalidResponse(String)

    public var description: String {
        switch self {
        case .noSessionBus(let detail):
            return
                "no D-Bus session bus (\(detail)): run inside a desktop session or `dbus-run-session`, or use the encrypted-file backend"
        case .noSecretService(let detail):
            return
                "no Secret Service on the session bus (\(detail)): start gnome-keyring-daemon, KeePassXC or KWallet, or use the encrypted-file backend"
        case .noDefaultCollection:
            return
                "the Secret Service has no default keyring to store items in: create one (log in to the desktop session, or set a default keyring in your keyring manager), or use the encrypted-file backend"
        case .noSessionCollection:
            return
                "the Secret Service has no session collection for items that end with the session: store the item without --session (SecretServiceCollection.session), or use a service that has one (gnome-keyring)"
        case .locked:
            return
                "the keyring is locked: unlock it (log in to the desktop session, or unlock it in your keyring manager) and retry"
        case .notFound: return "no matching item in the keychain"
        case .ambiguous(let count):
            return "\(count) different items match: name the item more precisely (account, access group, server)"
        case .timeout(let limit): return "the keychain did not answer within \(limit)"
        case .cancelled: return "the keychain operation was cancelled"
        case .secretTooLarge(let limit): return "the secret is larger than the \(limit)-byte limit"
        case .invalidAttribute(let reason): return "invalid attribute: \(reason)"
        case .wrongStorePassword: return "wrong master password for the encrypted keychain file"
        case .corruptStore(let reason): return "the encrypted keychain file is damaged or was altered: \(reason)"
        case .io(let path, let reason): return "\(path): \(reason)"
        case .backendFailure(let reason): return "Secret Service: \(reason)"
        case .serverSealed: return "the OpenBao/Vault server is sealed: unseal it (bao operator unseal) and retry"
        case .serverUninitialized:
            return "the OpenBao/Vault server is not initialized: initialize it (bao operator init) and retry"
        case .serverUnreachable(let reason): return "the OpenBao/Vault server cannot be reached: \(reason)"
        case .permissionDenied(let reason):
            return
                "the OpenBao/Vault server refused the request (\(reason)): check the token's policies or the login's role"
        case .missingMount(let mount):
            return "no KV version 2 secrets engine is mounted at \(mount) (bao secrets enable -path=\(mount) kv-v2)"
        case .untrustedServer(_, let reason): return "the OpenBao/Vault server's TLS connection was refused: \(reason)"
        case .invalidResponse(let reason): return "the OpenBao/Vault server sent an invalid response: \(reason)"
        }
    }
}

/// Why a remote store's TLS connection was refused, as `seccli pin` tells them apart.
public enum ServerTrustFailure: Hashable, Sendable {
    /// No pin of the enforced pin set matches the server's chain (or no backup pin, under the strict rule).
    case pinMismatch
    /// The server's certificate did not verify (unknown CA, expired, wrong host name).
    case certificateVerificationFailed
    /// The server demanded a client certificate and got none, or refused ours.
    case clientCertificateRefused
}

extension KeychainError: BlockingOperationError {
    package static func noThread(_ reason: String) -> KeychainError {
        .backendFailure("cannot start a thread: \(reason)")
    }
}
