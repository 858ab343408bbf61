import ArgumentParser
import SecKit

extension ExitCode {
    /// `cred get`/`delete`, `sso token`/`user`: no such item, no token stored.
    static let notFound = ExitCode(10)
    /// `cred get`, `sso token`: the item or token is past its expiry date.
    static let expired = ExitCode(11)
    /// The keyring (collection) is locked.
    static let keyringLocked = ExitCode(12)
    /// No D-Bus session bus, or no Secret Service provider on it.
    static let noSecretService = ExitCode(13)
    /// The store did not answer within `--timeout`.
    static let keychainTimeout = ExitCode(14)
    /// Several different items match where one was asked for.
    static let ambiguous = ExitCode(15)
}

extension KeychainError {
    /// The documented `seccli cred`/`sso` exit code for this error.
    var exitCode: ExitCode {
        switch self {
        case .notFound: .notFound
        case .locked: .keyringLocked
        case .noSessionBus, .noSecretService: .noSecretService
        case .timeout: .keychainTimeout
        case .ambiguous: .ambiguous
        case .secretTooLarge, .invalidAttribute, .wrongStorePassword, .corruptStore: .dataError
        case .io, .backendFailure: .checkFailed
        }
    }
}
