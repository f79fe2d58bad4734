package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pinrock.bindings.PinrockNative;
import org.junit.jupiter.api.Test;

/** The descriptors FfmDataPath writes out are the ones jextract generated from pinrock.h. */
class FfmDataPathDescriptorsTest {
    @Test
    void theWrittenOutDescriptorsAreTheGeneratedOnes() {
        NativeLibrary.load();
        assertEquals(PinrockNative.pr_db_get$descriptor(), FfmDataPath.GET_DESCRIPTOR);
        assertEquals(PinrockNative.pr_db_get_at$descriptor(), FfmDataPath.GET_AT_DESCRIPTOR);
        assertEquals(PinrockNative.pr_pin_release$descriptor(), FfmDataPath.PIN_RELEASE_DESCRIPTOR);
    }
}
