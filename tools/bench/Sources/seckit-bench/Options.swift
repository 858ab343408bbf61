// Command line, usage and output helpers of seckit-bench.

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
