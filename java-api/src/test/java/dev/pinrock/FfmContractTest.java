package dev.pinrock;

import org.junit.jupiter.api.Nested;

import dev.pinrock.internal.Binding;

/** The contract suite against the FFM binding. */
class FfmContractTest {
    @Nested
    class Operations extends RocksDbContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class OpenFailures extends OpenFailuresContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class WriteBatches extends WriteBatchContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class Maintenance extends MaintenanceContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class MultiGet extends MultiGetContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class Cursors extends CursorContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class Statistics extends StatisticsContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class ColumnFamilies extends ColumnFamilyContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class Snapshots extends SnapshotContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class MemoryBudgets extends MemoryBudgetContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class Ingest extends IngestContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class ClosedDatabase extends ClosedDatabaseContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }

    @Nested
    class HostileInput extends HostileInputContract {
        @Override
        protected Binding binding() {
            return Binding.FFM;
        }
    }
}
