package dev.pinrock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.internal.Binding;

/** A contract whose every test starts with an open, empty database in {@code dir/db}. */
abstract class OpenDatabaseContract extends BindingContract {
    @TempDir
    Path dir;

    RocksDb db;

    OpenDatabaseContract(Binding binding) {
        super(binding);
    }

    @BeforeEach
    void openDatabase() {
        db = open(dir.resolve("db"), DbOptions.create().createIfMissing(true));
    }

    @AfterEach
    void closeDatabase() {
        db.close();
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
