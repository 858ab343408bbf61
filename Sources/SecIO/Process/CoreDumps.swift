import SecCrypto

#if canImport(Glibc)
import Glibc
#endif

/// Core dumps of a process that holds secrets, as ssh-agent and gpg-agent keep them off.
///
/// A crash with core dumps enabled (`ulimit -c unlimited`, or a system crash collector) writes the
/// whole address space to disk: passwords, keys and plaintext that SecKit would have wiped a moment
/// later. `seccli` turns them off before it reads anything; a service calls `disable()` once at
/// start-up, before it loads a key.
public enum CoreDumps {
    /// Turns core dumps off for the rest of this process's life: the core size limit is set to 0
    /// (soft and hard, so a child cannot raise it again) and the process is marked not dumpable
    /// (`prctl(PR_SET_DUMPABLE, 0)`), which also covers crash collectors that ignore the limit.
    /// Being not dumpable also stops other processes of the same user from attaching a debugger
    /// (`ptrace`) and from reading `/proc/PID/mem` or `/proc/PID/environ`; root still can. It does
    /// not survive `exec` into another program.
    ///
    /// - Throws: ``FileError`` with the `errno` of `setrlimit`, naming `core dump limit`, when the
    ///   limit cannot be set; naming `prctl(PR_SET_DUMPABLE)`, with the `errno` of `prctl`, when the
    ///   process cannot be marked, or without `code` when libc has no `prctl`. The limit may already
    ///   be 0 when the mark fails.
    public static func disable() throws(FileError) {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        guard setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) == 0 else {
            throw FileError(path: "core dump limit", code: errno)
        }
        // prctl is variadic, which Swift does not import; it is looked up in libc and called with
        // its five integer arguments (the calling convention is the same for integer arguments).
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        let setDumpable: Int32 = 4  // PR_SET_DUMPABLE in <linux/prctl.h>, which Glibc does not import
        guard let symbol = dlsym(nil, "prctl") else {
            throw FileError(path: "prctl(PR_SET_DUMPABLE)", reason: "prctl not found in libc")
        }
        guard unsafeBitCast(symbol, to: Prctl.self)(setDumpable, 0, 0, 0, 0) == 0 else {
            throw FileError(path: "prctl(PR_SET_DUMPABLE)", code: errno)
        }
    }
}
