/// What a key of the profile language takes as its value, as far as a schema can tell.
public indirect enum ValueShape: Sendable, Equatable {
    /// Any scalar (the loader reads its text).
    case text
    /// A name usable in expressions: letters, digits and `_`, not starting with a digit.
    case name
    /// An unsigned integer, decimal or `0x` hex (within the key's range, when it has one).
    case integer
    /// An integer and a unit: `250ms`, `5s`, `2m`, `1h`.
    case duration
    /// `true` or `false`.
    case boolean
    /// A 16-, 32- or 128-bit Bluetooth UUID.
    case uuid
    /// An expression (a plain integer or boolean is one too).
    case expression
    /// An expression, or a list of them.
    case expressions
    /// One of the names the loader accepts for this key (`ProfileLanguage.Key.choices`).
    case choice
    /// Exactly this text.
    case literal(String)
    /// The name of something defined in a section (`commands`, `characteristics`...).
    case reference(section: String)
    /// A mapping described by the context with this identifier.
    case context(String)
    /// A mapping of names chosen by the author to values of one shape.
    case namedMap(ValueShape, keys: MapKeys)
    /// A list of values of one shape.
    case list(ValueShape)
    /// A list of procedure steps.
    case steps
    /// Any of these.
    case anyOf([ValueShape])
    /// Not known to the schema: anything is accepted.
    case any

    /// What the keys of a `namedMap` must be.
    public enum MapKeys: Sendable, Equatable {
        /// Any text.
        case text
        /// A name usable in expressions.
        case name
        /// Integers (e.g. response codes).
        case integer
    }
}
