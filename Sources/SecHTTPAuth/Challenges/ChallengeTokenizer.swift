/// Reads one header value as the comma list of challenges of RFC 9110 §11.2:
///
/// ```
/// challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
/// auth-param = token BWS "=" BWS ( token / quoted-string )
/// token68    = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
/// ```
///
/// with empty list elements allowed (§5.6.1). After a comma, `token =` continues the parameters of
/// the current challenge and a token without `=` starts the next challenge.
struct ChallengeTokenizer {
    private let bytes: [UInt8]
    private var index = 0

    init(_ value: String) throws(HTTPAuthError) {
        bytes = Array(value.utf8)
        guard bytes.count <= ChallengeLimits.headerValueBytes else {
            throw .malformedChallenge("header line longer than \(ChallengeLimits.headerValueBytes) bytes")
        }
    }

    mutating func challenges() throws(HTTPAuthError) -> [AuthenticationChallenge] {
        var challenges: [AuthenticationChallenge] = []
        while true {
            skipListSeparators()
            guard index < bytes.count else { return challenges }
            challenges.append(try challenge())
        }
    }

    private mutating func challenge() throws(HTTPAuthError) -> AuthenticationChallenge {
        guard let scheme = token() else { throw malformed("expected an authentication scheme") }
        let spaces = skipWhitespace()
        if atListElementEnd {
            return AuthenticationChallenge(scheme: scheme, token68: nil, parameters: [])
        }
        guard spaces > 0 else { throw malformed("expected a space after the scheme") }
        let start = index
        if let token68 = token68() {
            skipWhitespace()
            if atListElementEnd { return AuthenticationChallenge(scheme: scheme, token68: token68, parameters: []) }
            index = start
        }
        return AuthenticationChallenge(scheme: scheme, token68: nil, parameters: try parameters())
    }

    /// The parameters up to the end of the line or up to the next challenge (left unread).
    private mutating func parameters() throws(HTTPAuthError) -> [AuthenticationChallenge.Parameter] {
        var parameters: [AuthenticationChallenge.Parameter] = []
        repeat {
            guard let name = token()?.lowercased() else { throw malformed("expected a parameter name") }
            skipWhitespace()
            guard next(is: UInt8(ascii: "=")) else { throw malformed("expected '=' after a parameter name") }
            index += 1
            skipWhitespace()
            let value: String
            if next(is: UInt8(ascii: "\"")) {
                value = try quotedString()
            } else if let token = token() {
                value = token
            } else {
                throw malformed("expected a token or a quoted string as parameter value")
            }
            // RFC 9110 §11.2: a name occurs once per challenge; two values leave no right one.
            guard !parameters.contains(where: { $0.name == name }) else {
                throw malformed("parameter repeated in one challenge")
            }
            guard parameters.count < ChallengeLimits.parametersPerChallenge else {
                throw malformed("more than \(ChallengeLimits.parametersPerChallenge) parameters in one challenge")
            }
            parameters.append(.init(name: name, value: value))
            skipWhitespace()
            guard atListElementEnd else { throw malformed("expected ',' after a parameter") }
        } while nextListElementIsParameter()
        return parameters
    }

    /// Skips the separators after a parameter; true when a `name =` follows (false at the end of the
    /// line or before a new challenge, where the index is left on its scheme).
    private mutating func nextListElementIsParameter() -> Bool {
        skipListSeparators()
        let start = index
        defer { index = start }
        guard token() != nil else { return false }
        skipWhitespace()
        return next(is: UInt8(ascii: "="))
    }

    // MARK: - RFC 9110 §5.6 pieces

    private mutating func token() -> String? {
        let start = index
        while index < bytes.count, Self.isTokenCharacter(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    private mutating func token68() -> String? {
        let start = index
        while index < bytes.count, Self.isToken68Character(bytes[index]) { index += 1 }
        guard index > start else { return nil }
        while next(is: UInt8(ascii: "=")) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `DQUOTE *( qdtext / quoted-pair ) DQUOTE`, returned unescaped; the index is on the opening quote.
    private mutating func quotedString() throws(HTTPAuthError) -> String {
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: value, as: UTF8.self) else {
                    throw malformed("quoted string is not UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count,
                    Self.isQuotedTextCharacter(bytes[index]) || bytes[index] == 0x22
                        || bytes[index] == 0x5C
                else { throw malformed("invalid escape in a quoted string") }
                value.append(bytes[index])
                index += 1
            case _ where Self.isQuotedTextCharacter(byte):
                value.append(byte)
            default:
                index -= 1
                throw malformed("control character in a quoted string")
            }
        }
        throw malformed("unterminated quoted string")
    }

    // MARK: - Positions

    private var atListElementEnd: Bool { index == bytes.count || bytes[index] == UInt8(ascii: ",") }

    private func next(is byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    /// Skips OWS (spaces and tabs); returns how many.
    @discardableResult
    private mutating func skipWhitespace() -> Int {
        let start = index
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index - start
    }

    /// Skips commas and whitespace: the separators and empty elements of a list.
    private mutating func skipListSeparators() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x2C {
            index += 1
        }
    }

    /// The error for the current position: a byte offset, never the header's text.
    private func malformed(_ reason: String) -> HTTPAuthError {
        .malformedChallenge("\(reason) at byte \(index)")
    }

    // MARK: - Character classes

    private static let tokenSymbols = Array("!#$%&'*+-.^_`|~".utf8)
    private static let token68Symbols = Array("-._~+/".utf8)

    /// tchar: `!#$%&'*+-.^_`|~`, digits and letters.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || tokenSymbols.contains(byte)
    }

    private static func isToken68Character(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || token68Symbols.contains(byte)
    }

    /// qdtext: HTAB, SP, visible ASCII except `"` and `\`, and obs-text (bytes 0x80-0xFF).
    private static func isQuotedTextCharacter(_ byte: UInt8) -> Bool {
        byte == 0x09 || byte == 0x20 || byte == 0x21 || (0x23...0x5B).contains(byte) || (0x5D...0x7E).contains(byte)
            || byte >= 0x80
    }
}
