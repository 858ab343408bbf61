/// One HTTP POST over libcurl, with curl's own TLS verification of the server (the system's CA
/// bundle, or `caFile`) and a short timeout: for small reports sent where SwiftNIO is not linked
/// (SecTLS's RFC 7469 pin-failure reports, seccli).
///
/// libcurl is loaded with dlopen by the first `send()`, never at start-up. Redirects are not
/// followed, only `http` and `https` URLs are requested, and the answer's body is read and dropped.
///
/// ```swift
/// let post = HTTPPost(
///     url: "https://collector.example.com/hpkp",
///     body: Array(#"{"hostname":"api.example.com"}"#.utf8),
///     headers: ["Content-Type: application/json"]
/// )
/// let status = try post.send()       // 204
/// ```
public struct HTTPPost: Sendable, Hashable {
    /// Where to post: an `http` or `https` URL.
    public var url: String
    /// The request body, sent as it is.
    public var body: [UInt8]
    /// Header lines, `Name: value` each.
    public var headers: [String]
    /// The longest the whole request may take, connection and TLS handshake included.
    public var timeout: Duration
    /// A PEM file of the CA certificates an `https` server must lead to; nil for curl's default
    /// (the system's CA bundle).
    public var caFile: String?

    /// A POST of `body` to `url`.
    ///
    /// - Parameters:
    ///   - url: an `http` or `https` URL.
    ///   - body: the request body.
    ///   - headers: header lines, `Name: value` each.
    ///   - timeout: the longest the request may take (5 seconds by default).
    ///   - caFile: the CA certificates for an `https` server; nil (the default) for the system's.
    public init(
        url: String,
        body: [UInt8],
        headers: [String] = [],
        timeout: Duration = .seconds(5),
        caFile: String? = nil
    ) {
        self.url = url
        self.body = body
        self.headers = headers
        self.timeout = timeout
        self.caFile = caFile
    }
}
