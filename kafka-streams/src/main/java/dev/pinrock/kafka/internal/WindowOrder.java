package dev.pinrock.kafka.internal;

/**
 * The order in which a pinrock window store answers the queries that span
 * keys, each the order of one of Kafka Streams' built-in window stores.
 * Queries of one key answer by window start (then sequence number) in every
 * order.
 */
public enum WindowOrder {
    /** Key first, segment by segment: Kafka Streams' {@code RocksDBWindowStore}. */
    KEY,
    /**
     * By window start, then key, then sequence number, in every query:
     * Kafka Streams' time-ordered window store without its key index, which
     * the DSL gives tumbling and hopping windows that emit on window close.
     */
    TIME,
    /**
     * By window start for {@code fetchAll} and {@code all}, key first for key
     * ranges: Kafka Streams' time-ordered window store with its key index,
     * which the DSL gives sliding windows that emit on window close.
     */
    TIME_KEY_RANGES_BY_KEY;

    /** @return whether the store keeps its windows in time order too (a time index) */
    boolean timeOrdered() {
        return this != KEY;
    }
}
