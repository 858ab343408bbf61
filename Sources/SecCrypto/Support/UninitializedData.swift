#if canImport(Glibc)
internal import Glibc
#endif

extension Data {
    /// `count` bytes written by `initializer`, in one allocation that is not zero-filled first (for a
    /// cipher's output, which overwrites every byte). If `initializer` throws, the bytes are wiped and
    /// freed.
    package init<E: Error>(
        uninitializedCount count: Int,
        initializingWith initializer: (UnsafeMutableRawBufferPointer) throws(E) -> Void
    ) throws(E) {
        guard count > 0 else {
            try initializer(UnsafeMutableRawBufferPointer(start: nil, count: 0))
            self.init()
            return
        }
        guard let memory = malloc(count) else { fatalError("SecKit: out of memory for \(count) bytes") }
        let buffer = UnsafeMutableRawBufferPointer(start: memory, count: count)
        do {
            try initializer(buffer)
        } catch {
            secureZero(buffer)
            free(memory)
            throw error
        }
        self.init(bytesNoCopy: memory, count: count, deallocator: .free)
    }
}
