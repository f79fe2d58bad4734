package dev.pinrock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;

class RocksDbExceptionTest {
    @Test
    void codeAndSubCodeComeFromTheFoldedStatus() {
        RocksDbException e = RocksDbException.of(StatusCode.IO_ERROR.nativeCode() | (4 << 8), "IO error: No space");
        assertInstanceOf(RocksDbException.RocksIoException.class, e);
        assertEquals(StatusCode.IO_ERROR, e.code());
        assertEquals(4, e.subCode());
        assertEquals(5 | (4 << 8), e.status());
        assertEquals("IO error: No space", e.getMessage());
    }

    @Test
    void eachFamilyHasItsSubclassAndOthersTheBaseClass() {
        assertInstanceOf(RocksDbException.CorruptionException.class, RocksDbException.of(2, "Corruption: x"));
        assertInstanceOf(RocksDbException.InvalidArgumentException.class, RocksDbException.of(4, "Invalid argument: x"));
        RocksDbException notFound = RocksDbException.of(StatusCode.NOT_SUPPORTED.nativeCode(), "Not implemented");
        assertEquals(RocksDbException.class, notFound.getClass());
        assertEquals(StatusCode.NOT_SUPPORTED, notFound.code());
    }

    @Test
    void whatATransactionMayRetryIsRetryable() {
        int lockTimeout = StatusCode.TIMED_OUT.nativeCode() | (2 << 8);
        assertInstanceOf(RocksDbException.TimedOutException.class, RocksDbException.of(lockTimeout, "Timeout"));
        int deadlock = StatusCode.BUSY.nativeCode() | (5 << 8);
        assertInstanceOf(RocksDbException.DeadlockException.class, RocksDbException.of(deadlock, "Deadlock"));
        assertInstanceOf(RocksDbException.ConflictException.class,
                RocksDbException.of(StatusCode.BUSY.nativeCode(), "Resource busy"));
        assertInstanceOf(RocksDbException.ConflictException.class,
                RocksDbException.of(StatusCode.TRY_AGAIN.nativeCode(), "Try again"));
        assertInstanceOf(RocksDbException.RetryableException.class, RocksDbException.of(deadlock, "Deadlock"));
    }

    @Test
    void unknownCodesAndEmptyMessagesStayReadable() {
        RocksDbException e = RocksDbException.of(77, "");
        assertEquals(StatusCode.UNKNOWN, e.code());
        assertEquals("UNKNOWN (status 77)", e.getMessage());
        assertEquals(StatusCode.INTERNAL, RocksDbException.of(100, "pinrock: out of memory").code());
    }

    @Test
    void everyStatusCodeMapsBackToItself() {
        for (StatusCode code : StatusCode.values()) {
            if (code != StatusCode.UNKNOWN) {
                assertEquals(code, StatusCode.of(code.nativeCode()));
            }
        }
    }
}
