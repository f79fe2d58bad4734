package org.apache.kafka.streams.state.internals;

/**
 * The control of {@link PinrockTimeOrderedSessionStoreContractTest}: the same
 * suite on the built-in time-ordered RocksDB session store with its index.
 */
class BuiltInTimeOrderedSessionStoreContractTest extends AbstractSessionBytesStoreTest {
    @Override
    StoreType storeType() {
        return StoreType.RocksDBTimeOrderedSessionStoreWithIndex;
    }
}
