import Foundation
import GannetCore

@testable import GannetRequestSerialization

extension FuzzTarget {
    /// `QueryStringEncoder` over nested dictionaries, arrays, strings, numbers and booleans
    /// built from the input. Invariants: the query holds only unreserved characters, `/`, `?`,
    /// `+`, `&`, `=` and `%XX` escapes; each escaped pair decodes back to its field and value.
    static let queryString = FuzzTarget(name: "query-string") { bytes in
        var input = FuzzInput(bytes)
        var configuration = RequestSerializerConfiguration()
        configuration.spaceEncoding = input.byte() & 1 == 0 ? .percentEscaped : .plus
        configuration.arrayEncoding = [.brackets, .noBrackets, .indexed][input.choice(3)]
        let parameters = dictionary(&input, depth: 0)
        let encoder = QueryStringEncoder(configuration: configuration)
        let pairs: [QueryPair]
        let query: String
        do {
            pairs = try encoder.pairs(from: parameters)
            query = try encoder.queryString(from: parameters)
        } catch {
            require(false, "UTF-8 query encoding threw \(error)")
            return
        }
        require(
            query.utf8.allSatisfy { PercentEscaping.isLeftUnescaped($0) || "+&=%".utf8.contains($0) },
            "query \(query.debugDescription)"
        )
        for pair in pairs {
            let escaped = (try? encoder.escaped(pair)) ?? ""
            let parts = escaped.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            require(decoded(parts[0], configuration) == pair.field, "field \(pair.field.debugDescription)")
            if case .text(let text) = pair.value {
                require(parts.count == 2 && decoded(parts[1], configuration) == text, "value \(text.debugDescription)")
            }
        }
    }

    private static func decoded(_ text: Substring, _ configuration: RequestSerializerConfiguration) -> String? {
        let spaced = configuration.spaceEncoding.usesPlus ? text.replacingOccurrences(of: "+", with: " ") : String(text)
        return spaced.removingPercentEncoding
    }

    private static func dictionary(_ input: inout FuzzInput, depth: Int) -> [String: any Sendable] {
        var result: [String: any Sendable] = [:]
        for _ in 0..<input.choice(6) where !input.isEmpty {
            result[input.string(limit: 64)] = value(&input, depth: depth + 1)
        }
        return result
    }

    private static func value(_ input: inout FuzzInput, depth: Int) -> any Sendable {
        switch input.choice(depth < 4 ? 7 : 5) {
        case 0: return Int(Int8(bitPattern: input.byte())) * 1000
        case 1: return input.byte() & 1 == 0
        case 2: return Double(Int8(bitPattern: input.byte())) / 7
        case 3: return Data(input.chunk(limit: 64))
        case 4: return input.string(limit: 256)
        case 5: return (0..<input.choice(4)).map { _ in value(&input, depth: depth + 1) }
        default: return dictionary(&input, depth: depth)
        }
    }
}
