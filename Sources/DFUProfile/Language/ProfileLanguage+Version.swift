extension ProfileLanguage {
    /// The profile language version the loader reads: a profile's top-level `version:` must
    /// be this number (it may be left out). A change that makes existing profiles mean
    /// something else, or fail to load, raises it.
    public static let version = 1
}
