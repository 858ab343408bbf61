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
