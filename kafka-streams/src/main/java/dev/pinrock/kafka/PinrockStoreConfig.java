package dev.pinrock.kafka;

/**
 * The configuration keys pinrock's stores read from the Kafka Streams
 * application's configuration ({@code StreamsConfig} properties).
 */
public final class PinrockStoreConfig {

    /**
     * A class implementing {@link PinrockConfigSetter} (a {@code Class} or its
     * name) that tunes each store's options. Absent: pinrock's defaults.
     */
    public static final String CONFIG_SETTER_CLASS_CONFIG = "pinrock.config.setter.class";

    /**
     * A cap in bytes for block caches and memtables of all pinrock stores of
     * the application together (all stores with the same
     * {@code application.id} in this JVM share one block cache, to which every
     * memtable is charged). Absent or 0: each store has its own 50 MiB block
     * cache and 16 MiB memtables, as Kafka Streams' built-in store does.
     */
    public static final String BOUNDED_MEMORY_BYTES_CONFIG = "pinrock.bounded.memory.bytes";

    /**
     * The memtables' share of {@link #BOUNDED_MEMORY_BYTES_CONFIG}, in bytes;
     * when the memtables of all stores reach it, RocksDB flushes them.
     * Absent: half of the bound.
     */
    public static final String BOUNDED_MEMORY_MEMTABLE_BYTES_CONFIG = "pinrock.bounded.memory.memtable.bytes";

    private PinrockStoreConfig() {
    }
}
