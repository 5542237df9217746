/// ANSI colours for terminal output; every method returns its text unchanged when colours are off.
struct Palette: Sendable {
    let enabled: Bool

    private func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func key(_ text: String) -> String { paint(text, "1;34") }
    func string(_ text: String) -> String { paint(text, "32") }
    func number(_ text: String) -> String { paint(text, "36") }
    func literal(_ text: String) -> String { paint(text, "35") }
    func headerName(_ text: String) -> String { paint(text, "36") }
    func method(_ text: String) -> String { paint(text, "1;32") }
    func tag(_ text: String) -> String { paint(text, "1;34") }
    func attributeName(_ text: String) -> String { paint(text, "36") }
    func attributeValue(_ text: String) -> String { paint(text, "32") }
    func comment(_ text: String) -> String { paint(text, "2") }
    func warning(_ text: String) -> String { paint(text, "33") }
    func error(_ text: String) -> String { paint(text, "1;31") }

    /// Green for 2xx, yellow for 3xx, red for 4xx and 5xx.
    func status(_ text: String, code: Int) -> String {
        switch code {
        case 200..<300: return paint(text, "1;32")
        case 300..<400: return paint(text, "1;33")
        case 400..<600: return paint(text, "1;31")
        default: return paint(text, "1")
        }
    }
}
