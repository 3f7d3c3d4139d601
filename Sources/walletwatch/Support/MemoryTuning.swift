import CMallocTuning

/// glibc's allocator raises its mmap threshold each time a large block is freed (up to
/// 32 MiB), after which response bodies of a few MiB come from the heap arenas of the threads
/// that happened to allocate them, and freeing them rarely gives memory back. Measured in the
/// stress suite, a daemon meeting faulty multi-MiB answers grew from 52 to 93 MiB over 250
/// passes this way; with a fixed threshold it stays within 2 MiB. Blocks of 128 KiB and more
/// are therefore always mapped on their own and returned to the system when freed.
enum MemoryTuning {
    static func apply() {
        _ = walletwatch_fix_mmap_threshold(128 * 1024)
    }
}
