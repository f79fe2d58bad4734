package dev.pinrock.kafka.internal;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;

import dev.pinrock.MemoryBudget;
import dev.pinrock.kafka.PinrockStoreConfig;

/**
 * The memory bound that all pinrock stores of one application share in this
 * JVM: one {@link MemoryBudget} per application id and bound, created when
 * its first store opens and closed when its last store closes.
 */
final class SharedMemoryBudgets {
    private static final Map<String, Shared> BY_APPLICATION = new HashMap<>();

    private SharedMemoryBudgets() {
    }

    /** One store's hold on a shared budget. */
    static final class Lease {
        private final String key;
        private final Shared shared;
        private boolean released;

        private Lease(String key, Shared shared) {
            this.key = key;
            this.shared = shared;
        }

        MemoryBudget budget() {
            return shared.budget;
        }

        /** Drops this store's hold; the last one closes the budget. Idempotent. */
        void release() {
            synchronized (BY_APPLICATION) {
                if (released) {
                    return;
                }
                released = true;
                if (--shared.stores == 0) {
                    BY_APPLICATION.remove(key);
                    shared.budget.close();
                }
            }
        }
    }

    private static final class Shared {
        final MemoryBudget budget;
        int stores;

        Shared(MemoryBudget budget) {
            this.budget = budget;
        }
    }

    /**
     * Takes a hold on the application's budget, creating it on first use.
     *
     * @return the hold, or null when the application sets no bound
     * @throws ConfigException when the bound settings are not numbers or out of range
     */
    static Lease acquire(Map<String, Object> appConfigs) {
        long total = bytes(appConfigs, PinrockStoreConfig.BOUNDED_MEMORY_BYTES_CONFIG, 0);
        if (total == 0) {
            return null;
        }
        long memtables = bytes(appConfigs, PinrockStoreConfig.BOUNDED_MEMORY_MEMTABLE_BYTES_CONFIG, total / 2);
        if (total < 0 || memtables < 0 || memtables > total) {
            throw new ConfigException(PinrockStoreConfig.BOUNDED_MEMORY_BYTES_CONFIG + " must be positive and "
                    + PinrockStoreConfig.BOUNDED_MEMORY_MEMTABLE_BYTES_CONFIG + " between 0 and it; got "
                    + total + " and " + memtables);
        }
        String key = appConfigs.get(StreamsConfig.APPLICATION_ID_CONFIG) + "/" + total + "/" + memtables;
        synchronized (BY_APPLICATION) {
            Shared shared = BY_APPLICATION.computeIfAbsent(key,
                    k -> new Shared(MemoryBudget.create(total, memtables)));
            shared.stores++;
            return new Lease(key, shared);
        }
    }

    private static long bytes(Map<String, Object> appConfigs, String key, long absent) {
        Object value = appConfigs.get(key);
        if (value == null) {
            return absent;
        }
        try {
            return value instanceof Number n ? n.longValue() : Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(key, value, "must be a number of bytes");
        }
    }
}
