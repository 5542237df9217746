// Code ported from AFNetworking often inspects the bridged NSError: its code
// (`NSURLErrorBadServerResponse`), and the failing response and data under AFNetworking's
// userInfo keys. This bridge keeps that code working.

extension ResponseSerializationError: CustomNSError {
    /// AFNetworking's `com.alamofire.serialization.response.error.response` userInfo key: the
    /// failing `HTTPURLResponse`.
    public static let failingURLResponseErrorKey = "com.alamofire.serialization.response.error.response"
    /// AFNetworking's `com.alamofire.serialization.response.error.data` userInfo key: the body.
    public static let failingURLResponseDataErrorKey = "com.alamofire.serialization.response.error.data"

    /// `GannetResponseSerialization`.
    public static var errorDomain: String { "GannetResponseSerialization" }

    /// The `NSURLError` code AFNetworking used: `badServerResponse` for an unacceptable
    /// status, `cannotDecodeContentData` for an unacceptable content type,
    /// `zeroByteResource` for a missing body, `cannotParseResponse` for a body that could not
    /// be decoded.
    public var errorCode: Int {
        switch code {
        case .unacceptableStatusCode: URLError.Code.badServerResponse.rawValue
        case .unacceptableContentType: URLError.Code.cannotDecodeContentData.rawValue
        case .inputDataNilOrZeroLength: URLError.Code.zeroByteResource.rawValue
        default: URLError.Code.cannotParseResponse.rawValue
        }
    }

    /// The description, failing URL, underlying error, response and data.
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let failingURL { userInfo[NSURLErrorFailingURLErrorKey] = failingURL }
        if let underlyingError { userInfo[NSUnderlyingErrorKey] = underlyingError }
        if let response { userInfo[Self.failingURLResponseErrorKey] = response }
        if let data { userInfo[Self.failingURLResponseDataErrorKey] = data }
        return userInfo
    }
}
