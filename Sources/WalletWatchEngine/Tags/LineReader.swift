import Foundation
import WalletWatchCore

/// A file read one line at a time, a block at a time: memory stays bounded whatever the size of
/// the file or of its lines. A line longer than ``maximumLineBytes`` is not kept: the reader
/// skips to its end and reports its number instead (a 50 MB line is refused, not parsed).
struct LineReader: ~Copyable {
    /// One line of the file, numbered from 1, without its `\n`.
    enum Line {
        case text(number: Int, bytes: UnsafeRawBufferPointer)
        /// A line longer than the bound, with its length.
        case tooLong(number: Int, bytes: Int)
    }

    private let descriptor: Int32
    private let path: String
    let maximumLineBytes: Int
    static let blockSize = 1 << 20

    /// Opens `path`; a file that cannot be opened is the user's input refused by name (exit 64).
    init(path: String, maximumLineBytes: Int) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))") }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw UsageError("cannot read \(path): it is a folder; name a file")
        }
        self.descriptor = descriptor
        self.path = path
        self.maximumLineBytes = maximumLineBytes
    }

    deinit { close(descriptor) }

    /// Calls `body` with every line, in order. The bytes are valid during the call only.
    func forEachLine(_ body: (Line) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: Self.blockSize + maximumLineBytes + 1)
        // buffer[start..<end] holds the bytes read but not handed out yet.
        var start = 0, end = 0, number = 0
        // The length so far of a line past the bound, while its end is being looked for.
        var skipped: Int?
        var atEnd = false
        while true {
            // The next line end among the bytes read.
            let newline = buffer.withUnsafeBytes { bytes -> Int? in
                guard end > start, let found = memchr(bytes.baseAddress! + start, 0x0A, end - start) else { return nil }
                return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
            }
            if let newline {
                number += 1
                if skipped != nil || newline - start > maximumLineBytes {
                    try body(.tooLong(number: number, bytes: (skipped ?? 0) + newline - start))
                    skipped = nil
                } else {
                    try buffer.withUnsafeBytes { try body(.text(number: number, bytes: UnsafeRawBufferPointer(rebasing: $0[start..<newline]))) }
                }
                start = newline + 1
                continue
            }
            if atEnd {
                if skipped != nil || end - start > maximumLineBytes {
                    try body(.tooLong(number: number + 1, bytes: (skipped ?? 0) + end - start))
                } else if end > start {
                    try buffer.withUnsafeBytes { try body(.text(number: number + 1, bytes: UnsafeRawBufferPointer(rebasing: $0[start..<end]))) }
                }
                return
            }
            if end - start > maximumLineBytes || skipped != nil {
                // Past the bound: count the bytes, keep none of them.
                skipped = (skipped ?? 0) + end - start
                start = 0
                end = 0
            } else if start > 0 {
                // The unfinished line to the front, so that a whole block fits behind it.
                buffer.withUnsafeMutableBytes { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + start, end - start)
                }
                end -= start
                start = 0
            }
            let count = try read(into: &buffer, at: end)
            if count == 0 { atEnd = true } else { end += count }
        }
    }

    /// Reads at most a block into `buffer` at `offset`; 0 at the end of the file.
    private func read(into buffer: inout [UInt8], at offset: Int) throws -> Int {
        let wanted = min(Self.blockSize, buffer.count - offset)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + offset, wanted) }
            if count >= 0 { return count }
            guard errno == EINTR else { throw UsageError("cannot read \(path): \(String(cString: strerror(errno)))") }
        }
    }
}
