package dev.pinrock.tests;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the blocks of a RocksDB block-based table file lie, found as RocksDB
 * finds them: the footer at the file's end, the metaindex block it points to,
 * the filter, index and properties blocks the metaindex (or, before
 * format_version 6, the footer) names, and the data blocks the index names.
 * The format is RocksDB 9.10's (table/format.cc,
 * table/block_based/block_builder.cc, table/meta_blocks.cc); the blocks read
 * here must be stored uncompressed, which RocksDB does for the metaindex,
 * filter and properties blocks and, with
 * {@code enable_index_compression=false}, for the index.
 */
final class TableLayout {
    /** kBlockBasedTableMagicNumber, the footer's last eight bytes (little-endian). */
    static final long MAGIC = 0x88e241b785f4cff7L;
    /** The footer's length for every format_version from 1 on. */
    static final int FOOTER_LENGTH = 53;
    /** What follows each block's contents: a compression type byte and a 32-bit checksum. */
    static final int TRAILER_LENGTH = 5;
    private static final byte[] EXTENDED_MAGIC = {0x3e, 0x00, 0x7a, 0x00};
    private static final String FULL_FILTER_PREFIX = "fullfilter.";

    /**
     * A block of the file: its contents at offset (size bytes, a block
     * handle's two numbers), then trailer bytes.
     */
    record Block(String name, long offset, long size, int trailer) {
        /** The first byte after the block and its trailer. */
        long end() {
            return offset + size + trailer;
        }

        boolean holds(long position) {
            return position >= offset && position < end();
        }

        /** A byte in the middle of the block's contents. */
        long middle() {
            return offset + size / 2;
        }

        Block renamed(String newName) {
            return new Block(newName, offset, size, trailer);
        }
    }

    /** A field of the footer: its bytes, as offsets from the footer's start. */
    record FooterField(String name, int from, int to) {}

    final int formatVersion;
    final Block footer;
    final Block metaindex;
    final Block index;
    final Block properties;
    /** The full filter block (absent from a table written without a filter policy: null then). */
    final Block filter;
    final List<Block> dataBlocks;
    /**
     * For each data block, the user key its index entry holds: at least
     * the block's last key and less than the next block's first.
     */
    final List<byte[]> separators;
    /** The properties block's entries, values as stored (numbers as varints). */
    final Map<String, byte[]> propertyValues;

    private TableLayout(int formatVersion, Block footer, Block metaindex, Block index, Block properties,
            Block filter, List<Block> dataBlocks, List<byte[]> separators, Map<String, byte[]> propertyValues) {
        this.formatVersion = formatVersion;
        this.footer = footer;
        this.metaindex = metaindex;
        this.index = index;
        this.properties = properties;
        this.filter = filter;
        this.dataBlocks = dataBlocks;
        this.separators = separators;
        this.propertyValues = propertyValues;
    }

    /**
     * Reads the layout of a table file.
     *
     * @throws IllegalStateException when the file is not a block-based table RocksDB 9.10 wrote
     *     (format_version 2 to 6), or a block read here is compressed
     */
    static TableLayout read(Path table) throws IOException {
        byte[] file = Files.readAllBytes(table);
        ByteBuffer le = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int footerStart = file.length - FOOTER_LENGTH;
        check(footerStart > 0 && le.getLong(file.length - 8) == MAGIC, "no block-based table magic number");
        int formatVersion = le.getInt(file.length - 12);
        check(formatVersion >= 2 && formatVersion <= 6, "format_version " + formatVersion);
        Block footer = new Block("footer", footerStart, FOOTER_LENGTH, 0);

        Block metaindex;
        Block footerIndex = null;
        if (formatVersion >= 6) {
            // checksum type, extended magic, footer checksum, base context checksum, metaindex size:
            // the metaindex lies right before the footer.
            check(Arrays.equals(Arrays.copyOfRange(file, footerStart + 1, footerStart + 5), EXTENDED_MAGIC),
                    "no extended magic number");
            long metaindexSize = Integer.toUnsignedLong(le.getInt(footerStart + 13));
            metaindex = new Block("metaindex", footerStart - TRAILER_LENGTH - metaindexSize, metaindexSize,
                    TRAILER_LENGTH);
        } else {
            // checksum type, then the metaindex and index block handles.
            Reader handles = new Reader(file, footerStart + 1);
            metaindex = handles.handle("metaindex");
            footerIndex = handles.handle("index");
        }
        Map<String, byte[]> metaBlocks = entries(file, metaindex, false).values;
        Block properties = handle(metaBlocks, "rocksdb.properties", "properties");
        Block index = formatVersion >= 6 ? handle(metaBlocks, "rocksdb.index", "index") : footerIndex;
        Block filter = null;
        for (var entry : metaBlocks.entrySet()) {
            if (entry.getKey().startsWith(FULL_FILTER_PREFIX)) {
                filter = new Reader(entry.getValue(), 0).handle("filter");
            }
        }
        Map<String, byte[]> propertyValues = entries(file, properties, false).values;

        // The index: each entry's key is a separator, its value the handle of a data block.
        boolean userKeys = number(propertyValues, "rocksdb.index.key.is.user.key") == 1;
        boolean deltaEncoded = number(propertyValues, "rocksdb.index.value.is.delta.encoded") == 1;
        Entries indexEntries = entries(file, index, deltaEncoded);
        List<Block> dataBlocks = new ArrayList<>();
        List<byte[]> separators = new ArrayList<>();
        for (int i = 0; i < indexEntries.keys.size(); i++) {
            byte[] key = indexEntries.keys.get(i);
            separators.add(userKeys ? key : Arrays.copyOf(key, key.length - 8));
            dataBlocks.add(indexEntries.handles.get(i).renamed("data block " + i));
        }
        return new TableLayout(formatVersion, footer, metaindex, index, properties, filter, List.copyOf(dataBlocks),
                List.copyOf(separators), propertyValues);
    }

    /** The fields of the footer, as format_version 6 (or, before it, 2 to 5) lays them out. */
    List<FooterField> footerFields() {
        if (formatVersion >= 6) {
            return List.of(new FooterField("checksum type", 0, 1), new FooterField("extended magic number", 1, 5),
                    new FooterField("footer checksum", 5, 9), new FooterField("base context checksum", 9, 13),
                    new FooterField("metaindex size", 13, 17), new FooterField("reserved", 17, 41),
                    new FooterField("format_version", 41, 45), new FooterField("magic number", 45, 53));
        }
        return List.of(new FooterField("checksum type", 0, 1), new FooterField("block handles and padding", 1, 41),
                new FooterField("format_version", 41, 45), new FooterField("magic number", 45, 53));
    }

    /** Every block found, the footer included, in file order. */
    List<Block> blocks() {
        List<Block> all = new ArrayList<>(dataBlocks);
        for (Block block : new Block[] {filter, index, properties, metaindex, footer}) {
            if (block != null) {
                all.add(block);
            }
        }
        all.sort((a, b) -> Long.compare(a.offset, b.offset));
        return all;
    }

    /** The one block holding a byte of the file, or null when none does. */
    Block blockAt(long position) {
        return blocks().stream().filter(block -> block.holds(position)).findFirst().orElse(null);
    }

    /** The data block whose key range holds a user key: the first whose separator is not below it. */
    int dataBlockOf(byte[] userKey) {
        for (int i = 0; i < separators.size(); i++) {
            if (Arrays.compareUnsigned(userKey, separators.get(i)) <= 0) {
                return i;
            }
        }
        return -1;
    }

    /** A numeric table property (stored as a varint). */
    long number(String property) {
        return number(propertyValues, property);
    }

    private static long number(Map<String, byte[]> properties, String name) {
        byte[] value = properties.get(name);
        check(value != null, "no property " + name);
        return new Reader(value, 0).varint();
    }

    private static Block handle(Map<String, byte[]> metaBlocks, String key, String name) {
        byte[] value = metaBlocks.get(key);
        check(value != null, "the metaindex names no " + key);
        return new Reader(value, 0).handle(name);
    }

    /** A block's entries in order: keys, and values or (for an index) block handles. */
    private static final class Entries {
        final List<byte[]> keys = new ArrayList<>();
        final List<Block> handles = new ArrayList<>();
        final Map<String, byte[]> values = new LinkedHashMap<>();
    }

    /**
     * Decodes an uncompressed block: entries of {@code shared, unshared[, value
     * length]} varints, the key's unshared bytes and the value, then the
     * restart offsets (32-bit each) and their count. With delta-encoded
     * handles (an index from format_version 4 on) there is no value length:
     * an entry at a restart point holds a whole handle, any other the
     * difference of its block's size from the previous one's, its block
     * starting right after the previous block's trailer.
     */
    private static Entries entries(byte[] file, Block block, boolean deltaEncodedHandles) {
        check(block.end() <= file.length, block.name + " beyond the file's end");
        check(file[Math.toIntExact(block.offset + block.size)] == 0, block.name + " is compressed");
        int start = Math.toIntExact(block.offset);
        int end = Math.toIntExact(block.offset + block.size);
        ByteBuffer le = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int restartCount = le.getInt(end - 4);
        int entriesEnd = end - 4 - 4 * restartCount;
        check(restartCount > 0 && entriesEnd >= start, block.name + ": " + restartCount + " restarts");
        Set<Integer> restarts = new HashSet<>();
        for (int i = 0; i < restartCount; i++) {
            restarts.add(start + le.getInt(entriesEnd + 4 * i));
        }

        Entries entries = new Entries();
        Reader in = new Reader(file, start);
        byte[] key = new byte[0];
        Block previous = null;
        while (in.at < entriesEnd) {
            boolean restart = restarts.contains(in.at);
            int shared = Math.toIntExact(in.varint());
            int unshared = Math.toIntExact(in.varint());
            int valueLength = deltaEncodedHandles ? -1 : Math.toIntExact(in.varint());
            key = Arrays.copyOf(key, shared + unshared);
            System.arraycopy(file, in.take(unshared), key, shared, unshared);
            entries.keys.add(key);
            if (!deltaEncodedHandles) {
                entries.values.put(new String(key, StandardCharsets.ISO_8859_1),
                        Arrays.copyOfRange(file, in.take(valueLength), in.at));
            } else if (restart) {
                previous = in.handle(block.name + " entry");
                entries.handles.add(previous);
            } else {
                check(previous != null, block.name + ": a delta before any whole handle");
                long size = previous.size + in.signedVarint();
                previous = new Block(block.name + " entry", previous.end(), size, TRAILER_LENGTH);
                entries.handles.add(previous);
            }
        }
        check(in.at == entriesEnd, block.name + ": entries overrun the restart offsets");
        return entries;
    }

    private static void check(boolean condition, String problem) {
        if (!condition) {
            throw new IllegalStateException("not a table file as RocksDB 9.10 writes it: " + problem);
        }
    }

    /** Reads RocksDB's varints (util/coding.h) from a position on. */
    private static final class Reader {
        private final byte[] bytes;
        int at;

        Reader(byte[] bytes, int at) {
            this.bytes = bytes;
            this.at = at;
        }

        long varint() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                check(at < bytes.length, "a varint runs past its end");
                byte b = bytes[at++];
                value |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new IllegalStateException("not a table file as RocksDB 9.10 writes it: a varint of over 64 bits");
        }

        /** A zigzag-encoded varint (util/coding.h's varsignedint). */
        long signedVarint() {
            long zigzag = varint();
            return (zigzag >>> 1) ^ -(zigzag & 1);
        }

        /** A block handle: varint offset, varint size. */
        Block handle(String name) {
            return new Block(name, varint(), varint(), TRAILER_LENGTH);
        }

        /** Skips count bytes and returns where they started. */
        int take(int count) {
            int from = at;
            at += count;
            check(at <= bytes.length, "an entry runs past its end");
            return from;
        }
    }
}
