#if canImport(Glibc)
internal import Glibc
#endif

/// The body sink of download tasks: a temporary file written with `write(2)`, created when the
/// final head arrives. Removed unless the download succeeds and the file is handed on.
final class FileSink: BodySink {
    private(set) var url: URL?
    private var descriptor: Int32 = -1
    let file: DownloadFile

    init(file: DownloadFile) { self.file = file }

    /// Large reads: libcurl's 16 KiB default made 1 GiB downloads half as fast as the curl
    /// command line.
    var readBufferSize: Int { 512 * 1024 }

    func limit(_ limits: SessionConfiguration.Limits) -> Int64? { limits.maximumDownloadBytes }

    deinit { closeFile() }

    func open(head: ResponseHead, url responseURL: URL, limits: SessionConfiguration.Limits) throws {
        if let offset = try file.continuation(of: head), let path = file.resume?.path {
            try continueFile(at: path, from: offset)
            return
        }
        let directory = FileManager.default.temporaryDirectory
        let url = directory.appendingPathComponent("gannet-download-\(UUID().uuidString).tmp")
        descriptor = Glibc.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 {
            throw GannetError(
                .bodyStreamFailed,
                "Cannot create the download file in \(directory.path): \(String(cString: strerror(errno)))"
            )
        }
        self.url = url
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw GannetError(
                    .bodyStreamFailed,
                    "Writing the download file failed: \(String(cString: strerror(errno)))"
                )
            }
            offset += written
        }
    }

    /// Opens the partial file of a resumed download, keeps its first `offset` bytes and
    /// writes after them (zero: the whole body again).
    private func continueFile(at path: String, from offset: Int64) throws {
        descriptor = Glibc.open(path, O_WRONLY | O_CLOEXEC)
        if descriptor < 0 || ftruncate(descriptor, off_t(offset)) != 0 || lseek(descriptor, 0, SEEK_END) < 0 {
            let reason = String(cString: strerror(errno))
            closeFile()
            throw GannetError(.invalidResumeData, "Cannot continue the partial download file \(path): \(reason)")
        }
        url = URL(fileURLWithPath: path)
    }

    func close(_ outcome: inout TransferOutcome) {
        if outcome.error == nil, let url {
            closeFile()
            outcome.fileURL = url
            outcome.data = nil
        } else if file.keepsPartialFile, let url {
            // Cancelled for resume data: the file stays for `downloadTask(withResumeData:)`.
            var status = stat()
            let size = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
            closeFile()
            outcome.partialFile = (url, size)
            outcome.data = outcome.head == nil ? nil : Data()
        } else {
            discard()
            // As a data task's would be: the (empty) body of a response that arrived.
            outcome.data = outcome.head == nil ? nil : Data()
        }
        url = nil
    }

    private func closeFile() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Closes and deletes the file (the download failed or was cancelled).
    private func discard() {
        closeFile()
        if let url { unlink(url.path) }
    }
}
