import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Under FaultsSerialSuites: these tests hold connections to the fault server for seconds,
/// which the suites there that count this process's connections must not see.
extension FaultsSerialSuites {
    /// Issue 16, defect 3: downloads and byte streams are bounded by default, by size and by
    /// decompression ratio, and a slow consumer never makes libcurl buffer decoded bytes.
    @Suite("Decompression and download limits", .serialized)
    struct DecompressionLimitTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        private func temporaryDownloads() -> Set<String> {
            let names =
                (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path))
                ?? []
            return Set(names.filter { $0.hasPrefix("gannet-download-") })
        }

        @Test func theDefaultsBoundDownloadsAndDecompression() {
            let limits = SessionConfiguration.default.limits
            #expect(limits.maximumDownloadBytes == 32 << 30)
            #expect(limits.maximumDecompressionRatio == 200)
        }

        @Test func aDownloadedGzipBombFailsWithTheDefaults() async throws {
            let before = temporaryDownloads()
            let manager = SessionManager()
            let response = await withCheckedContinuation { continuation in
                manager.downloadTask(with: URLRequest(url: servers.url(.gzipBomb))) {
                    continuation.resume(returning: $0)
                }.resume()
            }
            #expect(gannetCode(response.error) == .decompressionBomb, "\(String(describing: response.error))")
            #expect((response.error as? URLError)?.code == .dataLengthExceedsMaximum)
            // Other suites download at the same time: wait until every file that appeared since
            // has gone, which cannot happen while this download's partial file is kept.
            let deadline = ContinuousClock.now + .seconds(30)
            while !temporaryDownloads().subtracting(before).isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(temporaryDownloads().subtracting(before).isEmpty, "the partial file must be removed")
        }

        @Test func aStreamedGzipBombFailsTypedEvenWithASlowConsumer() async throws {
            let manager = SessionManager()
            let (_, body) = try await manager.bytes(for: URLRequest(url: servers.url(.gzipBomb)))
            let task = try #require(manager.tasks.first)
            // Read nothing until the transfer has stopped or ended: the failure must come from
            // the bomb limit, not from libcurl refusing to buffer while paused.
            while task.state == .running && task.countOfBytesReceived < 1 << 20 {
                try await Task.sleep(for: .milliseconds(20))
            }
            var received = 0
            do {
                for try await chunk in body { received += chunk.count }
                Issue.record("the bomb was delivered whole: \(received) bytes")
            } catch {
                #expect(gannetCode(error) == .decompressionBomb, "\(error)")
            }
            #expect(received < 200 << 20)
        }

        @Test func aSlowConsumerOfAHighlyCompressibleBodyGetsItWhole() async throws {
            let manager = SessionManager()
            let (response, body) = try await manager.bytes(
                for: URLRequest(url: servers.url(.gzipCompressible(mebibytes: 32)))
            )
            #expect(response.statusCode == 200)
            let task = try #require(manager.tasks.first)
            // The consumer lags: it starts only once the engine has reached the high-water mark.
            while task.state == .running && task.countOfBytesReceived < 1 << 20 {
                try await Task.sleep(for: .milliseconds(20))
            }
            var received = 0
            for try await chunk in body { received += chunk.count }
            #expect(received == 32 << 20)
        }

        @Test func aDownloadOfAHighlyCompressibleBodySucceedsWithTheDefaults() async throws {
            let (url, response) = try await SessionManager().download(
                for: URLRequest(url: servers.url(.gzipCompressible(mebibytes: 32))),
                to: FileManager.default.temporaryDirectory.appendingPathComponent("gannet-compressible-\(UUID()).bin")
            )
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(response.statusCode == 200)
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
            #expect(size?.intValue == 32 << 20)
        }

        @Test func theRatioLimitIsConfigurable() async throws {
            var configuration = SessionConfiguration.default
            configuration.limits.maximumDecompressionRatio = 100
            let manager = SessionManager(configuration: configuration)
            let (_, body) = try await manager.bytes(for: URLRequest(url: servers.url(.gzipCompressible(mebibytes: 32))))
            await #expect(throws: (any Error).self) {
                for try await _ in body {}
            }
            configuration.limits.maximumDecompressionRatio = nil
            configuration.limits.maximumDownloadBytes = nil
            let (_, whole) = try await SessionManager(configuration: configuration).bytes(
                for: URLRequest(url: servers.url(.gzipBomb))
            )
            var received = 0
            for try await chunk in whole { received += chunk.count }
            #expect(received == 200 << 20)
        }

        @Test func aStreamedBodyStopsAtTheDownloadLimit() async throws {
            var configuration = SessionConfiguration.default
            configuration.limits.maximumDownloadBytes = 4 << 20
            let (_, body) = try await SessionManager(configuration: configuration).bytes(
                for: URLRequest(url: servers.url(.neverEnds))
            )
            var received = 0
            do {
                for try await chunk in body { received += chunk.count }
                Issue.record("an endless body ended")
            } catch {
                #expect(gannetCode(error) == .bodyTooLarge, "\(error)")
            }
            #expect(received <= 4 << 20)
        }
    }
}
