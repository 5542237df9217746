#if canImport(Glibc)
internal import Glibc
#endif

/// A serializer that also receives the file a download task wrote.
protocol FileResponseSerializing: ResponseSerializing {
    func serialize(_ download: FinishedDownload) throws -> Output
}

/// What a download task left when its transfer ended.
struct FinishedDownload {
    var fileURL: URL?
    var request: URLRequest?
    var response: HTTPURLResponse?
    var error: (any Error)?
    var task: SessionTask
    var manager: SessionManager
}

/// Finishes a download as AFNetworking's does, with two repairs (docs/core.md, "Downloads"):
/// the response goes through the manager's response serializer first, and a rejected body is
/// deleted instead of saved; then the session's destination hook, else the task's own, picks
/// where the file goes, and ``DownloadFileMove`` puts it there.
struct DownloadSerializer: FileResponseSerializing {
    /// How much of a rejected body the validator sees and its error keeps (AFNetworking's error
    /// data key holds the body; a download's may be gigabytes).
    static let errorBodyPrefixBytes = 64 * 1024

    let destination: (@Sendable (URL, HTTPURLResponse) -> URL)?
    /// The manager's response serializer when the task was created.
    let validator: any ResponseSerializing

    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> URL {
        throw error ?? GannetError(.bodyStreamFailed, "A download task finished without a file")
    }

    func serialize(_ download: FinishedDownload) throws -> URL {
        guard let fileURL = download.fileURL else {
            throw download.error ?? GannetError(.bodyStreamFailed, "A download task finished without a file")
        }
        if let error = download.error {
            unlink(fileURL.path)
            throw error
        }
        guard let response = download.response else { return fileURL }
        do {
            try validate(response, file: fileURL, request: download.request)
        } catch {
            unlink(fileURL.path)
            throw error
        }
        let manager = download.manager
        let hook = manager.hooks.withLock { $0.downloadTaskDidFinishDownloading }
        guard let target = hook?(manager, download.task, fileURL) ?? destination?(fileURL, response),
            target.standardizedFileURL.path != fileURL.standardizedFileURL.path
        else { return fileURL }
        do {
            try DownloadFileMove.move(fileURL, to: target, failingURL: download.request?.url)
        } catch {
            unlink(fileURL.path)
            manager.postTaskNotification(
                .gannetDownloadTaskDidFailToMoveFile,
                for: download.task,
                userInfo: [TaskNotificationKey.error: error]
            )
            throw error
        }
        manager.postTaskNotification(.gannetDownloadTaskDidMoveFile, for: download.task)
        return target
    }

    /// Asks the validator about the response, showing it the start of the body.
    private func validate(_ response: HTTPURLResponse, file: URL, request: URLRequest?) throws {
        let base = (validator as? AnyResponseSerializer)?.base ?? validator
        guard let judge = base as? any DownloadResponseValidating else { return }
        try judge.validateDownload(request: request, response: response, bodyPrefix: Self.prefix(of: file))
    }

    private static func prefix(of file: URL) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: errorBodyPrefixBytes)) ?? Data()
    }
}
