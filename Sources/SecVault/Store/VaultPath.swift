import SecCrypto
import SecKeychain

/// Where an item lives in the KV engine: one path per identity, readable by `bao kv get`.
///
/// ```
/// <prefix>/[groups/<group>/]generic/<service>/<account>
/// <prefix>/[groups/<group>/]internet/<server>/<account>/<qualifier>
/// ```
///
/// The qualifier of an internet password is `-` when it has no protocol, port, path,
/// authentication type or realm, else those that are set as `name=value` joined by `,`, in this
/// order: `protocol`, `port`, `path`, `authtype`, `realm` (`protocol=https,port=8443`). Each
/// segment keeps letters, digits and `-_.~@+:` and writes every other byte as `%XX` (so a `/` in a
/// name never makes a folder); an empty segment is `-`, and a segment that is exactly `-`, `.` or
/// `..` has its characters escaped. The mapping is one to one: the path alone names the item.
enum VaultPath {
    /// The KV path of `identity` under `prefix` (no leading or trailing `/`).
    static func of(_ identity: CredentialIdentity, prefix: String) -> String {
        var segments = [String]()
        if let group = identity.accessGroup { segments += ["groups", segment(group)] }
        switch identity.kind {
        case .genericPassword(let service):
            segments += ["generic", segment(service), segment(identity.account)]
        case .internetPassword(let location):
            segments += ["internet", segment(location.server), segment(identity.account), qualifier(location)]
        }
        return join(prefix, segments.joined(separator: "/"))
    }

    /// The folder that holds every item `query` can match (a group's, a service's), so a listing
    /// walks no more than it must.
    static func folder(for query: CredentialQuery, prefix: String) -> String {
        guard let group = query.accessGroup else { return prefix }
        var segments = ["groups", segment(group)]
        switch query.itemClass {
        case .genericPassword:
            segments.append("generic")
            if let service = query.service { segments.append(segment(service)) }
        case .internetPassword:
            segments.append("internet")
            if let server = query.server { segments.append(segment(server)) }
        case nil: break
        }
        return join(prefix, segments.joined(separator: "/"))
    }

    /// The identity a KV path under `prefix` names; nil when the path is not of this layout.
    static func identity(of path: String, prefix: String) -> CredentialIdentity? {
        var rest = Substring(path)
        if !prefix.isEmpty {
            guard rest.hasPrefix(prefix + "/") else { return nil }
            rest = rest.dropFirst(prefix.count + 1)
        }
        var segments = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var group: String?
        if segments.first == "groups" {
            guard segments.count > 2, let name = decode(segments[1]) else { return nil }
            group = name
            segments.removeFirst(2)
        }
        switch segments.first {
        case "generic":
            guard segments.count == 3, let service = decode(segments[1]), let account = decode(segments[2]) else {
                return nil
            }
            return .genericPassword(service: service, account: account, accessGroup: group)
        case "internet":
            guard segments.count == 4, let server = decode(segments[1]), let account = decode(segments[2]),
                var location = location(segments[3])
            else { return nil }
            location.server = server
            return CredentialIdentity(kind: .internetPassword(location), account: account, accessGroup: group)
        default:
            return nil
        }
    }

    private static func qualifier(_ location: InternetLocation) -> String {
        let parts: [(String, String?)] = [
            ("protocol", location.protocol), ("port", location.port.map(String.init)), ("path", location.path),
            ("authtype", location.authenticationType), ("realm", location.realm),
        ]
        let set = parts.compactMap { name, value in value.map { "\(name)=\(segment($0, escapingEmpty: false))" } }
        return set.isEmpty ? "-" : set.joined(separator: ",")
    }

    private static func location(_ qualifier: String) -> InternetLocation? {
        var location = InternetLocation(server: "")
        guard qualifier != "-" else { return location }
        var seen = Set<String>()
        for part in qualifier.split(separator: ",", omittingEmptySubsequences: false) {
            guard let equals = part.firstIndex(of: "=") else { return nil }
            let name = String(part[..<equals])
            guard seen.insert(name).inserted, let value = decode(String(part[part.index(after: equals)...]), empty: "")
            else { return nil }
            switch name {
            case "protocol": location.protocol = value
            case "port":
                guard let port = Int(value), (1...65535).contains(port), String(port) == value else { return nil }
                location.port = port
            case "path": location.path = value
            case "authtype": location.authenticationType = value
            case "realm": location.realm = value
            default: return nil
            }
        }
        // Only the canonical spelling is a path of the layout (one path per identity).
        return qualifier == self.qualifier(location) ? location : nil
    }

    /// `text` as one path segment.
    static func segment(_ text: String, escapingEmpty: Bool = true) -> String {
        if text.isEmpty { return escapingEmpty ? "-" : "" }
        if escapingEmpty, text == "-" || text == "." || text == ".." {
            return text.utf8.map { percent($0) }.joined()
        }
        // Most names need no escape: the text itself, not a copy built byte by byte.
        if text.utf8.allSatisfy(isKept) { return text }
        var result = ""
        for byte in text.utf8 {
            if isKept(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += percent(byte)
            }
        }
        return result
    }

    /// The text of a segment; nil when it is not one `segment` writes.
    private static func decode(_ segment: String, empty: String? = nil) -> String? {
        if segment.isEmpty { return empty }
        if segment == "-", empty == nil { return "" }
        var bytes = [UInt8]()
        var iterator = Array(segment.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                guard isKept(byte) else { return nil }
                bytes.append(byte)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return self.segment(text, escapingEmpty: empty == nil) == segment ? text : nil
    }

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-_.~@+:".utf8.contains(byte)
        }
    }

    private static func percent(_ byte: UInt8) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        return String(decoding: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xf)]], as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func join(_ prefix: String, _ rest: String) -> String {
        prefix.isEmpty ? rest : rest.isEmpty ? prefix : prefix + "/" + rest
    }

    /// A KV path or mount in a URL: `/` kept, every byte but letters, digits and `-_.~` as `%XX`
    /// (so a segment's `%` travels as `%25`).
    static func encodeURLPath(_ path: String) -> String {
        func isKept(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                true
            default: false
            }
        }
        if path.utf8.allSatisfy(isKept) { return path }
        var result = ""
        for byte in path.utf8 {
            if isKept(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += percent(byte)
            }
        }
        return result
    }
}
