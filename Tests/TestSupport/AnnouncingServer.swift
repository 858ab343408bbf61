import Foundation

/// A server process that prints `listening on [HOST:]PORT` on its first line once it accepts
/// connections (the `seckit-mtls-server` example, the hostile Python peers). Killed when the test
/// process exits, like every test server.
public final class AnnouncingServer: @unchecked Sendable {
    private let server: ServerProcess
    public let port: Int

    /// Starts `executable` with `arguments` in `directory` and waits for its first line; its
    /// standard error goes to `errors` (a log file), or nowhere.
    public init(_ executable: String, _ arguments: [String], in directory: URL, errors: URL? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.currentDirectoryURL = directory
        process.arguments = arguments
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = try errors.map { try FileHandle(forWritingTo: $0) } ?? FileHandle.nullDevice
        let server = try ServerProcess(running: process)
        var line = ""
        while !line.hasSuffix("\n") {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else {
                server.stop()
                let log = errors.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
                throw ProcessRunnerError(
                    description: "\(executable) exited with \(process.terminationStatus) before it listened \(log)"
                )
            }
            line += String(decoding: byte, as: UTF8.self)
        }
        let last = line.split(whereSeparator: { $0 == ":" || $0 == " " }).last
        guard line.hasPrefix("listening on "),
            let port = last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else {
            server.stop()
            throw ProcessRunnerError(description: "unexpected first line of \(executable): \(line)")
        }
        self.server = server
        self.port = port
    }

    /// The running process, for the signals a test sends it (SIGHUP, SIGTERM) and its exit status.
    public var process: Process { server.process }

    /// Stops the server (`ServerProcess.stop()`) and waits for it. Idempotent.
    public func stop() { server.stop() }
}
