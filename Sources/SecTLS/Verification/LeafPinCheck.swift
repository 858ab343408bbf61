import SecCrypto

/// Pins checked on the server's certificate alone, curl's `--pinnedpubkey` model: for TLS stacks
/// that verify the chain themselves and show the application only the server's certificate
/// (AsyncHTTPClient). Not knowing which host a connection is for, it checks the certificate against
/// the pin set of every host the certificate is valid for (the connected host is always one of
/// them, the stack having verified the name), so a certificate is refused if any such enforced pin
/// set misses it — never weaker than the one pin set of the connected host.
package struct LeafPinCheck: Sendable {
    package let pinPolicy: PinPolicy
    private let pinsOnly: Bool

    /// Throws `invalidConfiguration` for pins that could only match above the server's certificate
    /// (the key of a trusted CA), and for pin-only trust with other than one enforced pin set.
    package init(trustRoots: TrustRoots, pinPolicy: PinPolicy) throws(TLSError) {
        pinsOnly = trustRoots == .pinsOnly
        if pinsOnly {
            guard pinPolicy.pinSets.count == 1, pinPolicy.pinSets[0].mode == .enforce else {
                throw .invalidConfiguration(
                    "pin-only trust here needs exactly one enforced pin set: the stack does not tell which host a connection is for"
                )
            }
        } else if !pinPolicy.pinSets.isEmpty {
            for anchor in try TrustStore(trustRoots).anchors {
                for pinSet in pinPolicy.pinSets {
                    if let pin = pinSet.pins.first(where: { $0.matches(anchor) }) {
                        throw .invalidConfiguration(
                            "the pin \(pin) is the trusted CA \(anchor.subject): only the server's own certificate is seen here, pin its key"
                        )
                    }
                }
            }
        }
        self.pinPolicy = pinPolicy
    }

    /// The evaluation of each pin set that applies to `leaf`; throws `pinMismatch` (or `noBackupPin`
    /// under the strict rule) for the first that refuses it.
    package func check(_ leaf: Certificate, at now: Date = Date()) throws(TLSError) -> [PinEvaluation] {
        let pinSets = pinsOnly ? pinPolicy.pinSets : pinPolicy.pinSets.filter { covers(leaf, $0.host) }
        var evaluations: [PinEvaluation] = []
        for pinSet in pinSets {
            let host = pinSet.host.base
            let evaluation = PinEvaluation.evaluate([leaf], host: host, policy: PinPolicy([pinSet]), now: now)
            if evaluation.refusesConnection || (pinsOnly && evaluation.outcome == .mismatched) {
                throw .pinMismatch(evaluation)
            }
            if pinPolicy.backupPinRule == .strict, evaluation.warnings.contains(.noBackupPin),
                pinSet.mode == .enforce, !pinSet.isExpired(at: now)
            {
                throw .noBackupPin(host: host)
            }
            evaluations.append(evaluation)
        }
        return evaluations
    }

    /// True when a host of `pattern` could be served with `leaf`: a DNS name or IP address of its
    /// SANs matches the pattern (a wildcard SAN by a name it stands for).
    private func covers(_ leaf: Certificate, _ pattern: HostPattern) -> Bool {
        leaf.subjectAlternativeNames.contains { name in
            switch name {
            case .dns(let dns):
                let host = HostPattern.normalize(dns)
                guard host.hasPrefix("*.") else { return pattern.matches(host) }
                // A wildcard SAN stands for any one label: an exact host one label below its base,
                // or any host a wildcard pattern shares with it.
                let suffix = host.dropFirst()
                if pattern.kind == .exact {
                    let label = pattern.base.dropLast(suffix.count)
                    return pattern.base.hasSuffix(suffix) && !label.isEmpty && !label.contains(".")
                }
                return pattern.matches("seckit-any-label" + suffix)
            case .ipAddress(let address): return pattern.matches(address)
            default: return false
            }
        }
    }
}
