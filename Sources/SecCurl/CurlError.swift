/// Why an HTTP request over libcurl failed.
public enum CurlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// libcurl cannot be used: it is not installed, lacks a function or an option SecKit needs, or is
    /// not built with OpenSSL; or the request cannot be made (a URL that is not http or https).
    case unusable(String)
    /// The request's timeout passed before the answer's status line.
    case timeout
    /// No answer: the host is unknown, the connection was refused or reset, or the server's
    /// certificate did not verify. The string is libcurl's reason.
    case connection(String)

    public var description: String {
        switch self {
        case .unusable(let reason): "libcurl cannot be used: \(reason)"
        case .timeout: "the request timed out"
        case .connection(let reason): "no answer: \(reason)"
        }
    }
}
