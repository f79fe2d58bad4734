package dev.pinrock.kafka;

import java.time.Duration;
import java.util.Objects;

import org.apache.kafka.streams.internals.ApiUtils;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.VersionedBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

import dev.pinrock.kafka.internal.KeyValueSupplier;
import dev.pinrock.kafka.internal.SessionSupplier;
import dev.pinrock.kafka.internal.VersionedSupplier;
import dev.pinrock.kafka.internal.WindowOrder;
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
     * half the retention, at least one minute). Its stores refuse a put of a
     * window starting before 0 or at {@code Long.MAX_VALUE}
     * ({@code IllegalArgumentException}): no Kafka Streams window starts there.
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
        return windowSupplier(name, retentionPeriod, windowSize, retainDuplicates, false, WindowOrder.KEY);
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
        return windowSupplier(name, retentionPeriod, windowSize, retainDuplicates, true, WindowOrder.KEY);
    }

    /**
     * A persistent window store that also keeps its windows in start-time
     * order and answers as Kafka Streams' time-ordered window store: what
     * windowed aggregations that emit final results only
     * ({@code EmitStrategy.onWindowClose()}) need, and what
     * {@link PinrockDslStoreSuppliers} hands out for them.
     *
     * <p>As the built-in store: segments of half the retention, at least one
     * minute, by window start; a window is kept while its start is at least
     * stream time (the largest window start put) minus the retention, one
     * millisecond longer than {@link #windowStore} keeps it; with duplicates
     * retained every put is kept (a null value is ignored), otherwise a put
     * replaces the key's window and a null value deletes it. Values carry
     * their timestamp ({@code TimestampedBytesStore}). {@code fetchAll},
     * {@code all}, their backward forms and key-range fetches answer by
     * window start, then serialized key, then put order (reversed
     * backwards); one key's fetches by window start. Puts are refused as by
     * {@link #windowStore}'s stores. Kafka Streams'
     * {@code Stores.timestampedWindowStoreBuilder} (the DSL's) puts its
     * time-ordered record cache around it, as around the built-in store, so
     * cached and stored windows merge in that order too; with caching on,
     * build it with that builder: {@code Stores.windowStoreBuilder} puts its
     * key-ordered cache around every store, the built-in time-ordered one
     * included, and that cache's ranges can then answer a window twice. Each
     * write also writes the window's index entry.
     *
     * @param name the store's name, not null
     * @param retentionPeriod how long windows are kept; at least the window size
     * @param windowSize the windows' size
     * @param retainDuplicates whether to keep every value put for a key and window
     * @return a supplier of stores named {@code name}
     * @throws IllegalArgumentException as for {@link #windowStore}
     */
    public static WindowBytesStoreSupplier timeOrderedWindowStore(String name, Duration retentionPeriod,
            Duration windowSize, boolean retainDuplicates) {
        return windowSupplier(name, retentionPeriod, windowSize, retainDuplicates, true, WindowOrder.TIME);
    }

    /**
     * The time-ordered window store that the DSL's sliding windows get: as
     * {@link #timeOrderedWindowStore}, but key-range fetches answer key
     * first, as the built-in time-ordered store with its key index.
     */
    static WindowBytesStoreSupplier timeOrderedSlidingWindowStore(String name, Duration retentionPeriod,
            Duration windowSize, boolean retainDuplicates) {
        return windowSupplier(name, retentionPeriod, windowSize, retainDuplicates, true,
                WindowOrder.TIME_KEY_RANGES_BY_KEY);
    }

    private static WindowBytesStoreSupplier windowSupplier(String name, Duration retentionPeriod,
            Duration windowSize, boolean retainDuplicates, boolean timestamped, WindowOrder order) {
        Objects.requireNonNull(name, "name cannot be null");
        long retentionMs = millis(retentionPeriod, "retentionPeriod");
        long windowSizeMs = millis(windowSize, "windowSize");
        if (windowSizeMs > retentionMs) {
            throw new IllegalArgumentException("The retention period of the window store " + name
                    + " must be no smaller than its window size. Got size=[" + windowSizeMs + "], retention=["
                    + retentionMs + "]");
        }
        return new WindowSupplier(name, retentionMs, Math.max(retentionMs / 2, 60_000L), windowSizeMs,
                retainDuplicates, timestamped, order);
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

    /**
     * A persistent versioned key-value store, the counterpart of Kafka
     * Streams' {@code Stores.persistentVersionedKeyValueStore(name,
     * historyRetention)}, with the built-in default segment interval (a
     * third of the retention up to a minute, at least 2 s; a fifth up to
     * five minutes, at least 20 s; a twelfth up to an hour, at least a
     * minute; else a 24th, at least five minutes). See
     * {@link #versionedKeyValueStore(String, Duration, Duration)}.
     *
     * @param name the store's name, not null
     * @param historyRetention how long older versions stay queryable; also the grace period
     * @return a supplier of stores named {@code name}
     * @throws IllegalArgumentException when the retention is negative or does not fit in milliseconds
     */
    public static VersionedBytesStoreSupplier versionedKeyValueStore(String name, Duration historyRetention) {
        Objects.requireNonNull(name, "name cannot be null");
        long retentionMs = millis(historyRetention, "historyRetention");
        return new VersionedSupplier(name, retentionMs, VersionedSupplier.defaultSegmentInterval(retentionMs));
    }

    /**
     * A persistent versioned key-value store, answering as Kafka Streams'
     * built-in one ({@code Stores.persistentVersionedKeyValueStore}); pass it
     * to {@code Stores.versionedKeyValueStoreBuilder} or
     * {@code Materialized.as(...)}. Each record put for a key is valid from its
     * timestamp until the timestamp of the key's next newer record (the
     * latest record: without end); a null value (a delete) puts a tombstone.
     *
     * <ul>
     * <li>Stream time is the largest timestamp put (or restored) since the
     *     store opened. A put or delete with a timestamp before stream time
     *     minus the history retention (the grace period equals the history
     *     retention) is not put: {@code put} returns
     *     {@code PUT_RETURN_CODE_NOT_PUT}, {@code delete} null, and the task's
     *     dropped-records sensor counts it.</li>
     * <li>{@code put} otherwise returns the new record's validTo, or
     *     {@code PUT_RETURN_CODE_VALID_TO_UNDEFINED} when it is the latest; a
     *     put at a timestamp the key already has replaces that record.</li>
     * <li>{@code get(key)} answers the latest record when it is not a
     *     tombstone, however old; {@code get(key, asOfTimestamp)} the record
     *     valid at that time (null for a tombstone or none), and for a time
     *     before stream time minus the history retention only the latest
     *     record, if it is valid then.</li>
     * <li>Older records live in segments of {@code segmentInterval} by their
     *     validTo; a segment is dropped once it lies wholly before stream time
     *     minus the history retention, and writes that would land in a
     *     dropped segment are skipped, as in the built-in store.</li>
     * <li>The changelog holds each put's key, value and timestamp (Kafka's
     *     format); restoration replays it through the same put.</li>
     * <li>A put or delete whose older record would go to a segment before
     *     time 0 (negative timestamps) throws {@code IllegalArgumentException},
     *     writing nothing, as the built-in store throws.</li>
     * <li>IQv2: {@code VersionedKeyQuery} and {@code MultiVersionedKeyQuery}
     *     (whose iterator holds the records read when the query ran).</li>
     * </ul>
     *
     * <p>Unlike the built-in store, it finds its history again after a
     * reopen (the built-in store's history reads answer null until a put
     * touches the segment again).
     *
     * @param name the store's name, not null
     * @param historyRetention how long older versions stay queryable; also the grace period
     * @param segmentInterval the history segments' length, at least a millisecond
     * @return a supplier of stores named {@code name}
     * @throws IllegalArgumentException when the retention is negative, the interval is not positive,
     *     or either does not fit in milliseconds
     */
    public static VersionedBytesStoreSupplier versionedKeyValueStore(String name, Duration historyRetention,
            Duration segmentInterval) {
        Objects.requireNonNull(name, "name cannot be null");
        long retentionMs = millis(historyRetention, "historyRetention");
        long segmentIntervalMs = ApiUtils.validateMillisecondDuration(segmentInterval,
                ApiUtils.prepareMillisCheckFailMsgPrefix(segmentInterval, "segmentInterval"));
        if (segmentIntervalMs < 1) {
            throw new IllegalArgumentException("segmentInterval cannot be zero or negative");
        }
        return new VersionedSupplier(name, retentionMs, segmentIntervalMs);
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
