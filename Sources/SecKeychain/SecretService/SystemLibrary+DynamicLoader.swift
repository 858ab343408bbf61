internal import CLibSecret
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A shared library of the system that SecKeychain loads at its first use (`dlopen`) and calls
/// through a table of its functions (CLibSecret's shim.h says why it is not linked). It stays
/// loaded until the process ends.
final class SystemLibrary<Functions>: Sendable {
    private let soname: String
    /// What a user knows the library as, for errors.
    private let name: String
    /// The Debian and Ubuntu package that installs it.
    private let package: String
    /// Which version has every function in the table.
    private let requirement: String
    /// CLibSecret's resolver of the table.
    private let resolve: @Sendable (UnsafeMutableRawPointer, UnsafeMutablePointer<Functions>) -> Int32
    private let table = Mutex<Functions?>(nil)

    init(
        soname: String,
        name: String,
        package: String,
        requirement: String,
        resolve: @escaping @Sendable (UnsafeMutableRawPointer, UnsafeMutablePointer<Functions>) -> Int32
    ) {
        self.soname = soname
        self.name = name
        self.package = package
        self.requirement = requirement
        self.resolve = resolve
    }

    /// The library's functions, loading it first when this is the process's first use.
    ///
    /// - Throws: ``KeychainError/backendFailure(_:)`` naming the library and the package to install
    ///   when it cannot be loaded, or the version needed when it lacks a function. A failure is not
    ///   kept: the next call tries again (`dlopen` can also fail for a moment, out of file
    ///   descriptors or memory).
    @discardableResult
    func load() throws(KeychainError) -> Functions {
        try table.withLock { (table) throws(KeychainError) in
            if let table { return table }
            let functions = try open()
            table = functions
            return functions
        }
    }

    /// The functions when a `load()` has loaded the library, else nil (without loading it).
    var functionsIfLoaded: Functions? { table.withLock { $0 } }

    private func open() throws(KeychainError) -> Functions {
        // RTLD_NOW: GIO, GLib and libsecret are linked BIND_NOW anyway, and a missing symbol should
        // fail here, not in the middle of an operation.
        guard let library = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            throw .backendFailure(
                "\(name) could not be loaded (\(Self.loaderMessage)): install it (Debian and Ubuntu: \(package))"
            )
        }
        // Zeroed, then filled one entry after the other by the resolver (C function pointers, no Swift values).
        let functions = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Functions>.size,
            alignment: MemoryLayout<Functions>.alignment
        )
        defer { functions.deallocate() }
        functions.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<Functions>.size)
        let table = functions.bindMemory(to: Functions.self, capacity: 1)
        guard resolve(library, table) != 0 else {
            // The message first: dlclose may reset it. Closed so that the next call's retry does
            // not add a reference to a library that will never be used.
            let message = Self.loaderMessage
            dlclose(library)
            throw .backendFailure("\(name) lacks a function SecKit needs (\(message)): \(requirement)")
        }
        return table.pointee
    }

    private static var loaderMessage: String { dlerror().map { String(cString: $0) } ?? "unknown reason" }
}

/// GIO's D-Bus calls, GObject and GLib, which every Secret Service operation uses: loaded by a
/// process's first one (`SecretServiceSession`).
let glibLibrary = SystemLibrary<SecKitGLib>(
    soname: "libgio-2.0.so.0",
    name: "GIO",
    package: "libglib2.0-0",
    requirement: "GLib 2.32 or newer is needed",
    resolve: { seckit_glib_resolve($0, $1) }
)

/// libsecret, which writes use: loaded by a process's first write (`SecretServiceWriter`).
let libsecretLibrary = SystemLibrary<SecKitLibSecret>(
    soname: "libsecret-1.so.0",
    name: "libsecret",
    package: "libsecret-1-0",
    requirement: "libsecret 0.18 or newer is needed",
    resolve: { seckit_libsecret_resolve($0, $1) }
)

/// GIO's, GObject's and GLib's functions, for the code that runs once `glibLibrary` is loaded: read
/// from it at the first use (Swift initialises a global once), since the table never changes after
/// its load; each call then costs no lock.
let glib: SecKitGLib = {
    guard let functions = glibLibrary.functionsIfLoaded else { preconditionFailure("GIO called before its load") }
    return functions
}()
