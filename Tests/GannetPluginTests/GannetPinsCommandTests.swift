import Foundation
import GannetTestSupport
import Testing

/// `swift package gannet-pins` run as an app runs it: from Examples/PinnedClient, a package that
/// depends on Gannet by path. (It cannot run on Gannet's own package from here: `swift test`
/// holds the lock of Gannet's build directory while the tests run, and the command would wait
/// for it forever.) The first run builds the example's `gannet`, which takes minutes;
/// scripts/test.sh runs scripts/check-example.sh first, which builds it.
@Suite("swift package gannet-pins from a dependent package")
struct GannetPinsCommandTests {
    static let example = FixtureFiles.targetDirectory
        .deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Examples/PinnedClient")

    @Test("Files and an https:// server are pinned; a missing file is reported and the others still printed")
    func filesServerAndMissingFile() async throws {
        // Given a missing file, a fixture certificate and nginx's TLS endpoint
        let servers = try TestServers.shared()
        let port = try #require(servers.nginxTLS.port)
        let server = "https://localhost:\(port)"
        let missing = "missing-\(UUID().uuidString).pem"
        let fixture = FixtureFiles.url("my-cert.v2.crt").path(percentEncoded: false)

        // When the command pins all three
        let outcome = try await CommandLineTool.execute(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swift", "package", "--package-path", Self.example.path(percentEncoded: false), "gannet-pins", missing,
                fixture, server,
            ]
        )
        let output = String(decoding: outcome.output, as: UTF8.self)
        let report = "status \(outcome.status)\n\(output)\n\(outcome.errors)"

        // Then the file and the server's chain are printed with the pins OpenSSL computes
        let fixturePin = try await Self.pin(ofCertificateFile: fixture)
        #expect(output.contains("\(fixture)  \(fixturePin)  CN=my-cert.gannet.test"), "\(report)")
        let intermediatePin = try await Self.pin(ofCertificateFile: servers.certificates.intermediateCA)
        #expect(output.contains("\(server)  \(intermediatePin)  "), "\(report)")
        #expect(output.split(separator: "\n").filter { $0.hasPrefix("\(server)  sha256/") }.count >= 2, "\(report)")

        // And the missing file is gannet's own message, and fails the command at the end
        #expect(outcome.status != 0, "\(report)")
        #expect(outcome.errors.contains("\(missing): gannet: error: cannot read the certificate file"), "\(report)")
        #expect(outcome.errors.contains("gannet pins failed for 1 of 3 file(s) or server(s): \(missing)"), "\(report)")
    }

    /// The SPKI SHA-256 pin of the first certificate of a PEM file, by OpenSSL.
    static func pin(ofCertificateFile path: String) async throws -> String {
        let script =
            "openssl x509 -in \"$1\" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"
        let output = try await CommandLineTool.run("sh", ["-c", script, "sh", path]).output
        return "sha256/" + String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
