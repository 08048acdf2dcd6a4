#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// The textual "-----BEGIN PUBLIC KEY-----" envelope (RFC 7468) around base64 DER.
public enum PEM {
    /// Decodes the first PEM block in `text`, ignoring anything before its BEGIN line (such as
    /// OpenSSL's human-readable dump) and after its END line.
    package static func decode(_ text: String) throws(PEMError) -> (label: String, der: [UInt8]) {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimmingWhitespace() }
        guard let beginIndex = lines.firstIndex(where: { label(of: $0, kind: "BEGIN") != nil }),
              let label = label(of: lines[beginIndex], kind: "BEGIN") else {
            throw .missingBeginLine
        }
        var body = ""
        for index in lines.index(after: beginIndex)..<lines.endIndex {
            let line = lines[index]
            if let endLabel = self.label(of: line, kind: "END") {
                guard endLabel == label else {
                    throw .mismatchedEndLabel(expected: label, found: endLabel, line: index + 1)
                }
                guard !body.isEmpty else { throw .emptyBody(label: label, beginLine: beginIndex + 1) }
                guard let data = Data(base64Encoded: body) else {
                    throw .invalidBase64(line: beginIndex + 2)
                }
                return (label, [UInt8](data))
            }
            guard line.allSatisfy(isBase64Character) else { throw .invalidBase64(line: index + 1) }
            body += line
        }
        throw .missingEndLine(label: label, beginLine: beginIndex + 1)
    }

    /// `der` as a PEM block labelled `label`: base64 in lines of 64 characters (RFC 7468), with a
    /// final newline.
    package static func encode(label: String, der: [UInt8]) -> String {
        let body = Data(der).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var start = body.startIndex
        while start < body.endIndex {
            let end = body.index(start, offsetBy: 64, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[start..<end]))
            start = end
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// "PUBLIC KEY" for "-----BEGIN PUBLIC KEY-----" when `kind` is "BEGIN".
    private static func label(of line: Substring, kind: String) -> String? {
        let prefix = "-----\(kind) "
        let suffix = "-----"
        guard line.hasPrefix(prefix), line.hasSuffix(suffix),
              line.count >= prefix.count + suffix.count else { return nil }
        return String(line.dropFirst(prefix.count).dropLast(suffix.count))
    }

    private static func isBase64Character(_ character: Character) -> Bool {
        guard character.isASCII else { return false }
        return character.isLetter || character.isNumber || character == "+" || character == "/"
            || character == "="
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
