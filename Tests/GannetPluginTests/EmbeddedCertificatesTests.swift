import Foundation
import Testing

/// What the GannetEmbedCertificates plugin generated for this very target, from Fixtures/,
/// judged against what `openssl x509 -outform der` makes of the same files.
@Suite("EmbeddedCertificates generated for this target")
struct EmbeddedCertificatesTests {
    @Test("every certificate of every fixture file is embedded, as openssl's DER, in path order")
    func everyFixtureIsEmbeddedInPathOrder() async throws {
        let expected = try await Self.certificatesByOpenSSL()
        #expect(
            expected.files == [
                "Fixtures/chain.pem", "Fixtures/my-cert.v2.crt", "Fixtures/nested/2024-ec.cer",
                "Fixtures/root-ca.der", "Fixtures/root-ca.pem",
            ]
        )
        #expect(expected.certificates.count == 6)
        #expect(EmbeddedCertificates.all == expected.certificates)
    }

    @Test("names follow the documented rules and `all` lists them in the documented order")
    func namesAndOrder() {
        #expect(
            EmbeddedCertificates.all == [
                EmbeddedCertificates.chain, EmbeddedCertificates.chain2, EmbeddedCertificates.myCertV2,
                EmbeddedCertificates.cert2024Ec, EmbeddedCertificates.rootCa, EmbeddedCertificates.rootCaPem,
            ]
        )
    }

    @Test("each name holds the certificate its file name promises")
    func subjectsBehindTheNames() async throws {
        #expect(
            try await CommandLineTool.subject(ofDER: EmbeddedCertificates.chain)
                == "subject=CN=leaf.gannet.test,O=Gannet"
        )
        #expect(
            try await CommandLineTool.subject(ofDER: EmbeddedCertificates.chain2)
                == "subject=CN=Gannet Plugin Test Root CA,O=Gannet"
        )
        #expect(
            try await CommandLineTool.subject(ofDER: EmbeddedCertificates.myCertV2)
                == "subject=CN=my-cert.gannet.test,O=Gannet"
        )
        #expect(
            try await CommandLineTool.subject(ofDER: EmbeddedCertificates.cert2024Ec)
                == "subject=CN=2024.gannet.test,O=Gannet"
        )
        #expect(
            try await CommandLineTool.subject(ofDER: EmbeddedCertificates.rootCa)
                == "subject=CN=Gannet Plugin Test Root CA,O=Gannet"
        )
    }

    @Test("a DER file is embedded byte for byte, and its PEM twin decodes to the same bytes")
    func derFilesAreEmbeddedVerbatim() async throws {
        let der = try FixtureFiles.data("root-ca.der")
        #expect(EmbeddedCertificates.rootCa == der)
        #expect(EmbeddedCertificates.rootCaPem == der)
        #expect(EmbeddedCertificates.chain2 == der)
        #expect(EmbeddedCertificates.cert2024Ec == (try FixtureFiles.data("nested/2024-ec.cer")))
    }

    /// The fixtures' certificates in the documented order, decoded by openssl: files sorted by
    /// their path relative to the target directory (byte order), certificates in file order.
    static func certificatesByOpenSSL() async throws -> (files: [String], certificates: [Data]) {
        let root = FixtureFiles.targetDirectory.path(percentEncoded: false)
        let walker = try #require(
            FileManager.default.enumerator(atPath: FixtureFiles.directory.path(percentEncoded: false))
        )
        let files = walker.compactMap { $0 as? String }
            .filter { ["cer", "der", "crt", "pem"].contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
            .map { "Fixtures/" + $0 }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var certificates: [Data] = []
        for file in files {
            let url = URL(fileURLWithPath: root).appending(path: file)
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            let blocks = Self.pemCertificateBlocks(text)
            if blocks.isEmpty {
                certificates.append(try await CommandLineTool.derOfCertificate(derFile: url))
            } else {
                for block in blocks { certificates.append(try await CommandLineTool.derOfCertificate(pemText: block)) }
            }
        }
        return (files, certificates)
    }

    /// Each `-----BEGIN CERTIFICATE-----` ... `-----END CERTIFICATE-----` span, markers included.
    static func pemCertificateBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var rest = text[...]
        while let begin = rest.range(of: "-----BEGIN CERTIFICATE-----"),
            let end = rest[begin.upperBound...].range(of: "-----END CERTIFICATE-----")
        {
            blocks.append(String(rest[begin.lowerBound..<end.upperBound]) + "\n")
            rest = rest[end.upperBound...]
        }
        return blocks
    }
}
