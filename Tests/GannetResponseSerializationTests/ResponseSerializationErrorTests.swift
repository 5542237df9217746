import GannetResponseSerialization
import Testing

@Suite("ResponseSerializationError")
struct ResponseSerializationErrorTests {
    @Test("A decoding failure quotes at most 1 KB of a huge body, on one line")
    func boundedExcerpt() throws {
        // Given a 1 MiB body whose first line is recognisable and which contains newlines
        var body = Fixture.data("first line\nsecond line\r\n")
        body.append(Data(repeating: UInt8(ascii: "x"), count: 1 << 20))

        // When a decoding error is made from it
        let error = ResponseSerializationError.decodingFailed("bad", response: Fixture.response(200), data: body)

        // Then the message starts with the reason, names the size, escapes control characters and stays within 1 KB
        #expect(error.code == .decodingFailed)
        #expect(error.message.hasPrefix("bad — body (\(body.count) bytes): first line\\nsecond line\\r\\nxxx"))
        #expect(error.message.hasSuffix("…"))
        #expect(error.message.utf8.count <= ResponseSerializationError.maximumMessageBytes)
        #expect(!error.message.contains("\n"))
        #expect(error.data == body, "the whole body stays available to the app")
    }

    @Test("Binary bodies are rendered with replacement characters, still within 1 KB")
    func binaryExcerpt() {
        let body = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 128) })
        let error = ResponseSerializationError.decodingFailed("bad", response: nil, data: body)
        #expect(error.message.utf8.count <= ResponseSerializationError.maximumMessageBytes)
        #expect(error.message.contains("\u{FFFD}"))
    }

    @Test("An empty body is named as such")
    func emptyExcerpt() {
        #expect(
            ResponseSerializationError.decodingFailed("bad", response: nil, data: Data()).message == "bad — empty body"
        )
        #expect(
            ResponseSerializationError.decodingFailed("bad", response: nil, data: nil).message == "bad — empty body"
        )
    }

    @Test("A long message from a custom serializer is cut to 1 KB")
    func clipsMessages() {
        let error = ResponseSerializationError(
            .decodingFailed,
            String(repeating: "é", count: 5000),
            response: nil,
            data: nil
        )
        #expect(error.message.utf8.count <= ResponseSerializationError.maximumMessageBytes)
        #expect(error.message.hasSuffix("…"))
    }

    @Test("An underlying NSError with an enormous description is shortened, keeping domain and code")
    func boundsUnderlyingNSError() throws {
        // Given Foundation's kind of error, quoting a 100,000-digit number
        let digits = String(repeating: "9", count: 100_000)
        let foundation = NSError(
            domain: NSCocoaErrorDomain,
            code: 3840,
            userInfo: ["NSDebugDescription": "Number \(digits) is not representable in Swift."]
        )

        // When it becomes an underlying error
        let error = ResponseSerializationError(
            .jsonDecodingFailed,
            "x",
            response: nil,
            data: nil,
            underlyingError: foundation
        )

        // Then it is still an NSError of the same domain and code, with a short description
        let underlying = try #require(error.underlyingError)
        #expect(type(of: underlying) is NSError.Type)
        let nsError = underlying as NSError
        #expect(nsError.domain == NSCocoaErrorDomain && nsError.code == 3840)
        #expect(String(describing: underlying).utf8.count < 2048)
    }

    @Test("Other oversized underlying errors are replaced by a short description of the same text")
    func boundsOtherErrors() throws {
        struct Chatty: Error, CustomStringConvertible {
            var description: String { String(repeating: "blah ", count: 10_000) }
        }
        let error = ResponseSerializationError(
            .decodingFailed,
            "x",
            response: nil,
            data: nil,
            underlyingError: Chatty()
        )
        let underlying = try #require(error.underlyingError)
        #expect(!(underlying is Chatty))
        #expect(String(describing: underlying).hasPrefix("blah blah"))
        #expect(String(describing: underlying).utf8.count <= 1024)

        // While a short error is kept as it is
        let kept = ResponseSerializationError(
            .decodingFailed,
            "x",
            response: nil,
            data: nil,
            underlyingError: URLError(.badURL)
        )
        #expect(kept.underlyingError as? URLError == URLError(.badURL))
    }

    @Test("The description adds the failing URL without credentials")
    func descriptionHidesCredentials() throws {
        let url = try #require(URL(string: "http://user:secret@127.0.0.1:8080/private?q=1"))
        let error = ResponseSerializationError(
            .unacceptableStatusCode,
            "Request failed: forbidden (403)",
            response: Fixture.response(403, url: url),
            data: nil
        )
        #expect(error.description == "Request failed: forbidden (403) (http://127.0.0.1:8080/private?q=1)")
        #expect(error.localizedDescription == error.description)
        #expect(!error.description.contains("secret"))
    }

    @Test("Bridges to NSError with AFNetworking's codes and userInfo keys")
    func nsErrorBridge() throws {
        // Given the errors validation produces
        let body = Fixture.data("<html/>")
        let response = Fixture.response(404, contentType: "text/html")
        let status = try #require(
            serializationError {
                try HTTPResponseSerializer(acceptableContentTypes: [.json]).serialize(response, body)
            }
        )

        // When bridged as AFNetworking code would see them
        let nsError = status as NSError

        // Then codes and keys are AFNetworking's
        #expect(nsError.domain == ResponseSerializationError.errorDomain)
        #expect(nsError.code == URLError.Code.badServerResponse.rawValue)
        #expect(nsError.userInfo[ResponseSerializationError.failingURLResponseDataErrorKey] as? Data == body)
        #expect(
            nsError.userInfo[ResponseSerializationError.failingURLResponseErrorKey] as? HTTPURLResponse === response
        )
        #expect(nsError.userInfo[NSURLErrorFailingURLErrorKey] as? URL == Fixture.url)
        let underlying = try #require(nsError.userInfo[NSUnderlyingErrorKey] as? ResponseSerializationError)
        #expect((underlying as NSError).code == URLError.Code.cannotDecodeContentData.rawValue)
        #expect(
            ResponseSerializationError(.inputDataNilOrZeroLength, "", response: nil, data: nil).errorCode
                == URLError.Code.zeroByteResource.rawValue
        )
        #expect(
            ResponseSerializationError(.jsonDecodingFailed, "", response: nil, data: nil).errorCode
                == URLError.Code.cannotParseResponse.rawValue
        )
    }

    @Test("Codes have stable names")
    func codeNames() {
        let codes: [ResponseSerializationError.Code] = [
            .unacceptableStatusCode, .unacceptableContentType, .inputDataNilOrZeroLength,
            .jsonDecodingFailed, .stringDecodingFailed, .decodingFailed,
        ]
        #expect(
            codes.map(\.description) == [
                "unacceptableStatusCode", "unacceptableContentType", "inputDataNilOrZeroLength",
                "jsonDecodingFailed", "stringDecodingFailed", "decodingFailed",
            ]
        )
        #expect(Set(codes).count == codes.count)
    }
}
