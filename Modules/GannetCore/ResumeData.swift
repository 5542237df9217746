#if canImport(Glibc)
internal import Glibc
#endif

/// The resume data of a cancelled download (``SessionTask/cancel(byProducingResumeData:)``),
/// which ``SessionManager/downloadTask(withResumeData:destination:progress:completionHandler:)``
/// continues with `Range` and `If-Range`. Opaque to callers, but documented and versioned
/// (docs/auth-cookies-cache.md, "Resumable downloads"): JSON with `version` (1), `url`,
/// `headers` (the request's, without `Range` and `If-Range`), `file` (the partial file's path),
/// `offset` (its bytes), and the validator the server gave, `etag` (strong) or `lastModified`.
struct ResumeData: Codable, Equatable {
    static let currentVersion = 1

    var version = ResumeData.currentVersion
    var url: URL
    var headers: [String: String]
    var file: String
    var offset: Int64
    var etag: String?
    var lastModified: String?

    /// `If-Range`: the strong ETag, else the date (RFC 9110 §13.1.5).
    var validator: String? { etag ?? lastModified }

    /// Resume data for a cancelled download's outcome, or `nil` (and the partial file deleted)
    /// when it cannot be resumed safely: no body yet, a response other than `200` or `206`, or
    /// no validator to send in `If-Range` (a weak ETag does not count), since a body that
    /// changed meanwhile would otherwise be spliced onto the old one.
    static func produce(from outcome: TransferOutcome, request: URLRequest?) -> Data? {
        guard let partial = outcome.partialFile else { return nil }
        let head = outcome.head
        let strongETag = head?.value("ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        let lastModified = head?.value("Last-Modified")
        guard partial.size > 0, let head, head.statusCode == 200 || head.statusCode == 206,
            strongETag != nil || lastModified != nil, let url = request?.url
        else {
            unlink(partial.url.path)
            return nil
        }
        var headers = request?.allHTTPHeaderFields ?? [:]
        headers = headers.filter { !["range", "if-range"].contains($0.key.lowercased()) }
        let data = ResumeData(
            url: url,
            headers: headers,
            file: partial.url.path,
            offset: partial.size,
            etag: strongETag,
            lastModified: strongETag == nil ? lastModified : nil
        )
        return try? JSONEncoder().encode(data)
    }

    /// Reads resume data, refusing what cannot resume a download with a typed error.
    static func decode(_ data: Data) throws(GannetError) -> ResumeData {
        let resume: ResumeData
        do {
            resume = try JSONDecoder().decode(ResumeData.self, from: data)
        } catch {
            throw GannetError(.invalidResumeData, "The resume data is not Gannet's: \(error)")
        }
        guard resume.version == currentVersion else {
            throw GannetError(
                .invalidResumeData,
                "The resume data has version \(resume.version); this Gannet reads version \(currentVersion)"
            )
        }
        guard ["http", "https"].contains(resume.url.scheme?.lowercased() ?? ""), resume.url.host != nil else {
            throw GannetError(.invalidResumeData, "The resume data's URL is not an http(s) URL")
        }
        guard resume.offset > 0, resume.validator != nil else {
            throw GannetError(.invalidResumeData, "The resume data has no offset or no validator for If-Range")
        }
        // Only the private temporary file a cancelled download kept may be continued: the
        // partial file is truncated to `offset` and the server's bytes written after it, so
        // resume data naming any other file (a link, a file of someone else's, one of the
        // user's own) would let whoever wrote it overwrite that file (docs/security.md, "Files").
        let name = (resume.file as NSString).lastPathComponent
        guard name.hasPrefix(FileSink.prefix), name.hasSuffix(FileSink.suffix) else {
            throw GannetError(
                .invalidResumeData,
                "The resume data names \(resume.file), which is not a partial download file of Gannet's"
            )
        }
        var status = stat()
        guard lstat(resume.file, &status) == 0 else {
            throw GannetError(.invalidResumeData, "The partial download file \(resume.file) is gone")
        }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(), status.st_nlink == 1,
            status.st_mode & 0o077 == 0
        else {
            throw GannetError(
                .invalidResumeData,
                "The partial download file \(resume.file) is not a private regular file of this user's"
            )
        }
        guard Int64(status.st_size) >= resume.offset else {
            throw GannetError(
                .invalidResumeData,
                "The partial download file holds \(status.st_size) bytes, fewer than the \(resume.offset) recorded"
            )
        }
        return resume
    }
}

/// The interceptor of a resumed download: the first attempt asks for the rest with `Range` and
/// `If-Range`; a `416` (the server's file is now shorter than the part kept) is retried once
/// without them, and that attempt's `200` starts the file again from zero.
struct RangeRestart: RequestInterceptor {
    func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        guard task.retryCount > 0 else { return request }
        var request = request
        request.setValue(nil, forHTTPHeaderField: "Range")
        request.setValue(nil, forHTTPHeaderField: "If-Range")
        return request
    }

    func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
        attempt.statusCode == 416 && attempt.retryCount == 0 ? .retry : .doNotRetry
    }
}
