// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SecKit",
    products: [
        .library(name: "SecKit", targets: ["SecKit"]),
        .library(name: "SecCrypto", targets: ["SecCrypto"]),
        .library(name: "SecIO", targets: ["SecIO"]),
        .library(name: "SecEnvelope", targets: ["SecEnvelope"]),
        .library(name: "SecCurl", targets: ["SecCurl"]),
        .library(name: "SecTLS", targets: ["SecTLS"]),
        .library(name: "SecKeychain", targets: ["SecKeychain"]),
        .library(name: "SecIdentities", targets: ["SecIdentities"]),
        .library(name: "SecHTTPAuth", targets: ["SecHTTPAuth"]),
        .library(name: "SecHTTPAuthKeychain", targets: ["SecHTTPAuthKeychain"]),
        .library(name: "SecVault", targets: ["SecVault"]),
        .executable(name: "seccli", targets: ["seccli"]),
        // SecKit inside SwiftNIO services. seccli and the products above link none of these.
        .library(name: "SecKitNIO", targets: ["SecKitNIO"]),
        .library(name: "SecKitHTTPClient", targets: ["SecKitHTTPClient"]),
        .library(name: "SecKitHummingbird", targets: ["SecKitHummingbird"]),
        .library(name: "SecVaultHTTPClient", targets: ["SecVaultHTTPClient"]),
        .library(name: "SecKitVapor", targets: ["SecKitVapor"]),
        .library(name: "SecKitGRPC", targets: ["SecKitGRPC"]),
        .executable(name: "seckit-fetch", targets: ["seckit-fetch"]),
        .executable(name: "seckit-mtls-server", targets: ["seckit-mtls-server"]),
        .executable(name: "seckit-grpc-echo", targets: ["seckit-grpc-echo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.0"),
        // Vapor's own dependencies, named for the peer chain it gives a request (X509's certificates).
        .package(url: "https://github.com/apple/swift-certificates", from: "1.14.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.0.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.0"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.0"),
        // The protobuf codec of seckit-grpc-echo's messages; its protoc plugin is never built (the code is committed).
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        // `swift package generate-documentation`: a command plugin, linked into no product.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // System OpenSSL 3. The header refuses OpenSSL < 3.0. libcrypto is linked; libssl is loaded with
        // dlopen by the first TLS context (shim.h), so pkg-config is asked for libcrypto alone.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // System libsecret (the freedesktop Secret Service client, over GLib/GIO).
        .systemLibrary(
            name: "CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // System libcurl (Debian's libcurl4-openssl-dev headers); loaded with dlopen, never linked.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "SecCrypto", dependencies: ["COpenSSL"]),
        // Files read in chunks, atomic outputs and secret sources: the operating-system side of the modules.
        .target(name: "SecIO", dependencies: ["SecCrypto"]),
        .target(name: "SecEnvelope", dependencies: ["SecCrypto"]),
        // Small HTTP requests over libcurl, loaded with dlopen on first use: below SecTLS and NIO.
        .target(name: "SecCurl", dependencies: ["CCurl"]),
        // Certificates, pins and pin policies, client identities, and the TLS client that enforces them.
        .target(name: "SecTLS", dependencies: ["SecCrypto", "SecIO", "SecCurl", "COpenSSL"]),
        // Credentials on the Secret Service (GDBus reads, libsecret writes) or an encrypted file; SSO.
        .target(name: "SecKeychain", dependencies: ["SecCrypto", "SecIO", "CLibSecret"]),
        // Client identities kept in a keychain: the one module that needs both SecTLS and SecKeychain.
        .target(name: "SecIdentities", dependencies: ["SecCrypto", "SecTLS", "SecKeychain"]),
        // HTTP authentication challenges (Basic, Digest) answered with credentials by protection space.
        .target(name: "SecHTTPAuth", dependencies: ["SecCrypto", "SecIO"]),
        // HTTP credentials kept in a keychain: the one module that needs both SecHTTPAuth and SecKeychain.
        .target(name: "SecHTTPAuthKeychain", dependencies: ["SecCrypto", "SecIO", "SecHTTPAuth", "SecKeychain"]),
        // The keychain on OpenBao and Vault (KV version 2): the protocol core and its transports.
        .target(name: "SecVault", dependencies: ["SecCrypto", "SecIO", "SecTLS", "SecCurl", "SecKeychain", "CCurl"]),
        .target(
            name: "SecKit",
            dependencies: [
                "SecCrypto", "SecIO", "SecEnvelope", "SecTLS", "SecKeychain", "SecIdentities", "SecHTTPAuth",
                "SecHTTPAuthKeychain",
            ]
        ),
        .executableTarget(
            name: "seccli",
            dependencies: [
                "SecKit", "SecIO", "SecVault",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // SecTLS verification, client identities and mutual TLS inside swift-nio-ssl handshakes.
        .target(
            name: "SecKitNIO",
            dependencies: [
                "SecTLS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // AsyncHTTPClient built from a SecTLS configuration: trust, identity, pins on every new connection.
        .target(
            name: "SecKitHTTPClient",
            dependencies: [
                "SecKitNIO", "SecHTTPAuth", "SecTLS", "SecCrypto",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The OpenBao/Vault store's transport over AsyncHTTPClient (SecKitHTTPClient's configuration).
        .target(
            name: "SecVaultHTTPClient",
            dependencies: [
                "SecVault", "SecKitHTTPClient", "SecKeychain", "SecTLS", "SecCrypto",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Hummingbird servers that require client certificates verified by SecTLS.
        .target(
            name: "SecKitHummingbird",
            dependencies: [
                "SecKitNIO", "SecTLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Vapor applications behind mutual TLS verified by SecTLS, and Vapor's client with SecKit's pins.
        .target(
            name: "SecKitVapor",
            dependencies: [
                "SecKitNIO", "SecKitHTTPClient", "SecTLS",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // gRPC (grpc-swift 2) client and server transports whose TLS is SecKitNIO's: pins, client identities,
        // and servers that require client certificates, with the verified client in each RPC's context.
        .target(
            name: "SecKitGRPC",
            dependencies: [
                "SecKitNIO", "SecTLS",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "seckit-fetch",
            dependencies: [
                "SecKitHTTPClient", "SecKitNIO", "SecHTTPAuth", "SecHTTPAuthKeychain", "SecKeychain", "SecIO", "SecTLS",
                "SecCrypto",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Examples/seckit-fetch"
        ),
        .executableTarget(
            name: "seckit-mtls-server",
            dependencies: [
                "SecKitHummingbird", "SecKitNIO", "SecTLS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            path: "Examples/seckit-mtls-server"
        ),
        .executableTarget(
            name: "seckit-grpc-echo",
            dependencies: [
                "SecKitGRPC", "SecKitNIO", "SecTLS", "SecIO",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Examples/seckit-grpc-echo",
            exclude: ["Protos", "README.md"]
        ),
        // Process running, the interop peers, TestVectors/ and docs pages loading, and the TLS test PKI
        // (certificates, s_server), shared by the test targets.
        .target(
            name: "TestSupport",
            dependencies: [
                "SecTLS",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "SecCryptoTests",
            dependencies: ["SecCrypto", "TestSupport"]
        ),
        .testTarget(
            name: "SecIOTests",
            dependencies: ["SecIO", "SecCrypto", "TestSupport"]
        ),
        .testTarget(
            name: "SecEnvelopeTests",
            dependencies: ["SecEnvelope", "SecCrypto", "TestSupport"]
        ),
        .testTarget(
            name: "SecCurlTests",
            dependencies: ["SecCurl", "TestSupport"]
        ),
        .testTarget(
            name: "SecTLSTests",
            dependencies: ["SecTLS", "SecCrypto", "TestSupport"]
        ),
        // One writer process of SecKeychainTests' concurrent-writers test: opens a store once, upserts in a loop.
        .executableTarget(
            name: "keychain-stress",
            dependencies: ["SecKeychain", "SecIO"],
            path: "Tests/KeychainStress"
        ),
        .testTarget(
            name: "SecKeychainTests",
            dependencies: ["SecKeychain", "TestSupport", "keychain-stress"],
            exclude: ["Helpers"]
        ),
        .testTarget(
            name: "SecVaultTests",
            dependencies: [
                "SecVault", "SecVaultHTTPClient", "SecKeychain", "SecTLS", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "SecIdentitiesTests",
            dependencies: ["SecIdentities", "SecKeychain", "SecTLS", "TestSupport"]
        ),
        .testTarget(
            name: "SecHTTPAuthTests",
            dependencies: ["SecHTTPAuth", "SecHTTPAuthKeychain", "SecKeychain", "SecCrypto", "TestSupport"]
        ),
        .testTarget(
            name: "SecKitNIOTests",
            dependencies: [
                "SecKitNIO", "SecKitHTTPClient", "SecKitHummingbird", "SecTLS", "SecHTTPAuth", "SecHTTPAuthKeychain",
                "SecKeychain", "SecVault",
                "TestSupport",
                "seckit-fetch", "seckit-mtls-server",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "SecKitVaporTests",
            dependencies: [
                "SecKitVapor", "SecKitNIO", "SecTLS", "TestSupport",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "SecKitGRPCTests",
            dependencies: [
                "SecKitGRPC", "SecKitNIO", "SecTLS", "TestSupport", "seckit-grpc-echo",
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "seccliTests",
            dependencies: [
                "seccli", "SecKit", "SecCrypto", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)

// tools/test builds SecKit's own modules with AddressSanitizer (SECKIT_ASAN=1) and its dependencies
// as they are, so the instrumented build reuses the build of the dependencies instead of building
// all of them a second time; the runtime is linked into every product.
if Context.environment["SECKIT_ASAN"] == "1" {
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=address"])]
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=address"])]
    }
}
