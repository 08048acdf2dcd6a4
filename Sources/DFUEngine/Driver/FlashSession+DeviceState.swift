import DFUProfile

/// What the device holds of the image, as far as the procedure's phases tell, in every error.
extension FlashSession {
    /// Adds what the device holds, as far as the phases tell, to an error.
    func describingDevice(_ error: FlashError, image: FlashImage) -> FlashError {
        var error = error
        if !error.deviceHolds.isEmpty {
            // A failed check that read the device's answer said what that answer shows.
            error.deviceState = "as its answer shows, the device "
                + error.deviceHolds.map(\.summary).joined(separator: ", or ")
            return error
        }
        guard let known = imageProgress.stage else {
            error.deviceState = Self.declaresPhases(profile.procedure)
                ? "the update stopped before its first phase: none of this image was sent to the device"
                : "not known: profile '\(profile.name)' declares no phases"
            return error
        }
        let floor = min(imageProgress.floor ?? known, known)
        var stages = floor < known ? [floor, known] : [known]
        let outcomeUnknown = error.outcomeUnknown || [.timeout, .disconnected].contains(error.kind)
        if let phase = imageProgress.currentPhase, imageProgress.currentPhaseWrote,
           outcomeUnknown || imageProgress.currentPhaseAnswered, let next = phase.achieves, next > known,
           next != .received || imageBytesHeld >= image.data.count {
            // The phase under way wrote to the device, and an answer was lost or unreadable, or a
            // command of it went through: what it asked for may have happened. (A device that
            // refused the phase's first command did not do it.)
            stages.append(next)
        }
        error.deviceHolds = stages
        var text = "the device \(known.summary)"
        if known == .unchanged, imageBytesHeld > 0 {
            text += " (it holds \(imageBytesHeld) of \(image.data.count) bytes of the new image)"
        }
        if known == .overwritten, imageBytesHeld > 0 {
            text += " (\(imageBytesHeld) of \(image.data.count) bytes of the new image were sent)"
        }
        if floor < known {
            text += "; if it forgot that when the link dropped (some bootloaders reload their settings then), it \(floor.summary)"
        }
        if let next = stages.last, next > known {
            text += "; or, if what was sent in phase '\(imageProgress.currentPhase?.name ?? "")' took effect, it "
                + next.summary
        }
        error.deviceState = text
        return error
    }

    static func declaresPhases(_ steps: [Step]) -> Bool {
        steps.contains { step in
            switch step.kind {
            case .phase: return true
            case let .conditional(_, then, otherwise): return declaresPhases(then) || declaresPhases(otherwise)
            default: return false
            }
        }
    }
}
