import ArgumentParser
import SecKit

extension ExitCode {
    /// `seccli pin`: no expected pin matched the chain.
    static let pinMismatch = ExitCode(3)
    /// `seccli pin`: the server's certificate chain did not verify (expired, unknown CA, wrong host).
    static let verificationFailed = ExitCode(4)
    /// `seccli pin`: the server demanded a client certificate, or refused the one given.
    static let clientCertificateRefused = ExitCode(5)
    /// `seccli pin`: no connection (refused, unreachable, name not found) or a timeout.
    static let connectionFailed = ExitCode(6)
}

extension TLSError {
    /// The `seccli pin` exit code for this error: unreadable or malformed files exit 2.
    var exitCode: ExitCode {
        switch self {
        case .malformedPEM, .noCertificates, .malformedCertificate: .dataError
        case .invalidPin, .invalidFingerprint, .unsupported: .validationFailure
        default: .dataError
        }
    }
}
