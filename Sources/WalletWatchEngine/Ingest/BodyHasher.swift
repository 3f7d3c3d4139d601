import CXXHash

/// XXH3 (64 bits) of bytes fed as they arrive, through xxHash's reference library.
///
/// It tells whether a body is the one seen last time (barkd's history, whose digest decides
/// that nothing changed and nothing needs decoding), not who wrote it: a source could send a
/// body made to collide, but a source can as easily lie in plain text, and an accidental
/// collision between two histories has a chance of 2^-64. It runs on the thread that receives
/// the body, so its speed is the no-change pass's: SHA-256 took longer than the network needed.
/// In a C loop over the library, 70 MB in 256 KiB pieces took about 7.5 ms with XXH64 (used
/// before) and about 2.8 ms with XXH3 through the library's runtime dispatch (AVX2 or AVX-512
/// where the CPU has them, `shim.h`); in the daemon's passes, about 6 ms of a 100,000-movement
/// history's pass, where the pieces come from the network.
///
/// Owns the library's state (allocated by it, aligned as XXH3 needs). Unchecked Sendable: it
/// has no lock of its own, so one thread at a time may use it (``BodySpool`` keeps it under
/// its mutex, where the transfer's thread feeds it and the pass then reads the digest).
final class BodyHasher: @unchecked Sendable {
    private let state: OpaquePointer

    init() {
        guard let state = XXH3_createState() else { fatalError("XXH3_createState: out of memory") }
        self.state = state
        XXH3_64bits_reset(state)
    }

    deinit { XXH3_freeState(state) }

    /// Takes the next bytes.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        walletwatch_xxh3_update(state, base, bytes.count)
    }

    /// The digest of every byte taken so far, as stored: `xxh3:` and 16 lower-case hexadecimal
    /// digits. Named after its function, so that a digest stored by an older walletwatch
    /// (`xxh64:`, or a bare SHA-256) never matches one: its first pass compares the history once.
    func named() -> String {
        let hex = String(XXH3_64bits_digest(state), radix: 16)
        return "xxh3:" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The XXH3 digest of `bytes` at once, named as ``named()`` names it.
    static func named(_ bytes: UnsafeRawBufferPointer) -> String {
        let hasher = BodyHasher()
        hasher.update(bytes)
        return hasher.named()
    }
}
