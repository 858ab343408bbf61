import SecCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
/// (operations, elapsed wall seconds, elapsed user CPU seconds), each call counting
/// `operationsPerCall`. The batch size starts at 1 and grows so reading the clock costs nothing.
func runFor(
    _ target: Double,
    batch initialBatch: inout Int,
    operationsPerCall: Int,
    _ operation: () -> UInt8
) -> (Int, Double, Double) {
    var operations = 0
    var acc: UInt8 = 0
    let cpuStart = userCPUSeconds()
    let start = clock.now
    var elapsed = 0.0
    while elapsed < target {
        for _ in 0..<initialBatch { acc ^= operation() }
        operations += initialBatch * operationsPerCall
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
    let perCall = prepared.operationsPerCall
    if let count = options.fixedOps {
        var acc: UInt8 = 0
        let start = clock.now
        let calls = (count + perCall - 1) / perCall
        for _ in 0..<calls { acc ^= operation() }
        let elapsed = seconds(clock.now - start)
        sink ^= acc
        emit("\(benchmark.name) ops=\(calls * perCall) seconds=\(elapsed)\(resultField)\n", to: 1)
        return
    }
    var batch = 1
    if options.warmupSeconds > 0 {
        _ = runFor(options.warmupSeconds, batch: &batch, operationsPerCall: perCall, operation)
    }
    var rates: [Double] = []
    var cpuRates: [Double] = []
    for round in 1...options.rounds {
        let (ops, elapsed, cpu) = runFor(options.roundSeconds, batch: &batch, operationsPerCall: perCall, operation)
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
    var line =
        "\(benchmark.name) ops_per_sec=\(format(rate)) rounds=\(options.rounds)"
        + " round_seconds=\(options.roundSeconds) min=\(format(rates.min()!)) max=\(format(rates.max()!))"
        + " seconds_per_op=\(formatSeconds(1 / rate)) cpu_ops_per_sec=\(format(cpuRate))"
    if benchmark.bytesPerOp > 0 {
        let bytes = Double(benchmark.bytesPerOp)
        line +=
            " bytes_per_op=\(benchmark.bytesPerOp) bytes_per_sec=\(format(rate * bytes)) cpu_bytes_per_sec=\(format(cpuRate * bytes))"
    }
    emit(line + resultField + "\n", to: 1)
}
