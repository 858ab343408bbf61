/// One challenge of a `WWW-Authenticate` or `Proxy-Authenticate` header (RFC 9110 §11.2): a scheme
/// with either a token68 or a list of parameters.
///
/// ```swift
/// let challenges = try AuthenticationChallenge.parse(headerValues: response.headers["WWW-Authenticate"])
/// if let chosen = SupportedChallenge.strongest(in: challenges) { ... }
/// ```
public struct AuthenticationChallenge: Hashable, Sendable {
    /// One `name=value` parameter; the name is lower-cased (names are case-insensitive), the value is
    /// unquoted and unescaped.
    public struct Parameter: Hashable, Sendable {
        public let name: String
        public let value: String
    }

    /// The scheme as the server spelled it (`Digest`, `basic`, ...); compare with `hasScheme(_:)`.
    public let scheme: String
    /// The token68 form (`Negotiate YII...`), nil when the challenge has parameters or nothing.
    public let token68: String?
    /// The parameters in the server's order; each name occurs once.
    public let parameters: [Parameter]

    /// The value of the parameter `name`, compared case-insensitively.
    ///
    /// - Parameter name: the parameter's name, in any case.
    /// - Returns: its unquoted value, or nil when the challenge has no such parameter.
    public subscript(parameter name: String) -> String? {
        let name = name.lowercased()
        return parameters.first { $0.name == name }?.value
    }

    /// The `realm` parameter.
    public var realm: String? { self[parameter: "realm"] }

    /// True when the scheme is `name`, compared case-insensitively as RFC 9110 §11.1 requires.
    ///
    /// - Parameter name: a scheme name, such as `Digest`.
    /// - Returns: true when the challenge's scheme is `name`, ignoring case.
    public func hasScheme(_ name: String) -> Bool { scheme.lowercased() == name.lowercased() }

    /// Every challenge of the header lines (one header may hold several, and a response may repeat the
    /// header), in order. Unknown schemes are kept: choosing among them is `SupportedChallenge`'s job.
    /// Throws `HTTPAuthError.malformedChallenge` for anything that is not RFC 9110 syntax.
    ///
    /// - Parameter headerValues: the values of every `WWW-Authenticate` (or `Proxy-Authenticate`)
    ///   header line of one response.
    /// - Returns: the challenges in the order of the lines and within each line; empty when there are
    ///   no lines.
    /// - Throws: ``HTTPAuthError/malformedChallenge(_:)`` for a line that is not RFC 9110 challenge
    ///   syntax (a missing scheme, a parameter without `=`, a repeated parameter, an unterminated or
    ///   non-UTF-8 quoted string, a control character), or past a limit: more than 32 lines, a line
    ///   over 16 KiB, more than 64 challenges, or more than 32 parameters in one.
    public static func parse(headerValues: [String]) throws(HTTPAuthError) -> [AuthenticationChallenge] {
        guard headerValues.count <= ChallengeLimits.headerValues else {
            throw .malformedChallenge("more than \(ChallengeLimits.headerValues) header lines")
        }
        var challenges: [AuthenticationChallenge] = []
        for value in headerValues {
            // A challenge never spans two header lines, so each is a list of its own.
            var tokenizer = try ChallengeTokenizer(value)
            try challenges += tokenizer.challenges()
            guard challenges.count <= ChallengeLimits.challenges else {
                throw .malformedChallenge("more than \(ChallengeLimits.challenges) challenges")
            }
        }
        return challenges
    }

    init(scheme: String, token68: String?, parameters: [Parameter]) {
        self.scheme = scheme
        self.token68 = token68
        self.parameters = parameters
    }
}

/// The sizes past which a challenge header is refused: far above what servers send, low enough
/// that a hostile header costs little.
enum ChallengeLimits {
    static let headerValues = 32
    static let headerValueBytes = 16 * 1024
    static let challenges = 64
    static let parametersPerChallenge = 32
}
