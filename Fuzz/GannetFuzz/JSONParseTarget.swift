import Foundation
import GannetResponseSerialization

extension FuzzTarget {
    /// `JSONBytesParser` against the path it stands in for, `JSONTree.sendable(JSONSerialization
    /// .jsonObject(...))`, with fragments allowed or not and nulls kept or removed (an odd-sized
    /// input adds the `.mutable…` options). Invariants: when the fast parser returns a tree,
    /// JSONSerialization parses the input too, and to the same tree: the same Swift types, keys
    /// and strings scalar for scalar, and numbers alike in everything an app can observe.
    static let jsonParse = FuzzTarget(name: "json-parse") { bytes in
        let data = Data(bytes)
        let mutable: JSONSerialization.ReadingOptions =
            bytes.count % 2 == 1 ? [.mutableContainers, .mutableLeaves] : []
        let runs: [(JSONSerialization.ReadingOptions, Bool)] = [
            ([.fragmentsAllowed], false), (mutable.union(.fragmentsAllowed), true), (mutable, false),
        ]
        for (options, removingNulls) in runs {
            guard let fast = JSONBytesParser.parse(data, options: options, removingNulls: removingNulls) else {
                continue
            }
            let expected: any Sendable
            do {
                let object = try JSONSerialization.jsonObject(with: data, options: options)
                expected = JSONTree.sendable(object, removingNulls: removingNulls)
            } catch {
                require(false, "the fast parser read what JSONSerialization refuses: \(error)")
                return
            }
            if let difference = treeDifference(fast, expected) {
                require(false, "options \(options.rawValue), removing nulls \(removingNulls): \(difference)")
            }
        }
    }

    /// The first difference between two sendable JSON trees, or `nil` (JSONBytesParserTests
    /// compares the same way).
    private static func treeDifference(_ actual: Any, _ expected: Any, at path: String = "$") -> String? {
        guard type(of: actual) == type(of: expected) else {
            return "\(path): \(type(of: actual)) instead of \(type(of: expected))"
        }
        if let actual = actual as? [String: any Sendable], let expected = expected as? [String: any Sendable] {
            let mine = Dictionary(uniqueKeysWithValues: actual.map { (Array($0.key.unicodeScalars), $0.value) })
            let theirs = Dictionary(uniqueKeysWithValues: expected.map { (Array($0.key.unicodeScalars), $0.value) })
            guard Set(mine.keys) == Set(theirs.keys) else { return "\(path): keys differ" }
            for (key, value) in mine {
                let name = String(String.UnicodeScalarView(key)).debugDescription
                if let difference = treeDifference(value, theirs[key]!, at: "\(path)[\(name)]") { return difference }
            }
            return nil
        }
        if let actual = actual as? [any Sendable], let expected = expected as? [any Sendable] {
            guard actual.count == expected.count else {
                return "\(path): \(actual.count) elements, not \(expected.count)"
            }
            for (offset, pair) in zip(actual, expected).enumerated() {
                if let difference = treeDifference(pair.0, pair.1, at: "\(path)[\(offset)]") { return difference }
            }
            return nil
        }
        if let actual = actual as? String, let expected = expected as? String {
            guard Array(actual.unicodeScalars) != Array(expected.unicodeScalars) else { return nil }
            return "\(path): \(actual.debugDescription) instead of \(expected.debugDescription)"
        }
        if let actual = actual as? NSNumber, let expected = expected as? NSNumber {
            let (mine, theirs) = (numberTraits(actual), numberTraits(expected))
            return mine == theirs ? nil : "\(path): \(mine) instead of \(theirs)"
        }
        return actual is NSNull ? nil : "\(path): unexpected \(type(of: actual))"
    }

    /// What an app can observe of a number: its type code, text, bits and casts.
    private static func numberTraits(_ number: NSNumber) -> String {
        let value: Any = number
        return [
            String(cString: number.objCType), number.stringValue, number.description,
            String(number.doubleValue.bitPattern), String(describing: value as? Int),
            String(describing: (value as? Double)?.bitPattern), String(describing: value as? Bool),
            String(describing: value as? Decimal), String(describing: value as? UInt64),
            String(describing: value as? Int64),
        ].joined(separator: " ")
    }
}
