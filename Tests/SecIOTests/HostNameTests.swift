import Foundation
import SecIO
import Testing

/// `HostName.canonical` against the system resolver: every numeric form getaddrinfo accepts as an
/// address canonicalises to the address it connects to, and names stay names.
@Suite struct HostNameTests {
    /// The address getaddrinfo makes of `host` as a number (AI_NUMERICHOST), as getnameinfo prints
    /// it; nil when the resolver does not take it as an address.
    static func resolverAddress(_ host: String) -> String? {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let info = result else { return nil }
        defer { freeaddrinfo(result) }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(info.pointee.ai_addr, info.pointee.ai_addrlen, &buffer, 1025, nil, 0, NI_NUMERICHOST) == 0
        else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test(arguments: [
        "::1", "0::1", "0:0:0:0:0:0:0:1", "0000:0000::0001", "::FFFF:127.0.0.1", "2001:DB8:0:0:1:0:0:1",
        "2001:db8::1:0:0:1", "fe80:0::1", "127.0.0.1", "127.1", "127.0.1", "0x7f.0.0.1", "0177.0.0.1",
        "2130706433", "0x7F000001", "10.0.0.01",
    ])
    func everyNumericFormIsTheAddressTheResolverReaches(host: String) throws {
        let address = try #require(Self.resolverAddress(host), "the resolver takes \(host) as an address")
        #expect(HostName.canonical(host) == address)
        #expect(HostName.canonical("[\(host)]") == address || !host.contains(":"))
    }

    @Test(arguments: [
        ("API.Example.COM.", "api.example.com"), ("localhost", "localhost"), ("LOCALHOST.", "localhost"),
        ("[::1]", "::1"), ("[0:0:0:0:0:0:0:1]", "::1"), ("127.0.0.1.", "127.0.0.1"), ("cafe", "cafe"),
        ("deadbeef", "deadbeef"), ("0x7f.example", "0x7f.example"), ("127.0.0.1 x", "127.0.0.1 x"),
        ("1.2.3.4.5", "1.2.3.4.5"), ("fe80::1%lo", "fe80::1%lo"),
    ])
    func namesStayNames(host: String, canonical: String) {
        #expect(HostName.canonical(host) == canonical)
    }

    @Test(arguments: ["cafe", "deadbeef", "0x7f.example", "127.0.0.1 x", "1.2.3.4.5", "256.0.0.1", "localhost"])
    func whatTheResolverTakesForANameIsNoAddressHere(host: String) {
        #expect(Self.resolverAddress(host) == nil)
        #expect(HostName.canonical(host) == host.lowercased())
    }
}
