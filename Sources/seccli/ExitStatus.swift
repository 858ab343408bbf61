import SecKit

/// seccli's exit codes: the one table that the code exits with, that `--help` prints and that
/// docs/seccli.md shows (seccliTests compare the page with it).
enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    case checkFailed = 1
    case dataError = 2
    case pinMismatch = 3
    case verificationFailed = 4
    case clientCertificateRefused = 5
    case connectionFailed = 6
    case notFound = 10
    case expired = 11
    case keyringLocked = 12
    case noSecretService = 13
    case keychainTimeout = 14
    case ambiguous = 15
    case permissionDenied = 16
    case serverSealed = 17
    case serverUninitialized = 18
    case missingMount = 19
    case usageError = 64

    /// The commands that exit with the code (nil: every command), and what it means.
    var entry: (commands: [String]?, meaning: String) {
        switch self {
        case .success:
            (nil, "success; with `hash --check`, `hmac --verify` or `pin --expect`, everything matched")
        case .checkFailed:
            (
                ["hash", "hmac", "encrypt", "decrypt", "keygen", "cred", "sso", "identity", "audit"],
                "a check failed: checksum or MAC mismatch; an audit log whose hash chain is broken (`audit verify`); input that cannot be decrypted (wrong key or password, "
                    + "truncated, altered, not in the format, `-a` input that is not base64, an expired Fernet token, a JWE with a refused algorithm "
                    + "or an unknown `kid`, an input too large for a sealed format); or a file could not be read or "
                    + "written (`hash`/`hmac` still process the other files); for `cred`/`sso`/`identity` also a store "
                    + "that failed unexpectedly or whose library (GIO, libsecret) cannot be loaded, or an audit log (`SECKIT_AUDIT_LOG`) that cannot be written; for `identity list` an item whose summary cannot be read (the readable "
                    + "identities are still listed)"
            )
        case .dataError:
            (
                ["hmac", "encrypt", "decrypt", "kdf", "pin", "tls", "cred", "sso", "identity", "audit"],
                "bad data in the options: a malformed key or IV (hex/base64/JWK), a key or IV of the wrong size, an "
                    + "unreadable secret source, an unset environment variable; for `pin` and `tls doctor`: a certificate, `--ca`, client "
                    + "certificate, key or PKCS#12 file that cannot be read or parsed, an encrypted key without "
                    + "passphrase, a wrong passphrase, a key that does not belong to the certificate (also for `identity import`), "
                    + "a stored identity that cannot be read; for `cred`/`sso`/`identity`: "
                    + "a secret over 1 MiB, a wrong `--store-password`, a damaged or altered store file, an invalid "
                    + "attribute (an empty name, a NUL character); for `audit`: a log that cannot be read"
            )
        case .pinMismatch:
            (
                Self.keychainCommands,
                "no expected pin matches the chain (the chain is printed on standard output; `tls doctor`: the "
                    + "report); with `--backend openbao`: no `--pin` matches the server's chain, and no request was sent"
            )
        case .verificationFailed:
            (
                Self.keychainCommands,
                "the server's certificate did not verify; the message carries OpenSSL's reason: `certificate has "
                    + "expired`, `unable to get local issuer certificate` (unknown CA), `self-signed certificate`, "
                    + "`hostname mismatch`, … (`pin`, and the OpenBao server of `--backend openbao`)"
            )
        case .clientCertificateRefused:
            (
                Self.keychainCommands,
                "the server requires a client certificate and none was given, or it refused the one given (also "
                    + "under TLS 1.3, where the refusal arrives after the handshake)"
            )
        case .connectionFailed:
            (
                Self.keychainCommands,
                "no connection: refused, unreachable, unknown host, a failed handshake (no common version or "
                    + "cipher), or a timeout (`pin`); the OpenBao/Vault server of `--backend openbao` cannot be reached"
            )
        case .notFound:
            (
                Self.keychainCommands,
                "no such item (for a `keyring:SERVICE/ACCOUNT` secret source too); no SSO token, or nobody "
                    + "logged in (`sso user`); no identity of that name (`identity delete`, `pin --identity`, `tls doctor --identity`)"
            )
        case .expired:
            (["cred", "sso"], "`cred get`: the item is past its `--expires` date; `sso token`: the token has expired")
        case .keyringLocked:
            (Self.keychainCommands, "the keyring is locked (told apart from not found)")
        case .noSecretService:
            (
                Self.keychainCommands,
                "no D-Bus session bus (none, or a malformed `DBUS_SESSION_BUS_ADDRESS`), no Secret Service provider "
                    + "on it, or no default keyring (collection) to store a new item in (no session collection for "
                    + "`cred set --session`)"
            )
        case .keychainTimeout:
            (
                Self.keychainCommands,
                "the store did not answer within `--timeout` (10 seconds for a `keyring:` secret source and "
                    + "`pin --identity`)"
            )
        case .ambiguous:
            (["cred"], "several different items match where one was asked for (`cred get` without `--account`)")
        case .permissionDenied:
            (
                Self.keychainCommands,
                "`--backend openbao`: the server refused the request (HTTP 403: the token lacks a policy for the "
                    + "path, or has expired), or refused the login, or no token was found"
            )
        case .serverSealed:
            (Self.keychainCommands, "`--backend openbao`: the server is sealed (`bao operator unseal`)")
        case .serverUninitialized:
            (Self.keychainCommands, "`--backend openbao`: the server is not initialized (`bao operator init`)")
        case .missingMount:
            (
                Self.keychainCommands,
                "`--backend openbao`: no KV version 2 secrets engine at `--mount` (or no auth method at the login's mount)"
            )
        case .usageError:
            (
                nil,
                "usage error: unknown option, missing argument, a literal secret, conflicting options, an option that "
                    + "does not apply to the format, direction or backend chosen (`--md` with `--format fernet`, `--iter` "
                    + "with `--key`, `--store-file` with the Secret Service); for `pin`: a "
                    + "malformed `HOST[:PORT]` or `--expect` pin, `--ca` with `--pin-only`, `--p12` with `--cert`, `--identity` with either, "
                    + "connection options (`--timeout` included) with `--file`, `--pin-only` without `--expect` (`tls doctor`: without `--pin`), "
                    + "`--report-uri` without `--expect` or not `http(s)://`, `--report-ca` without `--report-uri`"
            )
        }
    }

    /// The commands that read the keychain: `cred` and `sso`, and every command that takes a secret
    /// source, which may be `keyring:SERVICE/ACCOUNT`.
    private static let keychainCommands = [
        "hmac", "encrypt", "decrypt", "kdf", "pin", "tls", "cred", "sso", "identity",
    ]

    /// The `--help` text of the codes `command` exits with (every code for nil).
    static func help(for command: String? = nil) -> String {
        // A plain loop over bytes: this runs in every process that parses a command line, and the
        // collection algorithms, `replacing(_:with:)` or a walk over `Character`s would page in
        // code and tables of the runtime only for this (docs/performance-journal.md).
        var text = Array("Exit codes:".utf8)
        for status in allCases {
            let (commands, meaning) = status.entry
            if let command, let commands, !commands.contains(command) { continue }
            text += Array("\n  \(status.rawValue)  ".utf8)
            for byte in meaning.utf8 { text.append(byte == UInt8(ascii: "`") ? UInt8(ascii: "'") : byte) }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension ExitStatus {
    /// The documented status of an error from SecKit; nil for any other error.
    init?(_ error: any Error) {
        switch error {
        case let error as CryptoError:
            // Like a failed `sha256sum -c`: failed checks, undecryptable input and files exit 1;
            // malformed keys and parameters 2.
            switch error {
            case .decryptionFailed, .authenticationFailure, .malformedInput, .unsupported, .expired, .keyNotFound:
                self = .checkFailed
            default:
                self = .dataError
            }
        case is FileError:
            // Like `sha256sum` and `cat`: a file that cannot be read or written exits 1.
            self = .checkFailed
        case let error as TLSError:
            switch error {
            case .malformedPEM, .noCertificates, .malformedCertificate, .invalidConfiguration, .backendFailure,
                .invalidClientIdentity, .passphraseRequired, .wrongPassphrase, .keyMismatch:
                self = .dataError
            case .pinMismatch, .noBackupPin: self = .pinMismatch
            case .certificateVerificationFailed: self = .verificationFailed
            case .clientCertificateRequired, .clientCertificateRejected, .clientNotAllowed:
                self = .clientCertificateRefused
            // seccli never cancels (its calls are synchronous): `cancelled` is only listed to be complete.
            case .hostNotFound, .connectionFailed, .timedOut, .handshakeFailed, .connectionBroken, .endpointNotAllowed,
                .cancelled:
                self = .connectionFailed
            case .invalidPin, .invalidFingerprint, .invalidHostPattern, .unsupported: self = .usageError
            }
        case let error as KeychainError:
            switch error {
            case .notFound: self = .notFound
            case .locked: self = .keyringLocked
            case .noSessionBus, .noSecretService, .noDefaultCollection, .noSessionCollection: self = .noSecretService
            case .timeout: self = .keychainTimeout
            case .ambiguous: self = .ambiguous
            case .secretTooLarge, .invalidAttribute, .wrongStorePassword, .corruptStore: self = .dataError
            // seccli never cancels (its calls are synchronous): `cancelled` is only listed to be complete.
            case .io, .backendFailure, .cancelled, .invalidResponse: self = .checkFailed
            case .serverUnreachable: self = .connectionFailed
            case .permissionDenied: self = .permissionDenied
            case .serverSealed: self = .serverSealed
            case .serverUninitialized: self = .serverUninitialized
            case .missingMount: self = .missingMount
            case .untrustedServer(let failure, _):
                switch failure {
                case .pinMismatch: self = .pinMismatch
                case .certificateVerificationFailed: self = .verificationFailed
                case .clientCertificateRefused: self = .clientCertificateRefused
                }
            }
        case is SecretSourceError:
            self = .dataError
        case let error as SecretKeyringError:
            // A `keyring:` source exits as the keychain's own commands would (10 for a missing item).
            guard let status = ExitStatus(error.error) else { return nil }
            self = status
        default:
            return nil
        }
    }
}
