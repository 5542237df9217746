// swift-tools-version:6.0
//
// Gannet: AFNetworking's design, in Swift 6, for Linux first.
//
// Every capability is its own library product so an app links only what it uses: a JSON-only
// client never links libxml2, an app that does not pin never imports GannetSecurity. The library
// products depend on system C libraries only (libcurl with OpenSSL, OpenSSL, libxml2); no Swift
// package dependencies. The benchmarks live in their own package under Benchmarks/.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Gannet",
    products: [
        .library(name: "GannetCore", targets: ["GannetCore"]),
        .library(name: "GannetVocabulary", targets: ["GannetVocabulary"]),
        .library(name: "GannetRequestSerialization", targets: ["GannetRequestSerialization"]),
        .library(name: "GannetResponseSerialization", targets: ["GannetResponseSerialization"]),
        .library(name: "GannetXML", targets: ["GannetXML"]),
        .library(name: "GannetSecurity", targets: ["GannetSecurity"]),
        .library(name: "GannetReachability", targets: ["GannetReachability"]),
        .library(name: "Gannet", targets: ["Gannet"]),
        .executable(name: "gannet", targets: ["GannetCLI"]),
        // For the tests of the packages under Integrations/ (docs/integrations.md), which start the
        // same loopback servers; not for applications.
        .library(name: "GannetTestSupport", targets: ["GannetTestSupport"]),

        // MARK: Plugins
        .plugin(name: "GannetEmbedCertificates", targets: ["GannetEmbedCertificates"]),
        .plugin(name: "GannetPins", targets: ["GannetPins"]),
    ],
    targets: [
        // MARK: System libraries
        .systemLibrary(
            name: "CCurl",
            path: "Modules/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            path: "Modules/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            path: "Modules/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CPSL",
            path: "Modules/CPSL",
            pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev"])]
        ),
        // Only a module map's `link ":libstdc++.a"`: `gannet` links GCC's static C++ library
        // among the statically linked Swift runtime's archives (Modules/CStaticLibStdCxx/shim.h).
        .systemLibrary(name: "CStaticLibStdCxx", path: "Modules/CStaticLibStdCxx"),

        // MARK: Library modules
        // Media types, the response serializer protocols and their input, the parsed response
        // head: Foundation only, no C library, so the serializers built on it can be used
        // without the engine (docs/core.md, "Modules").
        .target(
            name: "GannetVocabulary",
            path: "Modules/GannetVocabulary",
            swiftSettings: strictSettings
        ),
        .target(
            name: "GannetCore",
            dependencies: ["GannetVocabulary", "CCurl", "COpenSSL", "CPSL"],
            path: "Modules/GannetCore",
            swiftSettings: strictSettings
        ),
        .target(
            name: "GannetRequestSerialization",
            dependencies: ["GannetCore"],
            path: "Modules/GannetRequestSerialization",
            swiftSettings: strictSettings
        ),
        .target(
            name: "GannetResponseSerialization",
            dependencies: ["GannetVocabulary"],
            path: "Modules/GannetResponseSerialization",
            swiftSettings: strictSettings
        ),
        .target(
            name: "GannetXML",
            dependencies: ["GannetResponseSerialization", "CLibXML2"],
            path: "Modules/GannetXML",
            swiftSettings: strictSettings
        ),
        .target(
            name: "GannetSecurity",
            dependencies: ["GannetCore", "COpenSSL"],
            path: "Modules/GannetSecurity",
            swiftSettings: strictSettings
        ),
        // Foundation and Glibc only: rtnetlink sockets, no libcurl. See docs/reachability.md.
        .target(
            name: "GannetReachability",
            path: "Modules/GannetReachability",
            swiftSettings: strictSettings
        ),
        .target(
            name: "Gannet",
            dependencies: [
                "GannetCore", "GannetRequestSerialization", "GannetResponseSerialization", "GannetReachability",
            ],
            path: "Modules/Gannet",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "GannetCLI",
            // The C modules for `--version`'s run-time library versions (GannetVersion.swift).
            // CStaticLibStdCxx: the C++ library linked statically (Modules/CStaticLibStdCxx/shim.h).
            dependencies: [
                "Gannet", "GannetSecurity", "GannetXML", "CCurl", "COpenSSL", "CLibXML2", "CStaticLibStdCxx",
            ],
            path: "Modules/GannetCLI",
            swiftSettings: strictSettings,
            // Release `gannet` only (the one the .deb ships): lld packs its ~85,000 relative
            // relocations as DT_RELR (glibc 2.36), and none of its symbols is exported (the driver
            // adds -export-dynamic to executables); less work for the dynamic loader at each start
            // (docs/performance.md, "Start-up").
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--no-export-dynamic",
                    ],
                    .when(platforms: [.linux], configuration: .release)
                )
            ]
        ),

        // MARK: Tests
        // Starts httpbin, nginx (TLS, certificates generated per run) and the fault server on
        // loopback for the duration of a test process; see Tests/Servers/README.md.
        .target(
            name: "GannetTestSupport",
            dependencies: ["GannetCore"],
            path: "Tests/GannetTestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetCoreTests",
            dependencies: ["GannetCore", "GannetTestSupport"],
            path: "Tests/GannetCoreTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetRequestSerializationTests",
            dependencies: ["GannetRequestSerialization", "GannetTestSupport"],
            path: "Tests/GannetRequestSerializationTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetResponseSerializationTests",
            dependencies: ["GannetResponseSerialization", "GannetCore", "GannetTestSupport"],
            path: "Tests/GannetResponseSerializationTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetXMLTests",
            dependencies: ["GannetXML", "GannetCore", "GannetTestSupport"],
            path: "Tests/GannetXMLTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetSecurityTests",
            dependencies: ["GannetSecurity", "GannetTestSupport"],
            path: "Tests/GannetSecurityTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetTests",
            dependencies: ["Gannet", "GannetSecurity", "GannetXML", "GannetTestSupport"],
            path: "Tests/GannetTests",
            swiftSettings: strictSettings
        ),
        // The monitor the namespace test runs inside its own network namespace (`ip netns exec`);
        // the test target depends on it only so that `swift build --build-tests` builds it.
        .executableTarget(
            name: "GannetReachabilityMonitor",
            dependencies: ["GannetReachability"],
            path: "Tests/GannetReachabilityMonitor",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetReachabilityTests",
            dependencies: ["GannetReachability", "GannetReachabilityMonitor"],
            path: "Tests/GannetReachabilityTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetCLITests",
            dependencies: ["GannetCLI", "GannetTestSupport"],
            path: "Tests/GannetCLITests",
            swiftSettings: strictSettings
        ),

        // MARK: Plugins
        // GannetEmbedCertificates runs GannetCertificateEmbedder (Foundation only) to turn a target's
        // .cer/.der/.crt/.pem files into DER `Data` constants; GannetPins prints SPKI pins by running
        // `gannet pins`. See docs/plugins.md.
        .executableTarget(
            name: "GannetCertificateEmbedder",
            path: "Plugins/GannetCertificateEmbedder",
            swiftSettings: strictSettings
        ),
        .plugin(
            name: "GannetEmbedCertificates",
            capability: .buildTool(),
            dependencies: ["GannetCertificateEmbedder"],
            path: "Plugins/GannetEmbedCertificates"
        ),
        // No dependency on GannetCLI: the plugin builds the `gannet` product itself, because SwiftPM
        // cannot hand a plugin an executable target whose product has another name (SwiftPM #8831).
        .plugin(
            name: "GannetPins",
            capability: .command(
                intent: .custom(verb: "gannet-pins", description: "Print the SPKI SHA-256 pins of certificate files"),
                permissions: []
            ),
            path: "Plugins/GannetPins"
        ),
        // Runs the built GannetCertificateEmbedder rather than importing it: a test target that
        // both depends on an executable and applies a plugin using it links two copies of it.
        .testTarget(
            name: "GannetPluginTests",
            dependencies: ["GannetTestSupport"],
            path: "Tests/GannetPluginTests",
            exclude: ["Fixtures"],
            swiftSettings: strictSettings,
            plugins: ["GannetEmbedCertificates"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: Fuzzing
// libFuzzer targets (docs/reliability.md), declared only when GANNET_FUZZ is set, as
// scripts/fuzz.sh does, so that an ordinary `swift build` never builds or links libFuzzer. The sanitizer flags go on the fuzzed modules only,
// not through `swift build --sanitize=fuzzer`, which would also build the plugins' host tools
// as libraries without a `main`. `@testable import` reaches the internal parsers: debug only.
if Context.environment["GANNET_FUZZ"] != nil {
    let fuzzed = [
        "GannetVocabulary", "GannetCore", "GannetRequestSerialization", "GannetResponseSerialization", "GannetXML",
        "GannetSecurity",
    ]
    let instrumentation: [SwiftSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]
    for target in package.targets where fuzzed.contains(target.name) {
        target.swiftSettings = (target.swiftSettings ?? []) + instrumentation
    }
    package.targets.append(.target(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"))
    package.targets.append(
        .executableTarget(
            name: "GannetFuzz",
            dependencies: fuzzed.map { .target(name: $0) } + ["CLibFuzzer"],
            path: "Fuzz/GannetFuzz",
            swiftSettings: strictSettings + instrumentation + [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])]
        )
    )
    package.products.append(.executable(name: "gannet-fuzz", targets: ["GannetFuzz"]))
}
