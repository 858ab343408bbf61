import ArgumentParser

/// `HOST[:PORT]` of `seccli pin`: a name, an IPv4 address, or an IPv6 address in brackets when a
/// port follows (`[::1]:8443`; a bare `::1` takes the default port).
struct ServerAddress: Equatable {
    static let defaultPort = 443

    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `text`; anything malformed is a usage error.
    init(parsing text: String) throws {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                throw ValidationError("HOST: '[' without ']' in \(text)")
            }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw ValidationError("HOST: expected ':PORT' after ']' in \(text)") }
                portText = rest.dropFirst()
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" || $0 == "[" || $0 == "]" }) else {
            throw ValidationError("HOST: not a host name or address: \(text)")
        }
        var port = Self.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw ValidationError("HOST: the port must be a number from 1 to 65535, got '\(portText)'")
            }
            port = value
        }
        self.init(host: String(host), port: port)
    }
}
