import Foundation
import GannetSecurity
import Testing

/// Client certificates are loaded and checked before any request, so that a wrong password or a
/// mismatched key is a clear error instead of a failed handshake.
@Suite("Client identities for mutual TLS")
struct ClientIdentityTests {
    let pki: TestPKI

    init() async {
        await TestPKI.prepare()
        pki = TestPKI.shared
    }

    private func code(_ body: () throws(ClientIdentityError) -> ClientIdentity) -> ClientIdentityError.Code? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test("A PKCS#12 bundle with the right password yields the certificate, its chain and the configuration")
    func pkcs12() throws {
        let identity = try ClientIdentity.pkcs12(file: pki.file("client.p12"), password: "secret")
        #expect(identity.certificate == Fixtures.certificate("client"))
        #expect(identity.chain == [Fixtures.certificate("intermediate")])
        #expect(
            identity.clientCertificate
                == SessionConfiguration.ClientCertificate(
                    certificateFile: pki.file("client.p12"),
                    format: .pkcs12,
                    password: "secret"
                )
        )
        let validated = try ClientIdentity.validating(identity.clientCertificate)
        #expect(validated.certificate == identity.certificate)
    }

    @Test("A PKCS#12 bundle without a password opens with none given")
    func pkcs12WithoutPassword() throws {
        let identity = try ClientIdentity.pkcs12(file: pki.file("client-nopass.p12"))
        #expect(identity.certificate.commonName == "Gannet Test Client")
    }

    @Test("PKCS#12 failures are told apart")
    func pkcs12Failures() throws {
        #expect(
            code { () throws(ClientIdentityError) in try .pkcs12(file: pki.file("client.p12"), password: "wrong") }
                == .wrongPassword
        )
        #expect(
            code { () throws(ClientIdentityError) in try .pkcs12(file: pki.file("client.p12")) } == .passwordRequired
        )
        #expect(
            code { () throws(ClientIdentityError) in try .pkcs12(file: pki.pem("client"), password: "secret") }
                == .invalidFormat
        )
        #expect(code { () throws(ClientIdentityError) in try .pkcs12(file: "/nonexistent.p12") } == .unreadableFile)
        #expect(
            code { () throws(ClientIdentityError) in try .pkcs12(file: pki.file("server.p12"), password: "secret") }
                == .notForClientAuthentication
        )
        #expect(
            code { () throws(ClientIdentityError) in
                try .pkcs12(file: pki.file("expired-client.p12"), password: "secret")
            }
                == .expired
        )
        let error = try #require(throws: ClientIdentityError.self) {
            try ClientIdentity.pkcs12(file: pki.file("client.p12"), password: "wrong")
        }
        #expect(!error.description.contains("wrong"))  // the password never appears in messages
        #expect(error.path == pki.file("client.p12"))
    }

    @Test("A PEM certificate with its key, plain or encrypted (PKCS#8 and traditional)")
    func pem() throws {
        let plain = try ClientIdentity.pem(certificateFile: pki.pem("client"), keyFile: pki.key("client"))
        #expect(plain.certificate == Fixtures.certificate("client"))
        #expect(plain.clientCertificate.format == .pem)
        #expect(plain.clientCertificate.keyFile == pki.key("client"))
        for file in ["client-encrypted.key", "client-traditional.key"] {
            let encrypted = try ClientIdentity.pem(
                certificateFile: pki.pem("client"),
                keyFile: pki.file(file),
                password: "secret"
            )
            #expect(encrypted.clientCertificate.password == "secret")
        }
        let der = try ClientIdentity.pem(certificateFile: pki.file("client.der"), keyFile: pki.key("client"))
        #expect(der.clientCertificate.format == .der)
    }

    @Test("A certificate and key in one PEM file")
    func combinedPEM() throws {
        let combined = pki.directory.appendingPathComponent("combined-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: combined) }
        let text =
            try String(contentsOfFile: pki.pem("client"), encoding: .utf8)
            + String(contentsOfFile: pki.key("client"), encoding: .utf8)
        try text.write(to: combined, atomically: true, encoding: .utf8)
        let identity = try ClientIdentity.pem(certificateFile: combined.path)
        #expect(identity.clientCertificate.keyFile == nil)
        #expect(code { () throws(ClientIdentityError) in try .pem(certificateFile: pki.pem("client")) } == .missingKey)
    }

    @Test("PEM failures are told apart")
    func pemFailures() {
        let cert = pki.pem("client")
        let encrypted = pki.file("client-encrypted.key")
        #expect(
            code { () throws(ClientIdentityError) in try .pem(certificateFile: cert, keyFile: encrypted) }
                == .passwordRequired
        )
        #expect(
            code { () throws(ClientIdentityError) in
                try .pem(certificateFile: cert, keyFile: encrypted, password: "nope")
            } == .wrongPassword
        )
        #expect(
            code { () throws(ClientIdentityError) in
                try .pem(certificateFile: cert, keyFile: pki.file("client-traditional.key"), password: "nope")
            } == .wrongPassword
        )
        #expect(
            code { () throws(ClientIdentityError) in try .pem(certificateFile: cert, keyFile: pki.key("good")) }
                == .keyMismatch
        )
        #expect(
            code { () throws(ClientIdentityError) in
                try .pem(certificateFile: pki.key("client"), keyFile: pki.key("client"))
            }
                == .missingCertificate
        )
        #expect(
            code { () throws(ClientIdentityError) in try .pem(certificateFile: cert, keyFile: "/nonexistent.key") }
                == .unreadableFile
        )
        #expect(
            code { () throws(ClientIdentityError) in
                try .pem(certificateFile: pki.pem("good"), keyFile: pki.key("good"))
            }
                == .notForClientAuthentication
        )
        #expect(
            code { () throws(ClientIdentityError) in
                try .pem(certificateFile: pki.pem("expiredClient"), keyFile: pki.key("expiredClient"))
            } == .expired
        )
    }

    @Test("Validity is checked at the given date")
    func validityDate() {
        let early = pki.validFrom.addingTimeInterval(-86_400)
        #expect(
            code { () throws(ClientIdentityError) in
                try .pem(certificateFile: pki.pem("client"), keyFile: pki.key("client"), at: early)
            } == .notYetValid
        )
    }
}
