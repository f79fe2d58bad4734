package dev.pinrock.tests;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

import dev.pinrock.KeyComparator;

/**
 * What a database driven by {@link ApiSequenceFuzzTest} must hold: per column
 * family, every acknowledged write, in the database's key order (every
 * family's is the same). Writes reach the
 * model only after the database acknowledged them, as one list of records
 * applied together (a batch is atomic), so a write that threw leaves it
 * unchanged. It also keeps each key's write history, for RocksDB's
 * precondition of {@code singleDelete}.
 */
final class ApiModel {
    /** The merge operators the model can compute; {@link #NONE} makes every merge fail. */
    enum MergeOperator {
        NONE(null), PUT("put"), STRING_APPEND("stringappend"), MAX("max"), UINT64_ADD("uint64add");

        /** The name {@code DbOptions.mergeOperator} takes. */
        final String optionName;

        MergeOperator(String optionName) {
            this.optionName = optionName;
        }

        /** The value after merging operand into existing (null: the key was absent). */
        byte[] merge(byte[] existing, byte[] operand) {
            return switch (this) {
                case NONE -> throw new IllegalStateException("no merge operator");
                case PUT -> operand;
                case STRING_APPEND -> existing == null ? operand : concat(existing, new byte[] {','}, operand);
                case MAX -> {
                    byte[] base = existing == null ? new byte[0] : existing; // RocksDB starts from an empty slice
                    yield Arrays.compareUnsigned(base, operand) < 0 ? operand : base;
                }
                case UINT64_ADD -> ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN)
                        .putLong(asUint64(existing) + asUint64(operand)).array();
            };
        }

        /** RocksDB's uint64add reads anything but 8 bytes as 0. */
        private static long asUint64(byte[] value) {
            return value == null || value.length != 8 ? 0 : ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).getLong();
        }
    }

    /** One write: a put, delete, singleDelete, merge or deleteRange (end set) of one family. */
    record Write(Kind kind, String family, byte[] key, byte[] valueOrEnd) {
        enum Kind { PUT, DELETE, SINGLE_DELETE, MERGE, DELETE_RANGE }

        @Override
        public String toString() {
            return kind + "(" + family + ", " + hex(key) + (valueOrEnd == null ? "" : ", " + hex(valueOrEnd)) + ")";
        }
    }

    /** What RocksDB's singleDelete precondition depends on: the key's writes since its last point delete. */
    private static final class History {
        int putsSinceDelete;
        boolean merged;
        boolean everDeleted;
    }

    private final MergeOperator operator;
    private final KeyComparator order;
    private final Map<String, NavigableMap<byte[], byte[]>> families = new TreeMap<>();
    private final Map<String, NavigableMap<byte[], History>> histories = new HashMap<>();

    ApiModel(MergeOperator operator, KeyComparator order) {
        this.operator = operator;
        this.order = order;
        createFamily("default");
    }

    MergeOperator operator() {
        return operator;
    }

    /** The order of every family's keys. */
    KeyComparator order() {
        return order;
    }

    /** An empty map of keys in the model's order. */
    <V> NavigableMap<byte[], V> emptyMap() {
        return new TreeMap<>(order::compare);
    }

    Set<String> familyNames() {
        return families.keySet();
    }

    boolean hasFamily(String name) {
        return families.containsKey(name);
    }

    void createFamily(String name) {
        families.put(name, emptyMap());
        histories.put(name, emptyMap());
    }

    void dropFamily(String name) {
        families.remove(name);
        histories.remove(name);
    }

    /** The family's entries in [lower, upper) (null: unbounded), a live view. */
    NavigableMap<byte[], byte[]> entries(String family, byte[] lower, byte[] upper) {
        return range(families.get(family), lower, upper);
    }

    /** The entries of all (a map of the model's) in [lower, upper) (null: unbounded), a live view. */
    NavigableMap<byte[], byte[]> range(NavigableMap<byte[], byte[]> all, byte[] lower, byte[] upper) {
        if (lower != null && upper != null) {
            return order.compare(lower, upper) >= 0 ? emptyMap() : all.subMap(lower, true, upper, false);
        }
        if (lower != null) {
            return all.tailMap(lower, true);
        }
        return upper != null ? all.headMap(upper, false) : all;
    }

    byte[] get(String family, byte[] key) {
        return families.get(family).get(key);
    }

    /** family's entries once the pending writes (no range deletes), in order, are applied over what the model holds: a copy. */
    NavigableMap<byte[], byte[]> entriesWith(String family, List<Write> pending) {
        NavigableMap<byte[], byte[]> entries = new TreeMap<>(families.get(family));
        for (Write write : pending) {
            if (write.family().equals(family)) {
                switch (write.kind()) {
                    case PUT -> entries.put(write.key(), write.valueOrEnd());
                    case DELETE, SINGLE_DELETE -> entries.remove(write.key());
                    case MERGE -> entries.put(write.key(), operator.merge(entries.get(write.key()), write.valueOrEnd()));
                    case DELETE_RANGE -> throw new IllegalArgumentException("a transaction deletes no ranges");
                }
            }
        }
        return entries;
    }

    /** A copy of every family's entries, as a snapshot taken now sees them. */
    Map<String, NavigableMap<byte[], byte[]>> copy() {
        Map<String, NavigableMap<byte[], byte[]>> copy = new HashMap<>();
        families.forEach((name, entries) -> copy.put(name, new TreeMap<>(entries)));
        return copy;
    }

    /**
     * Whether RocksDB defines the result of a singleDelete of key after the
     * writes already in the database and those pending before it: at most one
     * put since the key's last point delete, and no merge. With
     * {@code noDeleteBefore}, also that the key was never deleted.
     */
    boolean singleDeleteDefined(String family, byte[] key, List<Write> pending, boolean noDeleteBefore) {
        History known = histories.get(family).get(key);
        History history = new History();
        if (known != null) {
            history.putsSinceDelete = known.putsSinceDelete;
            history.merged = known.merged;
            history.everDeleted = known.everDeleted;
        }
        for (Write write : pending) {
            if (write.family().equals(family)) {
                record(history, write, key);
            }
        }
        return history.putsSinceDelete <= 1 && !history.merged && !(noDeleteBefore && history.everDeleted);
    }

    /** Whether key was merged since its last point delete (its value depends on every operand since). */
    boolean mergedSinceDelete(String family, byte[] key) {
        History history = histories.get(family).get(key);
        return history != null && history.merged;
    }

    /** Applies acknowledged writes in order. */
    void apply(List<Write> writes) {
        for (Write write : writes) {
            apply(write);
        }
    }

    void apply(Write write) {
        NavigableMap<byte[], byte[]> entries = families.get(write.family());
        NavigableMap<byte[], History> history = histories.get(write.family());
        switch (write.kind()) {
            case PUT -> entries.put(write.key(), write.valueOrEnd());
            case DELETE, SINGLE_DELETE -> entries.remove(write.key());
            case MERGE -> entries.put(write.key(), operator.merge(entries.get(write.key()), write.valueOrEnd()));
            case DELETE_RANGE -> entries(write.family(), write.key(), write.valueOrEnd()).clear();
        }
        if (write.kind() == Write.Kind.DELETE_RANGE) {
            for (byte[] key : new ArrayList<>(history.keySet())) {
                record(history.get(key), write, key);
            }
        } else {
            record(history.computeIfAbsent(write.key(), k -> new History()), write, write.key());
        }
    }

    /** Adds a write's effect on key (ignored when it does not touch key) to history. */
    private void record(History history, Write write, byte[] key) {
        switch (write.kind()) {
            case PUT -> {
                if (Arrays.equals(write.key(), key)) {
                    history.putsSinceDelete++;
                }
            }
            case MERGE -> history.merged |= Arrays.equals(write.key(), key);
            case DELETE, SINGLE_DELETE -> {
                if (Arrays.equals(write.key(), key)) {
                    history.putsSinceDelete = 0;
                    history.merged = false;
                    history.everDeleted = true;
                }
            }
            case DELETE_RANGE -> {
                // A range tombstone hides older puts but is no point delete: the count stays.
                if (order.compare(write.key(), key) <= 0 && order.compare(key, write.valueOrEnd()) < 0) {
                    history.everDeleted = true;
                }
            }
        }
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }

    /** The bytes in hex, the first 16 of them (and the length) when there are more. */
    static String hex(byte[] bytes) {
        if (bytes == null) {
            return "null";
        }
        StringBuilder text = new StringBuilder().append('"');
        for (int i = 0; i < Math.min(bytes.length, 16); i++) {
            text.append(String.format("%02x", bytes[i]));
        }
        text.append('"');
        return bytes.length > 16 ? text.append("...(").append(bytes.length).append(" bytes)").toString() : text.toString();
    }
}
