/// The profile language as the loader reads it: every mapping (the top level, sections, steps,
/// fields...), the keys each accepts, which are required, the names each choice accepts, and
/// the expression functions. `dfukit profile schema` turns it into a JSON Schema, and a test
/// checks profiles/README.md against it.
///
/// Keys, required keys, choices and integer ranges are not written here: they are asked of the
/// loader, by decoding a small probe document for each mapping with a `DecodingObserver`
/// attached, so they cannot drift from what it accepts. `LanguageShapes` adds what a probe
/// cannot tell: the shape of each value and where the README documents each mapping.
public struct ProfileLanguage: Sendable {
    /// One key a mapping accepts.
    public struct Key: Sendable {
        /// The key as written in a profile.
        public var name: String
        /// True when the mapping must have it.
        public var required: Bool
        /// What it takes as its value.
        public var shape: ValueShape
        /// The names the loader accepts, for a `.choice` in `shape`.
        public var choices: [String]
        /// The range the loader accepts, for an `.integer` in `shape`; nil when unbounded.
        public var range: ClosedRange<UInt64>?
    }

    package struct Context: Sendable {
        /// `top`, `framing`, `step:send`, `chunks`...
        public var id: String
        /// The heading of profiles/README.md that documents it, and which key table under it.
        package var heading: String
        public var table: Int
        /// For a step: the key that names its kind (`send`).
        package var stepKind: String?
        /// Keys in the loader's order.
        public var keys: [Key]
        /// False when the probe did not reach the mapping (the loader no longer reads it where
        /// `LanguageShapes` says): its keys are then `LanguageShapes`' and may be stale.
        package var confirmedByLoader: Bool
    }

    package struct Function: Sendable {
        public var name: String
        package var arity: ClosedRange<Int>
    }

    package var contexts: [Context]
    /// Step kinds, in the loader's order.
    package var stepKinds: [String]
    package var functions: [Function]

    package func context(_ id: String) -> Context? {
        contexts.first { $0.id == id }
    }

    /// The language of this build of DFUKit.
    public static let current = describe()

    static func describe() -> ProfileLanguage {
        var contexts = LanguageShapes.sections.map(LanguageProbe.context)
        let kinds = ProfileDecoder.stepKinds.map(\.key)
        for kind in kinds {
            var step = LanguageProbe.context(ContextShape(id: "step:\(kind)", path: .step(kind), heading: kind,
                                                          keys: LanguageShapes.steps[kind] ?? [:]))
            step.stepKind = kind
            if let index = step.keys.firstIndex(where: { $0.name == kind }) {
                step.keys[index].required = true
            }
            contexts.append(step)
            if LanguageProbe.takesMapping(kind) {
                let table = step.keys.count > 1 ? 1 : 0
                contexts.append(LanguageProbe.context(ContextShape(
                    id: kind, path: .stepValue(kind), heading: kind, table: table,
                    keys: LanguageShapes.stepValues[kind] ?? [:])))
            }
        }
        let functions = ExpressionFunction.allCases.map { Function(name: $0.rawValue, arity: $0.arity) }
        return ProfileLanguage(contexts: contexts, stepKinds: kinds, functions: functions)
    }
}

/// Asks the loader what it accepts at one place of a profile.
enum LanguageProbe {
    /// The context at `shape.path`: its keys (in the loader's order) with their shapes.
    static func context(_ shape: ContextShape) -> ProfileLanguage.Context {
        let probe = ProbeDocument()
        let (root, hole) = shape.path.document(in: probe)
        let record = ProbeDocument.observe(root).record(at: hole.location)
        guard let loaderKeys = record?.keys else {
            let keys = shape.keys.keys.sorted().map {
                ProfileLanguage.Key(name: $0, required: false, shape: shape.keys[$0] ?? .any, choices: [], range: nil)
            }
            return ProfileLanguage.Context(id: shape.id, heading: shape.heading, table: shape.table, keys: keys,
                                           confirmedByLoader: false)
        }
        let required = record?.required ?? []
        let keys = loaderKeys.map { name in
            let asked = valueProbe(shape.path, key: name)
            return ProfileLanguage.Key(name: name, required: required.contains(name),
                                       shape: shape.keys[name] ?? inferredShape(asked),
                                       choices: asked.choices, range: asked.range)
        }
        return ProfileLanguage.Context(id: shape.id, heading: shape.heading, table: shape.table, keys: keys,
                                       confirmedByLoader: true)
    }

    /// Whether a step of `kind` takes a mapping as its value (`chunks: { data: ..., size: ... }`).
    static func takesMapping(_ kind: String) -> Bool {
        let probe = ProbeDocument()
        let (root, hole) = ContextPath.stepValue(kind).document(in: probe)
        return ProbeDocument.observe(root).record(at: hole.location)?.keys != nil
    }

    struct Asked {
        var choices: [String] = []
        var range: ClosedRange<UInt64>?
        var listOfChoices = false
    }

    /// What the loader asks of `key`'s value: written as one scalar, then as a list of one.
    private static func valueProbe(_ path: ContextPath, key: String) -> Asked {
        var asked = Asked()
        let probe = ProbeDocument()
        let scalar = probe.scalar("?")
        let scalarRecord = ProbeDocument.observe(path.document(in: probe, extra: [(key, scalar)]).root)
            .record(at: scalar.location)
        let item = probe.scalar("?")
        let itemRecord = ProbeDocument.observe(path.document(in: probe, extra: [(key, probe.sequence([item]))]).root)
            .record(at: item.location)
        if let choices = scalarRecord?.choices ?? itemRecord?.choices {
            asked.choices = choices
            asked.listOfChoices = scalarRecord?.choices == nil
        }
        if let range = scalarRecord?.range ?? itemRecord?.range, range != 0...UInt64.max {
            asked.range = range
        }
        return asked
    }

    /// The shape of a key `LanguageShapes` does not describe, from what the loader asked of it.
    private static func inferredShape(_ asked: Asked) -> ValueShape {
        if !asked.choices.isEmpty { return asked.listOfChoices ? .list(.choice) : .choice }
        if asked.range != nil { return .integer }
        return .any
    }
}
