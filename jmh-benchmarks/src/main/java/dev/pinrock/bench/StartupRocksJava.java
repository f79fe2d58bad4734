package dev.pinrock.bench;

import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * One start-up run on RocksJava, the same steps as {@link StartupPinrock}:
 * open a new database, one put, one get, close. RocksDB.open loads the
 * native library itself, as it does for a user who never calls loadLibrary.
 */
public final class StartupRocksJava {
    private StartupRocksJava() {
    }

    public static void main(String[] args) throws Exception {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(options, args[0])) {
            long opened = StartupReport.nowMicros();
            StartupReport.putGetClose(opened, new StartupReport.Store() {
                @Override
                public void put(byte[] key, byte[] value) throws RocksDBException {
                    db.put(key, value);
                }

                @Override
                public byte[] get(byte[] key) throws RocksDBException {
                    return db.get(key);
                }

                @Override
                public void close() {
                    db.close();
                }
            });
        }
    }
}
