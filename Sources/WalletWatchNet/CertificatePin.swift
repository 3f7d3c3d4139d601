import Crypto
import Foundation

/// The SHA-256 of a server's leaf certificate in DER: what `certificate_sha256` pins and what
/// an untrusted certificate's error shows (SPEC.md section 21).
///
/// Its description is 64 lowercase hex digits without colons, the form the config takes.
public struct CertificatePin: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let sha256: [UInt8]

    /// A pin from its 32 digest bytes; nil for any other length.
    public init?(sha256: [UInt8]) {
        guard sha256.count == 32 else { return nil }
        self.sha256 = sha256
    }

    /// A pin from 64 hex digits in any case, with or without colons between the bytes, and
    /// with or without the `SHA256 Fingerprint=` that `openssl x509 -noout -fingerprint -sha256`
    /// puts before them. Nil for anything else.
    public init?(hex text: String) {
        var digits = Substring(text.trimmingWhitespace())
        if let equals = digits.firstIndex(of: "="), digits[..<equals].lowercased().trimmingWhitespace() == "sha256 fingerprint" {
            digits = digits[digits.index(after: equals)...]
        }
        let hex = digits.filter { $0 != ":" }
        guard hex.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16), hex[index..<next].allSatisfy(\.isHexDigit) else { return nil }
            bytes.append(byte)
            index = next
        }
        sha256 = bytes
    }

    /// The pin of a certificate given in DER.
    public init(certificateDER der: [UInt8]) {
        sha256 = Array(SHA256.hash(data: der))
    }

    /// The pin of the first certificate in `pem` (`-----BEGIN CERTIFICATE-----` ... `-----END
    /// CERTIFICATE-----`, as libcurl's CURLINFO_CERTINFO gives it); nil without one.
    init?(certificatePEM pem: String) {
        guard let begin = pem.range(of: "-----BEGIN CERTIFICATE-----"),
              let end = pem.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<pem.endIndex),
              let der = Data(base64Encoded: String(pem[begin.upperBound..<end.lowerBound]), options: .ignoreUnknownCharacters),
              !der.isEmpty
        else { return nil }
        self.init(certificateDER: Array(der))
    }

    /// 64 lowercase hex digits.
    public var hex: String { sha256.map(Self.hexByte).joined() }

    /// `AB:CD:...`, as OpenSSL and browsers show a fingerprint.
    public var colonSeparated: String { sha256.map { Self.hexByte($0).uppercased() }.joined(separator: ":") }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// ``hex``.
    public var description: String { hex }
}
