import Foundation
import Testing

/// Running the executables under test. `Tools.seccli` is the tests' one way to run `seccli`, from any
/// test target (seccliTests adds the reference tools, `openssl`, `sha256sum`, …, in an extension).
public enum Tools {
    /// The `seccli` the tests run: `$SECCLI` (tools/test's cli phase points it at the release build
    /// users install), else the debug one built next to the test bundle.
    public static let seccliPath: String? = {
        ProcessInfo.processInfo.environment["SECCLI"] ?? BuiltExecutable.path("seccli")
    }()

    /// `seccliPath`, for a test that hands the path to a script or a debugger; a failed requirement
    /// (not a skip) when seccli was not built.
    public static func seccliExecutable(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(
            seccliPath,
            "seccli not found next to the test bundle (\(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path)); build with --build-tests or set SECCLI",
            sourceLocation: sourceLocation
        )
    }

    /// What a run of seccli must end with, checked by `seccli(…, expecting:)`.
    public enum Outcome: Sendable, Equatable {
        /// Exit 0 and nothing on standard error.
        case success
        /// This exit status, whatever is on standard error.
        case status(Int32)
    }

    /// Runs `seccli arguments` and returns what it left behind.
    ///
    /// - Parameters:
    ///   - stdin: bytes for standard input; nil connects it to /dev/null.
    ///   - environment: added to the test process's own (and `LC_ALL=C`); `unsetting` removed from it.
    ///   - extraInput: one more descriptor for `fd:N` sources.
    ///   - mergingStandardError: standard error into standard output (`2>&1`), to see both in the order written.
    ///   - directory: the working directory.
    ///   - launcher: a command seccli runs under (`["taskset", "-c", "0"]`, `["gdb", …, "--args"]`).
    ///   - outcome: when given, the run must end so (a failed requirement names the command and its
    ///     standard error); nil leaves the checks to the caller.
    @discardableResult
    public static func seccli(
        _ arguments: [String],
        stdin: [UInt8]? = nil,
        environment: [String: String] = [:],
        unsetting: Set<String> = [],
        extraInput: ProcessRunner.ExtraInput? = nil,
        mergingStandardError: Bool = false,
        in directory: Scratch? = nil,
        under launcher: [String] = [],
        timeout: Duration = .seconds(60),
        expecting outcome: Outcome? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        var command = [try seccliExecutable(sourceLocation: sourceLocation)] + arguments
        if mergingStandardError { command = ["sh", "-c", #""$0" "$@" 2>&1"#] + command }
        command = launcher + command
        let result = try ProcessRunner.run(
            command[0],
            Array(command.dropFirst()),
            stdin: stdin,
            environment: environment,
            unsetting: unsetting,
            extraInput: extraInput,
            currentDirectory: directory?.path,
            timeout: timeout
        )
        let status: Int32? =
            switch outcome {
            case .success: 0
            case .status(let status): status
            case nil: nil
            }
        if let status {
            try #require(
                result.status == status,
                "seccli \(arguments.joined(separator: " ")) exited \(result.status), not \(status): \(result.stderr)",
                sourceLocation: sourceLocation
            )
        }
        if outcome == .success {
            #expect(
                result.stderr.isEmpty,
                "seccli \(arguments.joined(separator: " ")) wrote to standard error: \(result.stderr)",
                sourceLocation: sourceLocation
            )
        }
        return result
    }
}
