/// A response serializer that can judge a download. A download task's body goes to a file,
/// not through `serialize(request:response:data:error:)`, so the manager's
/// ``SessionManager/responseSerializer`` is asked this instead, with the first 64 KiB of the
/// body, before the file is moved to its destination. A throw fails the download task with
/// that error and deletes the file.
///
/// Every `ResponseValidating` serializer of GannetResponseSerialization and GannetXML
/// conforms: it checks its `acceptableStatusCodes` and `acceptableContentTypes`, and its
/// `ResponseSerializationError` keeps the response and the 64 KiB. A serializer that does not
/// conform (``PassthroughResponseSerializer``, the core's default) accepts every download.
public protocol DownloadResponseValidating: Sendable {
    /// Throws when the download must fail. `bodyPrefix` is the start of the body as written
    /// to disk (empty for an empty body); an error should keep it for callers that read the
    /// server's error document.
    func validateDownload(request: URLRequest?, response: HTTPURLResponse, bodyPrefix: Data) throws
}
