import ArgumentParser
import SecKit

/// `encrypt` and `decrypt`: the same options and the same work, in one direction or the other.
protocol CipherCommand: ParsableCommand {
    static var direction: CipherStream.Direction { get }
    var options: CipherOptions { get }
}

extension CipherCommand {
    func runCipher() throws {
        if options.resolvedFormat.isEnvelope {
            try runSealed()
        } else {
            try runStream()
        }
    }

    /// Where the output goes. A regular (or new) --out file, or the file a link names, is replaced
    /// atomically (`atomic`); anything else (standard output, a device such as /dev/null, a FIFO,
    /// /dev/fd/N) is written in place.
    func destination() throws -> (sink: ByteSink, atomic: Bool) {
        guard let outputPath = options.outputPath else { return (DescriptorOutput.standardOutput(), false) }
        let sink = try FileDestination.open(outputPath)
        return (sink, sink is AtomicFileOutput)
    }
}
