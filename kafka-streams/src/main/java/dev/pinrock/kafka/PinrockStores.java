package dev.pinrock.kafka;

import java.time.Duration;
import java.util.Objects;

import org.apache.kafka.streams.internals.ApiUtils;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

import dev.pinrock.kafka.internal.KeyValueSupplier;
import dev.pinrock.kafka.internal.SessionSupplier;
import dev.pinrock.kafka.internal.WindowSupplier;

/**
 * Store suppliers backed by pinrock, the counterparts of Kafka Streams'
 * {@code Stores.persistent*} factories. Pass them to
 * {@code Stores.keyValueStoreBuilder(...)} or {@code Materialized.as(...)}; or
 * set {@link PinrockDslStoreSuppliers} as {@code dsl.store.suppliers.class} to
 * move every DSL store of an application onto pinrock.
 *
 * <p>Each store keeps its data under {@code <state dir>/<task>/pinrock/<name>}.
 */
public final class PinrockStores {
    private PinrockStores() {
    }

    /**
     * A persistent key-value store.
     *
     * @param name the store's name, not null
     * @return a supplier of stores named {@code name}
     */
    public static KeyValueBytesStoreSupplier keyValueStore(String name) {
        return new KeyValueSupplier(Objects.requireNonNull(name, "name cannot be null"), false);
    }

    /**
     * A persistent key-value store whose values carry their timestamp
     * ({@code TimestampedBytesStore}), for {@code Stores.timestampedKeyValueStoreBuilder}
     * and the DSL's tables, which then use it without a format adapter.
     *
     * @param name the store's name, not null
     * @return a supplier of stores named {@code name}
     */
    public static KeyValueBytesStoreSupplier timestampedKeyValueStore(String name) {
        return new KeyValueSupplier(Objects.requireNonNull(name, "name cannot be null"), true);
    }

    /**
     * A persistent window store, segmented like the built-in one (segments of
     * half the retention, at least one minute).
     *
     * @param name the store's name, not null
     * @param retentionPeriod how long windows are kept; at least the window size
     * @param windowSize the windows' size
     * @param retainDuplicates whether to keep every value put for a key and window (for joins)
     * @return a supplier of stores named {@code name}
     * @throws IllegalArgumentException when a duration is negative or does not fit in milliseconds,
     *     or the retention is shorter than the window size
     */
    public static WindowBytesStoreSupplier windowStore(String name, Duration retentionPeriod, Duration windowSize,
            boolean retainDuplicates) {
        return windowSupplier(name, retentionPeriod, windowSize, retainDuplicates, false);
    }

    /**
     * A persistent window store whose values carry their timestamp
     * ({@code TimestampedBytesStore}); otherwise as {@link #windowStore}.
     *
     * @param name the store's name, not null
     * @param retentionPeriod how long windows are kept; at least the window size
     * @param windowSize the windows' size
     * @param retainDuplicates whether to keep every value put for a key and window
     * @return a supplier of stores named {@code name}
     * @throws IllegalArgumentException as for {@link #windowStore}
     */
    public static WindowBytesStoreSupplier timestampedWindowStore(String name, Duration retentionPeriod,
            Duration windowSize, boolean retainDuplicates) {
        return windowSupplier(name, retentionPeriod, windowSize, retainDuplicates, true);
    }

    private static WindowBytesStoreSupplier windowSupplier(String name, Duration retentionPeriod,
            Duration windowSize, boolean retainDuplicates, boolean timestamped) {
        Objects.requireNonNull(name, "name cannot be null");
        long retentionMs = millis(retentionPeriod, "retentionPeriod");
        long windowSizeMs = millis(windowSize, "windowSize");
        if (windowSizeMs > retentionMs) {
            throw new IllegalArgumentException("The retention period of the window store " + name
                    + " must be no smaller than its window size. Got size=[" + windowSizeMs + "], retention=["
                    + retentionMs + "]");
        }
        return new WindowSupplier(name, retentionMs, Math.max(retentionMs / 2, 60_000L), windowSizeMs,
                retainDuplicates, timestamped);
    }

    /**
     * A persistent session store, segmented by session end like the built-in one.
     *
     * @param name the store's name, not null
     * @param retentionPeriod how long sessions are kept after they end
     * @return a supplier of stores named {@code name}
     * @throws IllegalArgumentException when the retention is negative or does not fit in milliseconds
     */
    public static SessionBytesStoreSupplier sessionStore(String name, Duration retentionPeriod) {
        Objects.requireNonNull(name, "name cannot be null");
        return new SessionSupplier(name, millis(retentionPeriod, "retentionPeriod"), false);
    }

    /**
     * A persistent session store that also keeps its sessions in end-time order
     * and answers {@code findSessions(earliestSessionEndTime, latestSessionEndTime)}
     * in that order, as Kafka Streams' time-ordered session store does: what
     * session aggregations that emit final results only
     * ({@code EmitStrategy.onWindowClose()}) need. {@link PinrockDslStoreSuppliers}
     * hands it out for them. Each write also writes the session's index entry.
     *
     * @param name the store's name, not null
     * @param retentionPeriod how long sessions are kept after they end
     * @return a supplier of stores named {@code name}
     * @throws IllegalArgumentException when the retention is negative or does not fit in milliseconds
     */
    public static SessionBytesStoreSupplier timeOrderedSessionStore(String name, Duration retentionPeriod) {
        Objects.requireNonNull(name, "name cannot be null");
        return new SessionSupplier(name, millis(retentionPeriod, "retentionPeriod"), true);
    }

    private static long millis(Duration duration, String what) {
        long millis = ApiUtils.validateMillisecondDuration(duration,
                ApiUtils.prepareMillisCheckFailMsgPrefix(duration, what));
        if (millis < 0) {
            throw new IllegalArgumentException(what + " cannot be negative");
        }
        return millis;
    }
}
