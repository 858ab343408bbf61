import Foundation
import TestSupport
import Testing

/// seccli stays lean: none of SecKit's SwiftNIO products (nor swift-nio-ssl's BoringSSL, Vapor
/// or gRPC) is linked into it, nor swift-corelibs Foundation with ICU (FoundationEssentials is
/// enough for SecKit's modules; one `import Foundation` in a module seccli uses links both, and
/// every start pays their relocations). Read from the binary's symbol table, where every Swift
/// symbol names its module; the seckit-fetch and seckit-grpc-echo examples, which do link NIO and
/// gRPC, and FoundationEssentials, which seccli does link, show the check can see them.
@Suite struct LinkageTests {
    static let nioModules = [
        "7NIOCore", "6NIOSSL", "CNIOBoringSSL", "15AsyncHTTPClient", "11Hummingbird", "5Vapor", "11SecKitVapor",
        "8GRPCCore",
        "10SecKitGRPC",
    ]

    func definedSymbols(_ path: String) throws -> String {
        let symbols = try ProcessRunner.run("nm", ["--defined-only", path]).requiringSuccess(of: "nm").stdoutText
        // A stripped binary would pass for want of symbols.
        try #require(symbols.contains("ArgumentParser") || symbols.contains("7NIOCore"), "\(path) has no symbol table")
        return symbols
    }

    func linkedNIOModules(_ path: String) throws -> [String] {
        let symbols = try definedSymbols(path)
        return Self.nioModules.filter { symbols.contains($0) }
    }

    @Test func seccliLinksNoNIO() throws {
        let seccli = try Tools.seccliExecutable()
        #expect(try linkedNIOModules(seccli) == [])
        // The positive control: the check finds NIO where it is linked.
        #expect(try linkedNIOModules(try BuiltExecutable.require("seckit-fetch")).contains("7NIOCore"))
        let grpc = try linkedNIOModules(try BuiltExecutable.require("seckit-grpc-echo"))
        #expect(grpc.contains("8GRPCCore") && grpc.contains("10SecKitGRPC"))
    }

    /// Which of swift-corelibs-foundation's modules `path` links: statically (a Swift symbol names
    /// its module, length first) or as a shared library (the debug build).
    func linkedFoundationModules(_ path: String) throws -> [String] {
        let symbols = try definedSymbols(path)
        let dynamic = try ProcessRunner.run("readelf", ["-d", path]).requiringSuccess(of: "readelf").stdoutText
        return ["Foundation", "FoundationEssentials", "FoundationInternationalization"].filter {
            symbols.contains("\($0.count)\($0)") || dynamic.contains("[lib\($0).so]")
        }
    }

    @Test func seccliLinksFoundationEssentialsOnly() throws {
        // FoundationEssentials, which SecKit's modules use, is also the check's positive control;
        // Foundation proper would bring FoundationInternationalization and ICU with it.
        #expect(try linkedFoundationModules(try Tools.seccliExecutable()) == ["FoundationEssentials"])
    }

    /// libssl is loaded by the commands that negotiate TLS only (SecTLS's first TLS context; COpenSSL's
    /// shim.h says why): the binary does not name it, and `--version` and a file-backend `cred get`
    /// never map it (the Secret Service's `cred get`: CredLibraryLoadingTests). Read from the dynamic
    /// loader's own trace (glibc's `LD_DEBUG=libs`); `seccli pin`, which makes its TLS context before
    /// it connects, is the positive control.
    @Test func libsslIsLoadedOnlyForTLS() throws {
        let seccli = try Tools.seccliExecutable()
        let dynamic = try ProcessRunner.run("readelf", ["-d", seccli]).requiringSuccess(of: "readelf").stdoutText
        #expect(dynamic.contains("[libcrypto.so.") && !dynamic.contains("[libssl.so."))
        let traced = ["LD_DEBUG": "libs"]
        let version = try Tools.seccli(["--version"], environment: traced)
        #expect(version.status == 0)
        #expect(version.stderr.contains("calling init: ") && !version.stderr.contains("libssl"))
        try withScratch { scratch in
            let file = try Tools.seccli(
                [
                    "cred", "get", "--backend", "file", "--store-file", scratch.path("none.store"), "--service", "c",
                    "--account", "a",
                ],
                environment: traced.merging(["SECCLI_STORE_PASSWORD": "pw"]) { $1 }
            )
            #expect(file.status == 10)
            #expect(file.stderr.contains("calling init: ") && !file.stderr.contains("libssl"))
        }
        // Nothing listens on port 1: the context is made, then the connection refused (exit 6).
        let pin = try Tools.seccli(["pin", "127.0.0.1:1"], environment: traced)
        #expect(pin.status == 6)
        #expect(pin.stderr.contains("calling init: ") && pin.stderr.contains("libssl.so"))
    }

    /// GIO, GObject and GLib are loaded by the Secret Service's first call (CLibSecret's shim.h), so
    /// the shipped binary names none of them (nor libsecret), and `--version` and a file-backend
    /// `cred get` and `cred set` map none of them, nor what GIO needs (the OpenBao backend:
    /// CredOpenBaoTests; the Secret Service's `cred get`, which does load GIO: CredLibraryLoadingTests).
    /// The debug build links them (pkg-config's libsecret-1 names them), so this is the release binary's.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["SECCLI"] != nil,
            "needs SECCLI: the binary of tools/build-release (the debug build links GLib)"
        )
    )
    func glibIsLoadedOnlyForTheSecretService() throws {
        let seccli = try Tools.seccliExecutable()
        let dynamic = try ProcessRunner.run("readelf", ["-d", seccli]).requiringSuccess(of: "readelf").stdoutText
        let needed = dynamic.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("[libcrypto.so.") }, "readelf -d shows no NEEDED libcrypto: \(dynamic)")
        #expect(Self.glibLibraries(in: needed.joined(separator: "\n")) == [])
        let traced = ["LD_DEBUG": "libs"]
        let version = try Tools.seccli(["--version"], environment: traced)
        #expect(version.status == 0)
        #expect(version.stderr.contains("calling init: "), "no LD_DEBUG trace from --version")
        #expect(Self.glibLibraries(in: version.stderr) == [], "--version")
        try withScratch { scratch in
            let store = ["--backend", "file", "--store-file", scratch.path("c.store")]
            let environment = traced.merging(["SECCLI_STORE_PASSWORD": "pw"]) { $1 }
            let set = try Tools.seccli(
                ["cred", "set"] + store + ["--service", "c", "--account", "a"],
                stdin: Array("s".utf8),
                environment: environment
            )
            #expect(set.status == 0, "\(set.stderr.suffix(300))")
            #expect(Self.glibLibraries(in: set.stderr) == [], "cred set, file backend")
            let get = try Tools.seccli(
                ["cred", "get"] + store + ["--service", "c", "--account", "a"],
                environment: environment
            )
            #expect(get.status == 0 && get.stdoutText == "s")
            #expect(get.stderr.contains("calling init: "), "no LD_DEBUG trace from cred get")
            #expect(Self.glibLibraries(in: get.stderr) == [], "cred get, file backend")
        }
    }

    /// Which of GIO, GObject, GLib, what GIO needs and libsecret a loader trace or `readelf -d` names.
    static func glibLibraries(in text: String) -> [String] {
        ["libgio-2.0", "libgobject-2.0", "libglib-2.0", "libgmodule-2.0", "libmount", "libselinux", "libsecret"]
            .filter { text.contains($0) }
    }
}
