import Foundation

/// What a test expects of one RFC 7469 report; certificates by their TestPKI names.
public struct ExpectedPinReport: Sendable {
    public var hostname: String
    public var port: Int
    public var notedHostname: String
    public var includeSubdomains: Bool
    /// RFC 3339, or nil for JSON null.
    public var effectiveExpirationDate: String?
    public var served: [String]
    public var validated: [String]
    /// `pin-sha256="…"` strings.
    public var knownPins: [String]
    /// The report was made after this moment.
    public var notBefore: Date

    public init(
        hostname: String,
        port: Int,
        notedHostname: String? = nil,
        includeSubdomains: Bool = false,
        effectiveExpirationDate: String? = nil,
        served: [String],
        validated: [String],
        knownPins: [String],
        notBefore: Date
    ) {
        self.hostname = hostname
        self.port = port
        self.notedHostname = notedHostname ?? hostname
        self.includeSubdomains = includeSubdomains
        self.effectiveExpirationDate = effectiveExpirationDate
        self.served = served
        self.validated = validated
        self.knownPins = knownPins
        self.notBefore = notBefore
    }
}

extension PinReportCollector.Request {
    /// Every way this request differs from `expected` (empty: it is the report expected). The
    /// chains' PEM strings are parsed by `openssl x509` and compared by SHA-256 fingerprint with
    /// the fixture's certificates; the date by `ISO8601DateFormatter` (RFC 3339).
    public func problems(against expected: ExpectedPinReport, fixture: TestPKI) -> [String] {
        var problems: [String] = []
        if method != "POST" { problems.append("method \(method)") }
        if contentType != "application/json" { problems.append("Content-Type \(contentType ?? "none")") }
        guard let json else { return problems + ["not a JSON object: \(body)"] }
        let keys: Set<String> = [
            "date-time", "hostname", "port", "effective-expiration-date", "include-subdomains", "noted-hostname",
            "served-certificate-chain", "validated-certificate-chain", "known-pins",
        ]
        if Set(json.keys) != keys { problems.append("members \(json.keys.sorted())") }
        if let text = json["date-time"] as? String, let date = ISO8601DateFormatter().date(from: text) {
            if date < expected.notBefore.addingTimeInterval(-1) || date > Date().addingTimeInterval(1) {
                problems.append("date-time \(text) is not the time of the failure")
            }
        } else {
            problems.append("date-time \(String(describing: json["date-time"])) is not RFC 3339")
        }
        if json["hostname"] as? String != expected.hostname { problems.append("hostname \(json["hostname"] ?? "-")") }
        if json["port"] as? Int != expected.port { problems.append("port \(json["port"] ?? "-")") }
        if json["noted-hostname"] as? String != expected.notedHostname {
            problems.append("noted-hostname \(json["noted-hostname"] ?? "-")")
        }
        if json["include-subdomains"] as? Bool != expected.includeSubdomains {
            problems.append("include-subdomains \(json["include-subdomains"] ?? "-")")
        }
        let expiration = json["effective-expiration-date"]
        if let wanted = expected.effectiveExpirationDate {
            if expiration as? String != wanted { problems.append("effective-expiration-date \(expiration ?? "-")") }
        } else if !(expiration is NSNull) {
            problems.append("effective-expiration-date \(expiration ?? "-") is not null")
        }
        if json["known-pins"] as? [String] != expected.knownPins {
            problems.append("known-pins \(json["known-pins"] ?? "-")")
        }
        for (member, names) in [
            ("served-certificate-chain", expected.served), ("validated-certificate-chain", expected.validated),
        ] {
            guard let pems = json[member] as? [String] else {
                problems.append("\(member) is not an array of strings")
                continue
            }
            let seen = pems.map { Self.fingerprint(pem: $0) }
            let wanted = names.map {
                try? fixture.openssl(["x509", "-noout", "-fingerprint", "-sha256", "-in", "\($0).pem"])
            }
            if seen != wanted || seen.contains(nil) {
                problems.append("\(member): \(seen.map { $0 ?? "unparsable" }) is not \(names)")
            }
        }
        return problems
    }

    /// `openssl x509 -fingerprint -sha256` of one PEM certificate, nil when openssl cannot parse it.
    private static func fingerprint(pem: String) -> String? {
        guard pem.hasPrefix("-----BEGIN CERTIFICATE-----\n"), pem.hasSuffix("-----END CERTIFICATE-----\n") else {
            return nil
        }
        let result = try? ProcessRunner.run(
            "openssl",
            ["x509", "-noout", "-fingerprint", "-sha256"],
            stdin: Array(pem.utf8)
        )
        guard let result, result.status == 0 else { return nil }
        return result.stdoutText
    }
}
