// keychain-stress: one writer process of Tests/SecKeychainTests/ConcurrentWritersTests.swift, a
// separate OS process that contends with the other writers only through the store's own locking.
//
//     keychain-stress --backend file|secret-service [--store PATH] --service S --writer W
//                     --writers COUNT --upserts N --shared K --barrier PATH
//
// It opens the store once (the file backend derives its key once, from the master password in
// $KEYCHAIN_STRESS_PASSWORD) and reads shared identity 0, which the test stored beforehand (this
// pays the key derivation and the D-Bus connection before the start). Then it waits at the barrier
// until all COUNT writers are ready, so that they start together, and for i in 1...N upserts
// "w<W>-i<i>" under slot i % (K + 1) of service S: account "shared-<slot>" for slot < K, account
// "own-<W>" for slot K. After each upsert it reads account "shared-<i % K>": every shared identity
// exists from the start, so not finding one means an upsert left a moment without the item.
// Exit 0 when every operation succeeded; otherwise 1 and one line on standard error.
import Foundation
import SecCrypto
import SecIO
import SecKeychain

#if canImport(Glibc)
import Glibc
#endif

struct StressFailure: Error, CustomStringConvertible {
    let description: String
}

/// The `--name value` pairs of the command line.
struct StressOptions {
    private let values: [String: String]

    init(_ arguments: [String]) throws {
        guard arguments.count.isMultiple(of: 2) else {
            throw StressFailure(description: "options come in --name value pairs")
        }
        var values: [String: String] = [:]
        for index in stride(from: 0, to: arguments.count, by: 2) {
            guard arguments[index].hasPrefix("--") else {
                throw StressFailure(description: "expected an option, got \(arguments[index])")
            }
            values[String(arguments[index].dropFirst(2))] = arguments[index + 1]
        }
        self.values = values
    }

    func string(_ name: String) throws -> String {
        guard let value = values[name] else { throw StressFailure(description: "--\(name) is missing") }
        return value
    }

    func number(_ name: String) throws -> Int {
        guard let value = Int(try string(name)), value > 0 else {
            throw StressFailure(description: "--\(name) needs a positive number")
        }
        return value
    }
}

func makeStore(_ options: StressOptions) throws -> any CredentialStore {
    switch try options.string("backend") {
    case "file":
        try EncryptedFileStore(
            path: options.string("store"),
            password: SecretSource.environment("KEYCHAIN_STRESS_PASSWORD").read()
        )
    case "secret-service": SecretServiceStore()
    case let other: throw StressFailure(description: "unknown backend \(other)")
    }
}

/// Appends one byte to the barrier file, then waits until it holds one byte per writer.
func waitAtBarrier(_ path: String, writers: Int) throws {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0, write(descriptor, "x", 1) == 1 else {
        throw StressFailure(description: "barrier \(path): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
    let deadline = ContinuousClock.now + .seconds(60)
    var info = stat()
    while stat(path, &info) == 0, info.st_size < writers {
        guard ContinuousClock.now < deadline else {
            throw StressFailure(description: "the other writers did not arrive at the barrier within 60 s")
        }
        usleep(500)
    }
}

func stress(_ options: StressOptions) throws {
    let service = try options.string("service")
    let writer = try options.number("writer")
    let upserts = try options.number("upserts")
    let shared = try options.number("shared")
    let store = try makeStore(options)
    func identity(slot: Int) -> CredentialIdentity {
        .genericPassword(service: service, account: slot < shared ? "shared-\(slot)" : "own-\(writer)")
    }
    let timeout = Duration.seconds(60)
    _ = try store.secret(for: identity(slot: 0), timeout: timeout)
    try waitAtBarrier(options.string("barrier"), writers: options.number("writers"))
    for iteration in 1...upserts {
        let target = identity(slot: iteration % (shared + 1))
        do {
            try store.upsert(target, string: "w\(writer)-i\(iteration)", timeout: timeout)
        } catch {
            throw StressFailure(description: "writer \(writer), upsert \(iteration) of \(target.account): \(error)")
        }
        let observed = identity(slot: iteration % shared)
        do {
            _ = try store.secret(for: observed, timeout: timeout)
        } catch {
            throw StressFailure(
                description: "writer \(writer), read after upsert \(iteration) of \(observed.account): \(error)"
            )
        }
    }
}

do {
    try stress(StressOptions(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("keychain-stress: \(error)\n".utf8))
    exit(1)
}
