import Foundation
import GannetTestSupport

/// Certificates generated for this test process with the `openssl` command-line tool, into a
/// temporary folder that is removed at exit. Nothing here is committed, private keys included.
///
/// The hierarchy mirrors what the TLS test servers use: a root, an intermediate (path length 0)
/// and leaves for each trust case, plus an unrelated "untrusted" root and a few oddities
/// (a leaf used as an issuer, a CA below a `pathlen:0` intermediate, self-signed leaves).
final class TestPKI: Sendable {
    /// The certificates of this process. Suites `await` ``prepare()`` in their initializer
    /// first, so that this never generates on a thread of Swift's cooperative pool.
    static var shared: TestPKI { generated }

    private static let generated: TestPKI = {
        do { return try TestPKI() } catch { fatalError("Cannot generate test certificates: \(error)") }
    }()

    /// Generates the certificates on a Dispatch thread, once, and returns when they exist.
    ///
    /// Generation runs about a hundred `openssl` processes: seconds on a loaded machine. The
    /// cooperative pool that runs every test of the process has one thread per core (two here),
    /// and a `static let` initializer blocks every other thread that reaches it, so generating
    /// there stalled unrelated tests, their timers included, for the whole generation (a
    /// cancellation test's 300 ms wait became 10 s under `scripts/test.sh`).
    static func prepare() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                _ = generated
                continuation.resume()
            }
        }
    }

    let directory: URL
    /// Validity windows chosen at generation, so tests compare against inputs, not constants.
    let validFrom: Date
    let validUntil: Date
    let expiredFrom = TestPKI.date("20200101000000Z")
    let expiredUntil = TestPKI.date("20210101000000Z")
    let futureFrom = TestPKI.date("20900101000000Z")
    let futureUntil = TestPKI.date("20910101000000Z")

    private init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gannet-security-pki-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let now = Date()
        validFrom = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 - 86_400)
        validUntil = validFrom.addingTimeInterval(400 * 86_400)
        try generate()
        // Swift Testing has no process-wide teardown; the generated keys go when the process does.
        atexit { try? FileManager.default.removeItem(at: TestPKI.generated.directory) }
    }

    // MARK: Paths

    func pem(_ name: String) -> String { directory.appendingPathComponent("\(name).pem").path }
    func der(_ name: String) -> Data {
        (try? Data(contentsOf: directory.appendingPathComponent("\(name).der"))) ?? Data()
    }
    func key(_ name: String) -> String { directory.appendingPathComponent("\(name).key").path }
    func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

    // MARK: Generation

    private func generate() throws {
        try writeConfig()
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("newcerts"),
            withIntermediateDirectories: true
        )
        try Data().write(to: directory.appendingPathComponent("index.txt"))
        try Data("1000\n".utf8).write(to: directory.appendingPathComponent("serial"))

        try selfSigned("root", subject: "/O=Gannet/CN=Gannet Test Root", extensions: "root_ca")
        try issue(
            "intermediate",
            subject: "/O=Gannet/CN=Gannet Test Intermediate",
            issuer: "root",
            extensions: "intermediate_ca"
        )
        try issue("good", subject: "/CN=localhost", issuer: "intermediate", extensions: "leaf_localhost")
        try issue("wrongHost", subject: "/CN=wrong.example", issuer: "intermediate", extensions: "leaf_wrong_host")
        try issue(
            "expired",
            subject: "/CN=localhost",
            issuer: "intermediate",
            extensions: "leaf_localhost",
            keyOf: "good",
            from: "20200101000000Z",
            until: "20210101000000Z"
        )
        try issue(
            "notYetValid",
            subject: "/CN=localhost",
            issuer: "intermediate",
            extensions: "leaf_localhost",
            from: "20900101000000Z",
            until: "20910101000000Z"
        )
        try issue("ipAddress", subject: "/CN=127.0.0.1", issuer: "intermediate", extensions: "leaf_ip")
        try issue("wildcard", subject: "/CN=*.gannet.test", issuer: "intermediate", extensions: "leaf_wildcard")
        try issue(
            "partialWildcard",
            subject: "/CN=f*.gannet.test",
            issuer: "intermediate",
            extensions: "leaf_partial_wildcard"
        )
        try issue("clientOnly", subject: "/CN=localhost", issuer: "intermediate", extensions: "leaf_client_only")
        // A leaf (CA:FALSE) that signs another leaf: OpenSSL must refuse it as an issuer.
        try issue("leafIssuer", subject: "/CN=Gannet Leaf Issuer", issuer: "intermediate", extensions: "leaf_issuer")
        try issue("signedByLeaf", subject: "/CN=localhost", issuer: "leafIssuer", extensions: "leaf_localhost")
        // A CA below the pathlen:0 intermediate: its leaves exceed the path length.
        try issue("subCA", subject: "/O=Gannet/CN=Gannet Sub CA", issuer: "intermediate", extensions: "sub_ca")
        try issue("tooDeep", subject: "/CN=localhost", issuer: "subCA", extensions: "leaf_localhost")

        try selfSigned("otherRoot", subject: "/O=Elsewhere/CN=Untrusted Test Root", extensions: "root_ca")
        try issue("untrusted", subject: "/CN=localhost", issuer: "otherRoot", extensions: "leaf_localhost")

        try selfSigned("selfSigned", subject: "/CN=localhost", extensions: "leaf_localhost")
        try selfSigned("foobarCN", subject: "/CN=foobar.com", extensions: "leaf_no_san")
        try selfSigned("foobarSAN", subject: "/O=Gannet Alt Name", extensions: "leaf_foobar_san")
        try selfSigned("noDomains", subject: "/O=Gannet No Domains", extensions: "leaf_no_san")

        try issue("client", subject: "/CN=Gannet Test Client", issuer: "intermediate", extensions: "leaf_client")
        try issue(
            "expiredClient",
            subject: "/CN=Gannet Expired Client",
            issuer: "intermediate",
            extensions: "leaf_client",
            from: "20200101000000Z",
            until: "20210101000000Z"
        )
        try openssl([
            "pkcs12", "-export", "-inkey", key("client"), "-in", pem("client"), "-certfile", pem("intermediate"),
            "-passout", "pass:secret", "-out", file("client.p12"),
        ])
        try openssl([
            "pkcs12", "-export", "-inkey", key("client"), "-in", pem("client"), "-passout", "pass:",
            "-out", file("client-nopass.p12"),
        ])
        try openssl([
            "pkcs12", "-export", "-inkey", key("good"), "-in", pem("good"), "-passout", "pass:secret",
            "-out", file("server.p12"),
        ])
        try openssl([
            "pkey", "-in", key("client"), "-aes256", "-passout", "pass:secret", "-out", file("client-encrypted.key"),
        ])
        try openssl([
            "pkey", "-in", key("client"), "-traditional", "-aes256", "-passout", "pass:secret",
            "-out", file("client-traditional.key"),
        ])
        try openssl([
            "pkcs12", "-export", "-inkey", key("expiredClient"), "-in", pem("expiredClient"),
            "-passout", "pass:secret", "-out", file("expired-client.p12"),
        ])

        // OCSP responses as a server would staple them, from the CA database `openssl ca` kept.
        try issue("revokedLeaf", subject: "/CN=localhost", issuer: "intermediate", extensions: "leaf_localhost")
        try openssl([
            "ca", "-config", file("pki.cnf"), "-revoke", pem("revokedLeaf"), "-crl_reason", "keyCompromise",
            "-cert", pem("intermediate"), "-keyfile", key("intermediate"),
        ])
        try ocspResponse("good", signer: "intermediate", out: "good.ocsp")
        try ocspResponse("revokedLeaf", signer: "intermediate", out: "revoked.ocsp")
        try ocspResponse("good", signer: "otherRoot", out: "forged.ocsp")
        let goodSerial = try String(
            decoding: openssl(["x509", "-in", pem("good"), "-noout", "-serial"]),
            as: UTF8.self
        )
        .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "serial=", with: "")
        let index = try String(contentsOfFile: file("index.txt"), encoding: .utf8)
        let onlyGood = index.split(separator: "\n").filter {
            $0.split(separator: "\t", omittingEmptySubsequences: false).dropFirst(3).first.map(String.init)
                == goodSerial
        }
        try (onlyGood.joined(separator: "\n") + "\n").write(
            toFile: file("index-good-only.txt"),
            atomically: true,
            encoding: .utf8
        )
        try ocspResponse("wildcard", signer: "intermediate", out: "unknown.ocsp", index: "index-good-only.txt")

        let bundle = try String(contentsOfFile: pem("root"), encoding: .utf8)
        try bundle.write(toFile: file("ca-bundle.pem"), atomically: true, encoding: .utf8)
    }

    /// An OCSP response about `name` from the `signer` responder, valid for a day.
    private func ocspResponse(_ name: String, signer: String, out: String, index: String = "index.txt") throws {
        try openssl([
            "ocsp", "-index", file(index), "-rsigner", pem(signer), "-rkey", key(signer), "-CA", pem("intermediate"),
            "-issuer", pem("intermediate"), "-cert", pem(name), "-respout", file(out), "-ndays", "1",
        ])
    }

    private func newKey(_ name: String) throws {
        try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key(name)])
    }

    private func selfSigned(_ name: String, subject: String, extensions: String) throws {
        try newKey(name)
        try openssl([
            "req", "-config", file("pki.cnf"), "-new", "-key", key(name), "-subj", subject, "-out", file("\(name).csr"),
        ])
        try openssl([
            "ca", "-batch", "-config", file("pki.cnf"), "-selfsign", "-keyfile", key(name), "-in", file("\(name).csr"),
            "-startdate", stamp(validFrom), "-enddate", stamp(validUntil), "-extensions", extensions,
            "-notext", "-out", pem(name),
        ])
        try exportDER(name)
    }

    private func issue(
        _ name: String,
        subject: String,
        issuer: String,
        extensions: String,
        keyOf: String? = nil,
        from: String? = nil,
        until: String? = nil
    ) throws {
        if keyOf == nil { try newKey(name) }
        let keyPath = key(keyOf ?? name)
        if keyOf != nil { try FileManager.default.copyItem(atPath: keyPath, toPath: key(name)) }
        try openssl([
            "req", "-config", file("pki.cnf"), "-new", "-key", keyPath, "-subj", subject, "-out", file("\(name).csr"),
        ])
        try openssl([
            "ca", "-batch", "-config", file("pki.cnf"), "-cert", pem(issuer), "-keyfile", key(issuer),
            "-in", file("\(name).csr"), "-startdate", from ?? stamp(validFrom), "-enddate", until ?? stamp(validUntil),
            "-extensions", extensions, "-notext", "-out", pem(name),
        ])
        try exportDER(name)
    }

    private func exportDER(_ name: String) throws {
        try openssl([
            "x509", "-in", pem(name), "-outform", "DER", "-out", directory.appendingPathComponent("\(name).der").path,
        ])
    }

    private func writeConfig() throws {
        let config = """
            [ ca ]
            default_ca = gannet_ca
            [ gannet_ca ]
            dir = \(directory.path)
            database = $dir/index.txt
            new_certs_dir = $dir/newcerts
            serial = $dir/serial
            default_md = sha256
            policy = any_subject
            unique_subject = no
            copy_extensions = none
            email_in_dn = no
            preserve = yes
            [ any_subject ]
            organizationName = optional
            commonName = optional
            [ req ]
            distinguished_name = req_dn
            prompt = no
            [ req_dn ]
            CN = placeholder
            [ root_ca ]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            [ intermediate_ca ]
            basicConstraints = critical, CA:TRUE, pathlen:0
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            [ sub_ca ]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            subjectKeyIdentifier = hash
            authorityKeyIdentifier = keyid
            [ leaf_localhost ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1
            [ leaf_issuer ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature, keyCertSign
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1
            [ leaf_wrong_host ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:wrong.example
            [ leaf_ip ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = IP:127.0.0.1
            [ leaf_wildcard ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:*.gannet.test
            [ leaf_partial_wildcard ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:f*.gannet.test
            [ leaf_client_only ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = clientAuth
            subjectAltName = DNS:localhost
            [ leaf_client ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = clientAuth
            [ leaf_no_san ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            [ leaf_foobar_san ]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:foobar.com
            """
        try config.write(toFile: file("pki.cnf"), atomically: true, encoding: .utf8)
    }

    // MARK: The openssl tool

    /// Runs `openssl` and returns its standard output; a failure carries its standard error.
    @discardableResult
    func openssl(_ arguments: [String], input: Data? = nil) throws -> Data {
        try run("/usr/bin/env", ["openssl"] + arguments, input: input)
    }

    /// Runs `openssl` on a Dispatch thread, for test bodies (see ``prepare()`` for why a test
    /// must not wait for a process on the cooperative pool).
    @discardableResult
    func opensslOffPool(_ arguments: [String], input: Data? = nil) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.openssl(arguments, input: input) })
            }
        }
    }

    /// The pin of a certificate computed by the openssl tool alone, as an independent oracle.
    func opensslPin(_ name: String) async throws -> String {
        let publicKey = try await opensslOffPool(["x509", "-in", pem(name), "-pubkey", "-noout"])
        let spki = try await opensslOffPool(["pkey", "-pubin", "-outform", "DER"], input: publicKey)
        let digest = try await opensslOffPool(["dgst", "-sha256", "-binary"], input: spki)
        return "sha256/" + digest.base64EncodedString()
    }

    private func run(_ executable: String, _ arguments: [String], input: Data?) throws -> Data {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PKIError(command: arguments.joined(separator: " "), output: errorText)
        }
        return data
    }

    private func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.string(from: date)
    }

    static func date(_ stamp: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMddHHmmss'Z'"
        return formatter.date(from: stamp)!
    }
}

struct PKIError: Error, CustomStringConvertible {
    let command: String
    let output: String
    var description: String { "openssl \(command) failed: \(output)" }
}
