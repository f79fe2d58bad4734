package dev.pinrock.tests;

import java.nio.file.Path;

import dev.pinrock.DbOptions;
import dev.pinrock.RocksDb;
import dev.pinrock.WriteBatch;
import dev.pinrock.WriteOptions;

/**
 * The child of {@link KillDurabilityTest}: writes keys {@link #key(long)}
 * with values {@link #value(long)} from a first number on, forever, and
 * prints what the database has acknowledged, until it is killed.
 *
 * <p>Arguments: directory, mode, first key number. In mode {@code sync} each
 * batch (1 to 8 keys) is written with {@code sync=true} and then reported as
 * {@code ack <last key number>}; mode {@code no-sync} does the same with the
 * default write options (logged, not synced). In mode {@code no-wal} batches skip the
 * write-ahead log; after every 64 keys the memtable is flushed and
 * {@code flushed <last key number>} is reported.
 */
final class KillWorkload {
    private KillWorkload() {
    }

    static byte[] key(long n) {
        return String.format("k%010d", n).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** The value of key n: 16 to 1015 bytes, a pattern that depends on n. */
    static byte[] value(long n) {
        byte[] value = new byte[16 + (int) (n * 7919 % 1000)];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) (n * 31 + i);
        }
        return value;
    }

    /** The number of keys (1 to 8) of the batch whose first key is number first. */
    static int batchSize(long first) {
        return 1 + (int) (first % 8);
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        String mode = args[1];
        long next = Long.parseLong(args[2]);
        boolean logged = !mode.equals("no-wal");
        WriteOptions options = switch (mode) {
            case "sync" -> WriteOptions.DEFAULT.sync(true);
            case "no-sync" -> WriteOptions.DEFAULT;
            case "no-wal" -> WriteOptions.DEFAULT.disableWal(true);
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        };
        try (RocksDb db = RocksDb.open(dir, DbOptions.create().createIfMissing(true).writeBufferBytes(4 << 20));
                WriteBatch batch = new WriteBatch()) {
            System.out.println("open");
            System.out.flush();
            while (true) {
                batch.clear();
                int keys = batchSize(next);
                for (int i = 0; i < keys; i++, next++) {
                    batch.put(key(next), value(next));
                }
                db.write(batch, options);
                if (logged) {
                    System.out.println("ack " + (next - 1));
                    System.out.flush();
                } else if (next % 64 < keys) {
                    db.flush();
                    System.out.println("flushed " + (next - 1));
                    System.out.flush();
                }
            }
        }
    }
}
