import SecCrypto

/// The checks of `TLSDiagnosis.diagnose`, in order, each adding its findings.
struct DiagnosisBuilder {
    typealias Finding = TLSDiagnosis.Finding

    let host: String
    let port: Int
    let serverName: String
    let configuration: TLSClientConfiguration
    let trustStore: TrustStore?
    let now: Date

    private var findings: [Finding] = []
    private var accepted: [String] = []
    private var sent: [X509Certificate] = []
    private var verified: [X509Certificate] = []
    private var requestedCANames: [String: [String]]?

    /// A certificate that ends within this time is reported as expiring soon.
    static let renewalWindow: TimeInterval = 30 * 86400

    init(
        host: String,
        port: Int,
        serverName: String,
        configuration: TLSClientConfiguration,
        trustStore: TrustStore?,
        now: Date
    ) {
        self.host = host
        self.port = port
        self.serverName = serverName
        self.configuration = configuration
        self.trustStore = trustStore
        self.now = now
    }

    var result: TLSDiagnosis {
        TLSDiagnosis(
            host: host,
            port: port,
            serverName: serverName,
            acceptedVersions: accepted,
            sentChain: sent,
            verifiedChain: verified,
            requestedCANames: requestedCANames,
            findings: findings
        )
    }

    private mutating func add(
        _ code: String,
        _ severity: Finding.Severity,
        _ message: String,
        _ problem: Finding.Problem? = nil
    ) {
        findings.append(Finding(code, severity, message, problem: problem))
    }

    mutating func run(alternatives: (() throws -> [TLSDiagnosis.IdentitySummary])?) throws(TLSError) {
        var probes: [TLSProbe] = []
        for version in TLSProbe.versions {
            do {
                probes.append(
                    try TLSProbe.run(
                        host: host,
                        port: port,
                        serverName: serverName,
                        version: version,
                        identity: nil,
                        timeouts: configuration.timeouts
                    )
                )
            } catch {
                add("connect.failed", .blocking, "no connection to \(host) port \(port): \(error)", .connection)
                return
            }
        }
        checkVersions(probes)
        guard let primary = probes.first(where: \.accepted) else {
            connect()
            return
        }
        sent = primary.sentChain
        checkOrder()
        checkValidity()
        checkTrust()
        checkHostName()
        checkUsage()
        verify()
        checkPins()
        checkClientAuthentication(probes.filter(\.accepted), alternatives: alternatives)
        connect()
    }

    // MARK: - Versions

    private mutating func checkVersions(_ probes: [TLSProbe]) {
        accepted = probes.filter(\.accepted).map(\.version)
        guard !accepted.isEmpty else {
            let reason = probes.compactMap(\.failure).first.map { ": \($0)" } ?? ""
            add(
                "protocol.none",
                .blocking,
                "the server completed no handshake at TLSv1.3, TLSv1.2, TLSv1.1 or TLSv1\(reason): is it a TLS server on this port?",
                .connection
            )
            return
        }
        add("protocol.versions", .info, "the server accepts \(accepted.joined(separator: ", "))")
        for legacy in ["TLSv1.1", "TLSv1"] where accepted.contains(legacy) {
            add(
                "protocol.legacy",
                .warning,
                "the server accepts \(legacy), which RFC 8996 deprecates: turn it off (minimum TLSv1.2)"
            )
        }
        if !accepted.contains("TLSv1.3") {
            add(
                "protocol.no-tls13",
                .warning,
                "the server does not accept TLSv1.3: turn it on (RFC 8446; faster, fewer weak options)"
            )
        }
        let wanted = TLSVersion.allCases.filter {
            $0 >= configuration.minimumVersion && $0 <= (configuration.maximumVersion ?? .tls13)
        }
        if !wanted.contains(where: { accepted.contains($0.rawValue) }) {
            add(
                "protocol.no-common-version",
                .blocking,
                "the server accepts none of the versions this client offers (\(wanted.map(\.rawValue).joined(separator: ", ")))",
                .connection
            )
        }
    }

    // MARK: - The chain as sent

    private mutating func checkOrder() {
        let subjects = sent.enumerated().map { "\($0.offset) \($0.element.subject)" }.joined(separator: "; ")
        add("chain.sent", .info, "the server sends \(sent.count) certificate\(sent.count == 1 ? "" : "s"): \(subjects)")
        var ordered = true
        for index in sent.indices.dropFirst() where !sent[index - 1].isIssued(by: sent[index]) {
            ordered = false
            let child = sent[index - 1]
            if let issuer = sent.indices.first(where: { $0 != index - 1 && child.isIssued(by: sent[$0]) }) {
                add(
                    "chain.order",
                    .warning,
                    "certificate \(index) (\(sent[index].subject)) does not issue certificate \(index - 1) (\(child.subject)); "
                        + "its issuer is certificate \(issuer): send the server's certificate first, each one followed by its issuer "
                        + "(RFC 5246 section 7.4.2; strict clients refuse another order)"
                )
            } else {
                add(
                    "chain.unrelated",
                    .warning,
                    "certificate \(index) (\(sent[index].subject)) did not issue certificate \(index - 1) (\(child.subject), issuer \(child.issuer)): "
                        + "remove what does not belong to the chain"
                )
            }
            break
        }
        if ordered && sent.count > 1 { add("chain.order", .ok, "each certificate is followed by its issuer") }
        for (index, certificate) in sent.enumerated().dropFirst() where certificate.isIssued(by: certificate) {
            add(
                "chain.root-sent",
                .warning,
                "certificate \(index) (\(certificate.subject)) is a self-signed root: a client must have it already, "
                    + "so sending it only costs bytes; leave it out of the server's chain"
            )
        }
    }

    private mutating func checkValidity() {
        for (index, certificate) in sent.enumerated() {
            let what = index == 0 ? "the server's certificate" : "certificate \(index)"
            let period = "valid from \(Self.date(certificate.notBefore)) to \(Self.date(certificate.notAfter))"
            if now > certificate.notAfter {
                add(
                    "certificate.expired",
                    .blocking,
                    "\(what) (\(certificate.subject)) expired on \(Self.date(certificate.notAfter)) (\(period)): renew it",
                    .verification
                )
            } else if now < certificate.notBefore {
                add(
                    "certificate.not-yet-valid",
                    .blocking,
                    "\(what) (\(certificate.subject)) is not valid before \(Self.date(certificate.notBefore)) (\(period)): check the server's and this machine's clocks",
                    .verification
                )
            } else if certificate.notAfter.timeIntervalSince(now) < Self.renewalWindow {
                add(
                    "certificate.expires-soon",
                    .warning,
                    "\(what) (\(certificate.subject)) expires on \(Self.date(certificate.notAfter)): renew it soon"
                )
            } else if index == 0 {
                add("certificate.valid", .ok, "\(what) is \(period)")
            }
        }
    }

    /// Whether the chain leads to a trusted root, judged without the host name.
    private mutating func checkTrust() {
        guard let trustStore else { return }
        do {
            _ = try verifySent(with: trustStore, host: nil)
        } catch .certificateVerificationFailed(let failure)
            where failure.reason == .unknownIssuer || failure.reason == .selfSigned
        {
            let top = linkedChain().last ?? sent[0]
            if top.isIssued(by: top) {
                add(
                    "chain.untrusted-root",
                    .blocking,
                    "the chain ends in \(top.subject), a root that is not trusted here (\(trustName)): add it to the trusted roots "
                        + "or get a certificate from a trusted CA (OpenSSL: \(failure.message))",
                    .verification
                )
            } else {
                add(
                    "chain.incomplete",
                    .blocking,
                    "the chain stops at \(top.subject): its issuer \(top.issuer) is neither sent by the server nor a trusted root (\(trustName)). "
                        + "If it is an intermediate CA, add it to the server's chain after the certificate it issued; "
                        + "if it is a root, add it to the trusted roots (OpenSSL: \(failure.message))",
                    .verification
                )
            }
        } catch {
            // Expiry, purpose and the rest have findings of their own; `verify()` reports OpenSSL's verdict.
        }
    }

    /// OpenSSL's verification of the chain as sent, as a server certificate, for `host` when given.
    private func verifySent(with trustStore: TrustStore, host: String?) throws(TLSError) -> [X509Certificate] {
        try ChainVerification.verify(sent, store: trustStore, purpose: .serverAuthentication, host: host, at: now)
    }

    /// The sent certificates linked by signatures from the server's, in chain order.
    private func linkedChain() -> [X509Certificate] {
        var chain = [sent[0]]
        while let last = chain.last, !last.isIssued(by: last),
            let issuer = sent.first(where: { !chain.contains($0) && last.isIssued(by: $0) })
        {
            chain.append(issuer)
        }
        return chain
    }

    private var trustName: String {
        switch configuration.trustRoots {
        case .system: "the system CAs"
        case .caFile(let path): "the CA file \(path)"
        case .certificates: "the given CAs"
        case .pinsOnly: "pin-only trust"
        }
    }

    // MARK: - Names and usages

    private mutating func checkHostName() {
        let leaf = sent[0]
        let names = leaf.subjectAlternativeNames.filter {
            switch $0 {
            case .dns, .ipAddress: true
            default: false
            }
        }.map(\.description)
        let listed =
            names.isEmpty
            ? "no DNS or IP subjectAltName (a subject CN is not a host name)" : names.joined(separator: ", ")
        guard configuration.trustRoots != .pinsOnly else {
            add("host.not-checked", .info, "pin-only trust checks no host name; the certificate names \(listed)")
            return
        }
        if leaf.isValid(forHost: serverName) {
            add("host.covered", .ok, "the certificate covers \(serverName) (\(listed))")
        } else {
            let kind = TCPSocket.isIPAddress(serverName) ? "IP:\(serverName)" : "DNS:\(serverName)"
            add(
                "host.mismatch",
                .blocking,
                "the certificate does not cover \(serverName): it names \(listed). Connect with one of its names "
                    + "(as the server name), or reissue it with \(kind) in its subjectAltName",
                .verification
            )
        }
    }

    private mutating func checkUsage() {
        let leaf = sent[0]
        if let usage = leaf.extendedKeyUsage {
            if leaf.allows(.serverAuth) {
                add("eku.server-auth", .ok, "extendedKeyUsage: \(usage)")
            } else {
                add(
                    "eku.no-server-auth",
                    .blocking,
                    "the server's certificate has extendedKeyUsage \(usage) without serverAuth: TLS clients refuse it "
                        + "(OpenSSL: unsupported certificate purpose); reissue it with extendedKeyUsage=serverAuth",
                    .verification
                )
            }
        } else {
            add(
                "eku.absent",
                .info,
                "the server's certificate has no extendedKeyUsage (any purpose; public CAs always set serverAuth)"
            )
        }
        if let usage = leaf.keyUsage {
            let signs = usage.contains(.digitalSignature)
            let rsaKeyExchange = usage.contains(.keyEncipherment) && leaf.publicKeyType == .rsa
            if signs || rsaKeyExchange {
                add("key-usage.ok", .ok, "keyUsage: \(usage)")
            } else {
                add(
                    "key-usage.no-signature",
                    .warning,
                    "keyUsage \(usage) lacks digitalSignature, which TLS 1.3 and every ECDHE handshake need: reissue it with digitalSignature"
                )
            }
        }
        for (index, certificate) in sent.enumerated().dropFirst() where !certificate.allows(.serverAuth) {
            add(
                "eku.ca-no-server-auth",
                .warning,
                "certificate \(index) (\(certificate.subject)) restricts its extendedKeyUsage to \(certificate.extendedKeyUsage ?? []), without serverAuth: OpenSSL refuses the server certificates it issues"
            )
        }
    }

    // MARK: - Verification and pins

    private mutating func verify() {
        if let trustStore {
            do {
                verified = try verifySent(with: trustStore, host: serverName)
                let anchor = verified.last.map { " to \($0.subject)" } ?? ""
                add("verify.ok", .ok, "the chain verifies\(anchor) (\(trustName)), for \(serverName)")
            } catch .certificateVerificationFailed(let failure) {
                add(
                    "verify.failed",
                    .blocking,
                    "OpenSSL refuses the chain: \(failure.message)\(failure.depth.map { " at depth \($0)" } ?? "")",
                    .verification
                )
            } catch {
                add("verify.failed", .blocking, "the chain could not be verified: \(error)", .verification)
            }
            return
        }
        guard let pinSet = configuration.pinPolicy?.pinSet(for: serverName) else { return }
        do {
            let anchored = try ChainVerification.pinAnchoredChain(sent, pinSet: pinSet)
            if anchored.anchored {
                verified = anchored.chain
                add("verify.pinned", .ok, "the chain is linked by signatures to a pinned certificate (pin-only trust)")
            } else {
                add(
                    "verify.not-anchored",
                    .blocking,
                    "no pinned certificate is reached by signatures from the server's certificate (pin-only trust)",
                    .pin
                )
            }
        } catch {
            add("verify.failed", .blocking, "the chain could not be checked: \(error)", .verification)
        }
    }

    private mutating func checkPins() {
        guard let policy = configuration.pinPolicy, !policy.pinSets.isEmpty else {
            add("pin.none", .info, "no pin set: the connection is not pinned")
            return
        }
        let chain = verified.isEmpty ? sent : verified
        let note = verified.isEmpty ? " (checked against the chain as sent, which did not verify)" : ""
        let evaluation = PinEvaluation.evaluate(chain, host: serverName, policy: policy, now: now)
        switch evaluation.outcome {
        case .matched(let pin, let depth):
            add(
                "pin.matched",
                .ok,
                "pin \(pin) matches the certificate at depth \(depth) (\(chain[depth].subject))\(note)"
            )
        case .mismatched, .hostNotCovered:
            let seen = chain.enumerated().map { "depth \($0.offset) \($0.element.publicKeyPin)" }.joined(
                separator: ", "
            )
            let expected = evaluation.expectedPins.map(\.description).joined(separator: ", ")
            let detail =
                evaluation.outcome == .hostNotCovered
                ? "no pin set covers \(serverName)" : "no pin matches; expected one of [\(expected)]"
            add(
                evaluation.outcome == .hostNotCovered ? "pin.host-not-covered" : "pin.mismatch",
                evaluation.refusesConnection ? .blocking : .warning,
                "\(detail); the chain's pins: [\(seen)]\(note). Pin the server's key (depth 0) and a backup key, "
                    + "or its CA's key",
                .pin
            )
        case .notPinned:
            add("pin.none", .info, "no pin set applies to \(serverName)")
        }
        for warning in evaluation.warnings where warning != .reportOnlyMismatch {
            add("pin.warning", .warning, warning.description)
        }
    }

    // MARK: - Client certificates

    private mutating func checkClientAuthentication(
        _ probes: [TLSProbe],
        alternatives: (() throws -> [TLSDiagnosis.IdentitySummary])?
    ) {
        let identity = configuration.clientIdentity
        let requesting = probes.filter(\.certificateRequested)
        guard !requesting.isEmpty else {
            add(
                "client-auth.not-requested",
                .info,
                "the server does not ask for a client certificate"
                    + (identity == nil ? "" : ": the identity is not sent")
            )
            if let identity { checkIdentity(identity, requested: nil) }
            return
        }
        var names: [String: [String]] = [:]
        for probe in requesting { names[probe.version] = probe.requestedCANames }
        requestedCANames = names
        // One finding per distinct list, naming the versions that send it.
        var lists: [(versions: [String], names: [String])] = []
        for probe in requesting {
            if let index = lists.firstIndex(where: { $0.names == probe.requestedCANames }) {
                lists[index].versions.append(probe.version)
            } else {
                lists.append(([probe.version], probe.requestedCANames))
            }
        }
        for list in lists {
            let accepted =
                list.names.isEmpty
                ? "naming no CA (any certificate may be offered)"
                : "from \(list.names.count == 1 ? "this CA" : "these CAs"): "
                    + list.names.map { "\"\($0)\"" }.joined(separator: "; ")
            add(
                "client-auth.requested",
                .info,
                "under \(list.versions.joined(separator: " and ")) the server asks for a client certificate \(accepted)"
            )
        }
        let allNames = Set(names.values.joined())
        if let identity {
            checkIdentity(identity, requested: allNames)
        } else {
            add(
                "client-auth.no-identity",
                .info,
                "no client identity given: the connection shows whether the server requires one"
            )
        }
        if let alternatives { checkAlternatives(alternatives, requested: allNames) }
    }

    /// The alternatives from a CA the server names (all of them when it names none), each with its expiry.
    private mutating func checkAlternatives(
        _ alternatives: () throws -> [TLSDiagnosis.IdentitySummary],
        requested: Set<String>
    ) {
        let summaries: [TLSDiagnosis.IdentitySummary]
        do { summaries = try alternatives() } catch {
            add("identity.stored-unavailable", .info, "the stored identities could not be listed: \(error)")
            return
        }
        let fitting = summaries.filter { requested.isEmpty || requested.contains($0.issuer) }
        for summary in fitting {
            let state =
                now > summary.notAfter
                ? "expired on \(Self.date(summary.notAfter))" : "valid until \(Self.date(summary.notAfter))"
            add(
                "identity.stored-match",
                now > summary.notAfter ? .warning : .info,
                "\(summary.name) (\(summary.subject)) is issued by \"\(summary.issuer)\", a CA the server names; \(state)"
            )
        }
        if fitting.isEmpty {
            add(
                "identity.stored-none",
                .info,
                "none of the \(summaries.count) stored identit\(summaries.count == 1 ? "y is" : "ies are") issued by a CA the server names"
            )
        }
    }

    /// The identity's validity and client-authentication EKU, and whether it comes from a CA in
    /// `requested` (the names the server sent; nil when it asks for no certificate).
    private mutating func checkIdentity(_ identity: ClientIdentity, requested: Set<String>?) {
        let certificate = identity.certificate
        let who = "the client identity (\(certificate.subject))"
        if now > certificate.notAfter {
            add(
                "identity.expired",
                .blocking,
                "\(who) expired on \(Self.date(certificate.notAfter)): renew it",
                .clientCertificate
            )
        } else if now < certificate.notBefore {
            add(
                "identity.not-yet-valid",
                .blocking,
                "\(who) is not valid before \(Self.date(certificate.notBefore))",
                .clientCertificate
            )
        } else if certificate.notAfter.timeIntervalSince(now) < Self.renewalWindow {
            add(
                "identity.expires-soon",
                .warning,
                "\(who) expires on \(Self.date(certificate.notAfter)): renew it soon"
            )
        } else {
            add("identity.valid", .ok, "\(who) is valid until \(Self.date(certificate.notAfter))")
        }
        if let usage = certificate.extendedKeyUsage, !certificate.allows(.clientAuth) {
            add(
                "identity.no-client-auth",
                .blocking,
                "\(who) has extendedKeyUsage \(usage) without clientAuth: servers refuse it; reissue it with extendedKeyUsage=clientAuth",
                .clientCertificate
            )
        }
        guard let requested, !requested.isEmpty else { return }
        let issuers = Set([certificate.issuer] + identity.chain.flatMap { [$0.subject, $0.issuer] })
        if let match = issuers.intersection(requested).sorted().first {
            add("identity.ca-accepted", .ok, "\(who) chains to \"\(match)\", a CA the server names")
        } else {
            add(
                "identity.ca-not-named",
                .warning,
                "\(who) is issued by \"\(certificate.issuer)\", which the server does not name: it will likely refuse it; "
                    + "use an identity from one of the CAs it names"
            )
        }
    }

    // MARK: - The connection

    /// Connects as a `TLSClient` with the configuration would; a failure is a blocking finding.
    private mutating func connect() {
        do {
            let connection = try TLSClient(configuration: configuration).connect(host: host, port: port)
            defer { connection.close() }
            var what: [String] = [configuration.trustRoots == .pinsOnly ? "pin-verified" : "verified"]
            if case .matched = connection.pinEvaluation.outcome { what.append("pinned") }
            if connection.clientCertificateRequested && configuration.clientIdentity != nil {
                what.append("mutual TLS")
            }
            add(
                "connection.ok",
                .ok,
                "a \(what.joined(separator: ", ")) connection succeeds: \(connection.protocolVersion), \(connection.cipher)"
            )
        } catch {
            let code: String
            switch error {
            case .clientCertificateRequired: code = "client-auth.required"
            case .clientCertificateRejected, .clientNotAllowed: code = "client-auth.rejected"
            default: code = "connection.failed"
            }
            var message = "the connection fails: \(error)"
            if error == .clientCertificateRequired {
                message += ": give a client identity from a CA the server names"
            }
            add(code, .blocking, message, Finding.Problem(error))
        }
    }

    /// `2026-11-28 06:55:00 UTC`.
    static func date(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(dateSeparator: .dash, dateTimeSeparator: .space, timeZone: .gmt))
            .replacing("Z", with: " UTC")
    }
}
