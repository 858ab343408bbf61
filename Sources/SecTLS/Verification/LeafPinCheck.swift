import SecCrypto

/// Pins checked on the server's certificate alone, curl's `--pinnedpubkey` model: for TLS stacks
/// that verify the chain and host name themselves and show the application only the server's
/// certificate, never the host a connection is for (AsyncHTTPClient 1.37).
///
/// Which pin sets apply cannot be looked up by the host, so it is decided from the hosts the
/// certificate is valid for, which is sound only because the connected host is one of them:
///
/// - the stack matched the host against the certificate's subjectAltNames (swift-nio-ssl falls
///   back to the subject's CN only for a certificate that has none, and such a certificate is
///   refused here, as `TLSClient` and SecKitNIO refuse it: SecKit never accepts a CN as a host name);
/// - every pin set of every host the certificate names must accept it, never weaker than the one
///   pin set of the connected host;
/// - when no pin set covers any of its names, a policy that refuses unpinned hosts refuses it.
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
    /// Throws `certificateVerificationFailed` (host name mismatch) for a certificate without a DNS
    /// or IP subjectAltName, unless the trust is pin-only (no host name is verified then). A mismatch
    /// is reported (`PinPolicy.judge`) for the pin set's host name, with `leaf` as the chain served
    /// and validated: the stack shows nothing else.
    package func check(_ leaf: X509Certificate, port: Int?, at now: Date = Date()) throws(TLSError) -> [PinEvaluation] {
        let names = leaf.subjectAlternativeNames.compactMap { name -> String? in
            switch name {
            case .dns(let host), .ipAddress(let host): host
            default: nil
            }
        }
        if !pinsOnly && names.isEmpty {
            throw .certificateVerificationFailed(ChainVerification.commonNameOnly(leaf))
        }
        let pinSets = pinsOnly ? pinPolicy.pinSets : pinPolicy.pinSets.filter { covers(leaf, $0.host) }
        if pinSets.isEmpty && pinPolicy.refusesUncoveredHosts {
            let named = names.joined(separator: ", ")
            throw .pinMismatch(PinEvaluation.evaluate([leaf], host: named, policy: pinPolicy, now: now))
        }
        var evaluations: [PinEvaluation] = []
        for pinSet in pinSets {
            let host = pinSet.host.base
            let evaluation = PinEvaluation.evaluate([leaf], host: host, policy: PinPolicy([pinSet]), now: now)
            try pinPolicy.judge(evaluation, port: port, servedChain: { [leaf] }, refuseMismatch: pinsOnly, at: now)
            evaluations.append(evaluation)
        }
        return evaluations
    }

    /// True when a host of `pattern` could be served with `leaf`: a DNS name or IP address of its
    /// SANs matches the pattern (a wildcard SAN by a name it stands for).
    private func covers(_ leaf: X509Certificate, _ pattern: HostPattern) -> Bool {
        leaf.subjectAlternativeNames.contains { name in
            switch name {
            case .dns(let dns):
                let host = HostPattern.normalize(dns)
                guard host.hasPrefix("*.") else { return pattern.matches(normalized: host) }
                // A wildcard SAN stands for any one label: an exact host one label below its base,
                // or any host a wildcard pattern shares with it.
                let suffix = host.dropFirst()
                if pattern.kind == .exact {
                    let label = pattern.base.dropLast(suffix.count)
                    return pattern.base.hasSuffix(suffix) && !label.isEmpty && !label.contains(".")
                }
                return pattern.matches(normalized: "seckit-any-label" + suffix)
            case .ipAddress(let address): return pattern.matches(address)
            default: return false
            }
        }
    }
}
