// swift-tools-version:6.0
//
// An app package that depends on Gannet by path, as docs/plugins.md describes: PinnedClient pins
// the certificates under Sources/PinnedClient/Certificates, compiled in by the
// GannetEmbedCertificates plugin. JSONClient, CoreClient and XMLClient are the smallest apps of
// three products, SerializersClient the serializers without the engine;
// scripts/check-linkage.sh checks what each executable links. Built and run in CI by
// scripts/check-example.sh.
import PackageDescription

let package = Package(
    name: "PinnedClient",
    dependencies: [
        .package(name: "Gannet", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "PinnedClient",
            dependencies: [
                .product(name: "Gannet", package: "Gannet"),
                .product(name: "GannetSecurity", package: "Gannet"),
            ],
            exclude: ["Certificates"],
            plugins: [.plugin(name: "GannetEmbedCertificates", package: "Gannet")]
        ),
        .executableTarget(name: "JSONClient", dependencies: [.product(name: "Gannet", package: "Gannet")]),
        .executableTarget(name: "CoreClient", dependencies: [.product(name: "GannetCore", package: "Gannet")]),
        .executableTarget(name: "XMLClient", dependencies: [.product(name: "GannetXML", package: "Gannet")]),
        .executableTarget(
            name: "SerializersClient",
            dependencies: [.product(name: "GannetResponseSerialization", package: "Gannet")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
