import SecKeychain

/// What happened to a store's token: a login, a renewal, a refusal. `VaultConfiguration`'s
/// `tokenEvents` receives each, so that a service can log and count them with its own tools
/// (SecVaultHTTPClient's `VaultTokenEvent.reporter(logger:metricsFactory:)` does with swift-log
/// and swift-metrics); SecVault itself links neither. An event never carries the token.
public enum VaultTokenEvent: Sendable, Equatable {
    /// A login (`approle` or `cert`, the login's kind) returned a token that lives `lease`
    /// (nil: it does not expire).
    case loggedIn(method: String, lease: Duration?)
    /// A login failed with `error`; the call that needed it fails with the same error.
    case loginFailed(method: String, error: KeychainError)
    /// The token was renewed (`auth/token/renew-self`) for `lease`.
    case renewed(lease: Duration?)
    /// A renewal failed with `error`, or reached the token's maximum TTL: a new login follows.
    case renewalFailed(error: KeychainError?)
    /// The server refused the current token (403): it is dropped and a new login follows.
    case tokenRefused
}
