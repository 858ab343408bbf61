import ArgumentParser
import SecKit

extension ExitCode {
    /// `seccli pin`: no expected pin matched the chain.
    static let pinMismatch = ExitCode(3)
    /// `seccli pin`: the server's certificate chain did not verify (expired, unknown CA, wrong host).
    static let verificationFailed = ExitCode(4)
    /// `seccli pin`: the server demanded a client certificate, or refused the one given.
    static let clientCertificateRefused = ExitCode(5)
    /// `seccli pin`: no connection (refused, unreachable, name not found, handshake failure) or a timeout.
    static let connectionFailed = ExitCode(6)
}

extension TLSError {
    /// The documented `seccli pin` exit code for this error: files and passphrases 2, pins 3,
    /// verification 4, client certificates 5, the connection 6, malformed option values 64.
    var exitCode: ExitCode {
        switch self {
        case .malformedPEM, .noCertificates, .malformedCertificate, .invalidConfiguration, .backendFailure,
             .invalidClientIdentity, .passphraseRequired, .wrongPassphrase, .keyMismatch:
            .dataError
        case .pinMismatch, .noBackupPin: .pinMismatch
        case .certificateVerificationFailed: .verificationFailed
        case .clientCertificateRequired, .clientCertificateRejected: .clientCertificateRefused
        case .hostNotFound, .connectionFailed, .timedOut, .handshakeFailed, .connectionBroken, .endpointNotAllowed: .connectionFailed
        case .invalidPin, .invalidFingerprint, .invalidHostPattern, .unsupported: .validationFailure
        }
    }
}
