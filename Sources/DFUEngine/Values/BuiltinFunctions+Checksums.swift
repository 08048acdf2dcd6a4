import DFUBytes
import DFUProfile

extension BuiltinFunctions {
    /// `crc('NAME', bytes)`, `crc32`, `crc16`, `sum(bytes, bits)`, `xor8`, `fletcher16`,
    /// `fletcher32`, `adler32`: integers.
    static func checksum(_ function: ExpressionFunction, _ arguments: [Value])
        throws(ExpressionEvaluator.Failure) -> Value {
        switch function {
        case .crc:
            guard case let .string(name) = arguments[0] else {
                throw ExpressionEvaluator.Failure(
                    "crc() takes a CRC name such as 'CRC-16/XMODEM' first, got \(arguments[0].typeName) \(arguments[0])")
            }
            guard let algorithm = CRCCatalogue.algorithm(named: name) else {
                throw ExpressionEvaluator.Failure(ExpressionFunction.unknownCRC(name))
            }
            return .integer(algorithm.checksum(try bytes(arguments[1], function)))
        case .sum:
            let data = try bytes(arguments[0], function)
            let bits = try integer(arguments[1], function)
            if let problem = ExpressionFunction.sumWidthProblem(bits) { throw ExpressionEvaluator.Failure(problem) }
            return .integer(ArithmeticChecksums.sum(data, bits: Int(bits)))
        case .crc32:
            return .integer(UInt64(CRC32.checksum(try bytes(arguments[0], function))))
        case .crc16:
            return .integer(UInt64(CRC16CCITTFalse.checksum(try bytes(arguments[0], function))))
        case .xor8:
            return .integer(UInt64(ArithmeticChecksums.xor8(try bytes(arguments[0], function))))
        case .fletcher16:
            return .integer(UInt64(ArithmeticChecksums.fletcher16(try bytes(arguments[0], function))))
        case .fletcher32:
            return .integer(UInt64(ArithmeticChecksums.fletcher32(try bytes(arguments[0], function))))
        case .adler32:
            return .integer(UInt64(ArithmeticChecksums.adler32(try bytes(arguments[0], function))))
        default:
            throw ExpressionEvaluator.Failure("\(function.rawValue)() is not a checksum")
        }
    }
}
