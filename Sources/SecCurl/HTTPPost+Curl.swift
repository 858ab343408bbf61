internal import CCurl

#if canImport(Glibc)
import Glibc
#endif

extension HTTPPost {
    /// Sends the request and returns the answer's status; the body of the answer is dropped.
    ///
    /// - Returns: the HTTP status code (100 to 599).
    /// - Throws: ``CurlError/unusable(_:)`` when libcurl cannot be loaded or lacks an option, or for
    ///   a URL that is not `http` or `https`; ``CurlError/timeout`` when ``timeout`` passes;
    ///   ``CurlError/connection(_:)`` for an unknown host, a refused or reset connection, a server
    ///   certificate that does not verify, or an answer that is not HTTP.
    public func send() throws(CurlError) -> Int {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else { throw .unusable("not an http or https URL") }
        let curl = try CurlEasy()
        let milliseconds = max(
            1,
            Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        )
        var list: UnsafeMutablePointer<curl_slist>?
        let nodes = headers.map { line in
            UnsafeMutablePointer<curl_slist>.allocate(capacity: 1).initialized(to: line)
        }
        defer {
            for node in nodes {
                free(node.pointee.data)
                node.deallocate()
            }
        }
        for node in nodes.reversed() {
            node.pointee.next = list
            list = node
        }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = curl.withFunctions { functions, easy in
            var settings: [CURLcode] = [
                seckit_curl_setopt_long(functions, easy, CURLOPT_NOSIGNAL, 1),
                seckit_curl_setopt_pointer(functions, easy, CURLOPT_ERRORBUFFER, errorBuffer),
                seckit_curl_setopt_pointer(functions, easy, CURLOPT_PROTOCOLS_STR, "https,http"),
                seckit_curl_setopt_pointer(functions, easy, CURLOPT_URL, url),
                seckit_curl_setopt_long(functions, easy, CURLOPT_TIMEOUT_MS, milliseconds),
                seckit_curl_setopt_long(functions, easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
                seckit_curl_setopt_pointer(functions, easy, CURLOPT_HTTPHEADER, list),
                seckit_curl_setopt_write_function(functions, easy, CURLOPT_WRITEFUNCTION, discardCallback),
                seckit_curl_setopt_long(functions, easy, CURLOPT_POST, 1),
                seckit_curl_setopt_offset(functions, easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
            ]
            if let caFile { settings.append(seckit_curl_setopt_pointer(functions, easy, CURLOPT_CAINFO, caFile)) }
            guard settings.allSatisfy({ $0 == CURLE_OK }) else { return CURLE_UNKNOWN_OPTION }
            // CURLOPT_POSTFIELDS is not copied: the body lives until perform returns.
            return body.withUnsafeBytes { bytes in
                guard
                    seckit_curl_setopt_pointer(
                        functions,
                        easy,
                        CURLOPT_POSTFIELDS,
                        bytes.baseAddress ?? UnsafeRawPointer(errorBuffer)
                    )
                        == CURLE_OK
                else { return CURLE_UNKNOWN_OPTION }
                return functions.pointee.easy_perform(easy)
            }
        }
        switch code {
        case CURLE_OK: break
        case CURLE_UNKNOWN_OPTION:
            throw .unusable("this libcurl lacks an option SecKit needs (7.85 or newer is needed)")
        case CURLE_OPERATION_TIMEDOUT: throw .timeout
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: throw .unusable(curl.message(code))
        default: throw .connection(errorBuffer[0] != 0 ? String(cString: errorBuffer) : curl.message(code))
        }
        var status = 0
        _ = curl.withFunctions { seckit_curl_getinfo_long($0, $1, CURLINFO_RESPONSE_CODE, &status) }
        guard (100...599).contains(status) else { throw .connection("no HTTP status") }
        return status
    }
}

extension UnsafeMutablePointer where Pointee == curl_slist {
    /// Initializes a list node holding a malloc'd copy of `line`.
    fileprivate func initialized(to line: String) -> Self {
        initialize(to: curl_slist(data: strdup(line), next: nil))
        return self
    }
}

/// curl's body callback for an answer nobody reads: takes every byte (the default would write it to
/// standard output).
private let discardCallback: curl_write_callback = { _, size, count, _ in size * count }
