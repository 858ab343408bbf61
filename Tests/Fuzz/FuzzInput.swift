// Shared by every fuzz target (tools/fuzz compiles it into each one). Not part of the package:
// SwiftPM cannot link libFuzzer, so tools/fuzz builds these files with swiftc.

/// The bytes libFuzzer hands a target, and the ways the targets read them.
struct FuzzInput {
    private(set) var bytes: UnsafeBufferPointer<UInt8>

    init(_ start: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = UnsafeBufferPointer(start: start, count: count)
    }

    /// Takes the first byte to choose one of `count` cases, so that one target covers a family of
    /// parsers that share their inputs (0 for an empty input).
    mutating func choose(among count: Int) -> Int {
        guard let first = bytes.first else { return 0 }
        bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst())
        return Int(first) % count
    }

    /// The rest as text, as a caller that decodes untrusted UTF-8 would get it.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    var array: [UInt8] { Array(bytes) }
}

/// Stops the run when a property every input must keep is broken: libFuzzer records the input.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz property broken: \(message())") }
}
