// `import DFUKit`: one import for everything an embedder needs: packages, profiles, the GATT
// abstraction, the engine, captures and replays (DFUCapture, DFUTrace), the `sim:`, `hci:`, `bluez:`, `serial:` and `udp:` transports, provisioning batches,
// and the embedding API of this module (`DFUKit.flash`, `DFUKit.scan`, `DFUKit.exec`,
// `DFUKit.batch`, `TransportRegistry`).
@_exported import DFUATT
@_exported import DFUBatch
@_exported import DFUBlueZ
@_exported import DFUBytes
@_exported import DFUCapture
@_exported import DFUEngine
@_exported import DFUGATT
@_exported import DFUHCI
@_exported import DFUHCITransport
@_exported import DFUPackage
@_exported import DFUProfile
@_exported import DFUSerial
@_exported import DFUSimulator
@_exported import DFUTrace
@_exported import DFUWire
