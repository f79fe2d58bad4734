package dev.pinrock.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Per-thread key choice and buffers, identical for every binding: each
 * operation takes the next index (uniformly random with a per-thread
 * xorshift64* whose seed the native floor shares; zipfian, YCSB's scrambled
 * zipfian ({@link Zipfian}) drawn from the same random numbers; or
 * sequential from a per-thread start) and writes that key into the reusable
 * buffers. Nothing here allocates per call.
 */
@State(Scope.Thread)
public class Picker {
    /** Keys per multiGet (the native floor's kMultiGetKeys). */
    public static final int MULTI_GET_KEYS = 100;

    private long state;
    private long next;
    private int keyCount;
    /** The order, as two flags: the uniform case's one test is all it had before there were three orders. */
    private boolean random;
    private boolean zipfian;
    private boolean fieldValues;

    /** The current key as an array, a direct buffer and a native segment. */
    public byte[] key;
    public ByteBuffer directKey;
    public MemorySegment nativeKey;
    /** Destinations sized for the value. */
    public byte[] valueArray;
    public ByteBuffer directValue;
    /** A segment over all of {@link #directValue}, made once: the reads checksum through it. */
    public MemorySegment directValueView;
    /** The value to write, for put. */
    public byte[] value;
    /** The keys of one multiGet, as arrays and as native segments. */
    public List<byte[]> keys;
    public List<MemorySegment> nativeKeys;
    /** Checksums the value a pinned read shows it: kept, so that the read captures nothing. */
    public final ValueChecksum valueChecksum = new ValueChecksum();

    private Arena arena;

    /** The checksum of the last value it was shown. */
    public static final class ValueChecksum implements Consumer<MemorySegment> {
        public long sum;

        @Override
        public void accept(MemorySegment value) {
            sum = Keys.checksum(value, value.byteSize());
        }
    }

    @Setup(Level.Trial)
    public void setUp(Grid grid, ThreadParams thread) {
        prepare(grid, thread.getThreadIndex(), thread.getThreadCount());
    }

    /** Prepares thread threadIndex of threadCount for a grid point. */
    public void prepare(Grid grid, int threadIndex, int threadCount) {
        keyCount = grid.keyCount();
        random = grid.keyOrder() == Grid.Order.RANDOM;
        zipfian = grid.keyOrder() == Grid.Order.ZIPFIAN;
        fieldValues = grid.fieldValues();
        if (fieldValues && grid.valueBytes != Keys.RECORD_BYTES) {
            throw new IllegalArgumentException("records are " + Keys.RECORD_BYTES + " bytes: " + grid.valueBytes);
        }
        state = 0x9E3779B97F4A7C15L * (threadIndex + 1);
        next = (long) threadIndex * keyCount / threadCount;
        key = new byte[grid.keyBytes];
        value = new byte[grid.valueBytes];
        valueArray = new byte[grid.valueBytes];
        directKey = ByteBuffer.allocateDirect(grid.keyBytes);
        directValue = ByteBuffer.allocateDirect(grid.valueBytes);
        directValueView = MemorySegment.ofBuffer(directValue);
        arena = Arena.ofConfined();
        nativeKey = arena.allocate(grid.keyBytes);
        keys = new ArrayList<>();
        nativeKeys = new ArrayList<>();
        for (int i = 0; i < MULTI_GET_KEYS; i++) {
            keys.add(new byte[grid.keyBytes]);
            nativeKeys.add(arena.allocate(grid.keyBytes));
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    /** @return the next index in [0, keyCount) */
    public int nextIndex() {
        if (random) {
            return (int) Long.remainderUnsigned(nextRandom(), keyCount);
        }
        if (zipfian) {
            return Zipfian.index(nextRandom(), keyCount);
        }
        int index = (int) next;
        next = next + 1 == keyCount ? 0 : next + 1;
        return index;
    }

    /** @return the thread's next xorshift64* number */
    private long nextRandom() {
        state ^= state >>> 12;
        state ^= state << 25;
        state ^= state >>> 27;
        return state * 0x2545F4914F6CDD1DL;
    }

    /** Picks the next present key into {@link #key} and returns its index. */
    public int nextKey() {
        int index = nextIndex();
        Keys.fill(key, index);
        return index;
    }

    /** Picks the next key that was never written into {@link #key}. */
    public void nextAbsentKey() {
        Keys.fill(key, (long) nextIndex() + keyCount);
    }

    /** Picks the next present key into {@link #directKey} (position 0, limit = key size). */
    public void nextDirectKey() {
        nextKey();
        directKey.clear();
        directKey.put(key).flip();
    }

    /** Picks the next present key into {@link #nativeKey}. */
    public void nextNativeKey() {
        nextKey();
        MemorySegment.copy(key, 0, nativeKey, ValueLayout.JAVA_BYTE, 0, key.length);
    }

    /** Picks the next {@link #MULTI_GET_KEYS} present keys into {@link #keys} and {@link #nativeKeys}. */
    public void nextKeys() {
        for (int i = 0; i < MULTI_GET_KEYS; i++) {
            byte[] next = keys.get(i);
            Keys.fill(next, nextIndex());
            MemorySegment.copy(next, 0, nativeKeys.get(i), ValueLayout.JAVA_BYTE, 0, next.length);
        }
    }

    /** Picks the next key and fills {@link #value} with its value, for put: a pattern value or a record. */
    public void nextEntry() {
        int index = nextKey();
        if (fieldValues) {
            Keys.fillRecord(value, index);
        } else {
            Keys.fillValue(value, index);
        }
    }
}
