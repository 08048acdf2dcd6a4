import DFUKit

/// A command's arguments after parsing: option values by canonical name, flags, positionals.
public struct ParsedArguments: Sendable {
    public var command: String
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    /// Parses `arguments` against `options`. Accepts `--name value`, `--name=value`, and `--`
    /// to end options. `--help` / `-h` are always accepted as flags.
    public init(_ arguments: [String], options: [OptionSpec], command: String) throws(UsageError) {
        self.command = command
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                flags.insert("--help")
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.names.contains(name) }) else {
                throw UsageError("unknown option '\(name)' for '\(command)'"
                                 + (Suggestion.option(name, among: options.flatMap(\.names) + ["--help"]) ?? ""),
                                 command: command)
            }
            if spec.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError("option '\(name)' needs a value (\(spec.valueName ?? "VALUE"))", command: command)
                    }
                    value = arguments[index]
                    index += 1
                }
                if !spec.choices.isEmpty, !spec.choices.contains(value) {
                    throw UsageError("\(spec.canonicalName) is one of \(spec.choices.joined(separator: ", ")), not '\(value)'"
                                     + (KeySuggestion.didYouMean(value, in: spec.choices) ?? ""), command: command)
                }
                if !spec.repeatable, values[spec.canonicalName] != nil {
                    throw UsageError("option '\(name)' was given twice", command: command)
                }
                values[spec.canonicalName, default: []].append(value)
            } else {
                guard inlineValue == nil else {
                    throw UsageError("option '\(name)' takes no value", command: command)
                }
                flags.insert(spec.canonicalName)
            }
        }
    }

    public var wantsHelp: Bool { flags.contains("--help") }

    public func value(_ name: String) -> String? { values[name]?.last }

    public func requiredValue(_ name: String) throws(UsageError) -> String {
        guard let value = value(name) else { throw UsageError("missing required option '\(name)'", command: command) }
        return value
    }

    public func flag(_ name: String) -> Bool { flags.contains(name) }
}
