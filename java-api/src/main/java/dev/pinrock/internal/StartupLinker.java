package dev.pinrock.internal;

import static dev.pinrock.bindings.PinrockNative.pr_db_close$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_open$handle;
import static dev.pinrock.bindings.PinrockNative.pr_db_put$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_destroy$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_block_cache_bytes$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_wal_recovery_mode$handle;
import static dev.pinrock.bindings.PinrockNative.pr_options_set_zstd_dictionary$handle;

import java.lang.invoke.MethodHandle;
import java.util.Objects;

/**
 * Makes downcall handles a program's first open, put, get and close need on
 * a thread of its own, started when the library loads, while the program's
 * thread makes the same ones in the order it calls them: the JDK generates a
 * class for each new call signature, milliseconds each at start-up, and two
 * threads generate them in about half the time on two processors. This
 * thread takes the open's in the reverse order of their use (the signature of
 * pr_db_open first, then each of the option setters' back to front), so the
 * two meet in the middle, then those of the first put, get and close, which
 * it has made by the time the open returns. A thread that needs a handle
 * being made meanwhile waits for it (class initialisation), so nothing is
 * made twice; a failure here is left for the call that needs the handle.
 */
final class StartupLinker {
    private StartupLinker() {
    }

    static void start() {
        Thread.ofPlatform().daemon().name("pinrock-link").start(StartupLinker::link);
    }

    private static void link() {
        try {
            // One handle per distinct signature of NativeOptions.with and FfmDb.open, last used first.
            for (MethodHandle made : new MethodHandle[] {pr_db_open$handle(), pr_options_destroy$handle(),
                pr_options_set_zstd_dictionary$handle(), pr_options_set_block_cache_bytes$handle(),
                pr_options_set_wal_recovery_mode$handle(), pr_db_put$handle(), pr_db_close$handle()}) {
                Objects.requireNonNull(made);
            }
            FfmDataPath.linkGets();
        } catch (Throwable t) {
            // The call that needs the handle fails the same way, where it can be reported.
        }
    }
}
