import SecCrypto

/// A remark of a pin evaluation that did not refuse the connection.
public enum PinWarning: Hashable, Sendable, CustomStringConvertible {
    /// The applying pin set expired at this date, so it was checked but not enforced.
    case pinSetExpired(Date)
    /// The pin set is report-only and no pin matched.
    case reportOnlyMismatch
    /// Every pin of the set is in the current chain: no backup pin (RFC 7469 §2.5).
    case noBackupPin

    public var description: String {
        switch self {
        case .pinSetExpired(let date): "the pin set expired on \(date) and was not enforced"
        case .reportOnlyMismatch: "no pin matched (report-only pin set, connection allowed)"
        case .noBackupPin: "every pin is in the current chain: no backup pin (RFC 7469 section 2.5)"
        }
    }
}

/// What checking a chain against a `PinPolicy` found.
public struct PinEvaluation: Hashable, Sendable, CustomStringConvertible {
    public enum Outcome: Hashable, Sendable {
        /// `pin` matched the certificate at `depth` (0 = the server's own certificate).
        case matched(pin: Pin, depth: Int)
        /// No expected pin matched any certificate of the chain.
        case mismatched
        /// No pin set applies to the host, and the policy lets such hosts through (or is empty).
        case notPinned
        /// No pin set applies to the host, and the policy refuses such hosts (fail closed).
        case hostNotCovered
    }

    /// The host name the policy was looked up for.
    public let host: String
    /// The pin set that applied, if any.
    public let pinSet: PinSet?
    /// The chain the pins were checked against, from the server's certificate (depth 0) up:
    /// the verified chain, or in pin-only mode the chain linked by signatures from the server's
    /// certificate (never certificates the server merely appended).
    public let chain: [X509Certificate]
    public let outcome: Outcome
    public let warnings: [PinWarning]

    /// True when the connection must be refused: an enforced, unexpired pin set and no match, or a
    /// host no pin set covers under a policy that refuses such hosts.
    public var refusesConnection: Bool {
        if outcome == .hostNotCovered { return true }
        guard outcome == .mismatched, let pinSet else { return false }
        return pinSet.mode == .enforce && !warnings.contains { if case .pinSetExpired = $0 { true } else { false } }
    }

    /// The public-key pin of every certificate of `chain`, by depth.
    public var chainPins: [PublicKeyPin] { chain.map(\.publicKeyPin) }

    /// The pins that were expected (empty when not pinned).
    public var expectedPins: [Pin] { pinSet?.pins ?? [] }

    /// Checks `chain` (depth 0 first) against the pin set `policy` has for `host`, at `now`.
    ///
    /// - Parameters:
    ///   - chain: the verified chain, depth 0 first.
    ///   - host: the host the chain is for.
    ///   - policy: the pin policy.
    ///   - now: the time pin set expiry is judged at (now by default).
    /// - Returns: the evaluation: its outcome (``PinEvaluation/Outcome/matched(pin:depth:)``,
    ///   ``PinEvaluation/Outcome/mismatched``, ``PinEvaluation/Outcome/notPinned`` or
    ///   ``PinEvaluation/Outcome/hostNotCovered``) and its warnings;
    ///   ``PinEvaluation/refusesConnection`` says whether the connection must be refused.
    public static func evaluate(
        _ chain: [X509Certificate],
        host: String,
        policy: PinPolicy,
        now: Date = Date()
    ) -> PinEvaluation {
        guard let pinSet = policy.pinSet(for: host) else {
            let outcome: Outcome = policy.refusesUncoveredHosts ? .hostNotCovered : .notPinned
            return PinEvaluation(host: host, pinSet: nil, chain: chain, outcome: outcome, warnings: [])
        }
        let digests = PinDigests.of(chain, for: pinSet.pins)
        var outcome = Outcome.mismatched
        search: for (depth, certificate) in digests.enumerated() {
            for pin in pinSet.pins where certificate.matches(pin) {
                outcome = .matched(pin: pin, depth: depth)
                break search
            }
        }
        var warnings: [PinWarning] = []
        if let expires = pinSet.expires, pinSet.isExpired(at: now) { warnings.append(.pinSetExpired(expires)) }
        if outcome == .mismatched && pinSet.mode == .reportOnly { warnings.append(.reportOnlyMismatch) }
        if pinSet.pins.allSatisfy({ pin in digests.contains { $0.matches(pin) } }) { warnings.append(.noBackupPin) }
        return PinEvaluation(host: host, pinSet: pinSet, chain: chain, outcome: outcome, warnings: warnings)
    }

    /// One line: which pin matched at which depth, or every chain pin and every expected pin.
    public var description: String {
        switch outcome {
        case .matched(let pin, let depth):
            return "\(host): pin \(pin) matched the certificate at depth \(depth) (\(chain[depth].subject))"
        case .notPinned:
            return "\(host): no pins configured"
        case .hostNotCovered:
            return "\(host): no pin set covers this host, and the pin policy refuses hosts it does not pin"
        case .mismatched:
            // Certificate pins are compared with the chain's fingerprints of the same algorithm: list those too.
            let algorithms = Set(
                expectedPins.compactMap { pin -> HashAlgorithm? in
                    if case .certificate(let fingerprint) = pin { return fingerprint.algorithm }
                    return nil
                }
            ).sorted { $0.byteCount < $1.byteCount }
            let seen = chain.enumerated().map { depth, certificate in
                (["depth \(depth) \(certificate.publicKeyPin)"]
                    + algorithms.map { certificate.fingerprint($0).description }).joined(separator: " ")
            }.joined(separator: ", ")
            let expected = expectedPins.map(\.description).joined(separator: ", ")
            return "\(host): no pin matched; chain: [\(seen)]; expected one of: [\(expected)]"
        }
    }
}
