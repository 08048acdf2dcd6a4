import DFUKit

/// `dfukit schema output flash|batch-run|scan|exec`: prints the JSON Schema (draft 2020-12) of a
/// command's `--json` output (`OutputSchema`).
struct SchemaOutputCommand: Command {
    static let name = "schema output"
    static let summary = "Print the JSON Schema (draft 2020-12) of a command's --json output."
    static let usage = "dfukit schema output " + OutputSchema.Output.allCases.map(\.rawValue).joined(separator: "|")
    static let options: [OptionSpec] = []
    static let discussion = """
        flash, batch-run (batch run), scan and exec each print one JSON object with --json, in every
        outcome once the command line is read: success, a refusal before the radio, a failure on
        the device, an interruption. Every key is present in every outcome, null where the outcome
        cannot tell; the schema lists every key as required and allows no other (the answer of
        exec holds the profile's own fields). Check an output with any draft 2020-12 validator,
        e.g. the source tree's script (python3-jsonschema):
          dfukit schema output flash > flash.schema.json
          dfukit flash ... --json > out.json; scripts/check-json-schema.py flash.schema.json out.json
        Exit: 0, 64 usage.
        """

    let output: OutputSchema.Output

    init(_ arguments: ParsedArguments) throws(UsageError) {
        let command = "dfukit \(Self.name)"
        let names = OutputSchema.Output.allCases.map(\.rawValue)
        guard arguments.positionals.count == 1 else {
            throw UsageError("name one output: \(names.joined(separator: ", "))", command: command)
        }
        let name = arguments.positionals[0]
        guard let output = OutputSchema.Output(rawValue: name) else {
            throw UsageError("no schema for '\(name)'; the outputs are \(names.joined(separator: ", "))"
                             + (Suggestion.word(name, among: names) ?? ""), command: command)
        }
        self.output = output
    }

    func run(_ console: any Console) async -> Int32 {
        var text = OutputSchema.schema(output).prettyText
        if text.hasSuffix("\n") { text.removeLast() }
        console.out(text)
        return ExitCode.success
    }
}
