package dev.pinrock;

import org.junit.jupiter.api.Nested;

import dev.pinrock.internal.Binding;

/** The contract suite against the JNI binding. */
class JniContractTest {
    @Nested
    class Operations extends RocksDbContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }

    @Nested
    class OpenFailures extends OpenFailuresContract {
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
    class Maintenance extends MaintenanceContract {
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
    class Statistics extends StatisticsContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }

    @Nested
    class ColumnFamilies extends ColumnFamilyContract {
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
    class MemoryBudgets extends MemoryBudgetContract {
        @Override
        protected Binding binding() {
            return Binding.JNI;
        }
    }

    @Nested
    class Ingest extends IngestContract {
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
