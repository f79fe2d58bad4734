package dev.pinrock.tests;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.pinrock.DbOptions;
import dev.pinrock.MemoryBudget;
import dev.pinrock.RateLimiter;
import dev.pinrock.RocksDb;
import dev.pinrock.SstFileManager;
import dev.pinrock.SstFileWriter;

/**
 * A child-JVM program: calls each public method that is a first way into
 * native code twice, under the directory args[0], and prints one line per
 * call: its name, then "ok" or the exception's class and message.
 */
public final class EveryEntryPointTwice {
    private EveryEntryPointTwice() {
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        DbOptions create = DbOptions.create().createIfMissing(true);
        Map<String, Runnable> calls = new LinkedHashMap<>();
        calls.put("RocksDb.open", () -> RocksDb.open(dir.resolve("db"), create).close());
        calls.put("RocksDb.engineVersion", RocksDb::engineVersion);
        calls.put("RocksDb.repair", () -> RocksDb.repair(dir.resolve("db"), create));
        calls.put("RocksDb.listColumnFamilies", () -> RocksDb.listColumnFamilies(dir.resolve("db")));
        calls.put("DbOptions.loadLatest", () -> DbOptions.loadLatest(dir.resolve("db")));
        calls.put("MemoryBudget.create", () -> MemoryBudget.create(1 << 20, 1 << 19).close());
        calls.put("RateLimiter.create", () -> RateLimiter.create(1 << 20).close());
        calls.put("SstFileManager.create", () -> SstFileManager.create().close());
        calls.put("SstFileWriter.open", () -> SstFileWriter.open(dir.resolve("x.sst"), create).close());
        for (int attempt = 0; attempt < 2; attempt++) {
            calls.forEach((name, call) -> {
                try {
                    call.run();
                    System.out.println(name + ": ok");
                } catch (Throwable t) {
                    System.out.println(name + ": " + t.getClass().getName() + ": " + t.getMessage());
                }
            });
        }
    }
}
