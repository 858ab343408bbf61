// swift-tools-version:6.0
// Benchmark harness for SecKit. A tool, not a test: it measures and prints, it never asserts.
// Build: swift build -c release --package-path tools/bench --scratch-path tools/bench/.build
// Usually run through tools/bench/run, which also compares with openssl and Python.
import PackageDescription

let package = Package(
    name: "seckit-bench",
    dependencies: [
        .package(name: "SecKit", path: "../.."),
        // The same packages as SecKit's own, for the `nio` part's baselines (plain swift-nio-ssl,
        // AsyncHTTPClient, Hummingbird, Vapor and grpc-swift-nio-transport's TLS) beside SecKitNIO, SecKitHTTPClient,
        // SecKitHummingbird, SecKitVapor and SecKitGRPC.
        // Their versions are pinned once, in SecKit's manifest, whose requirements bind this graph
        // too: here only the major version is named, which SwiftPM needs to resolve a product.
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.0.0"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.0.0"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "seckit-bench",
            dependencies: [
                .product(name: "SecCrypto", package: "SecKit"),
                .product(name: "SecEnvelope", package: "SecKit"),
                .product(name: "SecKeychain", package: "SecKit"),
                .product(name: "SecTLS", package: "SecKit"),
                .product(name: "SecKitNIO", package: "SecKit"),
                .product(name: "SecKitHTTPClient", package: "SecKit"),
                .product(name: "SecKitHummingbird", package: "SecKit"),
                .product(name: "SecKitVapor", package: "SecKit"),
                .product(name: "SecKitGRPC", package: "SecKit"),
                .product(name: "SecHTTPAuth", package: "SecKit"),
                .product(name: "SecVault", package: "SecKit"),
                .product(name: "SecVaultHTTPClient", package: "SecKit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ]
        )
    ]
)
