import SecKit

#if canImport(Glibc)
import Glibc
#endif

/// Writes a secret read from a store to standard output exactly as stored; a newline follows only
/// when standard output is a terminal (where a person reads it), never into a pipe or a file.
enum SecretOutput {
    static func write(_ secret: SecureBytes) throws {
        let output = DescriptorOutput.standardOutput()
        try secret.withUnsafeBytes { try output.write($0) }
        if isatty(STDOUT_FILENO) == 1 {
            try output.write(data: Data([UInt8(ascii: "\n")]))
        }
    }
}
