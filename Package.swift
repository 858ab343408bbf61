// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SecKit",
    products: [
        .library(name: "SecKit", targets: ["SecKit"]),
        .library(name: "SecCrypto", targets: ["SecCrypto"]),
        .library(name: "SecIO", targets: ["SecIO"]),
        .library(name: "SecEnvelope", targets: ["SecEnvelope"]),
        .library(name: "SecTLS", targets: ["SecTLS"]),
        .library(name: "SecKeychain", targets: ["SecKeychain"]),
        .library(name: "SecIdentities", targets: ["SecIdentities"]),
        .executable(name: "seccli", targets: ["seccli"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // System OpenSSL 3 (libcrypto/libssl). The header refuses OpenSSL < 3.0.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // System libsecret (the freedesktop Secret Service client, over GLib/GIO).
        .systemLibrary(
            name: "CLibSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        .target(name: "SecCrypto", dependencies: ["COpenSSL"]),
        // Files read in chunks, atomic outputs and secret sources: the operating-system side of the modules.
        .target(name: "SecIO", dependencies: ["SecCrypto"]),
        .target(name: "SecEnvelope", dependencies: ["SecCrypto"]),
        // Certificates, pins and pin policies, client identities, and the TLS client that enforces them.
        .target(name: "SecTLS", dependencies: ["SecCrypto", "SecIO", "COpenSSL"]),
        // Credentials on the Secret Service (GDBus reads, libsecret writes) or an encrypted file; SSO.
        .target(name: "SecKeychain", dependencies: ["SecCrypto", "SecIO", "CLibSecret"]),
        // Client identities kept in a keychain: the one module that needs both SecTLS and SecKeychain.
        .target(name: "SecIdentities", dependencies: ["SecCrypto", "SecTLS", "SecKeychain"]),
        .target(
            name: "SecKit",
            dependencies: ["SecCrypto", "SecIO", "SecEnvelope", "SecTLS", "SecKeychain", "SecIdentities"]
        ),
        .executableTarget(
            name: "seccli",
            dependencies: [
                "SecKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Process running, the interop peers, TestVectors/ loading and the TLS test PKI (certificates, s_server), shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
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
            name: "SecIdentitiesTests",
            dependencies: ["SecIdentities", "SecKeychain", "SecTLS", "TestSupport"]
        ),
        .testTarget(
            name: "seccliTests",
            dependencies: [
                "seccli", "SecCrypto", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)
