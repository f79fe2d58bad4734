package dev.pinrock.tests;

import java.nio.file.Path;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/**
 * A child-JVM program for {@link InfoLogTest}: writes to a database whose info
 * log goes to System.Logger while its background threads are busy, then
 * returns from main without closing it or calling System.exit.
 */
public final class InfoLogWorkload {
    private InfoLogWorkload() {
    }

    public static void main(String[] args) {
        RocksDb db = RocksDb.open(Path.of(args[0]),
                DbOptions.create().createIfMissing(true).infoLogToSystemLogger(true).writeBufferBytes(1 << 16));
        byte[] value = new byte[1000];
        for (int i = 0; i < 5000; i++) {
            db.put(("key" + i).getBytes(), value);
        }
        System.out.println("written");
    }
}
