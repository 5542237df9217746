internal import Synchronization

/// What every attempt of one download task shares about its file: the partial file it resumes,
/// if it was made from resume data, and whether a cancellation should keep what arrived
/// (``SessionTask/cancel(byProducingResumeData:)``). Each attempt's ``FileSink`` reads it.
final class DownloadFile: Sendable {
    /// The partial file and how many of its bytes are kept, for a task made from resume data.
    let resume: (path: String, offset: Int64)?
    private let keeps = Atomic<Bool>(false)

    init(resume: (path: String, offset: Int64)? = nil) {
        self.resume = resume
    }

    /// A cancellation asked for resume data: the partial file is kept, not deleted.
    var keepsPartialFile: Bool {
        get { keeps.load(ordering: .acquiring) }
        set { keeps.store(newValue, ordering: .releasing) }
    }

    /// Where a response continues the partial file: at the offset for a `206` whose
    /// `Content-Range` starts there, from zero for a `200` (the server ignored the range, or
    /// the validator changed: `If-Range` then asks for the whole body); `nil` for any other
    /// status, whose body goes to a new temporary file. Throws for a `206` at another offset.
    func continuation(of head: ResponseHead) throws -> Int64? {
        guard let resume else { return nil }
        switch head.statusCode {
        case 200:
            return 0
        case 206:
            let start = head.value("Content-Range").flatMap(Self.rangeStart)
            guard start == resume.offset else {
                throw GannetError(
                    .invalidResumeData,
                    "The server resumed the download at \(start.map(String.init) ?? "an unknown offset"), not at \(resume.offset)"
                )
            }
            return resume.offset
        default:
            return nil
        }
    }

    /// The first byte of `bytes 100-199/1000` (RFC 9110 §14.4).
    static func rangeStart(_ contentRange: String) -> Int64? {
        let value = contentRange.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes ") else { return nil }
        let range = value.dropFirst(6).prefix { $0 != "/" }
        guard let dash = range.firstIndex(of: "-") else { return nil }
        return Int64(range[..<dash].trimmingCharacters(in: .whitespaces))
    }
}
