/// Splits a command line into ``Options`` and positional arguments. Options may appear
/// anywhere, as in httpie: `--name value`, `--name=value`, `-o value`, `-ovalue`, and short
/// flags together (`-vF`). After `--`, everything is positional (for an item that starts with `-`).
enum ArgumentParser {
    static func parse(_ arguments: [String]) throws -> (options: Options, positionals: [String]) {
        var options = Options()
        var positionals: [String] = []
        var index = arguments.startIndex
        func nextValue(for name: String) throws -> String {
            index += 1
            guard index < arguments.endIndex else { throw CLIError.usage("\(name) needs a value") }
            return arguments[index]
        }
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                positionals.append(contentsOf: arguments[(index + 1)...])
                break
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let definition = OptionTable.named(long: name) else {
                    throw CLIError.usage("unrecognized option --\(name) (see gannet --help)")
                }
                if definition.valueName != nil {
                    try definition.apply(&options, try inline ?? nextValue(for: "--\(name)"))
                } else {
                    if inline != nil { throw CLIError.usage("--\(name) takes no value") }
                    try definition.apply(&options, "")
                }
            } else if argument.hasPrefix("-"), argument.count > 1 {
                var letters = Substring(argument.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    guard let definition = OptionTable.named(short: letter) else {
                        throw CLIError.usage("unrecognized option -\(letter) (see gannet --help)")
                    }
                    if definition.valueName != nil {
                        try definition.apply(
                            &options,
                            letters.isEmpty ? try nextValue(for: "-\(letter)") : String(letters)
                        )
                        break
                    }
                    try definition.apply(&options, "")
                }
            } else {
                positionals.append(argument)
            }
            index += 1
        }
        return (options, positionals)
    }
}
