/// CryptoKit's error names, for code written against CryptoKit or swift-crypto. SecCrypto throws
/// `CryptoError`, which says more (what had the wrong size, and which sizes are right); each
/// `CryptoError` maps onto one of these, so catching by case compiles and matches as it does there:
///
/// ```swift
/// do {
///     let plaintext = try AES.GCM.open(box, using: key)
/// } catch CryptoKitError.authenticationFailure {
///     // a wrong key, or altered bytes
/// }
/// ```
///
/// A pattern (`catch CryptoKitError.incorrectKeySize`, `case CryptoKitError.authenticationFailure =
/// error`) matches a thrown `CryptoError` through `~=`; a cast (`error as? CryptoKitError`) does not:
/// use `(error as? CryptoError)?.cryptoKitError` for that.
public struct CryptoKitError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case incorrectKeySize
        case incorrectParameterSize
        case authenticationFailure
        case underlyingCoreCryptoError(Int32)
        case wrapFailure
        case unwrapFailure
        case invalidParameter
    }

    private let code: Code

    /// A key of the wrong size: `CryptoError.incorrectSize` of a key.
    public static let incorrectKeySize = CryptoKitError(code: .incorrectKeySize)
    /// A nonce, IV, tag, sealed box or input of the wrong size: `CryptoError.incorrectSize` of anything
    /// but a key.
    public static let incorrectParameterSize = CryptoKitError(code: .incorrectParameterSize)
    /// A tag or code that does not verify: `CryptoError.authenticationFailure`.
    public static let authenticationFailure = CryptoKitError(code: .authenticationFailure)
    /// Key wrapping failed. SecCrypto's `AES.KeyWrap.wrap` reports sizes as `incorrectSize`.
    public static let wrapFailure = CryptoKitError(code: .wrapFailure)
    /// Key unwrapping failed. SecCrypto's `AES.KeyWrap.unwrap` reports an unwrap that does not verify
    /// as `CryptoError.authenticationFailure`, which this pattern matches too.
    public static let unwrapFailure = CryptoKitError(code: .unwrapFailure)
    /// A parameter outside what is accepted: `CryptoError.invalidParameter` (PBKDF2 rounds, HKDF lengths).
    public static let invalidParameter = CryptoKitError(code: .invalidParameter)

    /// A failure of the library underneath, by its code. SecCrypto's are `CryptoError.backendFailure`,
    /// with OpenSSL's text: they map onto none of these.
    ///
    /// - Parameter error: The library's error code.
    /// - Returns: The error carrying `error`; it equals another only when their codes are equal.
    public static func underlyingCoreCryptoError(error: Int32) -> CryptoKitError {
        CryptoKitError(code: .underlyingCoreCryptoError(error))
    }

    /// The CryptoKit name of `error`; nil for the errors CryptoKit has no name for (`decryptionFailed`,
    /// encodings, formats, files, OpenSSL failures).
    ///
    /// A size error becomes ``incorrectKeySize`` when what it names is a key and
    /// ``incorrectParameterSize`` otherwise; ``CryptoError/authenticationFailure`` becomes
    /// ``authenticationFailure`` and ``CryptoError/invalidParameter(_:)`` ``invalidParameter``.
    ///
    /// - Parameter error: An error SecCrypto threw.
    public init?(_ error: CryptoError) {
        switch error {
        case .incorrectSize(let what, _, _):
            // Every size error SecCrypto throws for a key names it "… key" (`aes-256-gcm key`, `AES key`).
            code = what.hasSuffix("key") ? .incorrectKeySize : .incorrectParameterSize
        case .authenticationFailure: code = .authenticationFailure
        case .invalidParameter: code = .invalidParameter
        default: return nil
        }
    }

    private init(code: Code) { self.code = code }

    /// Matches `error` when it is this error, or a `CryptoError` that maps onto it: what makes
    /// `catch CryptoKitError.authenticationFailure` catch SecCrypto's errors.
    ///
    /// - Parameters:
    ///   - pattern: The CryptoKit error to match, as written in the `catch` or `case`.
    ///   - error: The error thrown.
    /// - Returns: `true` when `error` is a `CryptoKitError` equal to `pattern`, or a ``CryptoError``
    ///   that maps onto `pattern` (``CryptoError/authenticationFailure`` also matches
    ///   ``unwrapFailure``); `false` for any other error.
    public static func ~= (pattern: CryptoKitError, error: any Error) -> Bool {
        if let error = error as? CryptoKitError { return error == pattern }
        guard let error = error as? CryptoError else { return false }
        return CryptoKitError(error) == pattern || (pattern == .unwrapFailure && error == .authenticationFailure)
    }

    public var description: String {
        switch code {
        case .incorrectKeySize: "incorrect key size"
        case .incorrectParameterSize: "incorrect parameter size"
        case .authenticationFailure: "authentication failure"
        case .underlyingCoreCryptoError(let error): "underlying crypto library error \(error)"
        case .wrapFailure: "key wrap failure"
        case .unwrapFailure: "key unwrap failure"
        case .invalidParameter: "invalid parameter"
        }
    }
}

extension CryptoError {
    /// The CryptoKit name of this error, if it has one (`CryptoKitError.init(_:)`).
    public var cryptoKitError: CryptoKitError? { CryptoKitError(self) }
}
