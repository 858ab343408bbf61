// swift-tools-version:6.0
// Benchmark harness for SecKit. A tool, not a test: it measures and prints, it never asserts.
// Build: swift build -c release --package-path tools/bench --scratch-path tools/bench/.build
// Usually run through tools/bench/run, which also compares with openssl and Python.
import PackageDescription

let package = Package(
    name: "seckit-bench",
    dependencies: [
        .package(name: "SecKit", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "seckit-bench",
            dependencies: [
                .product(name: "SecCrypto", package: "SecKit"),
                .product(name: "SecEnvelope", package: "SecKit"),
                .product(name: "SecKeychain", package: "SecKit"),
                .product(name: "SecTLS", package: "SecKit"),
            ]
        )
    ]
)
