import SecCrypto
import SecEnvelope

// MARK: Envelopes

/// The key of the envelope round trips is patternBytes(32, seed: keySeed), as a JWE `dir` key and as
/// a Fernet key (in its base64url text form, as `Fernet(key:)` takes it). Each round trip seals a
/// random payload (drawn once per process) and opens the token again; the opened bytes must equal it.
/// `result` is a token of patternBytes(payloadBytes, seed: payloadSeed) under that key, which
/// tools/bench/run opens with joserfc or cryptography.fernet.
enum EnvelopeBench {
    static let keySeed: UInt8 = 9
    static let payloadSeed: UInt8 = 1
}

func randomPayload(_ count: Int) -> Data {
    do { return Data(try SecureRandom.bytes(count: count)) } catch { fail("SecureRandom: \(error)") }
}

func jweRoundTrip(payloadBytes: Int) -> Benchmark {
    let key = SymmetricKey(data: patternBytes(32, seed: EnvelopeBench.keySeed))
    return envelopeRoundTrip(
        name: "jwe-dir-a256gcm-\(payloadBytes)",
        label: "JWE",
        payloadBytes: payloadBytes,
        summary: "JWE.encrypt(_:using:) (dir + A256GCM, compact) then JWE.decrypt(_:using:) of a random"
            + " \(payloadBytes)-byte Data, opened bytes checked; result = a token of the pattern payload",
        seal: { try JWE.encrypt($0, using: key) },
        open: { try JWE.decrypt($0, using: key) }
    )
}

func fernetRoundTrip(payloadBytes: Int) -> Benchmark {
    let fernet: Fernet
    do {
        fernet = try Fernet(key: Base64.encode(patternBytes(32, seed: EnvelopeBench.keySeed), alphabet: .url))
    } catch {
        fail("Fernet(key:): \(error)")
    }
    return envelopeRoundTrip(
        name: "fernet-\(payloadBytes)",
        label: "Fernet",
        payloadBytes: payloadBytes,
        summary: "Fernet(key: String).encrypt(_:) then .decrypt(_:) of a random \(payloadBytes)-byte Data,"
            + " opened bytes checked; result = a token of the pattern payload",
        seal: { try fernet.encrypt($0) },
        open: { try fernet.decrypt($0) }
    )
}

/// Seals a random payload and opens the token again per operation, checking the opened bytes.
func envelopeRoundTrip(
    name: String,
    label: String,
    payloadBytes: Int,
    summary: String,
    seal: @escaping @Sendable (Data) throws -> String,
    open: @escaping @Sendable (String) throws -> Data
) -> Benchmark {
    Benchmark(name: name, summary: summary) {
        let payload = randomPayload(payloadBytes)
        func roundTrip(_ payload: Data) -> (String, Data) {
            do {
                let token = try seal(payload)
                return (token, try open(token))
            } catch {
                fail("\(label) round trip: \(error)")
            }
        }
        let pattern = patternBytes(payloadBytes, seed: EnvelopeBench.payloadSeed)
        let (token, opened) = roundTrip(Data(pattern))
        guard opened.elementsEqual(pattern) else { fail("\(label): opened bytes differ") }
        return Prepared(
            operation: {
                let (token, opened) = roundTrip(payload)
                guard opened == payload else { fail("\(label): opened bytes differ from the payload") }
                return UInt8(truncatingIfNeeded: token.utf8.count) ^ opened[opened.startIndex]
            },
            result: token
        )
    }
}
