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
        .executable(name: "openapi-bench-client", targets: ["openapi-bench-client"]),
    ],
    dependencies: [
        .package(name: "Gannet", path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        // Already in async-http-client's graph; named here because its API speaks in their
        // types (ByteBuffer, TLSConfiguration).
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.30.0"),
        // The OpenAPI row: one generated client over Gannet's transport and its two peers.
        .package(name: "GannetOpenAPITransport", path: "../Integrations/GannetOpenAPITransport"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
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
        // Generated code committed (Generated/, from openapi.yaml; see README.md).
        .executableTarget(
            name: "openapi-bench-client",
            dependencies: [
                "BenchKit",
                .product(name: "GannetCore", package: "Gannet"),
                .product(name: "GannetOpenAPITransport", package: "GannetOpenAPITransport"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Sources/openapi-bench-client",
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
