package dev.pinrock.kafka.internal;

import org.apache.kafka.streams.processor.StateStore;

import dev.pinrock.RocksDb;

/** Lets tests look at the pinrock database behind a store. */
public final class StoreInternals {
    private StoreInternals() {
    }

    /** @return the open database of a pinrock key-value store */
    public static RocksDb database(StateStore store) {
        return ((PinrockKeyValueStore) store).db();
    }
}
