// swift-tools-version:6.0
//
// Gannet's benchmarks: a package of its own so that library users never resolve its
// dependencies. Every client is an executable with the same command-line contract (see
// README.md), so `bench.py` — or any other harness — runs them side by side.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "GannetBenchmarks",
    products: [
        .executable(name: "gannet-bench-client", targets: ["gannet-bench-client"]),
        .executable(name: "urlsession-bench-client", targets: ["urlsession-bench-client"]),
        .executable(name: "ahc-bench-client", targets: ["ahc-bench-client"]),
        .executable(name: "curl-multi-bench-client", targets: ["curl-multi-bench-client"]),
        .executable(name: "parse-bench-client", targets: ["parse-bench-client"]),
    ],
    dependencies: [
        .package(name: "Gannet", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        // Already in async-http-client's graph; named here because its API speaks in their
        // types (ByteBuffer, TLSConfiguration).
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
    ],
    targets: [
        // libcurl for the bare multi loop. Gannet's CCurl is not a product, so the benchmarks
        // carry their own module map and variadic shims.
        .systemLibrary(
            name: "CCurlBench",
            path: "Sources/CCurlBench",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // The shared contract: argument parsing, output lines, exit codes, clocks.
        .target(name: "BenchKit", path: "Sources/BenchKit", swiftSettings: strictSettings),
        .executableTarget(
            name: "gannet-bench-client",
            dependencies: [
                "BenchKit",
                .product(name: "Gannet", package: "Gannet"),
                .product(name: "GannetCore", package: "Gannet"),
                .product(name: "GannetRequestSerialization", package: "Gannet"),
                .product(name: "GannetSecurity", package: "Gannet"),
            ],
            path: "Sources/gannet-bench-client",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "urlsession-bench-client",
            dependencies: ["BenchKit"],
            path: "Sources/urlsession-bench-client",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ahc-bench-client",
            dependencies: [
                "BenchKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Sources/ahc-bench-client",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "curl-multi-bench-client",
            dependencies: ["BenchKit", "CCurlBench"],
            path: "Sources/curl-multi-bench-client",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "parse-bench-client",
            dependencies: [
                "BenchKit",
                .product(name: "GannetResponseSerialization", package: "Gannet"),
                .product(name: "GannetXML", package: "Gannet"),
            ],
            path: "Sources/parse-bench-client",
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
