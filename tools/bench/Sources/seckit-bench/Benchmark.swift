import SecCrypto

// MARK: - Benchmarks

/// What `prepare` hands back: the operation to time, and optionally a hex string that another
/// implementation can recompute (printed as `result=HEX`), so a fast but wrong benchmark shows.
struct Prepared {
    /// One operation; returns a byte of its result so the work cannot be optimised away.
    let operation: () -> UInt8
    var result: String? = nil
    /// How many operations one call of `operation` performs: more than one for async work timed as
    /// a sequence awaited in one task, as a service runs it (see HTTPAuthBench.swift).
    var operationsPerCall = 1
}

/// One benchmark: `prepare` builds the inputs once and returns the operation to time.
struct Benchmark: Sendable {
    let name: String
    let summary: String
    /// Bytes of input one operation processes, for throughput benchmarks; 0 for the others.
    var bytesPerOp = 0
    let prepare: @Sendable () -> Prepared
}

/// Deterministic, non-trivial bytes (the values do not matter for timing). tools/bench/run
/// recomputes them in Python, `bytes((i * 31 + seed) & 0xFF for i in range(count))`, to check results.
func patternBytes(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
}

func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
}

let benchmarks: [Benchmark] = [
    hmacSHA256(messageBytes: 64),
    hmacSHA256(messageBytes: 1024),
    sha256(messageBytes: 64),
    streamingEncryption(.aes256GCM, chunkBytes: 16384),
    aesGCMSeal(chunkBytes: 16384),
    aesGCMSealInto(chunkBytes: 16384),
    chaChaPolySeal(chunkBytes: 16384),
    streamingEncryption(.tripleDESCBC, chunkBytes: 16384),
    streamingEncryption(.aes256CBC, chunkBytes: 16384),
    pbkdf2SHA256(iterations: 600_000, outputByteCount: 32),
    jweRoundTrip(payloadBytes: 1024),
    fernetRoundTrip(payloadBytes: 1024),
    keychainLookup(itemCount: 1000),
    tlsHandshake(pinned: false),
    tlsHandshake(pinned: true),
    tlsPinFailure(reporting: false),
    tlsPinFailure(reporting: true),
    nioHandshake(secKit: false),
    nioHandshake(secKit: true),
    httpClientGet(secKit: false),
    httpClientGet(secKit: true),
    mutualTLSGet(secKit: false),
    mutualTLSGet(secKit: true),
    vaporMutualTLSGet(secKit: false),
    vaporMutualTLSGet(secKit: true),
    grpcUnary(secKit: false),
    grpcUnary(secKit: true),
    httpDigest(authenticated: false),
    httpDigest(authenticated: true),
    vaultRead(store: false),
    vaultRead(store: true),
]
