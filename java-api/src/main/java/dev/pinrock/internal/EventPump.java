package dev.pinrock.internal;

import java.lang.System.Logger.Level;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.pinrock.EventListener;
import dev.pinrock.EventListener.BackgroundError;
import dev.pinrock.EventListener.BackgroundErrorReason;
import dev.pinrock.EventListener.CompactionFile;
import dev.pinrock.EventListener.CompactionInfo;
import dev.pinrock.EventListener.CompactionReason;
import dev.pinrock.EventListener.ErrorRecovery;
import dev.pinrock.EventListener.ExternalFileIngested;
import dev.pinrock.EventListener.FlushInfo;
import dev.pinrock.EventListener.FlushReason;
import dev.pinrock.EventListener.MemTableSealed;
import dev.pinrock.EventListener.TableFileCreated;
import dev.pinrock.EventListener.TableFileDeleted;
import dev.pinrock.EventListener.TableFileReason;
import dev.pinrock.EventListener.WriteStallChange;
import dev.pinrock.EventListener.WriteStallCondition;
import dev.pinrock.RocksDbException;

/**
 * Moves RocksDB's queued events (pr_event_next) to the
 * {@link EventListener} of their destination, decoded into its records, on
 * one daemon thread, {@code pinrock-events}, started by the first database
 * opened with a listener (the contract is {@link EventListener}'s).
 */
public final class EventPump {
    private static final long WAIT_MS = 60_000;
    /** The listeners of the destinations not yet ended (tag 0 is none), and the thread. */
    private static final TaggedDestinations<EventListener> LISTENERS =
            new TaggedDestinations<>("pinrock-events", 0, EventPump::pumpEvents);
    private static final System.Logger LOG = System.getLogger(EventListener.LOGGER_NAME);

    private EventPump() {
    }

    /** Runs set with a new destination of listener's (see {@link TaggedDestinations#withDestination}). */
    static void withDestination(EventListener listener, TaggedDestinations.DestinationUse set) throws Throwable {
        LISTENERS.withDestination(listener, set);
    }

    /** How many listeners' destinations have not ended; for tests. */
    static int liveListeners() {
        return LISTENERS.live();
    }

    private static void pumpEvents() {
        Arena arena = Arena.ofConfined();
        MemorySegment kind = arena.allocate(ValueLayout.JAVA_INT);
        MemorySegment destination = arena.allocate(ValueLayout.JAVA_LONG);
        MemorySegment payload = arena.allocate(ValueLayout.ADDRESS);
        MemorySegment payloadLength = arena.allocate(ValueLayout.JAVA_LONG);
        MemorySegment dropped = arena.allocate(ValueLayout.JAVA_LONG);
        while (true) {
            MemorySegment event;
            try {
                event = (MemorySegment) Downcalls.eventNext().invokeExact(WAIT_MS, kind, destination, payload,
                        payloadLength, dropped);
            } catch (Throwable t) {
                warn("reading RocksDB's events failed; no more of them are delivered", t);
                return;
            }
            if (event.equals(MemorySegment.NULL)) {
                continue;
            }
            try {
                long lost = dropped.get(ValueLayout.JAVA_LONG, 0);
                if (lost > 0) {
                    warn(lost + " RocksDB events were dropped: the event listeners fell behind", null);
                }
                long to = destination.get(ValueLayout.JAVA_LONG, 0);
                int eventKind = kind.get(ValueLayout.JAVA_INT, 0);
                if (eventKind == Downcalls.EVENT_END) {
                    LISTENERS.ended(to);
                    continue;
                }
                EventListener listener = LISTENERS.target(to);
                if (listener != null) {
                    MemorySegment fields = payload.get(ValueLayout.ADDRESS, 0)
                            .reinterpret(payloadLength.get(ValueLayout.JAVA_LONG, 0));
                    deliver(listener, eventKind, new Fields(fields));
                }
            } finally {
                free(event);
            }
        }
    }

    private static void free(MemorySegment event) {
        try {
            Downcalls.eventFree().invokeExact(event);
        } catch (Throwable t) {
            throw Downcalls.unchecked(t);
        }
    }

    /** Decodes one event and hands it to listener; what the listener throws loses this event only. */
    private static void deliver(EventListener listener, int kind, Fields fields) {
        try {
            String database = fields.string();
            if (kind == Downcalls.EVENT_FLUSH_BEGUN || kind == Downcalls.EVENT_FLUSH_COMPLETED) {
                FlushInfo flush = new FlushInfo(database, fields.string(), fields.string(), fields.integer(),
                        fields.number() != 0, fields.number() != 0, fields.number(), fields.number(),
                        fields.of(FlushReason.values(), FlushReason.OTHERS), fields.number(), fields.number());
                if (kind == Downcalls.EVENT_FLUSH_BEGUN) {
                    listener.onFlushBegun(flush);
                } else {
                    listener.onFlushCompleted(flush);
                }
            } else if (kind == Downcalls.EVENT_COMPACTION_BEGUN || kind == Downcalls.EVENT_COMPACTION_COMPLETED) {
                CompactionInfo compaction = new CompactionInfo(database, fields.string(), fields.status(),
                        fields.integer(), fields.integer(), fields.integer(),
                        fields.of(CompactionReason.values(), CompactionReason.UNKNOWN), fields.files(), fields.files(),
                        fields.number(), fields.number(), fields.number(), fields.number(), fields.number());
                if (kind == Downcalls.EVENT_COMPACTION_BEGUN) {
                    listener.onCompactionBegun(compaction);
                } else {
                    listener.onCompactionCompleted(compaction);
                }
            } else if (kind == Downcalls.EVENT_BACKGROUND_ERROR) {
                listener.onBackgroundError(new BackgroundError(database,
                        fields.of(BackgroundErrorReason.values(), null), fields.status()));
            } else if (kind == Downcalls.EVENT_ERROR_RECOVERY_ENDED) {
                listener.onErrorRecoveryEnded(new ErrorRecovery(database, fields.status(), fields.status()));
            } else if (kind == Downcalls.EVENT_WRITE_STALL_CHANGED) {
                listener.onWriteStallChanged(new WriteStallChange(database, fields.string(),
                        fields.of(WriteStallCondition.values(), null), fields.of(WriteStallCondition.values(), null)));
            } else if (kind == Downcalls.EVENT_TABLE_FILE_CREATED) {
                listener.onTableFileCreated(new TableFileCreated(database, fields.string(), fields.string(),
                        fields.integer(), fields.of(TableFileReason.values(), TableFileReason.MISC), fields.status(),
                        fields.number(), fields.number(), fields.number()));
            } else if (kind == Downcalls.EVENT_TABLE_FILE_DELETED) {
                listener.onTableFileDeleted(new TableFileDeleted(database, fields.string(), fields.integer(),
                        fields.status()));
            } else if (kind == Downcalls.EVENT_MEMTABLE_SEALED) {
                listener.onMemTableSealed(new MemTableSealed(database, fields.string(), fields.number(),
                        fields.number(), fields.number(), fields.number()));
            } else if (kind == Downcalls.EVENT_EXTERNAL_FILE_INGESTED) {
                listener.onExternalFileIngested(new ExternalFileIngested(database, fields.string(), fields.string(),
                        fields.string(), fields.number(), fields.number()));
            }
        } catch (Throwable failure) {
            TaggedDestinations.rethrowIfTheJvmFails(failure);
            try {
                listener.failed(failure);
            } catch (Throwable reportFailure) {
                TaggedDestinations.rethrowIfTheJvmFails(reportFailure);
                // The listener cannot take its own failure: dropped, as EventListener.failed says.
            }
        }
    }

    /** Logs on the listeners' logger; what the logger throws is dropped. */
    private static void warn(String message, Throwable thrown) {
        try {
            LOG.log(Level.WARNING, message, thrown);
        } catch (Throwable failure) {
            TaggedDestinations.rethrowIfTheJvmFails(failure);
        }
    }

    /** Reads an event's fields in order, as pinrock.h's events section encodes them. */
    private static final class Fields {
        private final MemorySegment payload;
        private long at;

        Fields(MemorySegment payload) {
            this.payload = payload;
        }

        long number() {
            long value = payload.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
            at += Long.BYTES;
            return value;
        }

        int integer() {
            return (int) number();
        }

        String string() {
            long length = number();
            String value = new String(payload.asSlice(at, length).toArray(ValueLayout.JAVA_BYTE),
                    StandardCharsets.UTF_8);
            at += length;
            return value;
        }

        /** A status: null for PR_OK, else the exception for it. */
        RocksDbException status() {
            int status = integer();
            String message = string();
            return status == Downcalls.OK ? null : RocksDbException.of(status, message);
        }

        /** RocksDB's enum value as the Java enum of the same order, or otherwise when out of it. */
        <E extends Enum<E>> E of(E[] values, E otherwise) {
            long value = number();
            return value >= 0 && value < values.length ? values[(int) value] : otherwise;
        }

        List<CompactionFile> files() {
            long count = number();
            List<CompactionFile> files = new ArrayList<>();
            for (long i = 0; i < count; i++) {
                files.add(new CompactionFile(string(), integer(), number()));
            }
            return files;
        }
    }
}
