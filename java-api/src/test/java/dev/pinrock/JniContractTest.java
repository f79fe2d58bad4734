package dev.pinrock;

import org.junit.jupiter.api.Nested;

import dev.pinrock.internal.Binding;

/**
 * The contract suite's data-path parts against the JNI binding: reads and
 * writes in every form, batches, multiGets, cursors, snapshot reads, calls
 * racing a close, and hostile keys and batches. The rest (open failures,
 * maintenance, statistics, column families, memory budgets, ingest) goes
 * through the same FFM code whichever the binding, and runs once, in
 * {@link FfmContractTest}.
 */
class JniContractTest {
    @Nested
    class Operations extends RocksDbContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }

    @Nested
    class WriteBatches extends WriteBatchContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }

    @Nested
    class MultiGet extends MultiGetContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }

    @Nested
    class Cursors extends CursorContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }

    @Nested
    class Snapshots extends SnapshotContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }

    @Nested
    class ClosedDatabase extends ClosedDatabaseContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }

    @Nested
    class HostileInput extends HostileInputContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }
}
