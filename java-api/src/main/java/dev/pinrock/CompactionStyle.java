package dev.pinrock;

/**
 * How RocksDB compacts a column family's table files (its
 * {@code compaction_style}). Chosen with
 * {@link DbOptions#compactionStyle(CompactionStyle)}.
 */
public enum CompactionStyle {
    /** Levels of growing size, each compacted into the next (RocksDB's default). */
    LEVEL("kCompactionStyleLevel"),
    /**
     * Sorted runs merged by size ratio: fewer rewrites of each byte than
     * leveled compaction, more space while compacting (Kafka Streams' choice
     * for its built-in stores).
     */
    UNIVERSAL("kCompactionStyleUniversal"),
    /**
     * Files kept in insertion order and the oldest deleted once the family
     * exceeds its size limit ({@code compaction_options_fifo}) or time to
     * live: for data that may expire, since entries are dropped.
     */
    FIFO("kCompactionStyleFIFO");

    private final String rocksDbName;

    CompactionStyle(String rocksDbName) {
        this.rocksDbName = rocksDbName;
    }

    /**
     * Returns the value of {@code compaction_style} in RocksDB's option strings.
     *
     * @return RocksDB's name of this style
     */
    public String rocksDbName() {
        return rocksDbName;
    }
}
