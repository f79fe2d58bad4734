package com.example;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import dev.pinrock.Compression;
import dev.pinrock.Cursor;
import dev.pinrock.DbOptions;
import dev.pinrock.ReadOptions;
import dev.pinrock.RocksDb;

/** Opens a database, writes with zstd, reads back with each access mode, and scans a range. */
public final class Consumer {
    public static void main(String[] args) {
        DbOptions options = DbOptions.create().createIfMissing(true).compression(Compression.ZSTD);
        try (RocksDb db = RocksDb.open(Path.of(args[0]), options)) {
            for (int i = 0; i < 100; i++) {
                db.put(bytes(String.format("fruit:%03d", i)), bytes("value " + i));
            }
            db.flush(); // to a table file, compressed with zstd
            System.out.println("zstd compression ratio: " + db.property("rocksdb.compression-ratio-at-level0"));

            byte[] key = bytes("fruit:042");
            System.out.println("byte[]:        " + text(db.get(key)));

            byte[] array = new byte[64];
            int length = db.get(key, array);
            System.out.println("into byte[]:   " + new String(array, 0, length, StandardCharsets.UTF_8));

            ByteBuffer buffer = ByteBuffer.allocateDirect(64);
            db.get(ByteBuffer.wrap(key), buffer); // buffer's limit is set to the value's end
            byte[] fromBuffer = new byte[buffer.remaining()];
            buffer.get(fromBuffer);
            System.out.println("ByteBuffer:    " + text(fromBuffer));

            try (Arena arena = Arena.ofConfined()) {
                MemorySegment into = arena.allocate(64);
                long size = db.get(arena.allocateFrom(ValueLayout.JAVA_BYTE, key), into);
                System.out.println("MemorySegment: " + text(into.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE)));

                MemorySegment pinned = db.getPinned(arena, key); // no copy; valid until the arena closes
                System.out.println("pinned:        " + text(pinned.toArray(ValueLayout.JAVA_BYTE)));
            }

            ReadOptions range = ReadOptions.DEFAULT.lowerBound(bytes("fruit:010")).upperBound(bytes("fruit:013"));
            try (Cursor cursor = db.cursor(range)) {
                for (boolean on = cursor.first(); on; on = cursor.next()) {
                    System.out.println("range:         " + text(cursor.keyBytes()) + " = " + text(cursor.valueBytes()));
                }
            }
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
