import SecCrypto

/// What the pins of a set are compared with for one certificate, each digest computed once: the
/// SPKI pin when a public-key pin is expected, and the fingerprints of the algorithms the expected
/// certificate pins use (none otherwise).
struct PinDigests {
    private let publicKeyPin: PublicKeyPin?
    private let fingerprints: [CertificateFingerprint]

    /// The digests of every certificate of `chain` that `pins` need.
    static func of(_ chain: [X509Certificate], for pins: [Pin]) -> [PinDigests] {
        var wantsPublicKey = false
        var algorithms: [HashAlgorithm] = []
        for pin in pins {
            switch pin {
            case .publicKey: wantsPublicKey = true
            case .certificate(let fingerprint) where !algorithms.contains(fingerprint.algorithm):
                algorithms.append(fingerprint.algorithm)
            case .certificate: break
            }
        }
        return chain.map { certificate in
            PinDigests(
                publicKeyPin: wantsPublicKey ? certificate.publicKeyPin : nil,
                fingerprints: algorithms.map(certificate.fingerprint)
            )
        }
    }

    /// True when `pin` names this certificate (constant-time comparisons).
    func matches(_ pin: Pin) -> Bool {
        switch pin {
        case .publicKey(let expected): publicKeyPin.map { $0 == expected } ?? false
        case .certificate(let expected): fingerprints.contains(expected)
        }
    }
}
