/// How long a provider keeps a credential it is given (Foundation's `URLCredential.Persistence`).
///
/// Save a credential only after it worked (the server answered the request it authenticated with a
/// 2xx, or at least not with another 401/407): a mistyped password is never kept.
public enum CredentialPersistence: Hashable, Sendable, CaseIterable {
    /// Not kept: the credential answers the current challenge only.
    case none
    /// Kept in the provider's memory until the process ends; never written anywhere.
    case forSession
    /// Kept in the provider's backing store (the keychain for `KeychainCredentialProvider`).
    case permanent
}
