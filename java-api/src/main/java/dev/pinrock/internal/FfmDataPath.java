package dev.pinrock.internal;

import static dev.pinrock.internal.Downcalls.check;
import static dev.pinrock.internal.Downcalls.unchecked;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The FFM binding's data path on one database's (or column family's) handle,
 * which its {@link FfmDb} owns: each operation is one downcall (two for a get
 * that tries memory first, see {@link MemoryFirst}), with the buffers of a
 * borrowed {@link Scratch}. A get on a virtual thread always tries memory
 * first and hands a read that needs I/O to {@link BlockingReads}, so that no
 * carrier stays pinned while RocksDB reads from disk.
 */
final class FfmDataPath extends FfmKeyPath implements DataPath {
    /** getInMemory's answer when the get must be made as a normal downcall. */
    private static final int NEEDS_NORMAL_GET = -1;

    private final MemorySegment handle;
    /** handle's address, for the downcalls that take it as a plain address. */
    private final long handleAddress;
    private final MemoryFirst memoryFirst;

    /** @param owner the handle's owner, which outlives this data path */
    FfmDataPath(FfmDb owner) {
        this.handle = owner.handle();
        this.handleAddress = handle.address();
        this.memoryFirst = owner.memoryFirst();
    }

    @Override
    void put(Scratch scratch, MemorySegment key, long keyLength, MemorySegment value, long valueLength) {
        int status;
        try {
            status = (int) Downcalls.dbPut().invokeExact(handle, key, keyLength, value, valueLength, scratch.err,
                    ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        check(status, scratch);
    }

    @Override
    void delete(Scratch scratch, MemorySegment key, long keyLength) {
        int status;
        try {
            status = (int) Downcalls.dbDelete().invokeExact(handle, key, keyLength, scratch.err, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        check(status, scratch);
    }

    @Override
    public void write(MemorySegment batch, int flags) {
        try (Scratch scratch = Scratch.borrow()) {
            write(scratch, batch, flags);
        }
    }

    /** {@link DataPath#writeRecord} with one scratch: the record's encoding and the write's error buffer. */
    @Override
    public void writeRecord(int familyId, BatchEncoding.Operation operation, Object first, Object second,
            int flags) {
        try (Scratch scratch = Scratch.borrow()) {
            write(scratch, BatchEncoding.oneRecord(scratch.writeArea(BatchEncoding.oneRecordBound(first, second)),
                    familyId, operation, first, second), flags);
        }
    }

    private void write(Scratch scratch, MemorySegment batch, int flags) {
        int status;
        try {
            status = (int) Downcalls.dbWrite().invokeExact(handle, batch, batch.byteSize(), flags, scratch.err,
                    ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        check(status, scratch);
    }

    /**
     * One normal get downcall: the value lands in the first bufCap bytes of
     * buf when it fits, else it is pinned (with PR_GET_PIN_IF_LARGER) or only
     * measured. Returns false when the key is absent; the outcome is then in
     * scratch.result. Reads with default read options take pr_db_get, others
     * pr_db_get_at.
     */
    private boolean get(Scratch scratch, long snapshot, int readFlags, MemorySegment key, long keyLength,
            MemorySegment buf, long bufCap, int flags) {
        int status;
        try {
            status = snapshot == 0 && readFlags == 0
                    ? (int) Downcalls.Get.HANDLE.invokeExact(handleAddress, key, keyLength, buf, bufCap, flags,
                            scratch.resultAddress, scratch.errAddress, ERR_CAP)
                    : (int) Downcalls.GetAt.HANDLE.invokeExact(handleAddress, snapshot, readFlags, key, keyLength, buf, bufCap,
                            flags, scratch.resultAddress, scratch.errAddress, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        return found(status, scratch);
    }

    /**
     * A get whose value lands in the first bufCap bytes of the native buf
     * (at most CRITICAL_COPY_CAP), or is pinned (with PR_GET_PIN_IF_LARGER)
     * or only measured: memory first when {@link MemoryFirst} (or a virtual
     * thread) says so, then a normal downcall. On a virtual thread the normal
     * read runs on a {@link BlockingReads} thread, through copies only: key
     * and buf may be confined to the caller's thread.
     *
     * @return whether the key was found; the outcome is then in scratch.result
     */
    @Override
    boolean read(Scratch scratch, long snapshot, int readFlags, MemorySegment key, long keyLength,
            MemorySegment buf, long bufCap, int flags) {
        boolean virtual = Thread.currentThread().isVirtual();
        int status = virtual || snapshot == 0 && readFlags == 0 && memoryFirst.tryNow()
                ? getInMemory(scratch, snapshot, readFlags, key, keyLength, buf, bufCap, flags)
                : NEEDS_NORMAL_GET;
        if (status != NEEDS_NORMAL_GET) {
            return status == Downcalls.OK;
        }
        if (!virtual) {
            return get(scratch, snapshot, readFlags, key, keyLength, buf, bufCap, flags);
        }
        MemorySegment keyCopy = scratch.keyCopy(key, keyLength);
        boolean intoScratch = buf.equals(scratch.value);
        boolean found = BlockingReads.run(() -> get(scratch, snapshot, readFlags, keyCopy, keyLength, scratch.value,
                intoScratch ? bufCap : 0, Downcalls.GET_PIN_IF_LARGER));
        if (found && !intoScratch && scratch.resultLength() <= bufCap) {
            // The value was pinned (buf is the caller's): copied into buf as the normal read would have.
            try {
                MemorySegment.copy(scratch.resultSource(scratch.resultLength()), 0, buf, 0, scratch.resultLength());
            } finally {
                releasePin(scratch.resultPin());
            }
            scratch.pinnedIntoBuffer();
        }
        return found;
    }

    /**
     * Tries a get from memory only as a critical downcall (GET_IN_MEMORY).
     * key and buf are native; the value lands in the first bufCap bytes of
     * buf when it fits.
     *
     * @return PR_OK (scratch.result says where the value went), PR_NOT_FOUND,
     *     or NEEDS_NORMAL_GET
     */
    private int getInMemory(Scratch scratch, long snapshot, int readFlags, MemorySegment key, long keyLength,
            MemorySegment buf, long bufCap, int flags) {
        int status = readInMemory(scratch, snapshot, readFlags, key, keyLength, buf, bufCap, flags);
        boolean answered = status != Downcalls.CODE_INCOMPLETE;
        memoryFirst.answered(answered);
        return answered ? status : NEEDS_NORMAL_GET;
    }

    /**
     * One get from memory only, as a critical downcall (GET_IN_MEMORY: a
     * memory-only read never calls back into the JVM nor waits for I/O).
     *
     * @return PR_OK (scratch.result says where the value went), PR_NOT_FOUND,
     *     or PR_CODE_INCOMPLETE when only I/O could answer; other failures throw
     */
    private int readInMemory(Scratch scratch, long snapshot, int readFlags, MemorySegment key, long keyLength,
            MemorySegment buf, long bufCap, int flags) {
        int status;
        try {
            status = (int) Downcalls.GetInMemory.HANDLE.invokeExact(handleAddress, snapshot,
                    readFlags | Downcalls.READ_MEMORY_ONLY, key, keyLength, buf, bufCap, flags, scratch.resultAddress,
                    scratch.errAddress, ERR_CAP);
        } catch (Throwable t) {
            throw unchecked(t);
        }
        if (status != Downcalls.NOT_FOUND && status != Downcalls.CODE_INCOMPLETE) {
            check(status, scratch);
        }
        return status;
    }

    @Override
    public int pinFromMemory(MemorySegment key, Scratch scratch, long snapshot, int readFlags) {
        return pinFromMemory(scratch, scratch.nativeKey(key), key.byteSize(), snapshot, readFlags);
    }

    @Override
    public int pinFromMemory(byte[] key, Scratch scratch, long snapshot, int readFlags) {
        return pinFromMemory(scratch, scratch.nativeKey(key), key.length, snapshot, readFlags);
    }

    private int pinFromMemory(Scratch scratch, MemorySegment nativeKey, long keyLength, long snapshot,
            int readFlags) {
        int status = readInMemory(scratch, snapshot, readFlags, nativeKey, keyLength, MemorySegment.NULL, 0L,
                Downcalls.GET_PIN_IF_LARGER);
        return status == Downcalls.NOT_FOUND ? ABSENT : status == Downcalls.CODE_INCOMPLETE ? MAY_EXIST : FOUND;
    }

    @Override
    public byte[][] multiGet(byte[][] keys, int[] statuses) {
        return MultiGet.arrays(this, MultiGet.Reads.DEFAULT, keys, statuses);
    }

    /*
     * A multiGet may read many blocks from disk and has no memory-only try
     * (RocksDB's batched read would have to be made again for the keys that
     * missed), so on a virtual thread the whole call runs on a BlockingReads
     * thread; MultiGet.callArena makes its arrays reachable from there. A
     * platform thread makes the call itself, with no lambda on its path.
     */

    @Override
    public void multiGet(MultiGet keys, MemorySegment dst) {
        if (Thread.currentThread().isVirtual()) {
            BlockingReads.run(() -> {
                multiGetHere(keys, dst);
                return true;
            });
        } else {
            multiGetHere(keys, dst);
        }
    }

    private void multiGetHere(MultiGet keys, MemorySegment dst) {
        try (Scratch scratch = Scratch.borrow()) {
            check((int) Downcalls.dbMultiGetWith().invokeExact(handle, MemorySegment.ofAddress(keys.reads.snapshot()),
                    keys.reads.flags(), keys.families, keys.count, keys.pointers, keys.keyLengths, dst,
                    dst.byteSize(), keys.valueOffsets, keys.valueLengths, keys.statuses, scratch.err, ERR_CAP),
                    scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    public void multiGetPinned(MultiGet keys, MemorySegment results) {
        if (Thread.currentThread().isVirtual()) {
            BlockingReads.run(() -> {
                multiGetPinnedHere(keys, results);
                return true;
            });
        } else {
            multiGetPinnedHere(keys, results);
        }
    }

    private void multiGetPinnedHere(MultiGet keys, MemorySegment results) {
        try (Scratch scratch = Scratch.borrow()) {
            check((int) Downcalls.dbMultiGetPinnedWith().invokeExact(handle,
                    MemorySegment.ofAddress(keys.reads.snapshot()), keys.reads.flags(), keys.families, keys.count,
                    keys.pointers, keys.keyLengths, results, keys.statuses, scratch.err, ERR_CAP), scratch);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    @Override
    int openCursor(MemorySegment snapshot, int readFlags, long readaheadBytes, MemorySegment lower,
            MemorySegment upper, int bounds, Scratch scratch) throws Throwable {
        return (int) Downcalls.cursorOpen().invokeExact(handle, snapshot, readFlags, readaheadBytes, lower,
                lower.byteSize(), upper, upper.byteSize(), bounds, scratch.word, scratch.err, ERR_CAP);
    }

}
