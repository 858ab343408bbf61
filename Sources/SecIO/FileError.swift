#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An error thrown by SecIO: a file, folder or descriptor that could not be opened, read or
/// written (or the process's core-dump setting, which ``CoreDumps`` makes through the same kind of
/// system call). Its description is one readable line, the path and then why, as `cat` and
/// `sha256sum` word theirs.
///
/// Not `IOError`: SwiftNIO's NIOCore has a type of that name, and a service imports both.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or folder concerned, `-` for standard input, or the process setting
    /// (`core dump limit`).
    public let path: String
    /// Why: the system's message for ``code``, or SecKit's own reason when it refused by itself.
    public let reason: String
    /// The `errno` value of the system call that failed; nil when SecKit refused by itself (a
    /// symbolic link it does not follow, a file over a size limit).
    public let code: Int32?

    /// An error for a system call that failed, worded as the system words `code`.
    ///
    /// - Parameters:
    ///   - path: The file, folder or setting concerned.
    ///   - code: The call's `errno` value.
    public init(path: String, code: Int32) {
        self.path = path
        self.reason = String(cString: strerror(code))
        self.code = code
    }

    /// An error SecKit raises itself, for a reason no system call gave.
    ///
    /// - Parameters:
    ///   - path: The file, folder or setting concerned.
    ///   - reason: Why, as one line.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
        self.code = nil
    }

    public var description: String { "\(path): \(reason)" }
}
