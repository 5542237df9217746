public import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body sent beside an `HTTPRequest` (which carries none) by
/// ``GannetCore/SessionManager/bytes(for:body:)``.
public struct RequestBody: Sendable {
    // @unchecked: an InputStream is not Sendable. The stream is handed over once, when the body
    // is applied to the URLRequest the manager sends; Gannet then reads it on one thread of its
    // own (docs/core.md, "Tasks") and nothing else touches it.
    private enum Storage: @unchecked Sendable {
        case none
        case data(Data)
        case stream(InputStream)
    }
    private let storage: Storage

    /// No body.
    public static let none = RequestBody(storage: .none)

    /// `data`, sent with its length.
    public static func data(_ data: Data) -> RequestBody { RequestBody(storage: .data(data)) }

    /// A stream read as it is sent; Gannet reads it on a thread of its own, so a `read` that
    /// blocks holds up only this body. Give the request a `Content-Length` to send it with
    /// one, otherwise it goes chunked (HTTP/1.1).
    public static func stream(_ stream: InputStream) -> RequestBody { RequestBody(storage: .stream(stream)) }

    func apply(to request: inout URLRequest) {
        switch storage {
        case .none: break
        case .data(let data): request.httpBody = data
        case .stream(let stream): request.httpBodyStream = stream
        }
    }
}
