import DFUKit

/// The images of a package as the engine flashes them, whatever the package format.
enum PackageImages {
    static func flashImages(_ package: FirmwarePackage) -> [FlashImage] {
        FlashImage.images(of: package)
    }
}
