import ArgumentParser
import SecKit

extension SecCLI {
    struct AuditCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audit",
            abstract: "Check and read the audit log of credential access (SECKIT_AUDIT_LOG).",
            discussion: """
                With SECKIT_AUDIT_LOG=PATH set, every read, write and delete that seccli (or a program \
                using SecKeychain's auditedIfConfigured()) makes in a credential store appends one JSON \
                line to PATH: time, operation, backend, the item's attributes, result, pid, uid and \
                executable, never a secret; each line holds the SHA-256 of the line before it. \
                SECKIT_AUDIT_LOG_ROTATE_BYTES sets the size past which PATH is rotated to PATH.1 \
                (default 10 MiB; 5 rotated files are kept).

                \(ExitStatus.help(for: "audit"))
                """,
            subcommands: [AuditVerify.self, AuditShow.self]
        )
    }
}

/// The log a command reads, with its rotated files.
struct AuditLogArgument: ParsableArguments {
    @Argument(
        help: ArgumentHelp("The audit log (its rotated files PATH.1, PATH.2, … are read too).", valueName: "path")
    )
    var path: String

    var log: AuditLog { AuditLog(path: path) }

    /// Runs `body`; a log that cannot be read is a `Failure` with exit code 2 naming it.
    func reading<T>(_ body: (AuditLog) throws(KeychainError) -> T) throws -> T {
        do { return try body(log) } catch .notFound {
            throw Failure(message: "\(path): no such audit log", exitCode: .dataError)
        } catch {
            throw Failure(message: error.description, exitCode: .dataError)
        }
    }
}
