package dev.pinrock.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The memory-first policy follows the miss ratio of the gets that try memory first. */
class MemoryFirstTest {
    @Test
    void startsTryingMemoryFirst() {
        MemoryFirst policy = MemoryFirst.adaptive();
        assertTrue(policy.preferred());
        assertTrue(policy.tryNow());
    }

    @Test
    void stopsWhenTriesKeepNeedingIoAndStartsAgainWhenTheyAnswer() {
        MemoryFirst policy = MemoryFirst.adaptive();
        for (int i = 0; i < MemoryFirst.WINDOW; i++) {
            policy.answered(false);
        }
        assertFalse(policy.preferred());
        int tries = 0;
        for (int i = 0; i < 100 * MemoryFirst.SAMPLE; i++) {
            if (policy.tryNow()) {
                tries++;
            }
        }
        // One get in SAMPLE still tries: 100 expected, far from 0 and from every get.
        assertTrue(tries > 30 && tries < 300, tries + " tries in " + 100 * MemoryFirst.SAMPLE + " gets");
        // Sampled tries that answer count SAMPLE each: one window of them brings memory first back.
        for (int i = 0; i < MemoryFirst.WINDOW / MemoryFirst.SAMPLE; i++) {
            policy.answered(true);
        }
        assertTrue(policy.preferred());
    }

    @Test
    void keepsTryingAtAFewMissesPerThousandAndStopsAtFivePercent() {
        MemoryFirst rare = MemoryFirst.adaptive();
        MemoryFirst frequent = MemoryFirst.adaptive();
        for (int i = 0; i < 50 * MemoryFirst.WINDOW; i++) {
            rare.answered(i % 500 != 0);
            frequent.answered(i % 20 != 0);
        }
        assertTrue(rare.preferred(), "0.2% misses");
        assertFalse(frequent.preferred(), "5% misses");
    }

    @Test
    void neverTriesWhenOff() {
        MemoryFirst.NEVER.answered(true);
        assertFalse(MemoryFirst.NEVER.tryNow());
        assertFalse(MemoryFirst.NEVER.preferred());
    }
}
