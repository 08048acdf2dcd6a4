/// A value given for a profile parameter that the profile does not take, and why.
public struct ParameterRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The parameter's name, as given.
    public var parameter: String
    /// What is wrong, in the profile's terms: an unknown name (with the nearest known one), a
    /// value not of the parameter's type, not one of its values, or out of its range.
    public var message: String

    /// The message.
    public var description: String { message }
}

extension Profile {
    /// The value `given` makes of parameter `name`, checked the one way every door into DFUKit
    /// checks it: the name is one of the profile's parameters, the value is of the type the
    /// profile's use gives it (`parameterType(of:)`), and meets its declared values or range
    /// (`parameterRules`). An integer given to a text parameter becomes its text.
    public func checkedParameter(_ name: String, _ given: ParameterValue) -> Result<ParameterValue, ParameterRefusal> {
        guard let type = parameterType(of: name) else {
            let declared = parameters.keys.sorted()
            let hint = declared.isEmpty ? "; it has no parameters"
                : KeySuggestion.didYouMean(name, in: declared) ?? "; its parameters: \(declared.joined(separator: ", "))"
            return .failure(ParameterRefusal(parameter: name, message: "profile '\(self.name)' has no parameter '\(name)'" + hint))
        }
        let value: ParameterValue
        switch type.value(of: given.description) {
        case let .success(typed): value = typed
        case .failure:
            return .failure(ParameterRefusal(parameter: name, message: "parameter '\(name)' is \(type), not '\(given)'"))
        }
        if let problem = parameterRules[name]?.problem(with: value) {
            return .failure(ParameterRefusal(parameter: name, message: "parameter '\(name)' is '\(value)', \(problem)"))
        }
        return .success(value)
    }
}
