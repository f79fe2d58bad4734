package org.apache.kafka.streams.state.internals;

/** The control of {@link PinrockSessionStoreContractTest}: the same suite on the built-in RocksDB session store. */
class BuiltInSessionStoreContractTest extends AbstractSessionBytesStoreTest {
    @Override
    StoreType storeType() {
        return StoreType.RocksDBSessionStore;
    }
}
