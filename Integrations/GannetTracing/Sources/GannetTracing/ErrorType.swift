import GannetCore

/// OpenTelemetry's `error.type`: a short, bounded name for the kind of failure.
enum ErrorType {
    /// `cancelled`, `timedOut`, …, a ``GannetError`` code's name, `URLError.<raw value>` for
    /// other URL errors, else the error's type name.
    static func of(_ error: any Error) -> String {
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
}
