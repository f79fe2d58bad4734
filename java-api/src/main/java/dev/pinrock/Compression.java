package dev.pinrock;

/**
 * A block compression algorithm for the table files RocksDB writes. Every
 * algorithm listed here is compiled into pinrock's engine.
 */
public enum Compression {
    /** No compression. */
    NONE(0),
    /** Snappy: fast, moderate ratio. */
    SNAPPY(1),
    /** zlib (deflate). */
    ZLIB(2),
    /** bzip2: slow, high ratio. */
    BZIP2(3),
    /** LZ4: fastest decompression; the default for all levels but the bottommost. */
    LZ4(4),
    /** LZ4 high-compression mode. */
    LZ4HC(5),
    /** Zstandard: high ratio at good speed; the default for the bottommost level. */
    ZSTD(7);

    private final int nativeCode;

    Compression(int nativeCode) {
        this.nativeCode = nativeCode;
    }

    /**
     * Returns the value of this algorithm in the C ABI ({@code enum pr_compression},
     * which is RocksDB's {@code CompressionType}).
     *
     * @return the native code
     */
    public int nativeCode() {
        return nativeCode;
    }
}
