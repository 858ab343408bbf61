#if canImport(Glibc)
import Glibc
#endif

/// How many threads of this process can run at once: the processors online, or fewer when the
/// CPU affinity mask allows fewer (`taskset -c 0 seccli …` gives 1), as `nproc` counts them.
enum AvailableProcessors {
    static var count: Int {
        let online = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        guard let allowed = allowedByAffinity() else { return online }
        return max(1, min(online, allowed))
    }

    /// The processors in the affinity mask; nil when the mask cannot be read (then every online
    /// processor counts).
    private static func allowedByAffinity() -> Int? {
        // sched_getaffinity is a GNU extension, which the Glibc module does not import without
        // _GNU_SOURCE; it is looked up in libc instead.
        typealias GetAffinity = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
        guard let symbol = dlsym(nil, "sched_getaffinity") else { return nil }
        let getAffinity = unsafeBitCast(symbol, to: GetAffinity.self)
        var mask = cpu_set_t()
        let result = withUnsafeMutableBytes(of: &mask) { getAffinity(0, $0.count, $0.baseAddress!) }
        guard result == 0 else { return nil }
        return withUnsafeBytes(of: mask) { bytes in bytes.reduce(0) { $0 + $1.nonzeroBitCount } }
    }
}
