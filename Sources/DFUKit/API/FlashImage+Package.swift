extension FlashImage {
    /// The images of `package` as the engine flashes them, in send order, whatever the
    /// package's format.
    public static func images(of package: FirmwarePackage) -> [FlashImage] {
        package.images.map {
            var image = FlashImage(name: $0.name, version: $0.version, data: $0.data, initPacket: $0.initPacket ?? [],
                                   softDeviceSize: $0.softDeviceSize, bootloaderSize: $0.bootloaderSize,
                                   applicationSize: $0.applicationSize, imageHash: $0.mcubootImage?.imageHash ?? [])
            image.info = $0.standalone?.values ?? [:]
            return image
        }
    }
}
