import Foundation

/// write(2) until every byte is written: a short write goes on where it stopped, an interrupted
/// one is tried again.
enum DescriptorWrite {
    /// Writes all of `bytes` to `descriptor`; returns the errno of the failure, if any (EIO
    /// when write(2) makes no progress without saying why).
    static func all(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count > 0 {
                written += count
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return count < 0 ? errno : EIO
            }
        }
        return nil
    }
}
