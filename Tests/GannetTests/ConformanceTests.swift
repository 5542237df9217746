import Foundation
import Gannet
import GannetSecurity
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// AFNetworking behaviours that docs/conformance.md lists with no older Gannet test: resetting
/// an invalidated session, the context of a server-trust failure, a security policy replaced on
/// a live manager, top-level JSON arrays, property-list bodies. All against the local servers.
@Suite("AFNetworking conformance")
struct ConformanceTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    func certificate(_ path: String) throws -> Data {
        try #require(try Certificate.certificates(contentsOf: URL(fileURLWithPath: path)).first).derEncoded
    }

    func policy(pinning path: String, mode: SecurityPolicy.PinningMode = .certificate) throws -> SecurityPolicy {
        var policy = SecurityPolicy(pinningMode: mode, withPinnedCertificates: [try certificate(path)])
        policy.trustStore = try .caFile(servers.certificates.caBundle)
        return policy
    }

    // MARK: invalidateSessionCancelingTasks:resetSession:

    /// AFURLSessionManagerTests' testSessionIsStillValid: without a reset the manager keeps its
    /// (now invalidated) session, and a new request fails without being sent.
    @Test func invalidatingWithoutResetKeepsTheInvalidatedSession() async throws {
        let manager = try makeManager(servers.httpbin)
        let session = manager.session
        manager.invalidateSession(cancelingTasks: true, resetSession: false)
        #expect(manager.session === session)
        #expect(session.isInvalidated)
        let delivery = await deliver { success, failure in
            manager.GET("get", parameters: nil, success: success, failure: failure)
        }
        #expect(!delivery.succeeded)
    }

    /// testSessionRecreatesAgain: a reset gives a fresh session that works, with the old one's
    /// completion queue, serializer and hooks, while the old session's running task is
    /// cancelled.
    @Test func resettingGivesAFreshWorkingSession() async throws {
        let manager = try makeManager(servers.httpbin)
        manager.responseSerializer = StringResponseSerializer()
        let completedOn = SessionRecorder()
        manager.session.setTaskDidComplete { session, _, _ in completedOn.record(session) }
        let old = manager.session
        // A request that never answers, to be cancelled by the invalidation.
        let stalled = Task {
            await deliver { success, failure in
                manager.GET(
                    servers.fault.appendingPathComponent("stall").absoluteString,
                    parameters: nil,
                    success: success,
                    failure: failure
                )
            }
        }
        while old.tasks.isEmpty { await Task.yield() }

        manager.invalidateSession(cancelingTasks: true, resetSession: true)

        let cancelled = await stalled.value
        #expect((cancelled.error as? URLError)?.code == .cancelled)
        #expect(old.isInvalidated)
        #expect(manager.session !== old)
        #expect(!manager.session.isInvalidated)
        let delivery = await deliver { success, failure in
            manager.GET("get", parameters: ["after": "reset"], success: success, failure: failure)
        }
        #expect(delivery.succeeded)
        #expect(delivery.onCompletionQueue)
        #expect((delivery.value as? String)?.contains("\"after\": \"reset\"") == true)
        // The hook set on the old session came along: it saw the new session's task.
        #expect(completedOn.sessions.contains(ObjectIdentifier(manager.session)))
    }

    // MARK: Server-trust failures

    /// AFHTTPSessionManagerTests' testThatServerTrustErrorIsCreatedWithProperUserInfo…: the
    /// error of a rejected server carries the failing URL, its string, and the peer's chain.
    @Test func aTrustFailureCarriesTheURLStringAndThePeersChain() async throws {
        let wrong = try policy(pinning: servers.certificates.leaf(.rsa).pem)
        let manager = try HTTPSessionManager(baseURL: servers.nginxTLS, securityPolicy: wrong)
        let url = try manager.url(for: "small")
        let error = try await #require(throws: URLError.self) { try await manager.get("small") }
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.failingURL == url)
        #expect(error.userInfo["NSErrorFailingURLStringKey"] as? String == url.absoluteString)
        let trust = try #require(error.serverTrust)
        #expect(trust.certificateChain.first == (try certificate(servers.certificates.leaf(.good).pem)))
        #expect(trust.host == url.host)
        let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? GannetError)
        #expect(underlying.code == .serverTrustRejected)
        #expect(underlying.serverTrust == trust)
        // The certificate-mode policy's own reason: the chain holds no pinned certificate.
        #expect((underlying.underlyingError as? ServerTrustError)?.code == .pinMismatch)
    }

    /// Other failures carry the URL string but no peer chain.
    @Test func otherFailuresCarryTheURLStringWithoutAChain() async throws {
        let manager = try makeManager(servers.fault)
        manager.requestSerializer.configuration.timeoutInterval = 2
        let url = try manager.url(for: "stall")
        let error = try await #require(throws: URLError.self) { try await manager.get("stall") }
        #expect(error.code == .timedOut)
        #expect(error.userInfo["NSErrorFailingURLStringKey"] as? String == url.absoluteString)
        #expect(error.serverTrust == nil)
    }

    // MARK: A security policy replaced on a live manager

    /// AFNetworking's `securityPolicy` setter: a new policy decides the next requests, including
    /// those that would reuse a pooled connection the old policy approved.
    @Test func aReplacedPolicyDecidesTheNextRequestsOnPooledConnections() async throws {
        let right = try policy(pinning: servers.certificates.leaf(.good).pem)
        let wrong = try policy(pinning: servers.certificates.leaf(.rsa).pem)
        let manager = try HTTPSessionManager(baseURL: servers.nginxTLS, securityPolicy: right)
        manager.responseSerializer = StringResponseSerializer()
        #expect(try await manager.get("small").value as? String == "ok")

        try manager.setSecurityPolicy(wrong)
        #expect((manager.securityPolicy as? SecurityPolicy)?.pinnedCertificates == wrong.pinnedCertificates)
        let marker = "swap-\(UUID().uuidString)"
        await #expect { try await manager.get("small", parameters: ["id": marker]) } throws: {
            ($0 as? URLError)?.code == .serverCertificateUntrusted
        }
        #expect(servers.accessLogLines(containing: marker).isEmpty)

        try manager.setSecurityPolicy(right)
        #expect(try await manager.get("small").value as? String == "ok")
    }

    /// A policy given to a manager created without one applies too; `nil` returns to libcurl's
    /// own verification, and a pinning policy needs an `https` base URL.
    @Test func aPolicySetLaterAppliesAndPinningNeedsHTTPS() async throws {
        let manager = try makeManager(servers.nginxTLS)
        manager.responseSerializer = StringResponseSerializer()
        #expect(try await manager.get("small").value as? String == "ok")
        try manager.setSecurityPolicy(try policy(pinning: servers.certificates.leaf(.rsa).pem))
        await #expect { try await manager.get("small") } throws: {
            ($0 as? URLError)?.code == .serverCertificateUntrusted
        }
        try manager.setSecurityPolicy(nil)
        #expect(manager.securityPolicy == nil)
        #expect(try await manager.get("small").value as? String == "ok")

        let plain = try makeManager(servers.httpbin)
        #expect(throws: InsecureTransportError.self) {
            try plain.setSecurityPolicy(SecurityPolicy(pinningMode: .publicKey, withPinnedCertificates: []))
        }
        #expect(plain.securityPolicy == nil)
    }

    /// AFNetworking's testInvalid…PinningSecurityPolicyWithoutBaseURL: setting a pinning policy
    /// (either mode) on a manager without a base URL fails, and the policy in force stays what it
    /// was: none, then a non-pinning one set before.
    @Test(arguments: [SecurityPolicy.PinningMode.certificate, .publicKey])
    func setSecurityPolicyWithPinningAndNoBaseURLFailsAndLeavesThePolicyUnset(mode: SecurityPolicy.PinningMode) throws {
        let manager = HTTPSessionManager(baseURL: nil)
        defer { manager.session.invalidateAndCancel() }
        let pinning = try policy(pinning: servers.certificates.leaf(.rsa).pem, mode: mode)
        #expect {
            try manager.setSecurityPolicy(pinning)
        } throws: { ($0 as? InsecureTransportError)?.reason == .noBaseURL }
        #expect(manager.securityPolicy == nil)
        #expect(manager.session.serverTrustEvaluator == nil)

        try manager.setSecurityPolicy(SecurityPolicy.default)
        #expect(throws: InsecureTransportError.self) { try manager.setSecurityPolicy(pinning) }
        let kept = try #require(manager.securityPolicy as? SecurityPolicy)
        #expect(kept.pinningMode == .none)
    }

    /// AFHTTPSessionManagerTests' testCanBeCopied: `copy()` makes a manager with the same base
    /// URL, configuration, serializers and security policy, which works on its own (a pinned
    /// request through it succeeds) and whose serializers are its own.
    @Test func aCopyHasTheBaseURLSerializersAndPolicyAndWorksOnItsOwn() async throws {
        let manager = try makeManager(servers.nginxTLS)
        defer { manager.session.invalidateAndCancel() }
        var requests = HTTPRequestSerializer()
        requests.setValue("original", forHTTPHeaderField: "X-Copied")
        manager.requestSerializer = requests
        manager.responseSerializer = StringResponseSerializer()
        try manager.setSecurityPolicy(try policy(pinning: servers.certificates.leaf(.good).pem, mode: .publicKey))

        let copy = manager.copy()
        defer { copy.session.invalidateAndCancel() }
        #expect(copy !== manager && copy.session !== manager.session)
        #expect(copy.baseURL == manager.baseURL)
        #expect(copy.session.configuration.tls.caFile == manager.session.configuration.tls.caFile)
        #expect(copy.requestSerializer.configuration.value(forHTTPHeaderField: "X-Copied") == "original")
        #expect(copy.responseSerializer is StringResponseSerializer)
        #expect((copy.securityPolicy as? SecurityPolicy)?.pinningMode == .publicKey)
        #expect(try await copy.get("small").value as? String == "ok")

        copy.requestSerializer.setValue("changed", forHTTPHeaderField: "X-Copied")
        copy.responseSerializer.acceptableStatusCodes.insert(404)
        #expect(manager.requestSerializer.configuration.value(forHTTPHeaderField: "X-Copied") == "original")
        #expect(!manager.responseSerializer.acceptableStatusCodes.contains(404))
    }

    // MARK: Progress of download and upload tasks

    /// AFURLSessionManagerTests' testDownloadTaskDoesReportProgress: a download task's progress
    /// reaches the whole body.
    @Test func aDownloadTaskReportsProgressToTheWholeBody() async throws {
        let manager = SessionManager(configuration: .default)
        defer { manager.invalidateAndCancel() }
        let size = 100_000  // httpbin serves at most 100 KiB from /bytes
        let last = Mutex<(completed: Int64, total: Int64)>((0, 0))
        let request = URLRequest(url: servers.httpbin.appendingPathComponent("bytes/\(size)"))
        let response: DataResponse<URL> = await withCheckedContinuation { continuation in
            manager.downloadTask(
                with: request,
                progress: { progress in
                    last.withLock { $0 = (progress.completedUnitCount, progress.totalUnitCount) }
                },
                completionHandler: { continuation.resume(returning: $0) }
            ).resume()
        }
        let file = try response.result.get()
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try Data(contentsOf: file).count == size)
        #expect(last.withLock { $0 } == (Int64(size), Int64(size)))
    }

    /// testUploadTaskDoesReportProgress: an upload task's progress reaches the whole body.
    @Test func anUploadTaskReportsProgressToTheWholeBody() async throws {
        let manager = SessionManager(configuration: .default)
        defer { manager.invalidateAndCancel() }
        let body = Data(String(repeating: "AFNetworking", count: 2_000).utf8)
        let last = Mutex<(completed: Int64, total: Int64)>((0, 0))
        var request = URLRequest(url: servers.httpbin.appendingPathComponent("post"))
        request.httpMethod = "POST"
        let response: DataResponse<Data> = await withCheckedContinuation { continuation in
            manager.uploadTask(
                with: request,
                from: body,
                serializer: PassthroughResponseSerializer(),
                progress: { progress in
                    last.withLock { $0 = (progress.completedUnitCount, progress.totalUnitCount) }
                },
                completionHandler: { continuation.resume(returning: $0) }
            ).resume()
        }
        #expect(response.response?.statusCode == 200)
        #expect(last.withLock { $0 } == (Int64(body.count), Int64(body.count)))
    }

    // MARK: Copies of the response serializers and the registry

    /// AFHTTPResponseSerializationTests' testCanBeCopied and AFCompoundResponseSerializerTests'
    /// testCompoundSerializerCanBeCopied: serializers and the registry are values, so a copy
    /// keeps every setting and changing it leaves the original alone.
    @Test func responseSerializersAndTheRegistryCopyAsValues() throws {
        var http = HTTPResponseSerializer()
        http.acceptableStatusCodes = IndexSet(integer: 201)
        http.acceptableContentTypes = ["application/x-gannet"]
        var httpCopy = http
        #expect(httpCopy.acceptableStatusCodes == IndexSet(integer: 201))
        #expect(httpCopy.acceptableContentTypes == ["application/x-gannet"])
        httpCopy.acceptableStatusCodes = IndexSet(integer: 202)
        #expect(http.acceptableStatusCodes == IndexSet(integer: 201))

        let registry = ResponseSerializerRegistry.standard
        var copy = registry
        #expect(copy.entries.count == registry.entries.count)
        #expect(copy.acceptableContentTypes == registry.acceptableContentTypes)
        copy.entries.append(.init(PropertyListResponseSerializer(), for: ["application/x-plist"]))
        copy.acceptableStatusCodes.insert(404)
        #expect(copy.entries.count == registry.entries.count + 1)
        #expect(!registry.acceptableStatusCodes.contains(404))

        // The copy works on its own: it reads a property list the original does not know.
        let data = try PropertyListSerialization.data(fromPropertyList: ["k": "v"], format: .xml, options: 0)
        let response = HTTPURLResponse(
            url: servers.httpbin,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "application/x-plist"]
        )
        let value = try copy.serialize(request: nil, response: response, data: data, error: nil)
        #expect((value as? [String: any Sendable])?["k"] as? String == "v")
        let original = try registry.serialize(request: nil, response: response, data: data, error: nil)
        #expect(!(original is [String: any Sendable]), "the original's fallback keeps the bytes")
    }

    // MARK: Top-level JSON arrays

    /// AFJSONSerializationTests' testThatJSONRequestSerializationHandlesParametersArray, through
    /// the verb method to httpbin, which echoes the body it parsed.
    @Test func aTopLevelArrayIsPostedAsAJSONArray() async throws {
        let manager = try makeManager(servers.httpbin)
        manager.requestSerializer = JSONRequestSerializer()
        let delivery = await deliver { success, failure in
            manager.POST("post", parameters: .jsonArray([1, "two", ["three": 3]]), success: success, failure: failure)
        }
        let json = try #require(try echo(delivery.value)["json"] as? [Any])
        try #require(json.count == 3)
        #expect(json[0] as? Int == 1)
        #expect(json[1] as? String == "two")
        #expect((json[2] as? [String: Any])?["three"] as? Int == 3)
        let headers = try #require(try echo(delivery.value)["headers"] as? [String: Any])
        #expect(headers["Content-Type"] as? String == "application/json")
    }

    /// A query string or a form has no top-level array: a typed error, nothing sent.
    @Test func aTopLevelArrayInAQueryOrFormIsATypedError() throws {
        let request = URLRequest(url: servers.httpbin.appendingPathComponent("post"))
        for method in ["POST", "GET"] {
            var request = request
            request.httpMethod = method
            #expect {
                try HTTPRequestSerializer().request(byEncoding: .jsonArray(["a"]), into: request)
            } throws: { ($0 as? RequestSerializationError)?.code == .parameterEncodingFailed }
        }
        var get = request
        get.httpMethod = "GET"
        #expect {
            try JSONRequestSerializer().request(byEncoding: .jsonArray(["a"]), into: get)
        } throws: { ($0 as? RequestSerializationError)?.code == .parameterEncodingFailed }
        #expect(Parameters.jsonArray([1]).topLevelArray?.count == 1)
        #expect((["a": 1] as Parameters).topLevelArray == nil)
    }

    // MARK: Property lists

    /// AFPropertyListRequestSerializerTests' testThatPropertyListRequestSerializerAcceptsPlist,
    /// end to end: httpbin echoes the body, which reads back as the same property list.
    @Test func aPropertyListBodyReachesTheServer() async throws {
        let manager = try makeManager(servers.httpbin)
        manager.requestSerializer = PropertyListRequestSerializer()
        let delivery = await deliver { success, failure in
            manager.POST(
                "post",
                parameters: ["name": "Gannet", "dives": 3, "tags": ["sea", "bird"]],
                success: success,
                failure: failure
            )
        }
        let echoed = try echo(delivery.value)
        let body = try #require(echoed["data"] as? String)
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(body.utf8), format: nil) as? [String: Any]
        )
        #expect(plist["name"] as? String == "Gannet")
        #expect(plist["dives"] as? Int == 3)
        #expect(plist["tags"] as? [String] == ["sea", "bird"])
        #expect((echoed["headers"] as? [String: Any])?["Content-Type"] as? String == "application/x-plist")
    }

    /// testThatPropertyListRequestSerializerHandlesInvalidPlist: a value that is not a property
    /// list is a typed error, not a crash.
    @Test func aValueThatIsNotAPropertyListIsATypedError() throws {
        var request = URLRequest(url: servers.httpbin.appendingPathComponent("post"))
        request.httpMethod = "POST"
        #expect {
            try PropertyListRequestSerializer().request(byEncoding: ["key": NSNull()], into: request)
        } throws: { ($0 as? RequestSerializationError)?.code == .parameterEncodingFailed }
    }

    /// AFPropertyListResponseSerializerTests: a plist body parses, garbage is a typed error, a
    /// 204 gives nil, and the serializer is a value that copies.
    @Test func thePropertyListResponseSerializer() throws {
        let url = servers.httpbin.appendingPathComponent("plist")
        func response(_ status: Int, _ type: String? = "application/x-plist") -> HTTPURLResponse? {
            HTTPURLResponse(
                url: url,
                statusCode: status,
                httpVersion: "HTTP/1.1",
                headerFields: type.map { ["Content-Type": $0] }
            )
        }
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["foo": "bar", "n": 2],
            format: .binary,
            options: 0
        )
        let serializer = PropertyListResponseSerializer()
        let value = try #require(
            try serializer.serialize(request: nil, response: response(200), data: data, error: nil)
        )
        let dictionary = try #require(value as? [String: any Sendable])
        #expect(dictionary["foo"] as? String == "bar")
        #expect((dictionary["n"] as? NSNumber)?.intValue == 2)

        #expect {
            try serializer.serialize(
                request: nil,
                response: response(200),
                data: Data("not a plist <".utf8),
                error: nil
            )
        } throws: { ($0 as? ResponseSerializationError)?.code == .decodingFailed }
        #expect(try serializer.serialize(request: nil, response: response(204, nil), data: Data(), error: nil) == nil)
        #expect {
            try serializer.serialize(request: nil, response: response(200, "application/json"), data: data, error: nil)
        } throws: { ($0 as? ResponseSerializationError)?.code == .unacceptableContentType }

        var copy = serializer
        copy.acceptableContentTypes = ["application/json"]
        copy.acceptableStatusCodes = IndexSet(integer: 200)
        #expect(serializer.acceptableContentTypes == PropertyListResponseSerializer.defaultAcceptableContentTypes)
        #expect(serializer.acceptableStatusCodes == IndexSet(200..<300))
    }
}

/// The sessions a hook was called for, from the engine's queues.
final class SessionRecorder: Sendable {
    private let seen = Mutex<[ObjectIdentifier]>([])
    func record(_ session: SessionManager) { seen.withLock { $0.append(ObjectIdentifier(session)) } }
    var sessions: [ObjectIdentifier] { seen.withLock { $0 } }
}
