extension HCIHost {
    /// The LE signaling channel, central side: answers a peripheral's Connection Parameter Update
    /// Request (accepting valid values, then applying them with LE Connection Update) and rejects
    /// commands it does not know.
    func handleSignaling(_ payload: [UInt8], handle: UInt16) {
        guard let command = try? LESignalingPacket(bytes: payload) else { return }
        switch command.code {
        case .connectionParameterUpdateRequest:
            guard let request = try? ConnectionParameterUpdateRequest(data: command.data) else {
                replySignaling(LESignalingPacket(code: .commandReject, identifier: command.identifier,
                                                 data: CommandReject(reason: CommandReject.commandNotUnderstood).data),
                               handle: handle)
                return
            }
            let accept = configuration.acceptConnectionParameterUpdates && request.parameters.isValid
            let result = accept ? ConnectionParameterUpdateResponse.accepted : ConnectionParameterUpdateResponse.rejected
            replySignaling(LESignalingPacket(code: .connectionParameterUpdateResponse, identifier: command.identifier,
                                             data: ConnectionParameterUpdateResponse(result: result).data),
                           handle: handle)
            if accept {
                Task { try? await self.updateConnection(handle, parameters: request.parameters) }
            }
        case let code where code.isResponse:
            break
        default:
            replySignaling(LESignalingPacket(code: .commandReject, identifier: command.identifier,
                                             data: CommandReject(reason: CommandReject.commandNotUnderstood).data),
                           handle: handle)
        }
    }

    private func replySignaling(_ packet: LESignalingPacket, handle: UInt16) {
        Task { try? await self.sendL2CAP(packet.bytes, channel: .leSignaling, handle: handle) }
    }
}
