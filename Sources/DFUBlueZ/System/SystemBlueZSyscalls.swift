#if canImport(Glibc)
import Glibc
#endif
import CBluetooth
import DFUGATT

/// The real seam: Glibc and libbluetooth.
public struct SystemBlueZSyscalls: BlueZSyscalls {
    /// The real syscalls.
    public init() {}

    private func check(_ result: Int32) -> Result<Void, SystemErrno> {
        result < 0 ? .failure(.current) : .success(())
    }

    public func socket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, SystemErrno> {
        let descriptor = Glibc.socket(domain, type, `protocol`)
        return descriptor < 0 ? .failure(.current) : .success(descriptor)
    }

    public func bind(_ socket: Int32, address: [UInt8]) -> Result<Void, SystemErrno> {
        check(address.withUnsafeBytes { buffer in
            Glibc.bind(socket, buffer.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(buffer.count))
        })
    }

    public func connect(_ socket: Int32, address: [UInt8]) -> Result<Void, SystemErrno> {
        check(address.withUnsafeBytes { buffer in
            Glibc.connect(socket, buffer.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(buffer.count))
        })
    }

    public func setSocketOption(_ socket: Int32, level: Int32, option: Int32, value: [UInt8]) -> Result<Void, SystemErrno> {
        check(value.withUnsafeBytes { buffer in
            Glibc.setsockopt(socket, level, option, buffer.baseAddress, socklen_t(buffer.count))
        })
    }

    public func getSocketOption(_ socket: Int32, level: Int32, option: Int32, length: Int) -> Result<[UInt8], SystemErrno> {
        var value = [UInt8](repeating: 0, count: length)
        var size = socklen_t(length)
        let result = value.withUnsafeMutableBytes { Glibc.getsockopt(socket, level, option, $0.baseAddress, &size) }
        guard result == 0 else { return .failure(.current) }
        return .success(Array(value[0..<min(Int(size), length)]))
    }

    public func read(_ descriptor: Int32, maximumLength: Int) -> Result<[UInt8], SystemErrno> {
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return .failure(.current) }
        return .success(Array(buffer[0..<count]))
    }

    public func write(_ descriptor: Int32, bytes: [UInt8]) -> Result<Int, SystemErrno> {
        let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        return count < 0 ? .failure(.current) : .success(count)
    }

    public func poll(_ descriptors: [Int32], timeoutMilliseconds: Int32) -> Result<[Int16], SystemErrno> {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let result = Glibc.poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
        guard result >= 0 else { return .failure(.current) }
        return .success(entries.map(\.revents))
    }

    public func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    public func pipe() -> Result<(read: Int32, write: Int32), SystemErrno> {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { return .failure(.current) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return .success((ends[0], ends[1]))
    }

    public func adapterInfo(_ socket: Int32, index: UInt16) -> Result<BlueZAdapterInfo, SystemErrno> {
        var info = hci_dev_info()
        info.dev_id = index
        guard cbluetooth_get_device_info(socket, &info) == 0 else { return .failure(.current) }
        let name = withUnsafeBytes(of: info.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let reversed = withUnsafeBytes(of: info.bdaddr.b) { Array($0) }
        let address = DeviceAddress(bytes: reversed.reversed()) ?? DeviceAddress(value: 0)
        let isUp = info.flags & (1 << UInt32(HCI_UP)) != 0
        return .success(BlueZAdapterInfo(index: index, name: name.isEmpty ? "hci\(index)" : name,
                                         address: address, isUp: isUp))
    }
}
