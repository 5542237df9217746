// swift-tools-version:6.0
//
// GannetHTTPTypes: swift-http-types' `HTTPRequest` and `HTTPResponse` on Gannet's
// `SessionManager`, as swift-http-types' own extension offers them on URLSession. A package of
// its own so that the library products keep no Swift package dependencies (docs/integrations.md).
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "GannetHTTPTypes",
    products: [
        .library(name: "GannetHTTPTypes", targets: ["GannetHTTPTypes"])
    ],
    dependencies: [
        .package(name: "Gannet", path: "../.."),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "GannetHTTPTypes",
            dependencies: [
                .product(name: "GannetCore", package: "Gannet"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        // Against a real server on loopback: Tests/GannetHTTPTypesTests/echo_server.py, started
        // by the tests themselves (python3, standard library only).
        .testTarget(
            name: "GannetHTTPTypesTests",
            dependencies: ["GannetHTTPTypes"],
            resources: [.copy("echo_server.py")],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
