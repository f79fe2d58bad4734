package dev.pinrock.kafka;

import java.util.Map;

import dev.pinrock.DbOptions;

/**
 * The hook that tunes every pinrock store of an application, pinrock's
 * counterpart of Kafka Streams' {@code RocksDBConfigSetter}, without RocksJava
 * types. Name the implementing class in
 * {@link PinrockStoreConfig#CONFIG_SETTER_CLASS_CONFIG}; pinrock creates one
 * instance per database it opens (one per key-value store, one per segment of
 * a window or session store) through its public no-argument constructor.
 *
 * <p>Calls come from the stream thread that opens or closes the store, one
 * at a time per instance.
 */
public interface PinrockConfigSetter {

    /**
     * Returns the options to open one store's database with.
     *
     * @param storeName the store's name (for a segment, the segment's name: the store's name,
     *     a dot and the segment's start time)
     * @param options pinrock's defaults for Kafka Streams stores, with the application's
     *     memory bound already applied
     * @param configs the application's configuration
     * @return the options to open with; returning {@code options} keeps the defaults. Their
     *     {@link DbOptions#comparator() comparator} stays bytewise: the stores' range queries
     *     need that order, and the open fails with another
     */
    DbOptions setConfig(String storeName, DbOptions options, Map<String, Object> configs);

    /**
     * Releases what {@link #setConfig} created, after the store's database has
     * closed. The default does nothing.
     *
     * @param storeName the store's name as given to {@link #setConfig}
     */
    default void close(String storeName) {
    }
}
