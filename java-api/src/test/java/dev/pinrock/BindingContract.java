package dev.pinrock;

import java.nio.file.Path;

import dev.pinrock.internal.Binding;

/**
 * Base of the contract suites: each runs against every binding through the
 * nested subclasses of {@link FfmContractTest} and {@link JniContractTest},
 * proving FFM and the JNI variant behave and fail the same way.
 */
abstract class BindingContract {
    /** @return the binding under test */
    protected abstract Binding binding();

    /** Opens through the binding under test. */
    protected RocksDb open(Path path, DbOptions options) {
        return RocksDb.open(path, options, binding());
    }
}
