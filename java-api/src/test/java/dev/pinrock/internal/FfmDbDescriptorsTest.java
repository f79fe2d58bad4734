package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pinrock.bindings.PinrockNative;
import org.junit.jupiter.api.Test;

/** The descriptors FfmDb writes out are the ones jextract generated from pinrock.h. */
class FfmDbDescriptorsTest {
    @Test
    void theWrittenOutDescriptorsAreTheGeneratedOnes() {
        NativeLibrary.load();
        assertEquals(PinrockNative.pr_db_get$descriptor(), FfmDb.GET_DESCRIPTOR);
        assertEquals(PinrockNative.pr_db_get_at$descriptor(), FfmDb.GET_AT_DESCRIPTOR);
        assertEquals(PinrockNative.pr_pin_release$descriptor(), FfmDb.PIN_RELEASE_DESCRIPTOR);
    }
}
