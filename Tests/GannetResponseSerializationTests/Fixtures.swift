import GannetResponseSerialization
import Testing

/// Responses and requests built in memory, as the engine would hand them to a serializer.
enum Fixture {
    static let url = URL(string: "http://127.0.0.1:8080/resource")!

    /// A response with `status` and, when given, a `Content-Type` header.
    static func response(_ status: Int = 200, contentType: String? = nil, url: URL = Fixture.url) -> HTTPURLResponse {
        var headers: [String: String] = [:]
        if let contentType { headers["Content-Type"] = contentType }
        return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    }

    static func request(_ method: String = "GET") -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        return request
    }

    static func data(_ text: String) -> Data { Data(text.utf8) }
}

extension ResponseSerializing {
    /// Serializes with no request and no transport error, the common case in these tests.
    func serialize(_ response: HTTPURLResponse?, _ data: Data?) throws -> Output {
        try serialize(request: nil, response: response, data: data, error: nil)
    }
}

/// Runs `body` and returns the `ResponseSerializationError` it throws; records an issue when it
/// throws nothing or something else.
func serializationError<T>(
    _ body: () throws -> T,
    sourceLocation: SourceLocation = #_sourceLocation
) -> ResponseSerializationError? {
    do {
        let value = try body()
        Issue.record("Expected a ResponseSerializationError, got \(value)", sourceLocation: sourceLocation)
    } catch let error as ResponseSerializationError {
        return error
    } catch {
        Issue.record("Expected a ResponseSerializationError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
