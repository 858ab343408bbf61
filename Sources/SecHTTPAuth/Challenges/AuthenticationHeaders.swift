/// The header pair of one authentication exchange (RFC 9110 §11.6, §11.7): a server answers 401 with
/// `WWW-Authenticate` and reads `Authorization`; a proxy answers 407 with `Proxy-Authenticate` and
/// reads `Proxy-Authorization`.
public enum AuthenticationHeaders: Sendable, Hashable {
    case server
    case proxy

    /// The pair a response status asks for; nil for any status other than 401 and 407.
    ///
    /// - Parameter statusCode: the response's status code.
    public init?(statusCode: Int) {
        switch statusCode {
        case 401: self = .server
        case 407: self = .proxy
        default: return nil
        }
    }

    /// The response header that carries the challenges.
    public var challengeHeaderName: String {
        switch self {
        case .server: "WWW-Authenticate"
        case .proxy: "Proxy-Authenticate"
        }
    }

    /// The request header that carries the answer.
    public var authorizationHeaderName: String {
        switch self {
        case .server: "Authorization"
        case .proxy: "Proxy-Authorization"
        }
    }

    /// True for the proxy pair, as `ProtectionSpace.isProxy`.
    public var isProxy: Bool { self == .proxy }
}
