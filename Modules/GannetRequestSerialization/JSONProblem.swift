/// Finds the first value `JSONSerialization` refuses, for an error message that names the key
/// path and the type, never the value.
enum JSONProblem {
    static func describe(_ object: Any, path: String = "") -> String {
        find(object, path: path) ?? "unknown value"
    }

    private static func find(_ value: Any, path: String) -> String? {
        guard let value = unwrappedOptional(value) else { return nil }
        if let dictionary = value as? [String: Any] {
            for key in dictionary.keys.sorted() {
                if let problem = find(dictionary[key] as Any, path: path.isEmpty ? key : "\(path).\(key)") {
                    return problem
                }
            }
            return nil
        }
        if value is [AnyHashable: Any] {
            return "\(place(path)) is a dictionary whose keys are not strings"
        }
        if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                if let problem = find(element, path: "\(path)[\(index)]") { return problem }
            }
            return nil
        }
        if JSONSerialization.isValidJSONObject([value]) { return nil }
        return "\(place(path)) has type \(type(of: value))"
    }

    private static func place(_ path: String) -> String {
        path.isEmpty ? "the top level" : RequestValidation.printable(path)
    }
}
