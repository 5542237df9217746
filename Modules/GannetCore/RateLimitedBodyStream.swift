/// A request body stream that should be sent no faster than a given rate, such as a multipart
/// body after `throttleBandwidth(packetSize:delay:)`.
///
/// The engine reads request bodies on its own thread, which serves every transfer of the
/// session; a stream that paced itself by sleeping in `read` would stall them all. A stream
/// that adopts this protocol reads at full speed and the engine paces the upload with
/// libcurl's send-speed limit (`CURLOPT_MAX_SEND_SPEED_LARGE`) instead.
public protocol RateLimitedBodyStream: AnyObject {
    /// The most request body bytes per second; `nil` means no limit.
    var maximumBytesPerSecond: Int64? { get }
}
