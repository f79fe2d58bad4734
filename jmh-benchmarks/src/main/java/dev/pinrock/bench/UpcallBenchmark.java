package dev.pinrock.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import dev.pinrock.internal.Callbacks;
import dev.pinrock.internal.JniDb;

/**
 * The cost of one call from native code into Java and back, without
 * RocksDB: {@value #CALLS} calls per operation from a C++ loop in
 * libpinrock.so, into a Java method that only returns. {@code ffm} calls
 * through pinrock's FFM upcall stub, doing what every callback of pinrock's
 * does around the application's code (the re-entry count, catching every
 * Throwable); {@code jni} calls a static method through JNI, checking for an
 * exception after each call as a JNI callback must (RocksJava's comparators
 * and its few other callbacks call an object's method that way, from
 * threads they attach first when RocksDB's own). Both run on the
 * benchmark's thread, already attached to the JVM.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class UpcallBenchmark {
    static final int CALLS = 1000;

    /** {@code ffm} or {@code jni}; see the class comment. */
    @Param({"ffm", "jni"})
    public String library;

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long callBack() {
        return library.equals("ffm") ? Callbacks.probe(CALLS) : JniDb.probe(CALLS);
    }
}
