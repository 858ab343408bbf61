import Foundation
import TestSupport
import Testing

/// seccli stays lean: none of SecKit's SwiftNIO products (nor swift-nio-ssl's BoringSSL, nor gRPC) is
/// linked into it. Read from the binary's symbol table, where every Swift symbol names its module;
/// the seckit-fetch and seckit-grpc-echo examples, which do link them, show the check can see them.
@Suite struct LinkageTests {
    static let nioModules = [
        "7NIOCore", "6NIOSSL", "CNIOBoringSSL", "15AsyncHTTPClient", "11Hummingbird", "8GRPCCore", "10SecKitGRPC",
    ]

    func linkedNIOModules(_ path: String) throws -> [String] {
        let symbols = try ProcessRunner.run("nm", ["--defined-only", path]).requiringSuccess(of: "nm").stdoutText
        // A stripped binary would pass for want of symbols.
        try #require(symbols.contains("ArgumentParser") || symbols.contains("7NIOCore"), "\(path) has no symbol table")
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
}
