import SecCrypto
import SecIO

extension CredentialStore {
    /// The secret of the item `cred get --service SERVICE --account ACCOUNT` prints (no access
    /// group), within `defaultTimeout`: what a `keyring:SERVICE/ACCOUNT` secret source reads.
    ///
    /// - Parameters:
    ///   - service: the generic password's service.
    ///   - account: its account.
    /// - Returns: the secret, in memory that is wiped on release.
    /// - Throws: a ``KeychainError``: what `secret(for:timeout:)` throws, ``KeychainError/notFound``
    ///   when no item has exactly this identity (``KeychainError/locked`` when the keyring is locked
    ///   and might hold it), ``KeychainError/invalidAttribute(_:)`` for an identity no store can keep,
    ///   ``KeychainError/timeout(_:)`` when the call does not finish within
    ///   ``CredentialStore/defaultTimeout``, and the store's own failures listed there.
    public func genericPasswordSecret(service: String, account: String) throws -> SecureBytes {
        try secret(for: .genericPassword(service: service, account: account))
    }
}
