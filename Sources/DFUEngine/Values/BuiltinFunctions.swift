import DFUBytes
import DFUProfile

/// The functions profiles may call (`ExpressionFunction`); checksums are in
/// `BuiltinFunctions+Checksums.swift`.
enum BuiltinFunctions {
    static func call(_ function: ExpressionFunction, _ arguments: [Value]) throws(ExpressionEvaluator.Failure) -> Value {
        switch function {
        case .min, .max:
            var numbers: [UInt64] = []
            for argument in arguments { numbers.append(try integer(argument, function)) }
            return .integer((function == .min ? numbers.min() : numbers.max()) ?? 0)
        case .len:
            return .integer(UInt64(try bytes(arguments[0], function).count))
        case .slice:
            let data = try bytes(arguments[0], function)
            let start = try integer(arguments[1], function)
            let end = try integer(arguments[2], function)
            guard start <= end, end <= UInt64(data.count) else {
                throw ExpressionEvaluator.Failure("slice(\(start), \(end)) is outside 0...\(data.count)")
            }
            return .bytes(Array(data[Int(start)..<Int(end)]))
        case .crc32, .crc16, .crc, .sum, .xor8, .fletcher16, .fletcher32, .adler32:
            return try checksum(function, arguments)
        case .u8, .u16le, .u16be, .u24le, .u24be, .u32le, .u32be, .u64le, .u64be:
            return try integerBytes(function, arguments[0])
        case .concat:
            var joined: [UInt8] = []
            for argument in arguments { joined += try bytes(argument, function) }
            return .bytes(joined)
        case .sha256:
            return .bytes(SHA256.digest(try bytes(arguments[0], function)))
        case .reverse:
            return .bytes(try bytes(arguments[0], function).reversed())
        case .le, .be:
            let data = try bytes(arguments[0], function)
            guard data.count <= 8 else {
                throw ExpressionEvaluator.Failure("\(function.rawValue)() reads at most 8 bytes, got \(data.count)")
            }
            let ordered = function == .le ? data.reversed() : data
            return .integer(ordered.reduce(0) { $0 << 8 | UInt64($1) })
        case .get:
            guard case let .record(record) = arguments[0], case let .string(key) = arguments[1] else {
                throw ExpressionEvaluator.Failure("get() takes a record, a 'key' and a default")
            }
            return record[key] ?? arguments[2]
        case .has:
            guard case let .list(items) = arguments[0], case let .string(key) = arguments[1] else {
                throw ExpressionEvaluator.Failure("has() takes a list, a 'key' and a value, got \(arguments[0].typeName)")
            }
            return .boolean(items.contains { item in
                if case let .record(record) = item { return record[key] == arguments[2] }
                return false
            })
        case .find:
            guard case let .list(items) = arguments[0], case let .string(key) = arguments[1] else {
                throw ExpressionEvaluator.Failure("find() takes a list, a 'key' and a value, got \(arguments[0].typeName)")
            }
            for item in items {
                if case let .record(record) = item, record[key] == arguments[2] { return item }
            }
            return .record([:])
        case .unhex:
            guard case let .string(text) = arguments[0], let bytes = [UInt8](hex: text) else {
                throw ExpressionEvaluator.Failure("unhex() takes hex text such as '0a1b2c'")
            }
            return .bytes(bytes)
        case .alignDown:
            let value = try integer(arguments[0], function)
            let step = try integer(arguments[1], function)
            guard step > 0 else { throw ExpressionEvaluator.Failure("align_down by zero") }
            return .integer(value - value % step)
        }
    }

    /// `u8(x)` ... `u64be(x)`: the integer as bytes; one too large for them is an error naming it.
    private static func integerBytes(_ function: ExpressionFunction, _ argument: Value)
        throws(ExpressionEvaluator.Failure) -> Value {
        let value = try integer(argument, function)
        guard let (width, endianness) = function.integerEncoding else {
            throw ExpressionEvaluator.Failure("\(function.rawValue)() does not write integers")
        }
        if let problem = function.doesNotFit(value) { throw ExpressionEvaluator.Failure(problem) }
        var writer = ByteWriter()
        writer.append(value, width: width, endianness: endianness)
        return .bytes(writer.bytes)
    }

    static func integer(_ value: Value, _ function: ExpressionFunction) throws(ExpressionEvaluator.Failure) -> UInt64 {
        guard case let .integer(number) = value else {
            throw ExpressionEvaluator.Failure("\(function.rawValue)() needs an integer, got \(value.typeName)")
        }
        return number
    }

    static func bytes(_ value: Value, _ function: ExpressionFunction) throws(ExpressionEvaluator.Failure) -> [UInt8] {
        guard case let .bytes(data) = value else {
            throw ExpressionEvaluator.Failure("\(function.rawValue)() needs bytes, got \(value.typeName)")
        }
        return data
    }
}
