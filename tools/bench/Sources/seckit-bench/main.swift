// seckit-bench: in-process micro-benchmarks of SecCrypto. A tool, never a test: it prints
// numbers and asserts nothing. Each benchmark prints one machine-readable line on stdout:
//
//   hmac-sha256-64 ops_per_sec=1234567 rounds=5 round_seconds=1.0 min=... max=...
//
// ops_per_sec is the median over the timed rounds. Progress and details go to stderr.
import SecCrypto

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
    (default 5) of about S seconds each (default 1), timed with ContinuousClock, and prints
    '<name> ops_per_sec=<median> ...' on stdout.

    --ops COUNT runs exactly COUNT operations once, with no warm-up, for profilers: with
    callgrind, (Ir at COUNT2 - Ir at COUNT1) / (COUNT2 - COUNT1) is the cost of one operation.

    Benchmarks:
    \(benchmarks.map { "  \($0.name + String(repeating: " ", count: max(1, 18 - $0.name.count)))\($0.summary)" }.joined(separator: "\n"))
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

/// One benchmark: `prepare` builds the inputs once and returns the operation to time.
/// The operation returns a byte of its result so the work cannot be optimised away.
struct Benchmark: Sendable {
    let name: String
    let summary: String
    let prepare: @Sendable () -> () -> UInt8
}

/// Deterministic, non-trivial bytes (the values do not matter for timing).
func patternBytes(_ count: Int, seed: UInt8) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
}

func hmacSHA256(messageBytes: Int) -> Benchmark {
    Benchmark(
        name: "hmac-sha256-\(messageBytes)",
        summary: "HMAC<SHA256>.authenticationCode(for:using:), \(messageBytes)-byte message, 32-byte key"
    ) {
        let key = SymmetricKey(data: patternBytes(32, seed: 7))
        let message = patternBytes(messageBytes, seed: 1)
        return { HMAC<SHA256>.authenticationCode(for: message, using: key).bytes[0] }
    }
}

func sha256(messageBytes: Int) -> Benchmark {
    Benchmark(name: "sha256-\(messageBytes)", summary: "SHA256.hash(data:), \(messageBytes)-byte message") {
        let message = patternBytes(messageBytes, seed: 1)
        return { SHA256.hash(data: message).bytes[0] }
    }
}

let benchmarks: [Benchmark] = [
    hmacSHA256(messageBytes: 64),
    hmacSHA256(messageBytes: 1024),
    sha256(messageBytes: 64),
]

// MARK: - Timing

/// Sink for result bytes, printed at the end so no operation is dead code.
nonisolated(unsafe) var sink: UInt8 = 0

let clock = ContinuousClock()

func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
}

/// Runs `operation` in batches until at least `target` seconds have passed; returns
/// (operations, elapsed seconds). The batch size grows so reading the clock costs nothing.
func runFor(_ target: Double, batch initialBatch: inout Int, _ operation: () -> UInt8) -> (Int, Double) {
    var operations = 0
    var acc: UInt8 = 0
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
    sink ^= acc
    return (operations, elapsed)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

func format(_ value: Double) -> String { String(Int(value.rounded())) }

func run(_ benchmark: Benchmark, options: Options) {
    let operation = benchmark.prepare()
    if let count = options.fixedOps {
        var acc: UInt8 = 0
        let start = clock.now
        for _ in 0..<count { acc ^= operation() }
        let elapsed = seconds(clock.now - start)
        sink ^= acc
        emit("\(benchmark.name) ops=\(count) seconds=\(elapsed)\n", to: 1)
        return
    }
    var batch = 16
    if options.warmupSeconds > 0 {
        _ = runFor(options.warmupSeconds, batch: &batch, operation)
    }
    var rates: [Double] = []
    for round in 1...options.rounds {
        let (ops, elapsed) = runFor(options.roundSeconds, batch: &batch, operation)
        let rate = Double(ops) / elapsed
        rates.append(rate)
        log("  \(benchmark.name) round \(round)/\(options.rounds): \(ops) ops in \(elapsed) s = \(format(rate)) ops/s")
    }
    let line = "\(benchmark.name) ops_per_sec=\(format(median(rates))) rounds=\(options.rounds)"
        + " round_seconds=\(options.roundSeconds) min=\(format(rates.min()!)) max=\(format(rates.max()!))"
    emit(line + "\n", to: 1)
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
