import Testing
import WalletWatchBitcoin

/// Bitcoin Core's descriptor_tests.cpp (Fixtures/bitcoin-core): the public and normalised forms of
/// every `Check(...)` and `CheckMultipath(...)` in walletwatch's scope give Core's scripts for each
/// child; those out of scope are refused as unsupported; every `CheckUnparsable(...)` is refused.
@Suite struct CoreDescriptorTests {
    static let source = try! Fixture.text("bitcoin-core/descriptor_tests.cpp.txt")

    struct Tally {
        var scripts = 0
        var hardened = 0
        var unsupported = 0
        var privateKeys = 0
    }

    /// Checks one public descriptor against Core's expectation; `hardened` is whether Core says
    /// deriving it needs private keys (a hardened step after an xpub).
    static func check(_ text: String, hardened: Bool, scripts: [[String]], ranged: Bool, tally: inout Tally) throws {
        let outcome = Result { () throws(DescriptorError) in try Descriptor(text, network: .bitcoin) }
        if !DescriptorVectors.isInScope(text) {
            guard case .failure(let error) = outcome else { Issue.record("out of scope, yet parsed: \(text)"); return }
            #expect(error.kind == .unsupported, "\(text): \(error)")
            tally.unsupported += 1
        } else if hardened {
            guard case .failure(let error) = outcome else { Issue.record("hardened, yet parsed: \(text)"); return }
            #expect(error.kind == .hardenedDerivation, "\(text): \(error)")
            tally.hardened += 1
        } else {
            let descriptor = try outcome.get()
            #expect(descriptor.isRanged == ranged, "\(text)")
            for (index, expected) in scripts.enumerated() {
                // One script per child for every function in scope.
                #expect(expected.count == 1)
                #expect(try hex(descriptor.scriptPubKey(index: UInt32(index))) == expected.first, "\(text) child \(index)")
                tally.scripts += 1
            }
        }
    }

    @Test func checkCases() throws {
        // Calls with a string first: CheckMultipath's body calls Check(prv, pub, ...) with variables.
        let calls = CppCalls.calls(named: "Check", in: Self.source).filter { $0.first?.string != nil }
        #expect(calls.count == 71)
        var tally = Tally()
        for arguments in calls {
            let prv = try #require(arguments[0].string)
            let pub = try #require(arguments[1].string)
            let normalised = try #require(arguments[2].string)
            let flags = arguments[3].text
            let scripts = try #require(arguments[4].list).map(\.strings)
            let ranged = flags.contains("RANGE")
            try Self.check(pub, hardened: flags.contains("HARDENED"), scripts: scripts, ranged: ranged, tally: &tally)
            try Self.check(normalised, hardened: flags.contains("DERIVE_HARDENED"), scripts: scripts, ranged: ranged, tally: &tally)
            if DescriptorVectors.containsPrivateKey(prv) {
                let error = try #require(throws: DescriptorError.self) { try Descriptor(prv, network: .bitcoin) }
                #expect(error.kind == .privateKey, "\(error)")
                tally.privateKeys += 1
            }
        }
        // Of the 142 public forms, 28 in scope give 32 scripts (the ranged wpkh() gives 3 twice); 6
        // have a hardened step after an xpub; 108 are out of scope. Every private form has a private key.
        #expect(tally.scripts == 32)
        #expect(tally.hardened == 6)
        #expect(tally.unsupported == 108)
        #expect(tally.privateKeys == 71)
    }

    @Test func checkMultipathCases() throws {
        let calls = CppCalls.calls(named: "CheckMultipath", in: Self.source)
        #expect(calls.count == 15)
        var expanded = 0
        var tally = Tally()
        for arguments in calls {
            let pub = try #require(arguments[1].string)
            let expandedPubs = try #require(arguments[3].list).compactMap(\.string)
            let flags = try #require(arguments[5].list).map(\.text)
            let scripts = try #require(arguments[6].list).map { try #require($0.list).map(\.strings) }
            let hardened = flags.contains { $0.contains("HARDENED") }
            try Self.check(pub, hardened: hardened, scripts: scripts[0], ranged: flags[0].contains("RANGE"), tally: &tally)
            guard DescriptorVectors.isInScope(pub), !hardened else { continue }
            let descriptor = try Descriptor(pub, network: .bitcoin)
            #expect(descriptor.branchCount == expandedPubs.count)
            for (branch, single) in descriptor.branches.enumerated() {
                #expect(single == (try Descriptor(expandedPubs[branch], network: .bitcoin)), "\(expandedPubs[branch])")
                for (index, expected) in scripts[branch].enumerated() {
                    #expect(try hex(descriptor.scriptPubKey(index: UInt32(index), branch: branch)) == expected.first)
                }
                expanded += 1
            }
        }
        // wpkh(<1;3>), pkh(<0;1;2>) and sh(multi(<3;4;5>)); pkh(<2147483647h;0>) and
        // sh(wpkh(<10;100h>)) are hardened; the other 10 (pk, bare multi, tr trees, miniscript, musig) out of scope.
        #expect(expanded == 8)
        #expect(tally.hardened == 2)
        #expect(tally.unsupported == 10)
    }

    @Test func unparsableCases() throws {
        let calls = CppCalls.calls(named: "CheckUnparsable", in: Self.source)
        #expect(calls.count == 98)
        var refused = 0
        for arguments in calls {
            for text in [arguments[0].string, arguments[1].string].compactMap({ $0 }) where !text.isEmpty {
                let error = try #require(throws: DescriptorError.self, "\(text) (Core: \(arguments[2].text))") {
                    try Descriptor(text, network: .bitcoin)
                }
                if DescriptorVectors.containsPrivateKey(text) {
                    #expect(error.kind == .privateKey, "\(text): \(error)")
                }
                refused += 1
            }
        }
        // Both forms of each case where given (a private form is empty for some).
        #expect(refused == 180)
    }
}
