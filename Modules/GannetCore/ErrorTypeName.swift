import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A short, bounded name for the kind of a failure, as OpenTelemetry's `error.type` attribute
/// and a metrics dimension want it (docs/integrations.md): `cancelled`, `timedOut`, … for the
/// `URLError` codes a transfer ends with, a ``GannetError`` code's name, `URLError.<raw value>`
/// for other URL errors, else the error's type name. Never the error's message: a message can
/// carry a URL with a credential, and a dimension with unbounded values breaks a dashboard.
///
/// ```swift
/// errorTypeName(URLError(.timedOut))  // "timedOut"
/// ```
public func errorTypeName(_ error: any Error) -> String {
    if let error = error as? GannetError { return error.code.name }
    if let error = error as? URLError {
        switch error.code {
        case .cancelled: return "cancelled"
        case .timedOut: return "timedOut"
        case .cannotConnectToHost: return "cannotConnectToHost"
        case .cannotFindHost: return "cannotFindHost"
        case .networkConnectionLost: return "networkConnectionLost"
        case .badServerResponse: return "badServerResponse"
        case .secureConnectionFailed: return "secureConnectionFailed"
        case .zeroByteResource: return "zeroByteResource"
        default: return "URLError.\(error.code.rawValue)"
        }
    }
    return String(describing: type(of: error))
}
