@testable import DFUSerial
import Foundation
import Glibc
import Synchronization

/// The real syscalls, with failures a test asks for: an open that fails, reads of the ports a
/// test names that fail (a USB port whose device went away). Records every close(2) so tests
/// can tell a descriptor was closed exactly once.
final class InjectingSyscalls: WireSyscalls {
    private struct Script {
        var openFailures: [String: Errno] = [:]
        /// Reads of descriptors opened from these paths fail with this errno once armed.
        var readFailures: [String: Errno] = [:]
        var descriptorPaths: [Int32: String] = [:]
        var closed: [Int32] = []
    }

    private let system = SystemWireSyscalls()
    private let script = Mutex(Script())

    /// open(2) of `path` fails with `error`.
    func failOpen(of path: String, with error: Errno) {
        script.withLock { $0.openFailures[path] = error }
    }

    /// From now on, reads of the descriptors opened from `path` fail with `error`.
    func failReads(of path: String, with error: Errno) {
        script.withLock { $0.readFailures[path] = error }
    }

    /// The descriptors opened from `path`.
    func descriptors(openedFrom path: String) -> [Int32] {
        script.withLock { script in script.descriptorPaths.filter { $0.value == path }.map(\.key) }
    }

    /// How often `descriptor` was closed.
    func closeCount(of descriptor: Int32) -> Int {
        script.withLock { $0.closed.filter { $0 == descriptor }.count }
    }

    func open(_ path: String, flags: Int32) -> Result<Int32, Errno> {
        if let error = script.withLock({ $0.openFailures[path] }) { return .failure(error) }
        let result = system.open(path, flags: flags)
        if case let .success(descriptor) = result { script.withLock { $0.descriptorPaths[descriptor] = path } }
        return result
    }

    func close(_ descriptor: Int32) {
        script.withLock { $0.closed.append(descriptor) }
        system.close(descriptor)
    }

    func read(_ descriptor: Int32, maximumLength: Int) -> Result<[UInt8], Errno> {
        let failure = script.withLock { script in script.descriptorPaths[descriptor].flatMap { script.readFailures[$0] } }
        if let failure { return .failure(failure) }
        return system.read(descriptor, maximumLength: maximumLength)
    }

    func write(_ descriptor: Int32, bytes: ArraySlice<UInt8>) -> Result<Int, Errno> { system.write(descriptor, bytes: bytes) }
    func poll(_ requests: [PollRequest], timeoutMilliseconds: Int32) -> Result<[PollEvents], Errno> {
        system.poll(requests, timeoutMilliseconds: timeoutMilliseconds)
    }
    func pipe() -> Result<(read: Int32, write: Int32), Errno> { system.pipe() }
    func deviceNumber(_ descriptor: Int32) -> Result<DeviceNumber, Errno> { system.deviceNumber(descriptor) }
    func terminalAttributes(_ descriptor: Int32) -> Result<termios, Errno> { system.terminalAttributes(descriptor) }
    func setTerminalAttributes(_ descriptor: Int32, _ attributes: termios) -> Result<Void, Errno> {
        system.setTerminalAttributes(descriptor, attributes)
    }
    func flushTerminal(_ descriptor: Int32) -> Result<Void, Errno> { system.flushTerminal(descriptor) }
    func openPseudoTerminalController(flags: Int32) -> Result<Int32, Errno> { system.openPseudoTerminalController(flags: flags) }
    func grantPseudoTerminal(_ controller: Int32) -> Result<Void, Errno> { system.grantPseudoTerminal(controller) }
    func unlockPseudoTerminal(_ controller: Int32) -> Result<Void, Errno> { system.unlockPseudoTerminal(controller) }
    func pseudoTerminalSubordinatePath(_ controller: Int32) -> Result<String, Errno> {
        system.pseudoTerminalSubordinatePath(controller)
    }
    func createSymbolicLink(at path: String, to target: String) -> Result<Void, Errno> {
        system.createSymbolicLink(at: path, to: target)
    }
    func symbolicLinkTarget(_ path: String) -> Result<String, Errno> { system.symbolicLinkTarget(path) }
    func unlink(_ path: String) -> Result<Void, Errno> { system.unlink(path) }
    func resolve(host: String?, port: UInt16, passive: Bool) -> Result<[SocketAddress], ResolutionFailure> {
        return system.resolve(host: host, port: port, passive: passive)
    }
    func socket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, Errno> {
        system.socket(domain: domain, type: type, protocol: `protocol`)
    }
    func connect(_ socket: Int32, to address: SocketAddress) -> Result<Void, Errno> { system.connect(socket, to: address) }
    func bind(_ socket: Int32, to address: SocketAddress) -> Result<Void, Errno> { system.bind(socket, to: address) }
    func localAddress(_ socket: Int32) -> Result<SocketAddress, Errno> { system.localAddress(socket) }
    func send(_ socket: Int32, bytes: ArraySlice<UInt8>) -> Result<Int, Errno> { system.send(socket, bytes: bytes) }
    func send(_ socket: Int32, bytes: ArraySlice<UInt8>, to address: SocketAddress) -> Result<Int, Errno> {
        system.send(socket, bytes: bytes, to: address)
    }
    func receive(_ socket: Int32, maximumLength: Int) -> Result<[UInt8], Errno> {
        system.receive(socket, maximumLength: maximumLength)
    }
    func receiveFrom(_ socket: Int32, maximumLength: Int) -> Result<(bytes: [UInt8], sender: SocketAddress), Errno> {
        system.receiveFrom(socket, maximumLength: maximumLength)
    }
}
