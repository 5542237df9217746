import Foundation
import GannetResponseSerialization

@testable import GannetCore

extension FuzzTarget {
    /// The IANA charset table and `StringResponseSerializer` with a fuzzed `Content-Type` and
    /// body. Invariants: a charset name that maps to an encoding maps back to a name of the same
    /// encoding; decoding fails only with `ResponseSerializationError`.
    static let charset = FuzzTarget(name: "charset") { bytes in
        var input = FuzzInput(bytes)
        let contentType = input.string(limit: 256)
        let body = Data(input.rest())
        if let encoding = String.Encoding(ianaCharsetName: contentType) {
            let name = encoding.ianaCharsetName
            require(
                name.flatMap(String.Encoding.init(ianaCharsetName:)) == encoding,
                "\(contentType) -> \(String(describing: name))"
            )
        }
        let url = URL(string: "http://fuzz.invalid/")!
        let response = HTTPURLResponse(
            url: url,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": contentType]
        )
        do {
            _ = try StringResponseSerializer().serialize(request: nil, response: response, data: body, error: nil)
        } catch {
            require(error is ResponseSerializationError, "string threw \(type(of: error))")
        }
    }
}
