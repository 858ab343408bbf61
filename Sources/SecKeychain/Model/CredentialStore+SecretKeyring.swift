import SecCrypto
import SecIO

extension CredentialStore {
    /// The secret of the item `cred get --service SERVICE --account ACCOUNT` prints (no access
    /// group), within `defaultTimeout`: what a `keyring:SERVICE/ACCOUNT` secret source reads.
    public func genericPasswordSecret(service: String, account: String) throws -> SecureBytes {
        try secret(for: .genericPassword(service: service, account: account))
    }
}
