import Foundation

/// What a peer program printed and how it exited.
struct PeerResult: Sendable {
    var status: Int32
    var stdout: Data
    var stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

struct PeerUnavailable: Error, CustomStringConvertible {
    let description: String
}

/// Runs the interop peers of Tests/Peers (`python3 jose_peer.py …`, `php legacy_server.php …`) with
/// Foundation's `Process`: stdin bytes in, stdout/stderr/exit status out, keys in the environment.
/// A missing interpreter or Python module throws `PeerUnavailable`: the tests fail, they never skip.
enum Peer {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Peers")

    static func run(
        _ interpreter: String, _ script: String, _ arguments: [String], stdin: Data = Data(), environment: [String: String]
    ) throws -> PeerResult {
        let executable = interpreter == "python3" ? try python3.get() : interpreter
        let result = try launch(executable, [directory.appendingPathComponent(script).path] + arguments, stdin: stdin, environment: environment)
        let missing = ["ModuleNotFoundError", "can't open file", "Could not open input file"]  // a module, a .py, a .php
        if result.status == 127 || missing.contains(where: result.stderr.contains) {
            throw PeerUnavailable(description: """
                cannot run \(interpreter) \(script) (exit \(result.status)): \(result.stderr)
                The interop tests need python3 with joserfc and cryptography, and php-cli: run tools/install-deps.
                """)
        }
        return result
    }

    /// `python3` resolved once: pyenv's `python3` is a shell shim that costs about 0.1 s a call.
    private static let python3 = Result { () throws -> String in
        let found = try launch("python3", ["-c", "import sys; sys.stdout.write(sys.executable)"], stdin: Data(), environment: [:])
        guard found.status == 0, !found.stdout.isEmpty else {
            throw PeerUnavailable(description: "python3 is not on PATH (exit \(found.status)): \(found.stderr) Run tools/install-deps.")
        }
        return found.text
    }

    /// Runs `executable` (looked up on PATH by env) with only the keys the test gives in the environment.
    private static func launch(_ executable: String, _ arguments: [String], stdin: Data, environment: [String: String]) throws -> PeerResult {
        _ = ignoreSIGPIPE
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        // Nothing inherited may pick another key (JOSE_KEYSET_JSON wins over JOSE_KEY_HEX).
        let inherited = ProcessInfo.processInfo.environment.filter { !["JOSE_", "FERNET_", "LEGACY_"].contains(where: $0.key.hasPrefix) }
        process.environment = inherited.merging(environment) { $1 }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        let group = DispatchGroup(), stderr = Box()
        DispatchQueue.global().async(group: group) {
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        DispatchQueue.global().async(group: group) { stderr.data = errors.fileHandleForReading.readDataToEndOfFile() }
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return PeerResult(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr.data, as: UTF8.self))
    }

    private final class Box: @unchecked Sendable { var data = Data() }

    /// A peer that exits before reading all of its input must not kill the test process.
    private static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}
