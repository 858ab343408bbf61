import Foundation
import SecCrypto
import TestSupport
import Testing

extension CryptoError {
    /// The case name without its text, for comparing and tallying kinds of failure.
    var caseName: String {
        switch self {
        case .invalidEncoding: "invalidEncoding"
        case .incorrectSize: "incorrectSize"
        case .decryptionFailed: "decryptionFailed"
        case .authenticationFailure: "authenticationFailure"
        case .malformedInput: "malformedInput"
        case .invalidParameter: "invalidParameter"
        case .unsupported: "unsupported"
        case .expired: "expired"
        case .keyNotFound: "keyNotFound"
        case .keyUsageLimitReached: "keyUsageLimitReached"
        case .randomGenerationFailed: "randomGenerationFailed"
        case .backendFailure: "backendFailure"
        }
    }
}

/// Helpers shared by the known-answer, error and tampering tests.
enum KAT {
    /// Expects `body` to throw the `CryptoError` case called `caseName` (any text); returns the error.
    @discardableResult
    static func expectError<R>(
        _ caseName: String,
        _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> R
    ) -> CryptoError? {
        let error = #expect(throws: CryptoError.self, comment, sourceLocation: sourceLocation) { _ = try body() }
        if let error, error.caseName != caseName {
            Issue.record(
                "expected CryptoError.\(caseName), got .\(error.caseName): \(error)\(comment.map { " (\($0))" } ?? "")",
                sourceLocation: sourceLocation
            )
        }
        return error
    }

    /// base64url without padding of the UTF-8 of `text` (JOSE's encoding of a header).
    static func base64url(_ text: String) -> String { Base64.encode(Array(text.utf8), alphabet: .url, padding: false) }

    /// base64url without padding of `bytes`.
    static func base64url(_ bytes: [UInt8]) -> String { Base64.encode(bytes, alphabet: .url, padding: false) }
}
