import ArgumentParser

extension SecCLI {
    struct TLSCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tls",
            abstract: "Diagnose TLS servers.",
            subcommands: [TLSDoctor.self]
        )
    }
}
