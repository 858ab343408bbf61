import SecCrypto

/// Where a `PinPolicy` sends its RFC 7469 pin-failure reports (the `report-uri` directive of
/// section 2.1.4), and how.
///
/// The report is POSTed with curl's own TLS verification of the collector (the system's CA bundle,
/// or `caFile`), off the handshake path, at most once per host, port, pin set and failure every 10
/// minutes, within `timeout`. It never delays or changes the connection's outcome.
///
/// ```swift
/// let policy = PinPolicy(
///     [try PinSet(host: "api.example.com", pins: pins, expires: expiry)],
///     reportURI: try PinReportURI("https://collector.example.com/hpkp")
/// )
/// ```
public struct PinReportURI: Hashable, Sendable, CustomStringConvertible {
    /// The collector's `http` or `https` URL.
    public let url: String
    /// A PEM file of the CA certificates the collector's chain must lead to; nil for the system's
    /// CA bundle (curl's default).
    public let caFile: String?
    /// The longest one report's POST may take, connection included.
    public let timeout: Duration

    /// A collector at `url`.
    ///
    /// - Parameters:
    ///   - url: an `http` or `https` URL without white space or control characters.
    ///   - caFile: the CA certificates of an `https` collector; nil (the default) for the system's.
    ///   - timeout: the longest one POST may take (5 seconds by default, at least 1 millisecond).
    /// - Throws: ``TLSError/invalidConfiguration(_:)`` for a URL that is not `http://` or
    ///   `https://` with a host, or that holds white space or a control character, or a timeout
    ///   under 1 millisecond.
    public init(_ url: String, caFile: String? = nil, timeout: Duration = .seconds(5)) throws(TLSError) {
        guard HostPattern.positionOfControlOrSpace(in: url) == nil else {
            throw .invalidConfiguration("the report URI has a control character or white space")
        }
        let lowered = url.lowercased()
        let rest: Substring
        if lowered.hasPrefix("https://") {
            rest = url.dropFirst(8)
        } else if lowered.hasPrefix("http://") {
            rest = url.dropFirst(7)
        } else {
            throw .invalidConfiguration("the report URI must be an http:// or https:// URL")
        }
        guard let first = rest.first, first != "/", first != "?", first != "#" else {
            throw .invalidConfiguration("the report URI has no host")
        }
        guard timeout >= .milliseconds(1) else {
            throw .invalidConfiguration("the report timeout must be at least 1 millisecond")
        }
        self.url = url
        self.caFile = caFile
        self.timeout = timeout
    }

    public var description: String { url }
}
