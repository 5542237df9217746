import Foundation
import GannetSecurity
import Testing

@Suite("Certificate parsing")
struct CertificateTests {
    let pki: TestPKI

    init() async {
        await TestPKI.prepare()
        pki = TestPKI.shared
    }

    @Test("DER and PEM of the same certificate parse to equal values")
    func derAndPEMAgree() throws {
        let fromDER = try Certificate(derEncoded: pki.der("good"))
        let fromPEM = try Certificate(pemEncoded: String(contentsOfFile: pki.pem("good"), encoding: .utf8))
        let autodetected = try Certificate(data: Data(contentsOf: URL(fileURLWithPath: pki.pem("good"))))
        #expect(fromDER == fromPEM)
        #expect(fromDER == autodetected)
        #expect(fromPEM.derEncoded == pki.der("good"))
    }

    @Test(
        "The public key pin matches the openssl tool's SPKI SHA-256",
        arguments: ["good", "intermediate", "root", "otherRoot"]
    )
    func pinMatchesOpenSSL(name: String) async throws {
        let certificate = try Certificate(derEncoded: pki.der(name))
        let expected = try await pki.opensslPin(name)
        #expect(certificate.publicKeyPin.description == expected)
        #expect(certificate.publicKeySHA256.count == 32)
    }

    @Test("A renewed certificate with the same key has the same pin")
    func samePinForSameKey() throws {
        let good = try Certificate(derEncoded: pki.der("good"))
        let expired = try Certificate(derEncoded: pki.der("expired"))
        #expect(good != expired)
        #expect(good.publicKeyPin == expired.publicKeyPin)
        #expect(good.publicKeyPin != (try Certificate(derEncoded: pki.der("untrusted"))).publicKeyPin)
    }

    @Test("Subject, issuer and summary")
    func names() throws {
        let leaf = try Certificate(derEncoded: pki.der("good"))
        let intermediate = try Certificate(derEncoded: pki.der("intermediate"))
        let noCommonName = try Certificate(derEncoded: pki.der("noDomains"))
        #expect(leaf.subject == "CN=localhost")
        #expect(leaf.subjectSummary == "CN=localhost")
        #expect(leaf.issuer == "CN=Gannet Test Intermediate,O=Gannet")
        #expect(intermediate.commonName == "Gannet Test Intermediate")
        #expect(noCommonName.commonName == nil)
        #expect(noCommonName.subjectSummary == "O=Gannet No Domains")
        #expect(leaf.description == "\(leaf.publicKeyPin) (CN=localhost)")
    }

    @Test("CA flag and self-issued flag")
    func caFlags() throws {
        #expect(try Certificate(derEncoded: pki.der("root")).isCA)
        #expect(try Certificate(derEncoded: pki.der("intermediate")).isCA)
        #expect(try !Certificate(derEncoded: pki.der("good")).isCA)
        #expect(try !Certificate(derEncoded: pki.der("leafIssuer")).isCA)
        #expect(try Certificate(derEncoded: pki.der("root")).isSelfIssued)
        #expect(try Certificate(derEncoded: pki.der("selfSigned")).isSelfIssued)
        #expect(try !Certificate(derEncoded: pki.der("good")).isSelfIssued)
    }

    @Test("Validity dates are the ones the certificates were issued with")
    func validity() throws {
        let good = try Certificate(derEncoded: pki.der("good"))
        let expired = try Certificate(derEncoded: pki.der("expired"))
        let future = try Certificate(derEncoded: pki.der("notYetValid"))
        #expect(good.notBefore == pki.validFrom)
        #expect(good.notAfter == pki.validUntil)
        #expect(expired.notBefore == pki.expiredFrom)
        #expect(expired.notAfter == pki.expiredUntil)
        #expect(future.notBefore == pki.futureFrom)
        #expect(future.notAfter == pki.futureUntil)
    }

    @Test("A PEM bundle yields every certificate in order, skipping other blocks")
    func pemBundle() throws {
        let text = try [pki.key("good"), pki.pem("good"), pki.pem("intermediate"), pki.pem("root")]
            .map { try String(contentsOfFile: $0, encoding: .utf8) }
            .joined(separator: "some text between blocks\n")
        let certificates = try Certificate.certificates(pemEncoded: Data(text.utf8))
        #expect(certificates.map(\.derEncoded) == [pki.der("good"), pki.der("intermediate"), pki.der("root")])
    }

    @Test("Garbage, truncated DER, trailing bytes and empty input are typed errors")
    func malformedDER() throws {
        let der = pki.der("good")
        var random = SystemRandomNumberGenerator()
        let garbage = Data((0..<600).map { _ in UInt8.random(in: 0...255, using: &random) })
        for input in [Data(), garbage, der.prefix(der.count / 2), der + Data([0]), Data([0x30, 0x82, 0xFF, 0xFF])] {
            #expect(throws: CertificateError.self) { try Certificate(derEncoded: input) }
            do {
                _ = try Certificate(derEncoded: input)
            } catch {
                #expect(error.code == .invalidDER)
            }
        }
    }

    @Test("Malformed PEM is a typed error and never asks for a password")
    func malformedPEM() throws {
        let body = try String(contentsOfFile: pki.pem("good"), encoding: .utf8)
        let corrupted = body.replacingOccurrences(of: "M", with: "!")
        let claimsEncryption = body.replacingOccurrences(
            of: "-----BEGIN CERTIFICATE-----\n",
            with:
                "-----BEGIN CERTIFICATE-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00112233445566778899AABBCCDDEEFF\n\n"
        )
        for (input, code) in [
            (corrupted, CertificateError.Code.invalidPEM), (claimsEncryption, .invalidPEM),
            ("no certificate here", .noCertificates), ("", .noCertificates),
        ] {
            do {
                _ = try Certificate.certificates(pemEncoded: Data(input.utf8))
                Issue.record("Accepted malformed PEM")
            } catch {
                #expect(error.code == code)
            }
        }
        #expect(throws: CertificateError.self) { try Certificate(pemEncoded: body + body) }
    }

    @Test("Reading a missing file is an unreadable-file error")
    func missingFile() {
        do {
            _ = try Certificate.certificates(contentsOf: URL(fileURLWithPath: "/nonexistent/cert.pem"))
            Issue.record("Read a missing file")
        } catch {
            #expect(error.code == .unreadableFile)
            #expect(error.path == "/nonexistent/cert.pem")
        }
    }
}
