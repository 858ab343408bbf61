internal import CCurl
import SecCrypto
import SecCurl
import SecIO
import SecKeychain
import SecTLS
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `VaultTransport` over libcurl (Debian's, OpenSSL inside), loaded at the first request: seccli's
/// transport, which keeps seccli free of NIO. Connections are kept alive between requests (one
/// libcurl handle per concurrent request, reused). TLS is SecTLS's: on each new connection the
/// `SSL_CTX` curl made gets SecTLS's chain verification (trust roots, host name, pins) and the
/// client identity, so a refused server or pin fails the handshake before curl sends a byte of the
/// request; curl's own verification is off, and TLS sessions are not resumed (each connection's
/// chain is verified). The token travels in a header line held in wiped-on-release memory (curl
/// still copies it into its send buffer).
///
/// ```swift
/// let transport = try CurlTransport(tls: configuration.tls)
/// let store = VaultStore(configuration: configuration, transport: transport)
/// ```
public final class CurlTransport: VaultTransport {
    private let tls: TLSClientConfiguration
    private let idle = Mutex<[CurlHandle]>([])
    /// The most bytes of an answer's body (a secret of 1 MiB as base64 in JSON fits).
    static let maximumBodyBytes = 4 << 20
    /// The most bytes of an answer's header lines together.
    static let maximumHeaderBytes = 64 << 10

    /// A transport with `tls`'s trust roots, pins and client identity. libcurl is loaded later, by
    /// the first request.
    ///
    /// - Parameter tls: the trust roots (read here), pins, client identity and TLS server name;
    ///   curl's own verification is not used.
    /// - Throws: `TLSError.invalidConfiguration` for an unreadable CA file or pin-only trust without
    ///   pins.
    public init(tls: TLSClientConfiguration) throws(TLSError) {
        _ = try ForeignTLSContext(configuration: tls)
        self.tls = tls
    }

    public func send(
        _ request: VaultRequest,
        deadline: ContinuousClock.Instant
    ) throws(VaultTransportError)
        -> VaultResponse
    {
        let handle: CurlHandle
        if let reused = idle.withLock({ $0.popLast() }) {
            handle = reused
        } else {
            handle = try CurlHandle(tls: tls)
        }
        let response = try handle.perform(request, deadline: deadline, serverName: tls.serverName)
        idle.withLock { $0.append(handle) }
        return response
    }
}

/// One libcurl easy handle with its kept-alive connection, its TLS policy and its buffers. Used by
/// one request at a time.
private final class CurlHandle: @unchecked Sendable {
    private let curl: CurlEasy
    private let verification: ForeignTLSContext
    private let sink = CurlResponseSink()
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(tls: TLSClientConfiguration) throws(VaultTransportError) {
        do {
            verification = try ForeignTLSContext(configuration: tls)
        } catch {
            throw .unusable("\(error)")
        }
        do {
            curl = try CurlEasy()
        } catch {
            // CurlEasy throws only `unusable`: libcurl missing, without OpenSSL, or out of handles.
            if case .unusable(let reason) = error { throw .unusable(reason) }
            throw .unusable("\(error)")
        }
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let ok = curl.withFunctions { functions, easy in
            let settings: [CURLcode] = [
                seckit_curl_setopt_long(functions, easy, CURLOPT_NOSIGNAL, 1),
                seckit_curl_setopt_pointer(functions, easy, CURLOPT_ERRORBUFFER, errorBuffer),
                seckit_curl_setopt_pointer(functions, easy, CURLOPT_PROTOCOLS_STR, "https,http"),
                // SecTLS verifies in the SSL_CTX callback; curl's checks would use its own roots.
                seckit_curl_setopt_long(functions, easy, CURLOPT_SSL_VERIFYPEER, 0),
                seckit_curl_setopt_long(functions, easy, CURLOPT_SSL_VERIFYHOST, 0),
                seckit_curl_setopt_long(functions, easy, CURLOPT_SSL_SESSIONID_CACHE, 0),
                seckit_curl_setopt_long(functions, easy, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)),
                seckit_curl_setopt_ssl_ctx_function(functions, easy, sslContextCallback),
                seckit_curl_setopt_pointer(
                    functions,
                    easy,
                    CURLOPT_SSL_CTX_DATA,
                    Unmanaged.passUnretained(verification).toOpaque()
                ),
                seckit_curl_setopt_write_function(functions, easy, CURLOPT_WRITEFUNCTION, bodyCallback),
                seckit_curl_setopt_pointer(
                    functions,
                    easy,
                    CURLOPT_WRITEDATA,
                    Unmanaged.passUnretained(sink).toOpaque()
                ),
                seckit_curl_setopt_write_function(functions, easy, CURLOPT_HEADERFUNCTION, headerCallback),
                seckit_curl_setopt_pointer(
                    functions,
                    easy,
                    CURLOPT_HEADERDATA,
                    Unmanaged.passUnretained(sink).toOpaque()
                ),
            ]
            return settings.allSatisfy { $0 == CURLE_OK }
        }
        guard ok else {
            throw .unusable("this libcurl lacks an option SecKit needs (7.85 or newer is needed)")
        }
    }

    deinit {
        errorBuffer.deallocate()
    }

    func perform(
        _ request: VaultRequest,
        deadline: ContinuousClock.Instant,
        serverName: String?
    )
        throws(VaultTransportError) -> VaultResponse
    {
        let remaining = deadline - .now
        guard remaining > .zero else { throw .timeout }
        let milliseconds = max(
            1,
            Int(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
        )
        guard var url = URLComponents(string: request.url), let host = url.host else {
            throw .invalidResponse("a URL that cannot be requested")
        }
        // A TLS server name: the URL names it (SNI, Host), and curl connects to the real host.
        var connectTo: String?
        if let serverName, serverName != host, let port = url.port {
            connectTo = "\(serverName):\(port):\(host):\(port)"
            url.host = serverName
        }
        verification.prepare(host: url.host ?? host)
        sink.reset()
        errorBuffer[0] = 0

        var headers = CurlHeaderList()
        defer { headers.free() }
        if let token = request.token { headers.append(secret: token, named: "X-Vault-Token") }
        if let namespace = request.namespace { headers.append("X-Vault-Namespace: \(namespace)") }
        if request.body != nil { headers.append("Content-Type: application/json") }
        headers.append("Expect:")
        var connectList = CurlHeaderList()
        defer { connectList.free() }
        if let connectTo { connectList.append(connectTo) }

        let code: CURLcode = curl.withFunctions { functions, easy in
            var settings: [CURLcode] = [
                url.string.map { seckit_curl_setopt_pointer(functions, easy, CURLOPT_URL, $0) } ?? CURLE_URL_MALFORMAT,
                seckit_curl_setopt_long(functions, easy, CURLOPT_TIMEOUT_MS, milliseconds),
                seckit_curl_setopt_long(functions, easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds),
                seckit_curl_setopt_pointer(functions, easy, CURLOPT_HTTPHEADER, headers.head),
                seckit_curl_setopt_pointer(functions, easy, CURLOPT_CONNECT_TO, connectList.head),
            ]
            switch request.method {
            case "GET":
                settings.append(seckit_curl_setopt_long(functions, easy, CURLOPT_HTTPGET, 1))
                settings.append(seckit_curl_setopt_pointer(functions, easy, CURLOPT_CUSTOMREQUEST, nil))
            case "POST":
                settings.append(seckit_curl_setopt_long(functions, easy, CURLOPT_POST, 1))
                settings.append(seckit_curl_setopt_pointer(functions, easy, CURLOPT_CUSTOMREQUEST, nil))
            default:
                settings.append(seckit_curl_setopt_long(functions, easy, CURLOPT_HTTPGET, 1))
                settings.append(seckit_curl_setopt_pointer(functions, easy, CURLOPT_CUSTOMREQUEST, request.method))
            }
            guard settings.allSatisfy({ $0 == CURLE_OK }) else { return CURLE_BAD_FUNCTION_ARGUMENT }
            let body = request.body ?? SecureBytes([UInt8]())
            return body.withUnsafeBytes { bytes in
                guard request.body != nil || request.method == "POST" else {
                    return functions.pointee.easy_perform(easy)
                }
                // The body is not copied by curl (CURLOPT_POSTFIELDS): it lives until perform returns.
                guard
                    seckit_curl_setopt_offset(functions, easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                        == CURLE_OK,
                    seckit_curl_setopt_pointer(
                        functions,
                        easy,
                        CURLOPT_POSTFIELDS,
                        bytes.baseAddress ?? UnsafeRawPointer(errorBuffer)
                    ) == CURLE_OK
                else { return CURLE_BAD_FUNCTION_ARGUMENT }
                defer { _ = seckit_curl_setopt_pointer(functions, easy, CURLOPT_POSTFIELDS, nil) }
                return functions.pointee.easy_perform(easy)
            }
        }
        guard code == CURLE_OK else { throw failure(code) }
        var status = 0
        _ = curl.withFunctions { seckit_curl_getinfo_long($0, $1, CURLINFO_RESPONSE_CODE, &status) }
        guard (100...599).contains(status) else { throw .invalidResponse("no HTTP status") }
        return VaultResponse(status: status, location: sink.location, body: sink.takeBody())
    }

    /// What a failed `curl_easy_perform` means for the core.
    private func failure(_ code: CURLcode) -> VaultTransportError {
        if let refusal = verification.takeFailure() {
            switch refusal {
            case .pinMismatch, .noBackupPin: return .untrustedServer(.pinMismatch, "\(refusal)")
            case .clientCertificateRequired, .clientCertificateRejected, .clientNotAllowed:
                return .untrustedServer(.clientCertificateRefused, "\(refusal)")
            default: return .untrustedServer(.certificateVerificationFailed, "\(refusal)")
            }
        }
        if let overflow = sink.overflow { return .invalidResponse(overflow) }
        let message =
            errorBuffer[0] != 0
            ? String(cString: errorBuffer)
            : curl.message(code)
        let text = UntrustedText.escaped(message)
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            let lowered = message.lowercased()
            if lowered.contains("alert"),
                lowered.contains("certificate required") || lowered.contains("bad certificate")
                    || lowered.contains("unknown ca") || lowered.contains("certificate unknown")
            {
                return .untrustedServer(
                    .clientCertificateRefused,
                    "the server refused the client certificate (\(text))"
                )
            }
            return .connection(text)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_GOT_NOTHING:
            return .connection(text)
        case CURLE_PEER_FAILED_VERIFICATION: return .untrustedServer(.certificateVerificationFailed, text)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_BAD_CONTENT_ENCODING,
            CURLE_FILESIZE_EXCEEDED, CURLE_WRITE_ERROR, CURLE_TOO_MANY_REDIRECTS:
            return .invalidResponse(text)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT:
            return .unusable(text)
        default: return .connection(text)
        }
    }
}

/// Collects an answer's body (in wiped memory) and its `Location`, within the size limits.
private final class CurlResponseSink {
    private var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
    private var count = 0
    private var headerBytes = 0
    private(set) var location: String?
    /// Why the answer was cut off (too large), when it was.
    private(set) var overflow: String?

    deinit {
        secureZero(buffer)
        buffer.deallocate()
    }

    func reset() {
        secureZero(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
        (count, headerBytes, location, overflow) = (0, 0, nil, nil)
    }

    /// Appends body bytes; false when the body grows past the limit.
    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard count + bytes.count <= CurlTransport.maximumBodyBytes else {
            overflow = "a body over \(CurlTransport.maximumBodyBytes) bytes"
            return false
        }
        if count + bytes.count > buffer.count {
            // Grow into new memory and wipe the old: a body may be a secret.
            let grown = UnsafeMutableRawBufferPointer.allocate(
                byteCount: max(buffer.count * 2, count + bytes.count),
                alignment: 16
            )
            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            secureZero(buffer)
            buffer.deallocate()
            buffer = grown
        }
        UnsafeMutableRawBufferPointer(rebasing: buffer[count..<(count + bytes.count)]).copyMemory(from: bytes)
        count += bytes.count
        return true
    }

    /// Reads one header line; false when the headers grow past the limit.
    func appendHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        headerBytes += line.count
        guard headerBytes <= CurlTransport.maximumHeaderBytes else {
            overflow = "header lines over \(CurlTransport.maximumHeaderBytes) bytes"
            return false
        }
        // A new status line (after a 100 Continue) starts the headers of another answer.
        if line.starts(with: Array("HTTP/".utf8)) { location = nil }
        let prefix = Array("location:".utf8)
        if line.count > prefix.count,
            zip(line.prefix(prefix.count), prefix).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
        {
            let value = line.dropFirst(prefix.count).drop { $0 == 0x20 || $0 == 0x09 }
            location = String(decoding: value.prefix { $0 != 0x0d && $0 != 0x0a }, as: UTF8.self)
        }
        return true
    }

    /// The body, moved into `SecureBytes`; the buffer is wiped.
    func takeBody() -> SecureBytes {
        let body = SecureBytes(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        reset()
        return body
    }
}

/// A `curl_slist` of header lines in memory SecKit owns (curl reads it, never frees it), so a line
/// with a token can be wiped.
private struct CurlHeaderList {
    private var nodes: [UnsafeMutablePointer<curl_slist>] = []
    private var lines: [UnsafeMutableRawBufferPointer] = []

    var head: UnsafeMutablePointer<curl_slist>? { nodes.first }

    mutating func append(_ line: String) {
        append(bytes: Array(line.utf8))
    }

    /// `name: <secret>`.
    mutating func append(secret: SecureBytes, named name: String) {
        secret.withUnsafeBytes { value in
            let prefix = Array("\(name): ".utf8)
            let storage = UnsafeMutableRawBufferPointer.allocate(
                byteCount: prefix.count + value.count + 1,
                alignment: 1
            )
            storage.copyBytes(from: prefix)
            UnsafeMutableRawBufferPointer(rebasing: storage[prefix.count..<(prefix.count + value.count)])
                .copyMemory(from: value)
            storage[prefix.count + value.count] = 0
            link(storage)
        }
    }

    private mutating func append(bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count + 1, alignment: 1)
        storage.copyBytes(from: bytes)
        storage[bytes.count] = 0
        link(storage)
    }

    private mutating func link(_ storage: UnsafeMutableRawBufferPointer) {
        let node = UnsafeMutablePointer<curl_slist>.allocate(capacity: 1)
        node.initialize(to: curl_slist(data: storage.baseAddress?.assumingMemoryBound(to: CChar.self), next: nil))
        nodes.last?.pointee.next = node
        nodes.append(node)
        lines.append(storage)
    }

    /// Wipes the lines and frees the list.
    mutating func free() {
        for line in lines {
            secureZero(line)
            line.deallocate()
        }
        for node in nodes { node.deallocate() }
        (nodes, lines) = ([], [])
    }
}

/// curl's body callback: appends to the handle's sink, or stops the transfer at the limit.
private let bodyCallback: curl_write_callback = { data, size, count, sink in
    guard let sink else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    return Unmanaged<CurlResponseSink>.fromOpaque(sink).takeUnretainedValue().appendBody(bytes) ? size * count : 0
}

/// curl's header callback: one line at a time.
private let headerCallback: curl_write_callback = { data, size, count, sink in
    guard let sink else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    return Unmanaged<CurlResponseSink>.fromOpaque(sink).takeUnretainedValue().appendHeader(bytes) ? size * count : 0
}

/// curl's SSL_CTX callback: SecTLS's verification and client identity on the new connection's context.
private let sslContextCallback: curl_ssl_ctx_callback = { _, context, verification in
    guard let context, let verification else { return CURLE_SSL_CERTPROBLEM }
    let foreign = Unmanaged<ForeignTLSContext>.fromOpaque(verification).takeUnretainedValue()
    return foreign.install(on: context) == nil ? CURLE_OK : CURLE_SSL_CERTPROBLEM
}
