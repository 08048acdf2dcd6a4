// `import DFUKitPackages`: firmware packages alone (opening, inspecting, verifying, building),
// for a program that never talks to a device, such as a build server that only verifies.
@_exported import DFUBytes
@_exported import DFUPackage
