package dev.pinrock.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import dev.pinrock.BenchmarkAccess;
import dev.pinrock.RocksDb;

/**
 * pinrock through FFM and through its JNI variant: one class, so both run the
 * very same operations; the {@code binding} parameter picks the boundary.
 * Every read consumes the value with {@link Keys#checksum}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class PinrockBenchmark {

    /** A pinrock handle through the binding the parameter names. */
    public abstract static class Handle extends Grid {
        /** "ffm" or "jni". */
        @Param({"ffm"})
        public String binding;

        RocksDb db;
        Path scratch;

        void openScratch() {
            scratch = Datasets.scratch();
            db = BenchmarkAccess.open(binding, scratch, Datasets.options().createIfMissing(true));
        }

        @TearDown(Level.Trial)
        public void close() {
            db.close();
            if (scratch != null) {
                Datasets.deleteRecursively(scratch);
            }
        }
    }

    /** A database to read: the shared flushed dataset, or a memtable loaded for this trial. */
    @State(Scope.Benchmark)
    public static class ReadDb extends Handle {
        @Setup(Level.Trial)
        public void open() {
            if (inMemtable()) {
                openScratch();
                Datasets.load(db::put, keyBytes, valueBytes, keyCount());
            } else {
                db = BenchmarkAccess.open(binding, Datasets.sst(keyBytes, valueBytes, keyCount()), Datasets.options());
            }
        }
    }

    /** An empty database per trial, for writes. */
    @State(Scope.Benchmark)
    public static class WriteDb extends Handle {
        @Setup(Level.Trial)
        public void open() {
            openScratch();
        }
    }

    @Benchmark
    public long getNewArray(ReadDb s, Picker p) {
        p.nextKey();
        byte[] value = s.db.get(p.key);
        return Keys.checksum(MemorySegment.ofArray(value), value.length);
    }

    @Benchmark
    public long getIntoArray(ReadDb s, Picker p) {
        p.nextKey();
        int length = s.db.get(p.key, p.valueArray);
        return Keys.checksum(MemorySegment.ofArray(p.valueArray), length);
    }

    @Benchmark
    public long getDirectBuffer(ReadDb s, Picker p) {
        p.nextDirectKey();
        p.directValue.clear();
        int length = s.db.get(p.directKey, p.directValue);
        return Keys.checksum(MemorySegment.ofBuffer(p.directValue), length);
    }

    @Benchmark
    public long getPinned(ReadDb s, Picker p) {
        p.nextNativeKey();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = s.db.getPinned(arena, p.nativeKey);
            return Keys.checksum(value, value.byteSize());
        }
    }

    @Benchmark
    public int getAbsent(ReadDb s, Picker p) {
        p.nextAbsentKey();
        return s.db.get(p.key, p.valueArray);
    }

    @Benchmark
    public void put(WriteDb s, Picker p) {
        p.nextEntry();
        s.db.put(p.key, p.value);
    }

    @Benchmark
    public void delete(WriteDb s, Picker p) {
        p.nextKey();
        s.db.delete(p.key);
    }
}
