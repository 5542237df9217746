// swift-tools-version:6.0
//
// GannetServiceLifecycle: a swift-service-lifecycle Service that shuts session managers down
// gracefully (docs/integrations.md). A package of its own so that Gannet's library products keep
// no Swift package dependencies.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "GannetServiceLifecycle",
    products: [
        .library(name: "GannetServiceLifecycle", targets: ["GannetServiceLifecycle"])
    ],
    dependencies: [
        .package(name: "Gannet", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "GannetServiceLifecycle",
            dependencies: [
                .product(name: "GannetCore", package: "Gannet"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetServiceLifecycleTests",
            dependencies: [
                "GannetServiceLifecycle",
                .product(name: "GannetTestSupport", package: "Gannet"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
