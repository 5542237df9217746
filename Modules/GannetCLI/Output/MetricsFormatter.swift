import Gannet

/// `--print m` and `-vv`: the task's ``TaskMetrics`` as `Name: value` lines. Times are seconds
/// from the start of the task to each step, as curl's `--write-out` reports them, so they add
/// up to nothing but grow to `Total`.
enum MetricsFormatter {
    static func text(_ metrics: TaskMetrics?, palette: Palette) -> String {
        guard let metrics else { return palette.headerName("Metrics") + ": none (nothing was exchanged)\n" }
        func seconds(_ value: Double) -> String { String(format: "%.6f s", value) }
        var lines: [(String, String)] = [
            ("DNS lookup", seconds(metrics.nameLookupDuration)),
            ("Connect", seconds(metrics.connectDuration)),
            (
                "TLS handshake",
                metrics.secureConnectionDuration > 0 ? seconds(metrics.secureConnectionDuration) : "none"
            ),
            ("First byte", seconds(metrics.timeToFirstByte)),
            ("Total", seconds(metrics.totalDuration)),
            ("Reused connection", metrics.reusedConnection ? "yes" : "no"),
            ("Protocol", metrics.httpVersion ?? "unknown"),
        ]
        if let address = metrics.remoteAddress {
            let host = address.contains(":") ? "[\(address)]" : address
            lines.append(("Remote address", metrics.remotePort.map { "\(host):\($0)" } ?? host))
        }
        lines += [
            ("Redirects", String(metrics.redirectCount)),
            ("Request body", "\(metrics.countOfRequestBodyBytesSent) bytes sent"),
            ("Response body", "\(metrics.countOfResponseBodyBytesReceived) bytes received"),
        ]
        // The protocol and address come from libcurl's view of the exchange: escaped all the same.
        return lines.map { palette.headerName($0.0) + ": " + ControlEscaping.escaped($0.1) }.joined(separator: "\n")
            + "\n"
    }
}
