// swift-tools-version:6.0
//
// GannetTracing: a client span per task through swift-distributed-tracing, and the trace context
// injected into each request by an interceptor (docs/integrations.md). A package of its own so
// that Gannet's library products keep no Swift package dependencies.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "GannetTracing",
    products: [
        .library(name: "GannetTracing", targets: ["GannetTracing"])
    ],
    dependencies: [
        .package(name: "Gannet", path: "../.."),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "GannetTracing",
            dependencies: [
                .product(name: "GannetCore", package: "Gannet"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetTracingTests",
            dependencies: [
                "GannetTracing",
                .product(name: "GannetTestSupport", package: "Gannet"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
