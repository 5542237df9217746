import Foundation
import Testing

/// Names the embedder gives certificates, as docs/plugins.md documents them.
@Suite("Certificate names")
struct CertificateNamingTests {
    @Test(
        "a file stem becomes a camel-cased Swift identifier",
        arguments: [
            ("my-cert.v2.pem", "myCertV2"),
            ("root_ca.der", "rootCa"),
            ("Server Leaf.crt", "serverLeaf"),
            ("ISRG-Root-X1.pem", "isrgRootX1"),
            ("rootCA.cer", "rootCA"),
            ("2024-root.pem", "cert2024Root"),
            ("42.der", "cert42"),
            ("default.pem", "defaultCertificate"),
            ("all.pem", "allCertificate"),
            ("self.der", "selfCertificate"),
            ("---.pem", "certificate"),
            ("café-ünï.pem", "cafeUni"),
            ("证书.pem", "certificate"),
            ("UPPER.PEM", "upper"),
        ]
    )
    func identifierFromFileName(fileName: String, expected: String) async throws {
        let certificate = try FixtureFiles.data(
            fileName.hasSuffix(".der") || fileName.hasSuffix(".cer") ? "root-ca.der" : "my-cert.v2.crt"
        )
        let (run, _) = try await Embedder.run(file: fileName, contents: certificate)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.names == [expected])
    }

    @Test(
        "several certificates in one file are numbered from the second on; later duplicates take their extension, then _2, _3"
    )
    func numberingAndDuplicates() async throws {
        let target = try TemporaryDirectory()
        let chain = try FixtureFiles.data("chain.pem")
        let single = try FixtureFiles.data("my-cert.v2.crt")
        let files = try [
            target.write("root_ca.pem", single),
            target.write("root.ca.pem", single),
            target.write("root-ca.pem", chain),
            target.write("root-ca.der", try FixtureFiles.data("root-ca.der")),
            target.write("chain2.pem", single),
            target.write("chain.pem", chain),
        ]
        let run = try await Embedder.run(root: target.url, files: files)
        #expect(run.status == 0, "\(run.errors)")
        // Path order: chain.pem, chain2.pem, root-ca.der, root-ca.pem, root.ca.pem, root_ca.pem.
        #expect(
            run.names == [
                "chain", "chain2", "chain2Pem", "rootCa", "rootCaPem", "rootCaPem2", "rootCaPem_2", "rootCaPem_3",
            ]
        )
        #expect(
            run.source?.contains(
                "    static let all: [Data] = [chain, chain2, chain2Pem, rootCa, rootCaPem, rootCaPem2, rootCaPem_2, rootCaPem_3]\n"
            ) == true
        )
    }

    @Test("every generated name is a valid identifier that is not a keyword")
    func namesAreIdentifiers() async throws {
        let target = try TemporaryDirectory()
        let chain = try FixtureFiles.data("chain.pem")
        let files = try [
            "in.pem", "for.pem", "1.pem", "-.pem", "a b c.pem", "x.y.z.pem", "CON.PEM", "ünïcödé.pem", "_.pem",
        ].map {
            try target.write($0, chain)
        }
        let run = try await Embedder.run(root: target.url, files: files)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.names.count == 2 * files.count)
        for name in run.names {
            #expect(name.first.map(Self.letters.contains) == true, "\(name)")
            #expect(name.allSatisfy { Self.letters.contains($0) || Self.digits.contains($0) || $0 == "_" }, "\(name)")
            #expect(!["in", "for", "all", "self", "_"].contains(name), "\(name)")
        }
    }

    private static let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    private static let digits = Set("0123456789")
}
