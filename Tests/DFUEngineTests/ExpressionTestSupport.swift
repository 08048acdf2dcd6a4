import DFUEngine
import DFUProfile
import XCTest

/// Expression text evaluated in `scope`.
func evaluated(_ text: String, in scope: Scope) throws -> Value {
    try ExpressionEvaluator.evaluate(InlineProfiles.expression(text), in: scope)
}

/// The message of the error evaluating `text` in `scope` gives; a test failure when it evaluates.
func evaluationFailure(_ text: String, in scope: Scope, file: StaticString = #filePath, line: UInt = #line)
    throws -> String? {
    let expression = try InlineProfiles.expression(text)
    do throws(EvaluationError) {
        let result = try ExpressionEvaluator.evaluate(expression, in: scope)
        XCTFail("'\(text)' evaluated to \(result)", file: file, line: line)
        return nil
    } catch {
        return error.message
    }
}
