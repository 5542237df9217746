public import GannetCore

extension FaultRoute {
    /// `status` with `bytes` bytes of body, byte `i` being `i % 251`, and `Content-Type:
    /// contentType`; see Tests/Servers/download_routes.py and ``downloadPageBody(bytes:)``.
    public static func downloadPage(status: Int, bytes: Int, contentType: String = "text/html") -> FaultRoute {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let type = contentType.addingPercentEncoding(withAllowedCharacters: allowed) ?? contentType
        return FaultRoute("/download/page?status=\(status)&bytes=\(bytes)&type=\(type)")
    }

    /// The body ``downloadPage(status:bytes:contentType:)`` sends.
    public static func downloadPageBody(bytes: Int) -> Data {
        Data((0..<bytes).map { UInt8($0 % 251) })
    }
}
