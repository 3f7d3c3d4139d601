import Glibc

/// A port of the loopback address `host` that nothing listens on: bound to port 0 so that the
/// kernel picks a free one, read back, and closed again. For a server that is down, or one a
/// test starts itself.
public func unusedLoopbackPort(host: String = "127.0.0.1") -> Int {
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    precondition(socketFD >= 0, "no socket: errno \(errno)")
    defer { close(socketFD) }
    return Int(UInt16(bigEndian: bindToLoopback(socketFD, host: host).sin_port))
}

/// Binds `socketFD` to `host` (a loopback IPv4 address) at a port the kernel picks, and
/// returns that address.
public func bindToLoopback(_ socketFD: Int32, host: String = "127.0.0.1") -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr(host)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(socketFD, socketAddress, length) == 0 && getsockname(socketFD, socketAddress, &length) == 0
        }
    }
    precondition(bound, "no free loopback port: errno \(errno)")
    return address
}
