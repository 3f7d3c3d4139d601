#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A libcurl NOPROXY list, matched the way libcurl 7.88 matches it (lib/noproxy.c), so that
/// walletwatch can tell in advance, and in its messages, whether a host goes through the proxy.
struct NoProxyList {
    /// The entries, split at commas and blanks as libcurl splits them.
    let entries: [Substring]

    init(_ list: String) {
        entries = list.split { $0 == "," || $0 == " " || $0 == "\t" }
    }

    /// Whether `host` (a name or an IP address, with or without IPv6 brackets) is reached directly.
    func contains(host: String) -> Bool {
        if entries.count == 1 && entries[0] == "*" { return true }
        var name = Substring(host)
        if name.hasPrefix("["), name.hasSuffix("]") {
            name = name.dropFirst().dropLast()
        }
        if let address = IPAddress(name) {
            return entries.contains { entry in
                let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
                guard let network = IPAddress(parts[0]), network.bytes.count == address.bytes.count else { return false }
                let width = address.bytes.count * 8
                // libcurl reads a missing, zero or unreadable prefix length (atoi) as the whole address.
                let given = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
                let bits = given == 0 ? width : given
                guard (1...width).contains(bits) else { return false }
                return address.hasPrefix(network, bits: bits)
            }
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        let lowered = name.lowercased()
        return entries.contains { entry in
            var token = Substring(entry.lowercased())
            if token.hasSuffix(".") { token = token.dropLast() }
            if token.hasPrefix(".") { token = token.dropFirst() }
            guard !token.isEmpty else { return false }
            return lowered == token || lowered.hasSuffix("." + token)
        }
    }
}

/// An IPv4 or IPv6 address in network byte order.
private struct IPAddress {
    let bytes: [UInt8]

    init?(_ text: Substring) {
        var v4 = in_addr()
        var v6 = in6_addr()
        let string = String(text)
        if inet_pton(AF_INET, string, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
        } else if inet_pton(AF_INET6, string, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// Whether the first `bits` bits equal those of `network`.
    func hasPrefix(_ network: IPAddress, bits: Int) -> Bool {
        for index in 0..<((bits + 7) / 8) {
            let remaining = bits - index * 8
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if bytes[index] & mask != network.bytes[index] & mask { return false }
        }
        return true
    }
}
