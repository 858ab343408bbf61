// Only the C library's address parsers. Foundation here would link swift-corelibs Foundation and ICU
// into seccli, and its start-up (issue #32) would pay their relocations on every run.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one rule by which SecKit compares host names: pin sets, allow-lists and protection spaces
/// all look a host up by `HostName.canonical(_:)`, so that one host written two ways can never
/// select two different policies (or none).
///
/// ```swift
/// HostName.canonical("API.Example.COM.")          // "api.example.com"
/// HostName.canonical("[0:0:0:0:0:0:0:1]")         // "::1"
/// HostName.canonical("127.1")                     // "127.0.0.1"
/// ```
public enum HostName {
    /// `host` in canonical form:
    ///
    /// - lower-case, without one trailing dot, without the brackets of a URL's IPv6 literal;
    /// - an IPv6 address in RFC 5952 form (`0::1` and `0:0:0:0:0:0:0:1` are `::1`);
    /// - an IPv4 address in dotted-quad form, including the shorter and hexadecimal or octal forms
    ///   the system resolver accepts as numbers (`127.1`, `0x7f.0.0.1`, `2130706433` are
    ///   `127.0.0.1`): the address a connection reaches, whatever the caller wrote.
    ///
    /// - Parameter host: a host name or IP address as a URL or a caller gives it.
    /// - Returns: the canonical form; a name that is no IP address keeps its labels as written.
    public static func canonical(_ host: some StringProtocol) -> String {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name.hasSuffix(".") { name.removeLast() }
        return canonicalAddress(name) ?? name
    }

    /// The canonical text of `text` when it is an IP address, nil otherwise.
    private static func canonicalAddress(_ text: String) -> String? {
        if text.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
            return numericText(family: AF_INET6, &address, length: Int(INET6_ADDRSTRLEN))
        }
        // inet_aton parses the numeric forms getaddrinfo accepts, but also stops quietly at white
        // space; the resolver takes only the whole string, so anything else is a name.
        guard !text.isEmpty, text.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == "x" }) else { return nil }
        var address = in_addr()
        guard inet_aton(text, &address) == 1 else { return nil }
        return numericText(family: AF_INET, &address, length: Int(INET_ADDRSTRLEN))
    }

    private static func numericText<Address>(family: Int32, _ address: inout Address, length: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: length)
        let converted = withUnsafeBytes(of: &address) { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(length)) }
        guard converted != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
