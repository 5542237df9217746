// swift-tools-version:6.0
//
// GannetMetrics: an EventMonitor that records each task through swift-metrics
// (docs/integrations.md). A package of its own so that Gannet's library products keep no Swift
// package dependencies.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "GannetMetrics",
    products: [
        .library(name: "GannetMetrics", targets: ["GannetMetrics"])
    ],
    dependencies: [
        .package(name: "Gannet", path: "../.."),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "GannetMetrics",
            dependencies: [
                .product(name: "GannetCore", package: "Gannet"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "GannetMetricsTests",
            dependencies: [
                "GannetMetrics",
                .product(name: "GannetTestSupport", package: "Gannet"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
