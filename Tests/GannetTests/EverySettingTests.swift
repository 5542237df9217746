import Foundation
import Gannet
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 12: no setting is accepted and then ignored. Every public setting of
/// `SessionConfiguration` and `RequestSerializerConfiguration` has a row naming the test that
/// proves its effect against a real server or on the request it serializes. The first two tests
/// find the settings by reflection, so a setting added without a row fails them; the third
/// fails when a row names a test that does not exist. Settings no other test proved are proved
/// here, at the end.
@Suite("Every setting has an effect")
struct EverySettingTests {
    /// Setting path → `Target/File.swift/testFunction` under Tests/, several joined by ` + `
    /// where the effect takes more than one test to show (the serializer sets the request's
    /// field, the engine honours it).
    static let sessionProofs: [String: String] = [
        "timeoutIntervalForRequest":
            "GannetCoreTests/HostileServerTests.swift/theConfiguredRequestTimeoutAppliesWhenTheRequestHasNone",
        "timeoutIntervalForResource":
            "GannetCoreTests/HostileServerTests.swift/aTricklingBodyFailsAtTheResourceTimeout",
        "connectTimeout": "GannetCoreTests/TLSFaultTests.swift/aStalledHandshakeEndsAtTheConnectTimeout",
        "httpAdditionalHeaders":
            "GannetCoreTests/RedirectionTests.swift/sessionWideCredentialsDoNotCrossToAnotherOrigin",
        "maximumConnectionsPerHost":
            "GannetTests/EverySettingTests.swift/maximumConnectionsPerHostCapsTheRequestsInFlight",
        "maximumIdleConnections":
            "GannetTests/EverySettingTests.swift/maximumIdleConnectionsClosesTheOldestIdleConnection",
        "httpVersion": "GannetTests/EverySettingTests.swift/httpVersionChoosesTheProtocolNginxSees",
        "engine": "GannetCoreTests/EnginePoolTests.swift/aDedicatedManagerRunsOnAThreadOfItsOwn",
        "decompressesResponses": "GannetCoreTests/HostileServerTests.swift/bombsAreNotInflatedWhenDecompressionIsOff",
        "redirects.maximumRedirects": "GannetCoreTests/RedirectionTests.swift/loopStopsAtTheConfiguredLimit",
        "redirects.allowsHTTPSToHTTP":
            "GannetCoreTests/RedirectionTests.swift/httpsToHTTPIsFollowedWhenTheConfigurationAllowsIt",
        "limits.maximumHeaderBytes":
            "GannetCoreTests/HostileServerTests.swift/headerLimitsAreGannetsOwnAndConfigurable",
        "limits.maximumHeaderCount":
            "GannetCoreTests/HostileServerTests.swift/headerLimitsAreGannetsOwnAndConfigurable",
        "limits.maximumInformationalResponses":
            "GannetCoreTests/HostileServerTests.swift/informationalResponsesUpToTheLimitAreSkipped",
        "limits.maximumBodyBytes": "GannetCoreTests/HostileServerTests.swift/bombsStopAtTheBodyLimitWithBoundedMemory",
        "limits.maximumDownloadBytes":
            "GannetCoreTests/DecompressionLimitTests.swift/aStreamedBodyStopsAtTheDownloadLimit",
        "limits.maximumDecompressionRatio": "GannetCoreTests/DecompressionLimitTests.swift/theRatioLimitIsConfigurable",
        "proxy":
            "GannetSecurityTests/EndToEnd/ProxyEndToEndTests.swift/aPinnedRequestThroughCONNECTIsJudgedOnTheOriginsCertificate",
        "tls.caFile": "GannetTests/EverySettingTests.swift/caFileAndCADirectoryDecideWhomTheClientTrusts",
        "tls.caDirectory": "GannetTests/EverySettingTests.swift/caFileAndCADirectoryDecideWhomTheClientTrusts",
        "tls.serverTrustEvaluator":
            "GannetSecurityTests/EndToEnd/ProxyEndToEndTests.swift/aPinnedRequestThroughCONNECTIsJudgedOnTheOriginsCertificate",
        "tls.clientCertificate": "GannetSecurityTests/EndToEnd/MutualTLSTests.swift/accepted",
        "postsTaskNotifications":
            "GannetCoreTests/HookCoverageTests.swift/aManagerThatDoesNotPostTaskNotificationsPostsNone",
        "urlCache":
            "GannetCoreTests/ResponseCacheTests.swift/httpbinsCacheNIsAnsweredFromTheCacheWithoutReachingTheServer + GannetCoreTests/ResponseCacheTests.swift/httpbinsCacheIsRevalidatedAndItsNotModifiedBecomesTheStored200",
        "urlCredentialStorage":
            "GannetCoreTests/CredentialStorageTests.swift/theStoragesDefaultCredentialAnswersAfterThe401AndCanBeBypassed + GannetCoreTests/CredentialStorageTests.swift/aPermanentCredentialIsKeptInTheStorage",
        "routing.resolve":
            "GannetCoreTests/HostRoutingTests.swift/resolveOverridesTheAddressOfATLSHostAndTheCertificateIsJudgedForTheName",
        "routing.connectTo":
            "GannetCoreTests/HostRoutingTests.swift/connectToReachesAnotherPortAndKeepsTheURLsHostForTLS",
        "routing.unixSocketPath":
            "GannetCoreTests/HostRoutingTests.swift/aUnixSocketCarriesTheRequestAndTheURLGivesTheHost",
        "httpCookieStorage":
            "GannetCoreTests/CookieTests.swift/aRedirectChainCarriesTheCookiesEachHopSet + GannetCoreTests/CookieTests.swift/withoutAStorageNoCookieIsKept",
    ]

    static let serializerProofs: [String: String] = [
        "methodsEncodingParametersInURI":
            "GannetRequestSerializationTests/HTTPRequestSerializerTests.swift/customMethods",
        "queryStringSerialization": "GannetRequestSerializationTests/HTTPRequestSerializerTests.swift/customQuery",
        "arrayEncoding": "GannetRequestSerializationTests/QueryStringEncodingTests.swift/arrays",
        "boolEncoding": "GannetRequestSerializationTests/QueryStringEncodingTests.swift/bools",
        "spaceEncoding": "GannetRequestSerializationTests/QueryStringEncodingTests.swift/plusSign",
        "dateEncoding": "GannetRequestSerializationTests/QueryStringEncodingTests.swift/dates",
        "dataEncoding": "GannetRequestSerializationTests/QueryStringEncodingTests.swift/data",
        "stringEncoding": "GannetRequestSerializationTests/QueryStringEncodingTests.swift/stringEncoding",
        "timeoutInterval": "GannetRequestSerializationTests/HTTPRequestSerializerTests.swift/requestOptions",
        "cachePolicy":
            "GannetRequestSerializationTests/HTTPRequestSerializerTests.swift/requestOptions + GannetTests/EverySettingTests.swift/cachePolicyIsHonouredByASessionWithoutACache + GannetCoreTests/ResponseCacheTests.swift/returnCacheDataDontLoadUsesTheEntryOrFailsWithoutSending",
        "httpShouldHandleCookies":
            "GannetRequestSerializationTests/HTTPRequestSerializerTests.swift/requestOptions + GannetCoreTests/CookieTests.swift/httpShouldHandleCookiesFalseNeitherSendsNorStores",
        "httpRequestHeaders": "GannetRequestSerializationTests/EndToEndTests.swift/headersRoundTrip",
    ]

    /// The stored properties of `value`, by path, descending into the configuration's own
    /// nested settings structs (not into values such as a URL or an evaluator).
    static func settingPaths(of value: Any, prefix: String = "") -> Set<String> {
        let nested: Set<String> = ["RedirectPolicy", "Limits", "TLS", "Routing"]
        var paths = Set<String>()
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            let path = prefix + label
            let typeName = String(describing: type(of: child.value))
            if nested.contains(typeName) {
                paths.formUnion(settingPaths(of: child.value, prefix: path + "."))
            } else {
                paths.insert(path)
            }
        }
        return paths
    }

    @Test func everySessionSettingHasAProof() {
        let settings = Self.settingPaths(of: SessionConfiguration.default)
        #expect(settings.count >= 20, "reflection found only \(settings.sorted())")
        #expect(settings.subtracting(Self.sessionProofs.keys).sorted() == [], "settings with no proof")
        #expect(
            Set(Self.sessionProofs.keys).subtracting(settings).sorted() == [],
            "rows for settings that do not exist"
        )
    }

    @Test func everySerializerSettingHasAProof() {
        // `headersToApply` is not a setting: it is worked out from `httpRequestHeaders`.
        let settings = Self.settingPaths(of: RequestSerializerConfiguration()).subtracting(["headersToApply"])
        #expect(settings.subtracting(Self.serializerProofs.keys).sorted() == [], "settings with no proof")
        #expect(
            Set(Self.serializerProofs.keys).subtracting(settings).sorted() == [],
            "rows for settings that do not exist"
        )
    }

    @Test func everyProofIsATest() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let rows = Self.sessionProofs.merging(Self.serializerProofs, uniquingKeysWith: { a, _ in a })
        for (setting, proofs) in rows {
            for proof in proofs.components(separatedBy: " + ") {
                try check(setting, proof, under: tests)
            }
        }
    }

    private func check(_ setting: String, _ proof: String, under tests: URL) throws {
        let file = tests.appendingPathComponent(String(proof[..<proof.lastIndex(of: "/")!]))
        let name = proof[proof.index(after: proof.lastIndex(of: "/")!)...]
        let source = try String(contentsOf: file, encoding: .utf8)
        #expect(source.contains("func \(name)("), "\(setting): \(proof) is not a function in \(file.path)")
        // The function is a test: an @Test attribute comes before it, with nothing but the
        // attribute's own lines between.
        if let range = source.range(of: "func \(name)(") {
            let before = source[..<range.lowerBound].suffix(400)
            let attribute = before.range(of: "@Test", options: .backwards)
            let otherFunc = attribute.map { before[$0.upperBound...].contains("func ") } ?? true
            #expect(attribute != nil && !otherFunc, "\(setting): \(proof) is not an @Test")
        }
    }

    // MARK: Proofs no other test gave

    /// Without a response cache, `.returnCacheDataDontLoad` fails with `resourceUnavailable` and
    /// sends nothing (NSURLSession without a URLCache); every other policy loads.
    @Test func cachePolicyIsHonouredByASessionWithoutACache() async throws {
        let servers = try TestServers.shared()
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        let marker = "cache-policy-\(UUID().uuidString)"
        var request = URLRequest(url: servers.nginx.adding("/small?\(marker)"))
        request.cachePolicy = .returnCacheDataDontLoad
        let refused = await manager.response(for: request, serializer: .passthrough)
        #expect((refused.error as? URLError)?.code == .resourceUnavailable, "\(String(describing: refused.error))")
        for policy: URLRequest.CachePolicy in [
            .useProtocolCachePolicy, .reloadIgnoringLocalCacheData, .returnCacheDataElseLoad,
        ] {
            request.cachePolicy = policy
            let loaded = await manager.response(for: request, serializer: .passthrough)
            #expect(loaded.response?.statusCode == 200, "\(policy)")
        }
        // Three requests reached nginx: the refused one never did.
        #expect(await eventually(within: 30) { servers.accessLogLines(containing: marker).count == 3 })
        #expect(servers.accessLogLines(containing: marker).count == 3)
    }

    /// `/concurrency/hold` counts the requests the fault server holds at once: eight requests
    /// to one host under a cap of two are never more than two at a time; without the cap, all
    /// eight are held together (waited for, then cancelled).
    @Test func maximumConnectionsPerHostCapsTheRequestsInFlight() async throws {
        let servers = try TestServers.shared()
        var capped = SessionConfiguration.default
        capped.maximumConnectionsPerHost = 2
        let manager = SessionManager(configuration: capped)
        defer { manager.invalidateAndCancel() }
        let key = "cap-\(UUID().uuidString)"
        let url = servers.url(.concurrencyHold(key: key, milliseconds: 200))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { _ = await manager.response(for: URLRequest(url: url), serializer: .passthrough) }
            }
        }
        let counts = try await servers.heldRequests(key: key)
        #expect(counts.finished == 8, "\(counts)")
        #expect(counts.max <= 2, "\(counts)")

        let uncapped = SessionManager(configuration: .default)
        defer { uncapped.invalidateAndCancel() }
        let free = "uncapped-\(UUID().uuidString)"
        let tasks = (0..<8).map { _ in
            uncapped.dataTask(with: URLRequest(url: servers.url(.concurrencyHold(key: free, milliseconds: 60_000)))) {
                _,
                _,
                _ in
            }
        }
        for task in tasks { task.resume() }
        try await servers.waitForHeldRequests(key: free, "eight requests held at once") { $0.inFlight == 8 }
        for task in tasks { task.cancel() }
    }

    /// With one idle connection kept, a request to a second host closes the first host's
    /// connection, so the third request (to the first host again) opens a new one: nginx's log
    /// shows a new connection number. With the default, the first connection is reused.
    @Test(arguments: [1, 64])
    func maximumIdleConnectionsClosesTheOldestIdleConnection(idle: Int) async throws {
        let servers = try TestServers.shared()
        var configuration = SessionConfiguration.default
        configuration.maximumIdleConnections = idle
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidateAndCancel() }
        let marker = "idle\(idle)-\(UUID().uuidString)"
        for (index, url) in [
            servers.nginx.adding("/small?\(marker)-1"), servers.httpbin.adding("/get"),
            servers.nginx.adding("/small?\(marker)-2"),
        ].enumerated() {
            let response = await manager.response(for: URLRequest(url: url), serializer: .passthrough)
            #expect(response.response?.statusCode == 200, "request \(index): \(String(describing: response.error))")
        }
        func connection(_ suffix: String) -> String? {
            servers.accessLogLines(containing: "\(marker)-\(suffix)").first?
                .split(separator: " ").first { $0.hasPrefix("conn=") }.map(String.init)
        }
        var first: String?
        var second: String?
        _ = await eventually(within: 30) {
            first = connection("1")
            second = connection("2")
            return first != nil && second != nil
        }
        let one = try #require(first, "nginx logged no first request")
        let two = try #require(second, "nginx logged no second request")
        if idle == 1 {
            #expect(one != two, "the first connection was kept although only one idle connection may be")
        } else {
            #expect(one == two, "the first connection was not reused")
        }
    }

    /// nginx over TLS offers HTTP/2 by ALPN: `.automatic` takes it, `.http1_1` does not.
    @Test func httpVersionChoosesTheProtocolNginxSees() async throws {
        let servers = try TestServers.shared()
        for (version, expected) in [
            (SessionConfiguration.HTTPVersion.automatic, "HTTP/2.0"), (.http1_1, "HTTP/1.1"),
        ] {
            var configuration = SessionConfiguration.default
            configuration.tls.caFile = servers.certificates.caBundle
            configuration.httpVersion = version
            let manager = SessionManager(configuration: configuration)
            defer { manager.invalidateAndCancel() }
            let marker = "version-\(UUID().uuidString)"
            let response = await manager.response(
                for: URLRequest(url: servers.nginxTLS.adding("/small?\(marker)")),
                serializer: .passthrough
            )
            #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
            var line: String?
            _ = await eventually(within: 30) {
                line = servers.accessLogLines(containing: marker).first
                return line != nil
            }
            let logged = try #require(line, "nginx logged no request")
            #expect(logged.contains("\(marker) \(expected)\""), "\(logged)")
        }
    }

    /// Without a CA, nginx's test chain is untrusted; the CA as a file or in an OpenSSL hashed
    /// directory (`<subject hash>.0`) makes it trusted.
    @Test func caFileAndCADirectoryDecideWhomTheClientTrusts() async throws {
        let servers = try TestServers.shared()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gannet-capath-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let hash = try subjectHash(ofCertificateAt: servers.certificates.caBundle)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: servers.certificates.caBundle),
            to: directory.appendingPathComponent("\(hash).0")
        )
        func get(_ configure: (inout SessionConfiguration.TLS) -> Void) async -> DataResponse<Data> {
            var configuration = SessionConfiguration.default
            configure(&configuration.tls)
            let manager = SessionManager(configuration: configuration)
            defer { manager.invalidateAndCancel() }
            return await manager.response(
                for: URLRequest(url: servers.nginxTLS.adding("/small")),
                serializer: .passthrough
            )
        }
        let untrusted = await get { _ in }
        #expect(untrusted.response == nil)
        #expect(
            (untrusted.error as? URLError)?.code == .serverCertificateUntrusted,
            "\(String(describing: untrusted.error))"
        )
        let byFile = await get { $0.caFile = servers.certificates.caBundle }
        #expect(byFile.response?.statusCode == 200, "\(String(describing: byFile.error))")
        let byDirectory = await get { $0.caDirectory = directory.path }
        #expect(byDirectory.response?.statusCode == 200, "\(String(describing: byDirectory.error))")
    }

    /// `openssl x509 -hash`: the file name OpenSSL looks a CA up by in a CA directory.
    private func subjectHash(ofCertificateAt path: String) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["x509", "-hash", "-noout", "-in", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let hash = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(process.terminationStatus == 0 && !hash.isEmpty, "openssl x509 -hash failed on \(path)")
        return hash
    }
}

extension URL {
    /// `path` (with its query) resolved against this server URL.
    fileprivate func adding(_ path: String) -> URL {
        URL(string: path, relativeTo: self)!.absoluteURL
    }
}
