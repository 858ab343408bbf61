import ArgumentParser
import SecKit

extension SecCLI.AuditCommand {
    struct AuditVerify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check the audit log's hash chain and name the first broken line.",
            discussion: """
                Every line must be a record whose SHA-256 of the previous line and sequence number follow \
                the line before it, through the rotated files (oldest first) into PATH. An edited line \
                breaks the chain at the next line; a deleted or moved one at the line after the gap. \
                Prints 'PATH: N records, chain intact' and exits 0, or names the file and line and exits 1. \
                The last line is protected once another follows it.
                """
        )

        @OptionGroup var log: AuditLogArgument

        func run() throws {
            let verification = try log.reading { (log) throws(KeychainError) in try log.verify() }
            if let broken = verification.broken {
                throw Failure(
                    message: "\(broken) (\(verification.records) records before it are intact)",
                    exitCode: .checkFailed
                )
            }
            let start = verification.firstSequence.map {
                $0 > 1 ? ", from record \($0) (older files rotated away)" : ""
            }
            print("\(UntrustedText.escaped(log.path)): \(verification.records) records, chain intact\(start ?? "")")
        }
    }
}
