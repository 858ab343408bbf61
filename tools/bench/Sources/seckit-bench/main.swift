// seckit-bench: in-process micro-benchmarks of SecCrypto. A tool, never a test: it prints
// numbers and asserts nothing about them. Each benchmark prints one machine-readable line on stdout:
//
//   hmac-sha256-64 ops_per_sec=1234567 rounds=5 round_seconds=1.0 min=... max=... seconds_per_op=... cpu_ops_per_sec=...
//   aes-256-gcm-16384 ops_per_sec=... (as above) ... bytes_per_op=16384 bytes_per_sec=... cpu_bytes_per_sec=...
//
// ops_per_sec, bytes_per_sec and seconds_per_op are medians over the timed rounds by the wall clock
// (ContinuousClock); min and max are the extreme rounds' ops_per_sec. cpu_ops_per_sec and
// cpu_bytes_per_sec divide by the user CPU time of this process instead (getrusage), as
// `openssl speed` does unless it is given -elapsed. Benchmarks whose output can be checked by another
// implementation add `result=HEX` (see "Benchmarks" in --help), or `result=TOKEN` for the envelope
// round trips. Progress and details go to stderr.
import SecCrypto
import SecEnvelope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: - Options

struct Options {
    var names: [String] = []
    var rounds = 5
    var roundSeconds = 1.0
    var warmupSeconds = 1.0
    /// When set, each round runs exactly this many operations (for profilers) instead of timing.
    var fixedOps: Int?
}

func usage() -> String {
    """
    usage: seckit-bench [--rounds N] [--seconds S] [--warmup S] BENCHMARK...
           seckit-bench --ops COUNT BENCHMARK...
           seckit-bench --list

    Runs each BENCHMARK in-process: a warm-up of S seconds (default 1), then N timed rounds
    (default 5) of about S seconds each (default 1), timed with ContinuousClock (wall) and getrusage
    (user CPU), and prints '<name> ops_per_sec=<median> ...' on stdout. A round always runs at least
    one operation, so '--warmup 0.001 --seconds 0.001 --rounds 3' times three single operations of a
    slow benchmark such as PBKDF2.

    --ops COUNT runs exactly COUNT operations once, with no warm-up, for profilers: with
    callgrind, (Ir at COUNT2 - Ir at COUNT1) / (COUNT2 - COUNT1) is the cost of one operation.

    Benchmarks:
    \(benchmarks.map { "  \($0.name + String(repeating: " ", count: max(1, 20 - $0.name.count)))\($0.summary)" }.joined(separator: "\n"))
    """
}

/// Unbuffered writes to a descriptor (1 = stdout, 2 = stderr), without touching the C `FILE *`
/// globals, which Swift 6 treats as shared mutable state.
func emit(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 { if errno == EINTR { continue } else { return } }
            offset += written
        }
    }
}

func log(_ text: String) { emit(text + "\n", to: 2) }

func fail(_ message: String) -> Never {
    log("seckit-bench: \(message)")
    exit(2)
}

func parseOptions(_ arguments: ArraySlice<String>) -> Options {
    var options = Options()
    var iterator = arguments.makeIterator()
    func value(_ flag: String) -> String {
        guard let value = iterator.next() else { fail("\(flag) needs a value") }
        return value
    }
    while let argument = iterator.next() {
        switch argument {
        case "-h", "--help":
            print(usage())
            exit(0)
        case "--list":
            for benchmark in benchmarks { print(benchmark.name) }
            exit(0)
        case "--rounds":
            guard let n = Int(value(argument)), n > 0 else { fail("--rounds takes a positive integer") }
            options.rounds = n
        case "--seconds":
            guard let s = Double(value(argument)), s > 0 else { fail("--seconds takes a positive number") }
            options.roundSeconds = s
        case "--ops":
            guard let n = Int(value(argument)), n > 0 else { fail("--ops takes a positive integer") }
            options.fixedOps = n
        case "--warmup":
            guard let s = Double(value(argument)), s >= 0 else { fail("--warmup takes a number >= 0") }
            options.warmupSeconds = s
        default:
            if argument.hasPrefix("-") { fail("unknown option \(argument)\n\(usage())") }
            options.names.append(argument)
        }
    }
    if options.names.isEmpty { fail("no benchmark named\n\(usage())") }
    return options
}

// MARK: - Benchmarks

/// What `prepare` hands back: the operation to time, and optionally a hex string that another
/// implementation can recompute (printed as `result=HEX`), so a fast but wrong benchmark shows.
struct Prepared {
    /// One operation; returns a byte of its result so the work cannot be optimised away.
    let operation: () -> UInt8
    var result: String? = nil
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
    for byte in bytes { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 15)]) }
    return String(decoding: text, as: UTF8.self)
}

func hmacSHA256(messageBytes: Int) -> Benchmark {
    Benchmark(
        name: "hmac-sha256-\(messageBytes)",
        summary: "HMAC<SHA256>.authenticationCode(for:using:), \(messageBytes)-byte message, 32-byte key"
    ) {
        let key = SymmetricKey(data: patternBytes(32, seed: 7))
        let message = patternBytes(messageBytes, seed: 1)
        return Prepared(operation: { HMAC<SHA256>.authenticationCode(for: message, using: key).bytes[0] })
    }
}

func sha256(messageBytes: Int) -> Benchmark {
    Benchmark(name: "sha256-\(messageBytes)", summary: "SHA256.hash(data:), \(messageBytes)-byte message") {
        let message = patternBytes(messageBytes, seed: 1)
        return Prepared(operation: { SHA256.hash(data: message).bytes[0] })
    }
}

// MARK: Ciphers

/// The key and IV every cipher benchmark uses: patternBytes(keyByteCount, seed: 3) and
/// patternBytes(ivByteCount, seed: 5); the input is patternBytes(chunk, seed: 1).
enum CipherBench {
    static let keySeed: UInt8 = 3
    static let ivSeed: UInt8 = 5
    static let inputSeed: UInt8 = 1
    /// A fresh stream after this many chunks (1 GiB of 16 KiB chunks), far below GCM's limit of
    /// 2^36 - 32 bytes per nonce, so long runs never hit it; the cost is one set-up per GiB.
    static let chunksPerStream = 65_536
}

/// Encrypts one chunk after another through one `CipherStream`, into one reused output buffer —
/// what `openssl speed -evp CIPHER -bytes N` does with one EVP_CIPHER_CTX (which it updates in place).
final class StreamingEncryption {
    private let algorithm: CipherAlgorithm
    private let key: SymmetricKey
    private let iv: [UInt8]
    private var stream: CipherStream
    private let input: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer
    private var chunksOnStream = 0

    init(_ algorithm: CipherAlgorithm, chunkBytes: Int) {
        self.algorithm = algorithm
        key = SymmetricKey(data: patternBytes(algorithm.keyByteCount, seed: CipherBench.keySeed))
        iv = patternBytes(algorithm.ivByteCount, seed: CipherBench.ivSeed)
        stream = Self.makeStream(algorithm, key: key, iv: iv)
        input = .allocate(byteCount: chunkBytes, alignment: 64)
        input.copyBytes(from: patternBytes(chunkBytes, seed: CipherBench.inputSeed))
        output = .allocate(byteCount: stream.outputCapacity(forInputCount: chunkBytes), alignment: 64)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    private static func makeStream(_ algorithm: CipherAlgorithm, key: SymmetricKey, iv: [UInt8]) -> CipherStream {
        do {
            // No padding, as openssl speed (EVP_CIPHER_CTX_set_padding(ctx, 0)); whole blocks only.
            return try CipherStream(algorithm, .encrypt, key: key, iv: iv, padding: .none)
        } catch {
            fail("CipherStream(\(algorithm)): \(error)")
        }
    }

    /// Encrypts the next chunk; returns the number of bytes written.
    @inline(__always)
    func step() -> Int {
        if chunksOnStream == CipherBench.chunksPerStream {
            stream = Self.makeStream(algorithm, key: key, iv: iv)
            chunksOnStream = 0
        }
        chunksOnStream &+= 1
        return stream.update(UnsafeRawBufferPointer(input), into: output)
    }

    /// SHA-256 of the first chunk's ciphertext on a fresh stream. Also checks that the stream wrote
    /// the whole chunk and agrees with the one-shot API where there is one (CBC ciphers).
    func firstChunkDigest() -> String {
        let fresh = Self.makeStream(algorithm, key: key, iv: iv)
        let written = fresh.update(UnsafeRawBufferPointer(input), into: output)
        guard written == input.count else { fail("\(algorithm): update wrote \(written) of \(input.count) bytes") }
        let ciphertext = [UInt8](output[0..<written])
        guard ciphertext != [UInt8](input) else { fail("\(algorithm): the ciphertext equals the plaintext") }
        let plaintext = [UInt8](input)
        let oneShot: [UInt8]?
        do {
            switch algorithm {
            case .aes128CBC, .aes192CBC, .aes256CBC:
                oneShot = [UInt8](try AES.CBC.encrypt(plaintext, using: key, iv: iv, padding: .none))
            case .tripleDESCBC:
                oneShot = [UInt8](try Insecure.TripleDES.CBC.encrypt(plaintext, using: key, iv: iv, keying: .threeKey, padding: .none))
            case .aes128GCM, .aes192GCM, .aes256GCM:
                oneShot = [UInt8](try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: iv)).ciphertext)
            case .tripleDES2KeyCBC:
                oneShot = nil
            }
        } catch {
            fail("\(algorithm) one-shot: \(error)")
        }
        if let oneShot, oneShot != ciphertext { fail("\(algorithm): streaming and one-shot ciphertexts differ") }
        return hex(SHA256.hash(data: ciphertext).bytes)
    }
}

func streamingEncryption(_ algorithm: CipherAlgorithm, chunkBytes: Int) -> Benchmark {
    Benchmark(
        name: "\(algorithm.rawValue)-\(chunkBytes)",
        summary: "CipherStream(.\(algorithm), .encrypt, padding: .none).update(_:into:) of \(chunkBytes)-byte chunks, one stream,"
            + " one reused output buffer (as openssl speed -evp \(algorithm.rawValue)); result = SHA-256 of the first chunk's ciphertext",
        bytesPerOp: chunkBytes
    ) {
        let state = StreamingEncryption(algorithm, chunkBytes: chunkBytes)
        let result = state.firstChunkDigest()
        return Prepared(operation: { UInt8(truncatingIfNeeded: state.step()) }, result: result)
    }
}

/// One `AES.GCM.seal` per chunk with a 13-byte AAD — the sequence `openssl speed -aead -evp aes-256-gcm`
/// times (re-init with the IV, AAD, update, final). The nonce is fixed: a benchmark only, never do this
/// with real data. The result is the hex of the first seal's tag.
func aesGCMSeal(chunkBytes: Int) -> Benchmark {
    Benchmark(
        name: "aes-256-gcm-seal-\(chunkBytes)",
        summary: "AES.GCM.seal(_:using:nonce:authenticating:) of one \(chunkBytes)-byte message with a 13-byte AAD per operation"
            + " (as openssl speed -aead); result = the tag",
        bytesPerOp: chunkBytes
    ) {
        let key = SymmetricKey(data: patternBytes(32, seed: CipherBench.keySeed))
        let nonce: AES.GCM.Nonce
        do { nonce = try AES.GCM.Nonce(data: patternBytes(12, seed: CipherBench.ivSeed)) } catch { fail("nonce: \(error)") }
        let aad = [UInt8](repeating: 0xcc, count: 13)
        let message = patternBytes(chunkBytes, seed: CipherBench.inputSeed)
        func seal() -> AES.GCM.SealedBox {
            do { return try AES.GCM.seal(message, using: key, nonce: nonce, authenticating: aad) } catch { fail("AES.GCM.seal: \(error)") }
        }
        return Prepared(operation: { seal().tag.first! }, result: hex(seal().tag))
    }
}

// MARK: KDF

/// PBKDF2-HMAC-SHA256; password patternBytes(16, seed: 0x70), salt patternBytes(16, seed: 0x73).
/// The result is the derived key in hex.
func pbkdf2SHA256(iterations: Int, outputByteCount: Int) -> Benchmark {
    Benchmark(
        name: "pbkdf2-sha256-\(iterations)",
        summary: "KDF.PBKDF2.deriveKey(from:salt:using: .sha256, unsafeUncheckedIterations: \(iterations),"
            + " outputByteCount: \(outputByteCount)), 16-byte password and salt; result = the key"
    ) {
        let password = patternBytes(16, seed: 0x70)
        let salt = patternBytes(16, seed: 0x73)
        func derive() -> SymmetricKey {
            do {
                return try KDF.PBKDF2.deriveKey(
                    from: password, salt: salt, using: .sha256, unsafeUncheckedIterations: iterations, outputByteCount: outputByteCount)
            } catch {
                fail("PBKDF2: \(error)")
            }
        }
        return Prepared(operation: { derive().withUnsafeBytes { $0[0] } }, result: derive().withUnsafeBytes { hex($0) })
    }
}

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
        name: "jwe-dir-a256gcm-\(payloadBytes)", label: "JWE", payloadBytes: payloadBytes,
        summary: "JWE.encrypt(_:using:) (dir + A256GCM, compact) then JWE.decrypt(_:using:) of a random"
            + " \(payloadBytes)-byte Data, opened bytes checked; result = a token of the pattern payload",
        seal: { try JWE.encrypt($0, using: key) }, open: { try JWE.decrypt($0, using: key) })
}

func fernetRoundTrip(payloadBytes: Int) -> Benchmark {
    let fernet: Fernet
    do {
        fernet = try Fernet(key: Base64.encode(patternBytes(32, seed: EnvelopeBench.keySeed), alphabet: .url))
    } catch {
        fail("Fernet(key:): \(error)")
    }
    return envelopeRoundTrip(
        name: "fernet-\(payloadBytes)", label: "Fernet", payloadBytes: payloadBytes,
        summary: "Fernet(key: String).encrypt(_:) then .decrypt(_:) of a random \(payloadBytes)-byte Data,"
            + " opened bytes checked; result = a token of the pattern payload",
        seal: { try fernet.encrypt($0) }, open: { try fernet.decrypt($0) })
}

/// Seals a random payload and opens the token again per operation, checking the opened bytes.
func envelopeRoundTrip(
    name: String, label: String, payloadBytes: Int, summary: String,
    seal: @escaping @Sendable (Data) throws -> String, open: @escaping @Sendable (String) throws -> Data
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
            result: token)
    }
}

let benchmarks: [Benchmark] = [
    hmacSHA256(messageBytes: 64),
    hmacSHA256(messageBytes: 1024),
    sha256(messageBytes: 64),
    streamingEncryption(.aes256GCM, chunkBytes: 16384),
    aesGCMSeal(chunkBytes: 16384),
    streamingEncryption(.tripleDESCBC, chunkBytes: 16384),
    streamingEncryption(.aes256CBC, chunkBytes: 16384),
    pbkdf2SHA256(iterations: 600_000, outputByteCount: 32),
    jweRoundTrip(payloadBytes: 1024),
    fernetRoundTrip(payloadBytes: 1024),
    keychainLookup(itemCount: 1000),
    tlsHandshake(pinned: false),
    tlsHandshake(pinned: true),
]

// MARK: - Timing

/// Sink for result bytes, printed at the end so no operation is dead code.
nonisolated(unsafe) var sink: UInt8 = 0

let clock = ContinuousClock()

func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
}

/// User CPU time of this process so far (what `openssl speed` divides by, unless -elapsed).
func userCPUSeconds() -> Double {
    var usage = rusage()
    _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
}

/// Runs `operation` in batches until at least `target` seconds have passed; returns
/// (operations, elapsed wall seconds, elapsed user CPU seconds). The batch size starts at 1 and
/// grows so reading the clock costs nothing.
func runFor(_ target: Double, batch initialBatch: inout Int, _ operation: () -> UInt8) -> (Int, Double, Double) {
    var operations = 0
    var acc: UInt8 = 0
    let cpuStart = userCPUSeconds()
    let start = clock.now
    var elapsed = 0.0
    while elapsed < target {
        for _ in 0..<initialBatch { acc ^= operation() }
        operations += initialBatch
        elapsed = seconds(clock.now - start)
        // Aim for roughly 100 clock reads per second.
        if elapsed > 0, elapsed < target {
            let perSecond = Double(operations) / elapsed
            initialBatch = max(1, min(initialBatch * 4, Int(perSecond / 100)))
        }
    }
    let cpu = userCPUSeconds() - cpuStart
    sink ^= acc
    return (operations, elapsed, cpu)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Integers for large rates (as before), three decimals for small ones (slow operations).
func format(_ value: Double) -> String {
    if value >= 100 || value == 0 { return String(Int(value.rounded())) }
    let thousandths = Int((value * 1000).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

/// Seconds with nine significant-ish digits (nanosecond resolution).
func formatSeconds(_ value: Double) -> String {
    let nanoseconds = Int((value * 1e9).rounded())
    let fraction = String(nanoseconds % 1_000_000_000)
    return "\(nanoseconds / 1_000_000_000).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)"
}

func run(_ benchmark: Benchmark, options: Options) {
    let prepared = benchmark.prepare()
    let operation = prepared.operation
    let resultField = prepared.result.map { " result=\($0)" } ?? ""
    if let count = options.fixedOps {
        var acc: UInt8 = 0
        let start = clock.now
        for _ in 0..<count { acc ^= operation() }
        let elapsed = seconds(clock.now - start)
        sink ^= acc
        emit("\(benchmark.name) ops=\(count) seconds=\(elapsed)\(resultField)\n", to: 1)
        return
    }
    var batch = 1
    if options.warmupSeconds > 0 {
        _ = runFor(options.warmupSeconds, batch: &batch, operation)
    }
    var rates: [Double] = []
    var cpuRates: [Double] = []
    for round in 1...options.rounds {
        let (ops, elapsed, cpu) = runFor(options.roundSeconds, batch: &batch, operation)
        let rate = Double(ops) / elapsed
        rates.append(rate)
        // getrusage counts in microseconds (the kernel in ticks of its own): never divide by zero.
        cpuRates.append(Double(ops) / max(cpu, 1e-6))
        var detail = "\(ops) ops in \(elapsed) s (user CPU \(cpu) s) = \(format(rate)) ops/s"
        if benchmark.bytesPerOp > 0 { detail += ", \(format(rate * Double(benchmark.bytesPerOp) / 1_048_576)) MiB/s" }
        log("  \(benchmark.name) round \(round)/\(options.rounds): \(detail)")
    }
    let rate = median(rates)
    let cpuRate = median(cpuRates)
    var line = "\(benchmark.name) ops_per_sec=\(format(rate)) rounds=\(options.rounds)"
        + " round_seconds=\(options.roundSeconds) min=\(format(rates.min()!)) max=\(format(rates.max()!))"
        + " seconds_per_op=\(formatSeconds(1 / rate)) cpu_ops_per_sec=\(format(cpuRate))"
    if benchmark.bytesPerOp > 0 {
        let bytes = Double(benchmark.bytesPerOp)
        line += " bytes_per_op=\(benchmark.bytesPerOp) bytes_per_sec=\(format(rate * bytes)) cpu_bytes_per_sec=\(format(cpuRate * bytes))"
    }
    emit(line + resultField + "\n", to: 1)
}

// MARK: - Main

let options = parseOptions(CommandLine.arguments.dropFirst())
let selected = options.names.map { name in
    guard let benchmark = benchmarks.first(where: { $0.name == name }) else {
        fail("unknown benchmark '\(name)'\n\(usage())")
    }
    return benchmark
}
for benchmark in selected { run(benchmark, options: options) }
log("(sink \(sink))")
