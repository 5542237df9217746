#if canImport(Glibc)
internal import Glibc
#endif

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
struct DownloadSerializer: ResultStage {
    /// How much of a rejected body the validator sees and its error keeps (AFNetworking's error
    /// data key holds the body; a download's may be gigabytes).
    static let errorBodyPrefixBytes = 64 * 1024

    let destination: (@Sendable (URL, HTTPURLResponse) -> URL)?
    /// The manager's response serializer when the task was created.
    let validator: any ResponseSerializing

    var reportedSerializer: any ResponseSerializing {
        (validator as? AnyResponseSerializer)?.base ?? validator
    }

    func result(
        of outcome: TransferOutcome,
        response: LazyResponse?,
        task: SessionTask,
        manager: SessionManager
    ) -> Result<URL, any Error> {
        let download = FinishedDownload(
            fileURL: outcome.fileURL,
            request: outcome.request,
            response: response?.value,
            error: outcome.error,
            task: task,
            manager: manager
        )
        return Result { try finish(download) }
    }

    func downloadedFile(in value: URL) -> URL? { value }

    /// Validates the response, deletes a rejected or failed file, and moves an accepted one to
    /// its destination.
    func finish(_ download: FinishedDownload) throws -> URL {
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
        try validator.validate(
            ResponseInput(request: request, response: response, data: Self.prefix(of: file), fileURL: file)
        )
    }

    private static func prefix(of file: URL) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: errorBodyPrefixBytes)) ?? Data()
    }
}
