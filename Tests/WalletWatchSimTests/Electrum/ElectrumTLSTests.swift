import Crypto
import Foundation
import TestSupport
import Testing
@testable import WalletWatchSim

/// TLS: the face speaks the same protocol over TLS with a certificate made at start, written to
/// files whose fingerprint (as `openssl x509 -fingerprint -sha256` prints it) is the one exposed,
/// and the one the client receives.
@Suite struct ElectrumTLSTests {
    @Test func theCertificateIsTheOneWrittenAndExposed() async throws {
        try await ChainFixture.withFace(ChainFixture.scenario(), tls: true) { sim, client in
            let tip = try #require(try await client.result("blockchain.headers.subscribe") as? [String: Any])
            #expect(tip["height"] as? Int == 150)
            let received = try #require(try await client.peerCertificate())
            #expect(ChainFixture.hex(SHA256.hash(data: received)) == sim.certificateSHA256)
            let openssl = Process()
            openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            openssl.arguments = ["x509", "-noout", "-fingerprint", "-sha256", "-in", sim.certificatePath]
            let output = Pipe()
            openssl.standardOutput = output
            try openssl.run()
            openssl.waitUntilExit()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            // "sha256 Fingerprint=AB:CD:..."
            let fingerprint = try #require(printed.split(separator: "=").last).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(fingerprint.replacingOccurrences(of: ":", with: "").lowercased() == sim.certificateSHA256)
            #expect(FileManager.default.fileExists(atPath: sim.keyPath))
            let endpoints = try #require(try await HTTPProbe.get(sim.controlURL + "/electrum").object)
            #expect(endpoints["certificate_sha256"] as? String == sim.certificateSHA256)
            #expect(endpoints["electrum_tls"] as? String == sim.electrumTLSURL)
            #expect(endpoints["electrum_tcp"] as? String == sim.electrumTCPURL)
            #expect(endpoints["core_rpc"] as? String == sim.coreRPCURL)
            #expect(await sim.electrumRequests().allSatisfy { $0.transport == "tls" })
        }
    }

    @Test func stopClosesConnectionsAndRemovesTheTemporaryFiles() async throws {
        let sim = try await Simulator.start(scenario: ChainFixture.scenario())
        let client = try await ElectrumTestClient.connect(sim.electrumTLSURL)
        _ = try await client.call("server.version", ["x", "1.4"])
        let certificate = sim.certificatePath
        #expect(FileManager.default.fileExists(atPath: certificate))
        let started = ContinuousClock.now
        await sim.stop()
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(await client.isClosed(within: .seconds(2)))
        #expect(!FileManager.default.fileExists(atPath: certificate))
        await client.close()
        await #expect(throws: (any Error).self) { try await ElectrumTestClient.connect(sim.electrumTCPURL) }
    }
}
