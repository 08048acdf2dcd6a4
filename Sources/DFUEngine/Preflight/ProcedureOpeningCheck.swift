import DFUProfile

/// The `check` steps a procedure makes before it needs the device, made before the radio.
///
/// Profiles state what they require of an image and of their parameters as the first steps of
/// their procedure (a Telink image's KNLT mark and size, a version to compare with afterwards;
/// SUOTA's smallest block): `check`, `set`, `if` and `fail` steps over `image` and `param` only.
/// Run after connecting, a refusal there reads as "failed on the device" (exit 1) and a batch
/// retries it on every device. This runs those opening steps for each image, with the image and
/// the parameters as the engine would bind them, and stops at the first step that needs the
/// device (a send, a read, a phase...) or at an expression it cannot evaluate without the device
/// (`link`, `present`, an answer): only what is decided by the image and the parameters alone is
/// refused. The engine still runs the same steps after connecting, unchanged.
public enum ProcedureOpeningCheck {
    /// Why the opening steps refuse an image of `images` with these options, or nil.
    public static func refusal(_ profile: Profile, images: [FlashImage], options: FlashOptions) -> Refusal? {
        for (index, image) in images.enumerated() {
            var scope = Scope(["image": image.record(index: index, count: images.count),
                               "param": options.parameterRecord(for: profile)])
            if let error = refusal(in: profile.procedure, scope: &scope, image: image) { return error }
        }
        return nil
    }

    /// An image the profile's opening steps refuse: the step's message, which image, and where
    /// the step is written.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        /// The step's `message` (or a `fail` step's), with the condition that failed.
        public var message: String
        /// The image's name in the package.
        public var image: String
        /// Where the step is written in the profile.
        public var location: SourceLocation

        /// `FILE:LINE:COL: MESSAGE`.
        public var description: String { "\(location): \(message)" }
    }

    private enum Walk {
        case goOn
        case stop
        case refused(Refusal)
    }

    private static func refusal(in steps: [Step], scope: inout Scope, image: FlashImage) -> Refusal? {
        if case let .refused(error) = walk(steps, scope: &scope, image: image) { return error }
        return nil
    }

    private static func walk(_ steps: [Step], scope: inout Scope, image: FlashImage) -> Walk {
        for step in steps {
            switch step.kind {
            case let .check(condition, message, _, _):
                guard let holds = try? ExpressionEvaluator.condition(condition, in: scope) else { return .stop }
                if !holds {
                    return .refused(Refusal(message: "image '\(image.name)': \(message) (the profile's check "
                                                + "'\(condition.text)' fails)", image: image.name, location: step.location))
                }
            case let .set(bindings):
                for binding in bindings {
                    guard let value = try? ExpressionEvaluator.evaluate(binding.value, in: scope) else { return .stop }
                    scope[binding.name] = value
                }
            case let .conditional(condition, then, otherwise):
                guard let holds = try? ExpressionEvaluator.condition(condition, in: scope) else { return .stop }
                let walked = walk(holds ? then : otherwise, scope: &scope, image: image)
                guard case .goOn = walked else { return walked }
            case let .fail(message):
                return .refused(Refusal(message: "image '\(image.name)': \(message)", image: image.name,
                                        location: step.location))
            default:
                return .stop
            }
        }
        return .goOn
    }
}
