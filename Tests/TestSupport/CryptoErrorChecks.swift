import SecCrypto
import Testing

extension CryptoError {
    public var isInvalidParameter: Bool { if case .invalidParameter = self { true } else { false } }
    public var isMalformedInput: Bool { if case .malformedInput = self { true } else { false } }
}

/// Expects `body` to throw `CryptoError.incorrectSize` reporting `actual` bytes, with an expected size
/// that mentions `expected` (for example "16 bytes").
public func expectIncorrectSize<R>(
    actual: Int,
    expected: String,
    _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> R
) {
    let error = #expect(throws: CryptoError.self, comment, sourceLocation: sourceLocation) { _ = try body() }
    guard let error else { return }
    guard case .incorrectSize(_, let expectedSize, let actualSize) = error else {
        Issue.record("expected CryptoError.incorrectSize, got \(error)", sourceLocation: sourceLocation)
        return
    }
    #expect(actualSize == actual, comment, sourceLocation: sourceLocation)
    #expect(expectedSize.contains(expected), "\(error)", sourceLocation: sourceLocation)
}
