import Foundation

extension DashboardRouter {
    /// A line control: 403 without a server token, 401 without the right bearer token, 400 without
    /// an operator, then 200 `{"recorded": true}` or 409 `{"recorded": false, "error": nothingToDo}`
    /// as `record(operator, reason)` says.
    func control(_ request: HTTPRequest, nothingToDo: String,
                 record: (String, String?) async throws -> Bool) async -> HTTPResponse {
        guard let token else {
            return .error(.forbidden, "the line controls are off: this dashboard was started without a token; "
                          + "restart it with one to resume lines and release devices here")
        }
        guard token.accepts(authorization: request.header("Authorization")) else {
            let presented = AccessToken.bearerToken(request.header("Authorization")) != nil
            var answer = HTTPResponse.error(.unauthorized, presented ? "wrong token: the control was not recorded"
                                            : "the control needs the token: send 'Authorization: Bearer TOKEN'")
            answer.headers.append(("WWW-Authenticate", "Bearer realm=\"dfukit station\""))
            return answer
        }
        let body: ControlRequestBody
        do {
            body = try ControlRequestBody(json: request.body)
        } catch {
            return .error(.badRequest, error.description)
        }
        let recorded: Bool
        do {
            recorded = try await record(body.operatorName, body.reason)
        } catch {
            if let error = error as? DashboardSourceError { return .error(error.status, error.message) }
            return .error(.internalServerError, "the control was not recorded: \(error)")
        }
        return recorded ? .json(["recorded": .bool(true)])
            : .json(["recorded": .bool(false), "error": .string(nothingToDo)], status: .conflict)
    }
}
