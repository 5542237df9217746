// swift-tools-version:6.0
//
// GannetLogging: an EventMonitor that logs each task through swift-log (docs/integrations.md).
// A package of its own so that Gannet's library products keep no Swift package dependencies.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "GannetLogging",
    products: [
        .library(name: "GannetLogging", targets: ["GannetLogging"])
    ],
    dependencies: [
        .package(name: "Gannet", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "GannetLogging",
            dependencies: [
                .product(name: "GannetCore", package: "Gannet"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetLoggingTests",
            dependencies: [
                "GannetLogging",
                .product(name: "GannetTestSupport", package: "Gannet"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
