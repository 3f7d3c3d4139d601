import Testing
import WalletWatchNet

/// TLS on a stream: a pinned certificate is accepted whoever signed it, any other is refused
/// before a byte is sent, and an untrusted one is refused with the SHA-256 that would pin it,
/// the same that `openssl x509 -fingerprint -sha256` computes.
@Suite struct StreamTLSTests {
    @Test func acceptsThePinnedCertificate() async throws {
        let server = try await LineServer(tls: true)
        let certificate = try #require(server.certificate)
        // The pin as a user copies it from OpenSSL's output.
        let pin = try #require(CertificatePin(hex: try await certificate.opensslFingerprint()))
        let stream = try await connect(server.endpoint(pin: pin))
        #expect(stream.peerCertificateSHA256 == pin)
        try await expectEcho(stream, "pinned")
        stream.close()
        await server.stop()
    }

    /// Another certificate than the pinned one: refused with both fingerprints named, and the
    /// server sees the connection end without a single byte of application data.
    @Test func refusesAnotherCertificateBeforeSendingAnything() async throws {
        let server = try await LineServer(tls: true)
        let certificate = try #require(server.certificate)
        let wrongPin = try #require(CertificatePin(hex: String(repeating: "ab", count: 32)))
        let error = await netError { _ = try await connect(server.endpoint(pin: wrongPin)) }
        #expect(error?.kind == .certificateMismatch)
        #expect(error?.certificateSHA256 == certificate.pin)
        #expect(error?.description == "ssl://127.0.0.1:\(server.port): TLS certificate SHA-256 is \(certificate.pin.hex), not the pinned \(wrongPin.hex); refused before sending anything")
        #expect(await eventually { server.totalReceived(connection: 1) != nil })
        #expect(server.totalReceived(connection: 1) == 0)
        #expect(!server.events.contains { $0.hasPrefix("LINE ") })
        await server.stop()
    }

    @Test func refusesAnUntrustedCertificateNamingItsSHA256() async throws {
        let server = try await LineServer(tls: true)
        let certificate = try #require(server.certificate)
        let error = await netError { _ = try await connect(server.endpoint()) }
        #expect(error?.kind == .tls)
        // OpenSSL's own fingerprint of the certificate file, computed apart from the stream.
        let fingerprint = try await certificate.opensslFingerprint()
        #expect(fingerprint.hasPrefix("sha256 Fingerprint="), "\(fingerprint)")
        #expect(error?.certificateSHA256 == CertificatePin(hex: fingerprint))
        #expect(error?.description == "ssl://127.0.0.1:\(server.port): TLS certificate not trusted (self-signed certificate); its SHA-256 is \(certificate.pin.hex)")
        // The probe that read the certificate sent nothing either.
        #expect(!server.events.contains { $0.hasPrefix("LINE ") })
        await server.stop()
    }

    @Test func aTLSConnectToAPlainServerSaysSo() async throws {
        let server = try await LineServer(tls: false)
        let endpoint = StreamEndpoint(host: "127.0.0.1", port: server.port, security: .tls(pin: nil))
        let error = await netError { _ = try await connect(endpoint, connectTimeout: .seconds(5)) }
        #expect(error?.kind == .tls || error?.kind == .connectionFailed, "\(String(describing: error))")
        #expect(error?.url == "ssl://127.0.0.1:\(server.port)")
        await server.stop()
    }

    @Test(arguments: [
        "sha256 Fingerprint=80:FD:A2:55:15:8F:D5:8B:4C:31:F7:96:B4:3B:FA:13:ED:84:EE:FD:2A:93:90:89:57:9C:7A:A2:E6:B2:A0:47",
        "SHA256 Fingerprint=80:FD:A2:55:15:8F:D5:8B:4C:31:F7:96:B4:3B:FA:13:ED:84:EE:FD:2A:93:90:89:57:9C:7A:A2:E6:B2:A0:47",
        "80fda255158fd58b4c31f796b43bfa13ed84eefd2a939089579c7aa2e6b2a047",
        "80:fd:a2:55:15:8f:d5:8b:4c:31:f7:96:b4:3b:fa:13:ed:84:ee:fd:2a:93:90:89:57:9c:7a:a2:e6:b2:a0:47\n",
    ])
    func readsAPinInEveryUsualForm(text: String) throws {
        let pin = try #require(CertificatePin(hex: text))
        #expect(pin.hex == "80fda255158fd58b4c31f796b43bfa13ed84eefd2a939089579c7aa2e6b2a047")
        #expect(pin.colonSeparated == "80:FD:A2:55:15:8F:D5:8B:4C:31:F7:96:B4:3B:FA:13:ED:84:EE:FD:2A:93:90:89:57:9C:7A:A2:E6:B2:A0:47")
        #expect("\(pin)" == pin.hex)
    }

    @Test(arguments: ["", "80fd", String(repeating: "g", count: 64), String(repeating: "a", count: 66), "+0" + String(repeating: "a", count: 62),
                      "MD5 Fingerprint=" + String(repeating: "a", count: 64)])
    func refusesWhatIsNotAPin(text: String) {
        #expect(CertificatePin(hex: text) == nil)
    }
}
