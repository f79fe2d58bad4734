package dev.pinrock;

import java.nio.file.Path;
import java.util.Objects;

import dev.pinrock.internal.Binding;

/**
 * Base of the contract suites ({@code *Contract}): what pinrock returns and
 * throws, whichever binding a database was opened with.
 *
 * <p>The suites of the data path run once per binding, FFM and JNI, so that
 * the two are proven to behave and fail the same way: {@link RocksDbContract}
 * (reads and writes in every form), {@link CallOptionsContract} (write and
 * read options on every call), {@link KeyMayExistContract}, {@link WriteBatchContract},
 * {@link MultiGetContract}, {@link CursorContract}, {@link SnapshotContract}
 * (snapshot reads), {@link ClosedDatabaseContract} (calls racing a close),
 * {@link HostileInputContract}, {@link MergeOperatorContract} (merges in
 * Java, called back from either binding's reads) and
 * {@link KeyComparatorContract} (keys in reverse order). Each is a {@code @ParameterizedClass} over
 * {@link Binding} that takes the binding in its constructor; its runs are
 * reported as {@code [FFM]} and {@code [JNI]}.
 *
 * <p>The other suites ({@link OpenFailuresContract},
 * {@link MaintenanceContract}, {@link StatisticsContract},
 * {@link ColumnFamilyContract}, {@link MemoryBudgetContract},
 * {@link IngestContract}) run once, with FFM: the JNI variant covers only the
 * data path, and everything else goes through the same FFM code whichever
 * the binding.
 */
abstract class BindingContract {
    private final Binding binding;

    /** @param binding the binding that {@link #open} opens through */
    BindingContract(Binding binding) {
        this.binding = Objects.requireNonNull(binding);
    }

    /** Opens through the binding under test. */
    protected RocksDb open(Path path, DbOptions options) {
        return RocksDb.open(path, options, binding);
    }
}
