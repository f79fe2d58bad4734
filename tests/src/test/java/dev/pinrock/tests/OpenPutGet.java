package dev.pinrock.tests;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;

/** A child-JVM program: opens a database at args[0], writes and reads one key, prints the value. */
public final class OpenPutGet {
    private OpenPutGet() {
    }

    public static void main(String[] args) {
        try (RocksDb db = RocksDb.open(Path.of(args[0]), DbOptions.create().createIfMissing(true))) {
            db.put("k".getBytes(StandardCharsets.UTF_8), "loaded".getBytes(StandardCharsets.UTF_8));
            System.out.println(new String(db.get("k".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8));
        }
    }
}
