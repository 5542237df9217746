import Foundation
import Testing

/// How the embedder reads one file: certificates out, anything else refused with the file named
/// and the build failed (exit status 1, nothing written).
@Suite("Certificate decoding")
struct CertificateDecoderTests {
    @Test("PEM with CRLF line ends, indentation and the legacy X509 CERTIFICATE label decodes")
    func tolerantPEM() async throws {
        let der = try FixtureFiles.data("root-ca.der")
        let base64 = der.base64EncodedString(options: [.lineLength64Characters])
        let crlf =
            "-----BEGIN CERTIFICATE-----\r\n" + base64.replacingOccurrences(of: "\n", with: "\r\n")
            + "\r\n-----END CERTIFICATE-----\r\n"
        let legacy = "  -----BEGIN X509 CERTIFICATE-----\n  \(base64)\n  -----END X509 CERTIFICATE-----  \n"
        for text in [crlf, legacy] {
            let (run, _) = try await Embedder.run(file: "x.pem", contents: Data(text.utf8))
            #expect(run.status == 0, "\(run.errors)")
            #expect(
                run.source?.contains("static let x = Data(base64Encoded: \"\(der.base64EncodedString())\")!") == true
            )
        }
    }

    @Test("a DER file in a .pem and PEM text in a .der are read by content, not by extension")
    func contentNotExtension() async throws {
        let der = try FixtureFiles.data("root-ca.der")
        for (name, contents) in [("a.pem", der), ("b.der", try FixtureFiles.data("root-ca.pem"))] {
            let (run, _) = try await Embedder.run(file: name, contents: contents)
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.source?.contains("Data(base64Encoded: \"\(der.base64EncodedString())\")!") == true)
        }
    }

    @Test("a certificate next to a private key is embedded alone, with a warning naming the file")
    func privateKeyBesideCertificate() async throws {
        let text =
            String(decoding: try FixtureFiles.data("my-cert.v2.crt"), as: UTF8.self)
            + "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
        let (run, path) = try await Embedder.run(file: "bundle.pem", contents: Data(text.utf8))
        #expect(run.status == 0)
        #expect(run.names == ["bundle"])
        #expect(run.errors.hasPrefix("\(path): warning: the file also holds a private key"))
        #expect(run.source?.contains("PRIVATE") == false)
    }

    @Test("refused: text that is neither PEM nor DER")
    func plainText() async throws {
        try await expectRefusal(
            Data("remember to renew in March\n".utf8),
            "neither PEM (no -----BEGIN CERTIFICATE----- line) nor DER (does not start with an ASN.1 SEQUENCE, 0x30)"
        )
    }

    @Test("refused: an empty file")
    func emptyFile() async throws {
        try await expectRefusal(Data(), "the file is empty")
    }

    @Test("refused: random bytes")
    func randomBytes() async throws {
        var bytes = (0..<512).map { _ in UInt8.random(in: 0...255) }
        bytes[0] = 0x8A
        try await expectRefusal(Data(bytes), "neither PEM")
    }

    @Test("refused: truncated DER, and DER followed by more bytes")
    func truncatedAndTrailingDER() async throws {
        let der = try FixtureFiles.data("root-ca.der")
        try await expectRefusal(der.dropLast(), "truncated")
        try await expectRefusal(der + Data([0x00]), "1 byte(s) follow the certificate")
    }

    @Test("refused: DER keys, a public key and a certificate request, though each starts with 0x30")
    func derThatIsNotACertificate() async throws {
        let scratch = try TemporaryDirectory()
        let key = scratch.url.appending(path: "key.pem").path(percentEncoded: false)
        try await CommandLineTool.run(
            "openssl",
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key]
        )
        let pkcs8 = try await CommandLineTool.run("openssl", ["pkey", "-in", key, "-outform", "der"]).output
        let sec1 = try await CommandLineTool.run("openssl", ["ec", "-in", key, "-outform", "der"]).output
        let publicKey = try await CommandLineTool.run("openssl", ["pkey", "-in", key, "-pubout", "-outform", "der"])
            .output
        let request = try await CommandLineTool.run(
            "openssl",
            ["req", "-new", "-key", key, "-subj", "/CN=request.gannet.test", "-outform", "der"]
        ).output
        for (name, der) in [("PKCS#8 key", pkcs8), ("SEC1 key", sec1), ("public key", publicKey), ("CSR", request)] {
            #expect(der.first == 0x30, "\(name)")
            try await expectRefusal(der, "not a DER X.509 certificate")
        }
    }

    @Test("refused: PEM holding only a private key")
    func onlyAPrivateKey() async throws {
        let text =
            "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n"
        try await expectRefusal(Data(text.utf8), "no CERTIFICATE block in this PEM file (found 'PRIVATE KEY')")
    }

    @Test(
        "refused: malformed PEM",
        arguments: [
            ("-----BEGIN CERTIFICATE-----\nMIIB\n", "has no END line"),
            ("-----BEGIN CERTIFICATE-----\n!!!notbase64!!!\n-----END CERTIFICATE-----\n", "is not valid base64"),
            ("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n", "is not valid base64"),
            ("-----BEGIN CERTIFICATE-----\nMIIB\n-----END PRIVATE KEY-----\n", "closes the CERTIFICATE block"),
            ("-----END CERTIFICATE-----\n", "without a matching BEGIN"),
            ("-----BEGIN CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\n", "inside the CERTIFICATE block"),
            (
                "-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n",
                "certificate 1 is not a DER X.509 certificate"
            ),
        ]
    )
    func malformedPEM(text: String, reason: String) async throws {
        try await expectRefusal(Data(text.utf8), reason)
    }

    @Test("one bad file fails the whole run by name, and nothing is written")
    func oneBadFileAmongGood() async throws {
        let target = try TemporaryDirectory()
        let good = try target.write("Certs/good.pem", try FixtureFiles.data("chain.pem"))
        let bad = try target.write("Certs/notes.crt", "remember to renew in March\n")
        let output = target.url.appending(path: "out/EmbeddedCertificates.swift")
        let run = try await Embedder.run(root: target.url, files: [good, bad], output: output)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(bad.path(percentEncoded: false)): error: neither PEM"))
        #expect(run.source == nil)
    }

    @Test("refused by name: a missing file and an oversized file")
    func missingAndOversized() async throws {
        let target = try TemporaryDirectory()
        let missing = target.url.appending(path: "gone.pem")
        let gone = try await Embedder.run(root: target.url, files: [missing])
        #expect(gone.status == 1)
        #expect(gone.errors.hasPrefix("\(missing.path(percentEncoded: false)): error: cannot read the file: "))
        let (huge, path) = try await Embedder.run(
            file: "huge.pem",
            contents: Data(repeating: 0x41, count: (4 << 20) + 1)
        )
        #expect(huge.status == 1)
        #expect(
            huge.errors == "\(path): error: the file is larger than 4194304 bytes, too large for a certificate file\n"
        )
    }

    private func expectRefusal(
        _ contents: Data,
        _ reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let (run, path) = try await Embedder.run(file: "bad.pem", contents: contents)
        #expect(run.status == 1, sourceLocation: sourceLocation)
        #expect(run.errors.hasPrefix("\(path): error: "), "\(run.errors)", sourceLocation: sourceLocation)
        #expect(run.errors.contains(reason), "\(run.errors)", sourceLocation: sourceLocation)
        #expect(run.source == nil, sourceLocation: sourceLocation)
    }
}
