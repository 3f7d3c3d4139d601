import Crypto
import Foundation
import NIOSSL
import WalletWatchBitcoin
import X509

/// The Electrum face's TLS identity, made at start: a self-signed P-256 certificate for
/// `localhost` (valid from an hour ago for ten years), its key, both written as PEM files (for a
/// real Electrum server's `SSL_CERTFILE`/`SSL_KEYFILE`, and for `openssl x509 -fingerprint`), and
/// the SHA-256 of the certificate's DER bytes, which a client pins.
struct TLSIdentity: Sendable {
    /// The certificate's PEM file.
    let certificatePath: String
    /// The private key's PEM file (PKCS#8).
    let keyPath: String
    /// Lowercase hex SHA-256 of the certificate's DER encoding.
    let certificateSHA256: String
    /// The server side of TLS with this identity.
    let context: NIOSSLContext

    /// Makes a fresh identity and writes its files into `directory` (created if missing).
    init(directory: String) throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("walletwatch-sim") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames([.dnsName("localhost")])
            },
            issuerPrivateKey: .init(key))
        let pem = try certificate.serializeAsPEM()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        certificatePath = (directory as NSString).appendingPathComponent("electrum-certificate.pem")
        keyPath = (directory as NSString).appendingPathComponent("electrum-key.pem")
        try Data((pem.pemString + "\n").utf8).write(to: URL(fileURLWithPath: certificatePath))
        try Data((key.pemRepresentation + "\n").utf8).write(to: URL(fileURLWithPath: keyPath), options: .atomic)
        _ = chmod(keyPath, 0o600)
        certificateSHA256 = Hex.encode(SHA256.hash(data: pem.derBytes))
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: pem.derBytes, format: .der))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)))
        context = try NIOSSLContext(configuration: configuration)
    }
}
