#if canImport(Glibc)
import Glibc
#endif
import CTerminalShim

/// The real seam: Glibc.
package struct SystemWireSyscalls: WireSyscalls {
    /// The real calls.
    package init() {}

    private func check(_ result: Int32) -> Result<Void, Errno> {
        result < 0 ? .failure(.current) : .success(())
    }

    private func count(_ result: Int) -> Result<Int, Errno> {
        result < 0 ? .failure(.current) : .success(result)
    }

    package func open(_ path: String, flags: Int32) -> Result<Int32, Errno> {
        let descriptor = Glibc.open(path, flags)
        return descriptor < 0 ? .failure(.current) : .success(descriptor)
    }

    package func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    package func read(_ descriptor: Int32, maximumLength: Int) -> Result<[UInt8], Errno> {
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        let result = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard result >= 0 else { return .failure(.current) }
        buffer.removeSubrange(result...)
        return .success(buffer)
    }

    package func write(_ descriptor: Int32, bytes: ArraySlice<UInt8>) -> Result<Int, Errno> {
        count(bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) })
    }

    package func poll(_ requests: [PollRequest], timeoutMilliseconds: Int32) -> Result<[PollEvents], Errno> {
        var entries = requests.map { pollfd(fd: $0.descriptor, events: $0.events.rawValue, revents: 0) }
        let result = Glibc.poll(&entries, nfds_t(entries.count), timeoutMilliseconds)
        guard result >= 0 else { return .failure(.current) }
        return .success(entries.map { PollEvents(rawValue: $0.revents) })
    }

    package func pipe() -> Result<(read: Int32, write: Int32), Errno> {
        var ends: [Int32] = [-1, -1]
        guard dfukit_pipe2(&ends, O_CLOEXEC | O_NONBLOCK) == 0 else { return .failure(.current) }
        return .success((ends[0], ends[1]))
    }

    package func deviceNumber(_ descriptor: Int32) -> Result<DeviceNumber, Errno> {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.current) }
        let device = UInt64(status.st_rdev)
        return .success(DeviceNumber(major: dfukit_device_major(device), minor: dfukit_device_minor(device)))
    }

    package func terminalAttributes(_ descriptor: Int32) -> Result<termios, Errno> {
        var attributes = termios()
        guard tcgetattr(descriptor, &attributes) == 0 else { return .failure(.current) }
        return .success(attributes)
    }

    package func setTerminalAttributes(_ descriptor: Int32, _ attributes: termios) -> Result<Void, Errno> {
        var attributes = attributes
        return check(tcsetattr(descriptor, TCSANOW, &attributes))
    }

    package func flushTerminal(_ descriptor: Int32) -> Result<Void, Errno> {
        check(tcflush(descriptor, TCIOFLUSH))
    }

    package func openPseudoTerminalController(flags: Int32) -> Result<Int32, Errno> {
        let descriptor = dfukit_posix_openpt(flags)
        return descriptor < 0 ? .failure(.current) : .success(descriptor)
    }

    package func grantPseudoTerminal(_ controller: Int32) -> Result<Void, Errno> {
        check(dfukit_grantpt(controller))
    }

    package func unlockPseudoTerminal(_ controller: Int32) -> Result<Void, Errno> {
        check(dfukit_unlockpt(controller))
    }

    package func pseudoTerminalSubordinatePath(_ controller: Int32) -> Result<String, Errno> {
        var name = [CChar](repeating: 0, count: 128)
        let result = dfukit_ptsname_r(controller, &name, name.count)
        guard result == 0 else { return .failure(Errno(rawValue: result)) }
        return .success(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    package func createSymbolicLink(at path: String, to target: String) -> Result<Void, Errno> {
        check(symlink(target, path))
    }

    package func symbolicLinkTarget(_ path: String) -> Result<String, Errno> {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &target, target.count - 1)
        guard length >= 0 else { return .failure(.current) }
        return .success(String(decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    package func unlink(_ path: String) -> Result<Void, Errno> {
        check(Glibc.unlink(path))
    }

    package func resolve(host: String?, port: UInt16, passive: Bool) -> Result<[SocketAddress], ResolutionFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0 else {
            return .failure(ResolutionFailure(code: code, message: String(cString: gai_strerror(code))))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let info = entry {
            entry = info.pointee.ai_next
            guard let address = info.pointee.ai_addr else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))
            let socketAddress = SocketAddress(bytes: bytes)
            if !addresses.contains(socketAddress) { addresses.append(socketAddress) }
        }
        return .success(addresses)
    }

    package func socket(domain: Int32, type: Int32, protocol: Int32) -> Result<Int32, Errno> {
        let descriptor = Glibc.socket(domain, type, `protocol`)
        return descriptor < 0 ? .failure(.current) : .success(descriptor)
    }

    package func connect(_ socket: Int32, to address: SocketAddress) -> Result<Void, Errno> {
        check(address.withSocketAddress { Glibc.connect(socket, $0, $1) })
    }

    package func bind(_ socket: Int32, to address: SocketAddress) -> Result<Void, Errno> {
        check(address.withSocketAddress { Glibc.bind(socket, $0, $1) })
    }

    package func localAddress(_ socket: Int32) -> Result<SocketAddress, Errno> {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard result == 0 else { return .failure(.current) }
        return .success(SocketAddress(storage: storage, length: length))
    }

    package func send(_ socket: Int32, bytes: ArraySlice<UInt8>) -> Result<Int, Errno> {
        count(bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) })
    }

    package func send(_ socket: Int32, bytes: ArraySlice<UInt8>, to address: SocketAddress) -> Result<Int, Errno> {
        count(bytes.withUnsafeBytes { buffer in
            address.withSocketAddress { Glibc.sendto(socket, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), $0, $1) }
        })
    }

    package func receive(_ socket: Int32, maximumLength: Int) -> Result<[UInt8], Errno> {
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        let result = buffer.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, 0) }
        guard result >= 0 else { return .failure(.current) }
        buffer.removeSubrange(result...)
        return .success(buffer)
    }

    package func receiveFrom(_ socket: Int32, maximumLength: Int) -> Result<(bytes: [UInt8], sender: SocketAddress), Errno> {
        var buffer = [UInt8](repeating: 0, count: maximumLength)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.recvfrom(socket, raw.baseAddress, raw.count, 0, $0, &length)
                }
            }
        }
        guard result >= 0 else { return .failure(.current) }
        buffer.removeSubrange(result...)
        return .success((buffer, SocketAddress(storage: storage, length: length)))
    }
}
