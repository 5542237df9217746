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
        // The temporary folder is shared: the file is created new there, never opened
        // through a name someone else prepared (docs/security.md, "Files").
        let directory = FileManager.default.temporaryDirectory.path
        do {
            let created = try PrivateFile.create(in: directory, prefix: Self.prefix, suffix: Self.suffix)
            descriptor = created.descriptor
            url = URL(fileURLWithPath: created.path)
        } catch {
            throw GannetError(
                .bodyStreamFailed,
                "Cannot create the download file in \(directory): \(error.message)",
                underlyingError: error
            )
        }
    }

    /// The temporary file's name is `gannet-download-` + random + `.tmp`; resume data naming
    /// another file is refused (``ResumeData/decode(_:)``).
    static let prefix = "gannet-download-"
    static let suffix = ".tmp"

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
    /// The file must still be the private one an earlier attempt created (no link, this
    /// user's, mode 0600, one name): resume data naming any other file would truncate it.
    private func continueFile(at path: String, from offset: Int64) throws {
        do {
            descriptor = try PrivateFile.openExisting(path, flags: O_WRONLY)
        } catch {
            throw GannetError(
                .invalidResumeData,
                "Cannot continue the partial download file: \(error.message)",
                underlyingError: error
            )
        }
        if ftruncate(descriptor, off_t(offset)) != 0 || lseek(descriptor, 0, SEEK_END) < 0 {
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
