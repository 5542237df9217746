internal import Glibc

extension ConfigurableRequestSerializer {
    /// Writes the body stream of a multipart request to `fileURL` and returns the request
    /// without its stream (AFNetworking's `requestWithMultipartFormRequest:writingStreamContentsToFile:completionHandler:`),
    /// for servers that need a plain file upload: upload the file with the returned request,
    /// whose `Content-Type` and `Content-Length` still describe it.
    ///
    /// The body is copied in 64 KiB chunks on a background thread, so memory stays constant
    /// and no Swift concurrency thread blocks on file I/O. The body goes to a new file (mode
    /// 0600, created under a random name beside `fileURL`, never through an existing path),
    /// which replaces `fileURL` in one step once complete; on failure it is removed and a file
    /// at `fileURL` is left as it was. A `fileURL` that is a symbolic link (dangling or not) or
    /// not a regular file is refused (docs/security.md, "Files").
    ///
    /// - Throws: ``RequestSerializationError/Code/bodyWriteFailed`` when the request has no
    ///   body stream, `fileURL` is not a file URL, is a symbolic link or not a regular file,
    ///   the file cannot be written (a `PrivateFileError` is the underlying error), or the
    ///   stream yields a different number of bytes than its `Content-Length`; the stream's own error
    ///   (such as ``RequestSerializationError/Code/bodyStreamFailed``) when reading fails.
    public func writeMultipartBody(of request: URLRequest, to fileURL: URL) async throws -> URLRequest {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(with: Result { try MultipartBodyWriter.write(request, to: fileURL) })
            }
        }
    }

    /// The completion-handler form of ``writeMultipartBody(of:to:)``: returns the request
    /// without its stream at once, writes on a background thread, then calls `completion` with
    /// `nil` or the error, on `queue` when given, otherwise on the writing thread.
    @discardableResult
    public func writeMultipartBody(
        of request: URLRequest,
        to fileURL: URL,
        queue: DispatchQueue? = nil,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> URLRequest {
        DispatchQueue.global(qos: .utility).async {
            var failure: (any Error)?
            do {
                _ = try MultipartBodyWriter.write(request, to: fileURL)
            } catch {
                failure = error
            }
            if let queue {
                queue.async { [failure] in completion(failure) }
            } else {
                completion(failure)
            }
        }
        var copy = request
        copy.httpBodyStream = nil
        return copy
    }
}

/// Copies a request's body stream into a file.
enum MultipartBodyWriter {
    static func write(_ request: URLRequest, to fileURL: URL) throws -> URLRequest {
        guard let stream = request.httpBodyStream else {
            throw RequestSerializationError(
                .bodyWriteFailed,
                "The request has no body stream to write",
                failingRequest: request
            )
        }
        guard fileURL.isFileURL else {
            throw RequestSerializationError(
                .bodyWriteFailed,
                "\(fileURL.absoluteString) is not a file URL",
                failingRequest: request
            )
        }
        let path = fileURL.path
        do {
            try PrivateFile.replace(path) { descriptor, _ in
                stream.open()
                defer { stream.close() }
                let total = try copy(stream, to: descriptor, path: path, request: request)
                if let declared = request.value(forHTTPHeaderField: "Content-Length").flatMap(UInt64.init),
                    declared != total
                {
                    throw RequestSerializationError(
                        .bodyWriteFailed,
                        "The body stream yielded \(total) bytes, but Content-Length is \(declared)",
                        failingRequest: request
                    )
                }
            }
        } catch let error as PrivateFileError {
            throw RequestSerializationError(
                .bodyWriteFailed,
                "Cannot write \(path): \(error.message)",
                failingRequest: request,
                underlyingError: error
            )
        }
        var result = request
        result.httpBodyStream = nil
        return result
    }

    private static func copy(
        _ stream: InputStream,
        to descriptor: Int32,
        path: String,
        request: URLRequest
    ) throws -> UInt64 {
        let size = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        var total: UInt64 = 0
        while true {
            let count = stream.read(buffer, maxLength: size)
            if count == 0 { return total }
            if count < 0 {
                if let error = stream.streamError as? RequestSerializationError {
                    throw error.withFailingRequest(request)
                }
                throw RequestSerializationError(
                    .bodyStreamFailed,
                    "Reading the body stream failed",
                    failingRequest: request,
                    underlyingError: stream.streamError
                )
            }
            var written = 0
            while written < count {
                let result = Glibc.write(descriptor, buffer + written, count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw RequestSerializationError(
                        .bodyWriteFailed,
                        "Cannot write \(path): \(String(cString: strerror(errno)))",
                        failingRequest: request
                    )
                }
                written += result
            }
            total += UInt64(count)
        }
    }
}
