package dev.pinrock.kafka.internal;

import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.internals.OffsetCheckpoint;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;

/**
 * A store's position (the input offsets its contents reflect, which IQv2
 * position bounds compare against), kept as the built-in stores keep it:
 * read when the store opens from {@code <task state dir>/<store>.position}
 * ({@link #load}),
 * written there at every commit, advanced by every record the store writes
 * ({@link StoreQueries#updatePosition}) and, during restoration, by the
 * position header Kafka Streams writes into each changelog record when IQ
 * consistency is on. So a query bounded by a position the store reached
 * before a restart is answered after it. Thread-safe as the position is:
 * every change and read synchronizes on it.
 */
final class StorePosition {
    private final Position position = Position.emptyPosition();
    private OffsetCheckpoint checkpoint;
    private boolean consistencyEnabled;

    /** @return the position, the same object for the store's whole life */
    Position position() {
        return position;
    }

    /**
     * Loads the position a previous run wrote; call before the store opens
     * anything, so that an unreadable file leaves nothing open.
     *
     * @throws ProcessorStateException when the position file cannot be read or is damaged (it
     *     names the file: deleting it starts the position empty)
     */
    void load(StateStoreContext context, String storeName) {
        File file = new File(context.stateDir(), storeName + ".position");
        checkpoint = new OffsetCheckpoint(file);
        consistencyEnabled = StreamsConfig.InternalConfig.getBoolean(context.appConfigs(),
                StreamsConfig.InternalConfig.IQ_CONSISTENCY_OFFSET_VECTOR_ENABLED, false);
        Position stored;
        try {
            stored = StoreQueryUtils.readPositionFromCheckpoint(checkpoint);
        } catch (RuntimeException e) {
            // Kafka's reader lets a damaged number out as NumberFormatException.
            throw new ProcessorStateException("Error reading the position file " + file + " of store " + storeName
                    + " (deleting it starts the position empty)", e);
        }
        synchronized (position) {
            position.merge(stored);
        }
    }

    /**
     * Registers the store with its context: each restored batch goes to
     * {@code restore} (after the position advances by its records' headers),
     * and every commit writes the position file. Call after {@link #load}.
     *
     * @param restore writes one batch of restored changelog records (a null value deletes)
     */
    void register(StateStoreContext context, StateStore root,
            Consumer<Collection<KeyValue<byte[], byte[]>>> restore) {
        context.register(root, new RecordBatchingStateRestoreCallback() {
            @Override
            public void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
                List<KeyValue<byte[], byte[]>> batch = new ArrayList<>(records.size());
                synchronized (position) {
                    for (ConsumerRecord<byte[], byte[]> record : records) {
                        ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(record,
                                consistencyEnabled, position);
                        batch.add(KeyValue.pair(record.key(), record.value()));
                    }
                }
                restore.accept(batch);
            }

            /** A context that restores key-value pairs (carrying no headers) restores through this. */
            @Override
            public void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
                restore.accept(records);
            }
        }, this::checkpoint);
    }

    /**
     * Registers the store with its context, handing each restored batch of
     * changelog records to {@code restore} as they are, for a store that
     * needs their timestamps; the store advances the position itself
     * ({@link #advance}) by the records it restores. Every commit writes the
     * position file. Call after {@link #load}.
     */
    void registerRecords(StateStoreContext context, StateStore root,
            RecordBatchingStateRestoreCallback restore) {
        context.register(root, restore, this::checkpoint);
    }

    /** Advances the position by a restored record's position header (when IQ consistency is on). */
    void advance(ConsumerRecord<byte[], byte[]> record) {
        synchronized (position) {
            ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(record, consistencyEnabled, position);
        }
    }

    /** Writes the position file (Kafka Streams calls this at every commit). */
    void checkpoint() {
        StoreQueryUtils.checkpointPosition(checkpoint, position);
    }
}
