package dev.pinrock.tests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Why pinrock must refuse an option string, as docs/options.md ("Any RocksDB
 * option by its own name") and docs/reliability.md (section 2) promise: by
 * name, what pinrock sets itself, keeps fixed or does not offer; by value,
 * what would crash the process, weaken acknowledged writes, or stop writes
 * for good. Each refusal is {@code InvalidArgumentException}, at open and
 * while open. Values RocksDB itself refuses are not listed: this is what
 * pinrock promises beyond RocksDB.
 */
final class OptionRefusals {
    private static final Set<String> DATABASE_NAMES = Set.of("statistics", "info_log", "enforce_single_del_contracts",
            "write_buffer_manager", "env", "file_system", "rate_limiter", "sst_file_manager", "wal_filter", "listeners");
    private static final Set<String> FAMILY_NAMES = Set.of("merge_operator", "comparator", "table_factory",
            "block_based_table_factory", "plain_table_factory", "cuckoo_table_factory", "compaction_filter",
            "compaction_filter_factory", "sst_partitioner_factory", "blob_cache");
    /** Database options that change what an acknowledged write means when true. */
    private static final List<String> WEAKENING_WRITES = List.of("manual_wal_flush", "avoid_flush_during_shutdown",
            "best_efforts_recovery", "unordered_write", "allow_mmap_writes");
    /** The most threads one of these may ask for. */
    private static final int MAX_THREADS = 256;
    private static final List<String> THREAD_COUNTS = List.of("max_background_jobs", "max_background_compactions",
            "max_background_flushes", "max_subcompactions", "max_file_opening_threads");
    private static final List<String> LEVEL0_TRIGGERS = List.of("level0_file_num_compaction_trigger",
            "level0_slowdown_writes_trigger", "level0_stop_writes_trigger");

    private OptionRefusals() {
    }

    /**
     * The reasons pinrock refuses an option string that sets values (the last value
     * of each name) in the database or family scope, at open or while open; empty
     * when it need not.
     */
    static List<String> reasons(Map<String, String> values, boolean familyScope, boolean atOpen) {
        List<String> reasons = new ArrayList<>();
        for (String name : values.keySet()) {
            if ((familyScope ? FAMILY_NAMES : DATABASE_NAMES).contains(name)) {
                reasons.add(name + " is set by pinrock, kept fixed, or an object pinrock does not offer");
            }
        }
        if (familyScope) {
            if (isTrue(values.get("inplace_update_support"))) {
                reasons.add("inplace_update_support=true");
            }
            for (String trigger : LEVEL0_TRIGGERS) {
                Long files = asLong(values.get(trigger));
                if (files != null && files < 0) {
                    reasons.add(trigger + " below 0");
                }
            }
            return reasons;
        }
        for (String weakening : WEAKENING_WRITES) {
            if (isTrue(values.get(weakening))) {
                reasons.add(weakening + "=true weakens acknowledged writes");
            }
        }
        if (atOpen && isTrue(values.get("error_if_exists"))) {
            reasons.add("error_if_exists on an existing database");
        }
        Long shardBits = asLong(values.get("table_cache_numshardbits"));
        if (shardBits != null && shardBits >= 20) {
            reasons.add("table_cache_numshardbits of 20 or more");
        }
        for (String count : THREAD_COUNTS) {
            Long threads = asLong(values.get(count));
            if (threads != null && threads > MAX_THREADS) {
                reasons.add(count + " above " + MAX_THREADS);
            }
        }
        return reasons;
    }

    /** Whether RocksDB reads value as true ("true" or "1", around spaces). */
    private static boolean isTrue(String value) {
        return value != null && (value.strip().equals("true") || value.strip().equals("1"));
    }

    /** The whole number value spells (around spaces), or null when it spells none. */
    static Long asLong(String value) {
        if (value == null) {
            return null;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
