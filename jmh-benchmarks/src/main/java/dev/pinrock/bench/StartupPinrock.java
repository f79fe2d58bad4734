package dev.pinrock.bench;

import java.nio.file.Path;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * One start-up run on pinrock, as a user writes it: open a new database, one
 * put, one get, close. Run by scripts/startup.sh in a fresh JVM each time;
 * the argument is a directory that does not exist yet.
 */
public final class StartupPinrock {
    private StartupPinrock() {
    }

    public static void main(String[] args) throws Exception {
        try (RocksDb db = RocksDb.open(Path.of(args[0]), DbOptions.create().createIfMissing(true))) {
            long opened = StartupReport.nowMicros();
            // An anonymous class, not a lambda: the probe adds no start-up work of its own.
            StartupReport.putGetClose(opened, new StartupReport.Store() {
                @Override
                public void put(byte[] key, byte[] value) {
                    db.put(key, value);
                }

                @Override
                public byte[] get(byte[] key) {
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
